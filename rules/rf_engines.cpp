// The engine profiles as data: what StarRocks, Doris and Trino do at joins, as
// docs/design.md section 8 describes them, gaps included (the verifier and the bounded
// checker are there to catch those). Adding an engine is adding a row here, its
// rules to rules/rf_rules.*, and a value to Profile.
#include "rules/rf_profiles.h"

namespace rfguard {

namespace {

using J = JoinType;
using P = NullSidePolicy;

// Doris: a <=> filter stops at any outer join; lineage into a NULL-generating
// side needs a NULL-propagating expression (no null-allowing check beyond that);
// equality expansion only through inner and semi joins, to a single column.
// INTERSECT and EXCEPT build a filter of their first input's values
// (RuntimeFilterV2Generator). The gap: (A LEFT JOIN B ON A.k = B.k) JOIN C ON coalesce(B.k, 0) =
// C.k is refused, but a null-allowing filter on B.k itself enters B.
const EngineProfile kDoris = {
    .producers = JoinTypeSet::all().minus(
        {J::LeftAnti, J::Full, J::Left, J::NullAwareLeftAnti, J::NullAwareRightAnti}),
    .produces = {RfRule::DorisProducer, "{node} produces from `{conj}`"},
    .producerRefused = {RfRule::DorisProducerDenyList, "{node} is on Doris' producer deny list"},
    .nullSafeStopsAt = {J::Left, J::Right, J::Full},
    .nullSafeStop = {RfRule::DorisNullSafeStopsAtOuterJoin,
                     "{node} is an outer join and the filter is null-safe"},
    .lineageInto = {JoinTypeSet::all(), JoinTypeSet::all()},
    .lineage = {RfRule::DorisPassThroughLineage, "{node}: `{e}` along its lineage"},
    .stays = {RfRule::DorisPassThroughLineage, "{node}: `{e}` does not come from one side"},
    .nullSide = P::NeedsNullPropagating,
    .nullSideRefused = {RfRule::DorisPassThroughLineage,
                        "entered the NULL-generating side of {node} with `{e}`, which is not "
                        "NULL-propagating"},
    .copyAt = {J::Inner, J::LeftSemi, J::RightSemi},
    .copyOps = {CmpOp::Eq, CmpOp::NullSafeEq},
    .copyToSingleColumn = true,
    .copy = {RfRule::DorisExpandByInnerJoin, "{node}: `{e}` {op} `{other}`"},
    .setOpFilters = true,
    .target = TargetShape::SingleColumn,
    .targetRefused = {RfRule::DorisSingleSlotTarget, "`{target}` does not bind to a single slot"},
};

// StarRocks: bilateral first (a column key of a plain `=` conjunct goes to both
// children, with no null-allowing and no NULL-generating check), else
// unilateral by join type, else the filter stays at the join. The gap: a LEFT
// JOIN's key filter enters its NULL-generating side. A join without an
// equality is a NestLoopJoinNode, which also builds (local) filters from
// range comparisons whose first operand is a probe column: TPC-H q22's
// `c_acctbal > avg(c_acctbal)`.
const EngineProfile kStarRocks = {
    .producers = {J::Inner, J::LeftSemi, J::Right, J::RightSemi, J::RightAnti, J::Cross},
    .produces = {RfRule::StarRocksProducer, "{node} produces from `{conj}`"},
    .producerRefused = {RfRule::StarRocksProducerTypes,
                        "{node}: StarRocks builds filters at inner, left semi, right and cross "
                        "joins only"},
    .loopJoinProducers = {J::Inner, J::LeftSemi, J::Right, J::Cross},
    .loopJoinOps = {CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge},
    .loopJoinProduces = {RfRule::StarRocksLoopJoinProducer,
                         "{node} has no equality: a nested-loop join builds from `{conj}`"},
    .bilateralAt =
        JoinTypeSet::all().minus({J::Cross, J::NullAwareLeftAnti, J::NullAwareRightAnti}),
    .bilateralOps = {CmpOp::Eq},
    .bilateral = {RfRule::StarRocksBilateral, "{node}: `{e}` is a key of `{conj}`"},
    .lineageInto = {{J::Left, J::LeftAnti, J::Inner, J::LeftSemi, J::RightSemi, J::Cross},
                    {J::Right, J::RightAnti, J::Inner, J::LeftSemi, J::RightSemi, J::Cross}},
    .lineage = {RfRule::StarRocksUnilateral, "{node}: one side by join type"},
    .stays = {RfRule::StarRocksUnilateral,
              "{node}: no side allowed by join type; the filter stays at the join"},
    .nullSide = P::Unchecked,
};

// Trino: the filter is a predicate. Through LEFT/RIGHT it must first be
// rewritten to the preserved side, then a copy is derived for the
// NULL-generating side along the join equality; a filter over the
// NULL-generating side stays above. Inner joins infer both ways; FULL stops.
const EngineProfile kTrino = {
    .producers = {J::Inner, J::Right},
    .produces = {RfRule::TrinoProducer, "{node} produces from `{conj}`"},
    .producerRefused = {RfRule::TrinoProducerTypes,
                        "{node}: Trino creates dynamic filters at INNER and RIGHT joins only"},
    .lineageInto = {JoinTypeSet::all().minus({J::Full}), JoinTypeSet::all().minus({J::Full})},
    .lineage = {RfRule::TrinoPreservedSideFirst, "{node}: `{e}` holds on the preserved side"},
    .stays = {RfRule::TrinoPredicatePushDown, "{node}: the filter stays above the join"},
    .nullSide = P::StaysAbove,
    .nullSideRefused = {RfRule::TrinoPreservedSideFirst,
                        "`{e}` cannot be rewritten to the preserved side of {node}, so it stays "
                        "above"},
    .copyAt = {J::Inner, J::Left, J::Right},
    .copyOps = {CmpOp::Eq},
    .copy = {RfRule::TrinoDeriveAcrossEquality, "{node}: `{e}` {op} `{other}`"},
    .target = TargetShape::ColumnOrCast,
    .targetRefused = {RfRule::TrinoSymbolOrCastTarget,
                      "`{target}` is neither a symbol nor a CAST of one"},
};

// DuckDB 1.5 (src/optimizer/join_filter_pushdown_optimizer.cpp): INNER, RIGHT
// and SEMI joins build filters from =, <, <=, >, >= conditions whose probe side
// is a column or an integral cast of one; the filter walks down the probe
// (first) child of every join and cross product it meets, whatever the join
// type, through filters, sorts, DISTINCT, UNION/INTERSECT (every input) and
// EXCEPT (the left), projections and group keys that are columns or integral
// casts, and - in 1.5.x - through LIMIT and TOP_N, which upstream stopped after
// 1.5.5 (PR #22963): WITH c AS (SELECT flag FROM t ORDER BY ord OFFSET 2)
// SELECT * FROM c JOIN k ON flag = flag_key filters t below the OFFSET and
// returns no row where one is due. It stops at windows. TOP_N builds a
// threshold filter on its first sort key, as the sound policy does.
const EngineProfile kDuckDb = {
    .producers = {J::Inner, J::Right, J::LeftSemi},
    .produces = {RfRule::DuckDbProducer, "{node} builds a filter from `{conj}`"},
    .producerRefused = {RfRule::DuckDbProducerTypes,
                        "{node}: DuckDB builds filters at INNER, RIGHT and SEMI joins from =, <, "
                        "<=, >, >= only"},
    .producerOps = {CmpOp::Eq, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge},
    .lineageInto = {JoinTypeSet::all(), {}},
    .lineage = {RfRule::DuckDbProbeSideOnly, "{node}: into its first child"},
    .stays = {RfRule::DuckDbProbeSideOnly, "{node}: `{e}` is not over its first child"},
    .nullSide = P::Unchecked,
    .topN = true,
    .throughLimit = true,
    .limit = {RfRule::DuckDbThroughLimit, "{node}: walked through, as DuckDB 1.5.x does"},
    .stopsAt = {PlanOp::Window},
    .stopped = {RfRule::DuckDbStopsAtOperator, "{node}: DuckDB's pushdown does not walk it"},
    .passShape = TargetShape::ColumnOrIntegralCast,
    .passShapeRefused = {RfRule::DuckDbColumnOrIntegralCast,
                         "`{target}` is neither a column nor an integral cast of one"},
    .target = TargetShape::ColumnOrIntegralCast,
    .targetRefused = {RfRule::DuckDbColumnOrIntegralCast,
                      "`{target}` is neither a column nor an integral cast of one"},
};

// In Profile's order.
const std::vector<ProfileInfo> kProfiles = {
    {Profile::Sound, "sound", nullptr,
     "the sound policy of docs/design.md section 3 (rules/rf_hooks.cpp): every placement provably "
     "safe"},
    {Profile::Doris, "doris", &kDoris, "Apache Doris' join-level policy, gaps included"},
    {Profile::StarRocks, "starrocks", &kStarRocks, "StarRocks' join-level policy, gaps included"},
    {Profile::Trino, "trino", &kTrino, "Trino's dynamic filtering, gaps included"},
    {Profile::DuckDb, "duckdb", &kDuckDb,
     "DuckDB 1.5's join filter pushdown, gaps included (docs/duckdb.md)"},
};

}  // namespace

const std::vector<ProfileInfo>& allProfileInfos() {
  return kProfiles;
}

}  // namespace rfguard
