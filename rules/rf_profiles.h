#pragma once
// Engine profiles: the sound policy, and what StarRocks, Doris and Trino do at
// joins (docs/design.md section 8), gaps included. An engine is a row of data
// (rules/rf_engines.cpp): the join types and operators at which each step applies and the rule that
// names it; one interpreter here applies any row. Non-join nodes follow the shared hooks.
#include <optional>
#include <string_view>
#include <vector>

#include "ir/cmp_op.h"
#include "ir/join_type.h"
#include "rules/rf_hooks.h"

namespace rfguard {

/// Which policy places filters.
enum class Profile { Sound, Doris, StarRocks, Trino, DuckDb };

/// A rule and the words that explain its decision. The words may name `{node}`
/// (the join), `{e}` (the filter's expression there), `{conj}` (the conjunct),
/// `{other}` (the other side of that conjunct), `{op}` and `{target}`.
struct RuleText {
  RfRule rule = RfRule::GenerateFromJoinConjunct;
  const char* why = "";
};

/// What an engine checks when a filter enters a NULL-generating side along its lineage.
enum class NullSidePolicy {
  Unchecked,             ///< nothing (StarRocks)
  NeedsNullPropagating,  ///< the expression is NULL when its columns are (Doris)
  StaysAbove,            ///< never: the filter stays above the join (Trino)
};

/// What a consumer's target must be, beyond what every scan checks.
enum class TargetShape {
  Any,
  SingleColumn,          ///< reads one column (Doris binds a target to one slot)
  ColumnOrCast,          ///< a column or a CAST of one (Trino's symbol references)
  ColumnOrIntegralCast,  ///< a column or an integer-to-integer CAST of one (DuckDB)
};

/// One engine's policy as data. The interpreter takes, at a join, in order: the
/// null-safe stop, the bilateral move (exclusive when it applies), the lineage
/// move into the side the expression comes from, then copies across equalities.
struct EngineProfile {
  // generation
  JoinTypeSet producers;     ///< join types that build a filter from an equality conjunct
  RuleText produces;         ///< a producer's decision
  RuleText producerRefused;  ///< the refusal for another join type
  /// The comparisons a producer builds from (ranges make min/max filters).
  CmpOpSet producerOps = {CmpOp::Eq, CmpOp::NullSafeEq};
  /// At a join with no equality conjunct (a nested-loop join), of the types
  /// `loopJoinProducers`, the comparisons a producer also builds from, when
  /// their first operand is a column of the probe side (StarRocks's
  /// NestLoopJoinNode: local min/max filters).
  JoinTypeSet loopJoinProducers;
  CmpOpSet loopJoinOps;
  RuleText loopJoinProduces;
  // a `<=>` filter stops at these joins
  JoinTypeSet nullSafeStopsAt;
  RuleText nullSafeStop;
  // a column key of a conjunct of these operators goes to both children
  JoinTypeSet bilateralAt;
  CmpOpSet bilateralOps;
  RuleText bilateral;
  // the lineage move: into side s at the join types lineageInto[s]
  JoinTypeSet lineageInto[2];
  RuleText lineage;  ///< the move taken
  RuleText stays;    ///< no side allows it: the filter stays above the join
  NullSidePolicy nullSide = NullSidePolicy::Unchecked;
  RuleText nullSideRefused;
  // copies across a conjunct of these operators to the other side
  JoinTypeSet copyAt;
  CmpOpSet copyOps;
  bool copyToSingleColumn = false;  ///< the other side must read exactly one column
  RuleText copy;
  /// ORDER BY ... LIMIT builds a threshold filter for its first sort key.
  bool topN = false;
  /// INTERSECT and EXCEPT build a filter of their first input's values at one
  /// position for each other input (Doris's RuntimeFilterV2).
  bool setOpFilters = false;
  // other operators: by default the shared hooks decide; an engine may walk
  // through LIMIT (which the hooks never do), stop at operators it does not
  // walk, and pass projections and group keys only in a given shape
  bool throughLimit = false;
  RuleText limit;
  std::vector<PlanOp> stopsAt;
  RuleText stopped;
  TargetShape passShape = TargetShape::Any;
  RuleText passShapeRefused;
  // consumption
  TargetShape target = TargetShape::Any;
  RuleText targetRefused;
};

/// One profile: its name and, for an engine, its row (nullptr: the sound hooks).
struct ProfileInfo {
  Profile profile;
  const char* name;  ///< "sound", "doris", "starrocks", "trino"
  const EngineProfile* engine;
  const char* doc;  ///< one line for --help and the docs
};

/// Every profile, sound first, in enum order (rules/rf_engines.cpp).
const std::vector<ProfileInfo>& allProfileInfos();
/// The table entry of a profile.
const ProfileInfo& profileInfo(Profile p);
/// "sound", "doris", "starrocks", "trino".
const char* profileName(Profile p);
/// Parses a profile name.
std::optional<Profile> parseProfile(std::string_view name);
/// Every profile, sound first.
const std::vector<Profile>& allProfiles();

/// May `join` produce a filter from `conjunct` under the profile?
Decision generateUnder(Profile p, const PlanNode& join, const ExprPtr& conjunct,
                       EquiConjunct* split);
/// Where filter `f`, applied as `e` at `join`'s output, continues under the profile:
/// the moves taken and the ones refused (lineage and equality copies together).
std::vector<JoinMove> joinMovesUnder(Profile p, const PlanNode& join, const ExprPtr& e,
                                     const RuntimeFilter& f);
/// Whether `f`, applied as `e` at non-join node `n`'s output, passes into child
/// `child` under the profile (`down`: the expression there).
Decision passUnder(Profile p, const PlanNode& n, size_t child, const ExprPtr& e,
                   const RuntimeFilter& f, ExprPtr* down);
/// May `scan` apply `f` to `target` under the profile?
Decision consumeUnder(Profile p, const PlanNode& scan, const ExprPtr& target,
                      const RuntimeFilter& f);

}  // namespace rfguard
