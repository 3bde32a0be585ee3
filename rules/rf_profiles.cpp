// Engine profiles. Each reproduces the engine's join-level policy as seeds/001
// describes it, including the gaps that make some of its placements unsafe:
// the verifier and the bounded checker are there to catch those.
#include "rules/rf_profiles.h"

#include "ir/functions.h"
#include "rules/rule_util.h"

namespace rfguard {

namespace {

const std::vector<Profile> kProfiles = {Profile::Sound, Profile::Doris, Profile::StarRocks,
                                        Profile::Trino};
constexpr const char* kNames[] = {"sound", "doris", "starrocks", "trino"};

bool in(JoinType t, std::initializer_list<JoinType> set) {
  for (auto s : set)
    if (s == t) return true;
  return false;
}

/// The side whose output holds all of e's columns, or -1.
int sideOf(const PlanNode& join, const ExprPtr& e) {
  auto cols = columnsOf(*e);
  for (int s = 0; s < 2; ++s)
    if (joinInfo(join.joinType).outputs[s] && producesAll(*join.children[s], cols)) return s;
  return -1;
}

/// A composite key (k1, k2...) crosses a join when every part is a key of one of
/// its equality conjuncts on the same side: the copy is the tuple of other sides.
std::optional<JoinMove> compositeCopy(const PlanNode& n, const ExprPtr& e, const RuntimeFilter& f) {
  if (e->kind != ExprKind::Call || e->name != "row" || !n.predicate) return std::nullopt;
  std::vector<ExprPtr> parts;
  size_t target = 2;
  for (const auto& part : e->args) {
    bool mapped = false;
    for (const auto& conj : conjuncts(n.predicate)) {
      size_t t = 0;
      ExprPtr copy;
      if (!rewriteToChild(n, conj, part, f, &t, &copy).ok || (target != 2 && t != target)) continue;
      target = t;
      parts.push_back(copy);
      mapped = true;
      break;
    }
    if (!mapped) return std::nullopt;
  }
  return JoinMove{
      target, makeCall("row", parts),
      Decision::yes("CopyAcrossJoinEquality", nodeRef(n) + ": every part of `" + exprToString(*e) +
                                                  "` is a key; copied as `" +
                                                  exprToString(*makeCall("row", parts)) + "`")};
}

/// The sound moves: lineage into each child, then copies across each equality.
std::vector<JoinMove> soundMoves(const PlanNode& n, const ExprPtr& e, const RuntimeFilter& f) {
  std::vector<JoinMove> moves;
  for (size_t c = 0; c < 2; ++c) {
    JoinMove m{c, nullptr, {}};
    m.decision = canPassThrough(n, c, e, f, &m.expr);
    if (!m.decision.ok) m.expr = nullptr;
    if (m.decision.ok || m.decision.rule != "PassThroughJoinLineage") moves.push_back(m);
  }
  if (!n.predicate) return moves;
  if (auto tuple = compositeCopy(n, e, f)) moves.push_back(*tuple);
  for (const auto& conj : conjuncts(n.predicate)) {
    auto s = splitConjunct(n, conj);
    if (!s || (!exprEquals(e, s->probe) && !exprEquals(e, s->build))) continue;
    JoinMove m;
    m.child = exprEquals(e, s->probe) ? 1 : 0;  // where the copy would go, also when refused
    m.decision = rewriteToChild(n, conj, e, f, &m.child, &m.expr);
    if (!m.decision.ok) m.expr = nullptr;
    moves.push_back(m);
  }
  return moves;
}

// StarRocks: bilateral first (a column key of a plain `=` conjunct goes to both
// children, with no nullAllowed and no NULL-generating check), else unilateral
// by join type, else the filter stays at the join (no scan consumer here).
std::vector<JoinMove> starRocksMoves(const PlanNode& n, const ExprPtr& e) {
  const JoinType t = n.joinType;
  std::vector<JoinMove> moves;
  if (!in(t, {JoinType::Cross, JoinType::NullAwareLeftAnti}) && e->kind == ExprKind::Column &&
      n.predicate) {
    for (const auto& conj : conjuncts(n.predicate)) {
      auto s = splitConjunct(n, conj);
      if (!s || s->op != "=") continue;
      if (!exprEquals(e, s->probe) && !exprEquals(e, s->build)) continue;
      if (s->probe->kind != ExprKind::Column || s->build->kind != ExprKind::Column) continue;
      std::string why =
          nodeRef(n) + ": `" + exprToString(*e) + "` is a key of `" + exprToString(*conj) + "`";
      moves.push_back({0, s->probe, Decision::yes("StarRocksBilateral", why)});
      moves.push_back({1, s->build, Decision::yes("StarRocksBilateral", why)});
      return moves;
    }
  }
  int side = sideOf(n, e);
  std::vector<size_t> order;
  if (in(t, {JoinType::LeftAnti, JoinType::Left}))
    order = {0};
  else if (in(t, {JoinType::RightAnti, JoinType::Right}))
    order = {1};
  else if (in(t, {JoinType::Inner, JoinType::LeftSemi, JoinType::RightSemi, JoinType::Cross}))
    order = {0, 1};
  for (size_t c : order)
    if (side == static_cast<int>(c))
      return {{c, e, Decision::yes("StarRocksUnilateral", nodeRef(n) + ": one side by join type")}};
  return {
      {static_cast<size_t>(side < 0 ? 0 : side), nullptr,
       Decision::no("StarRocksUnilateral",
                    nodeRef(n) + ": no side allowed by join type; the filter stays at the join")}};
}

// Doris: a <=> filter stops at any outer join; lineage into a NULL-generating
// side needs a NULL-propagating expression (no nullAllowed check beyond that);
// equality expansion only through inner and semi joins, to a single column.
std::vector<JoinMove> dorisMoves(const PlanNode& n, const ExprPtr& e, const RuntimeFilter& f) {
  const auto& info = joinInfo(n.joinType);
  if (f.op == "<=>" && in(n.joinType, {JoinType::Left, JoinType::Right, JoinType::Full}))
    return {{0, nullptr,
             Decision::no("DorisNullSafeStopsAtOuterJoin",
                          nodeRef(n) + " is an outer join and the filter is null-safe")}};
  std::vector<JoinMove> moves;
  int side = sideOf(n, e);
  if (side >= 0) {
    bool ok = !info.generatesNulls[side] || isNullPropagating(*e, columnsOf(*e));
    moves.push_back(
        {static_cast<size_t>(side), ok ? e : nullptr,
         ok ? Decision::yes("DorisPassThroughLineage",
                            nodeRef(n) + ": `" + exprToString(*e) + "` along its lineage")
            : Decision::no("DorisPassThroughLineage",
                           "entered the NULL-generating side of " + nodeRef(n) + " with `" +
                               exprToString(*e) + "`, which is not NULL-propagating")});
  }
  if (!in(n.joinType, {JoinType::Inner, JoinType::LeftSemi, JoinType::RightSemi}) || !n.predicate)
    return moves;
  for (const auto& conj : conjuncts(n.predicate)) {
    auto s = splitConjunct(n, conj);
    if (!s || !isEquality(s->op)) continue;
    size_t from = exprEquals(e, s->probe) ? 0 : exprEquals(e, s->build) ? 1 : 2;
    if (from == 2) continue;
    ExprPtr other = from == 0 ? s->build : s->probe;
    if (columnsOf(*other).size() != 1) continue;
    moves.push_back(
        {1 - from, other,
         Decision::yes("DorisExpandByInnerJoin", nodeRef(n) + ": `" + exprToString(*e) + "` " +
                                                     s->op + " `" + exprToString(*other) + "`")});
  }
  return moves;
}

// Trino: the filter is a predicate. Through LEFT/RIGHT it must first be
// rewritten to the preserved side, then a copy is derived for the
// NULL-generating side along the join equality; a filter over the
// NULL-generating side stays above. Inner joins infer both ways; FULL stops.
std::vector<JoinMove> trinoMoves(const PlanNode& n, const ExprPtr& e) {
  const auto& info = joinInfo(n.joinType);
  int side = sideOf(n, e);
  if (n.joinType == JoinType::Full || side < 0)
    return {
        {0, nullptr,
         Decision::no("TrinoPredicatePushDown", nodeRef(n) + ": the filter stays above the join")}};
  if (info.generatesNulls[side])
    return {
        {static_cast<size_t>(side), nullptr,
         Decision::no("TrinoPreservedSideFirst",
                      "`" + exprToString(*e) + "` cannot be rewritten to the preserved side of " +
                          nodeRef(n) + ", so it stays above")}};
  std::vector<JoinMove> moves{
      {static_cast<size_t>(side), e,
       Decision::yes("TrinoPreservedSideFirst",
                     nodeRef(n) + ": `" + exprToString(*e) + "` holds on the preserved side")}};
  if (!in(n.joinType, {JoinType::Inner, JoinType::Left, JoinType::Right}) || !n.predicate)
    return moves;
  for (const auto& conj : conjuncts(n.predicate)) {
    auto s = splitConjunct(n, conj);
    if (!s || s->op != "=") continue;
    ExprPtr mine = side == 0 ? s->probe : s->build, other = side == 0 ? s->build : s->probe;
    if (!exprEquals(e, mine)) continue;
    moves.push_back(
        {static_cast<size_t>(1 - side), other,
         Decision::yes("TrinoDeriveAcrossEquality", nodeRef(n) + ": `" + exprToString(*e) +
                                                        "` = `" + exprToString(*other) + "`")});
  }
  return moves;
}

}  // namespace

const char* profileName(Profile p) {
  return kNames[static_cast<size_t>(p)];
}

std::optional<Profile> parseProfile(std::string_view name) {
  for (auto p : kProfiles)
    if (name == profileName(p)) return p;
  return std::nullopt;
}

const std::vector<Profile>& allProfiles() {
  return kProfiles;
}

Decision generateUnder(Profile p, const PlanNode& join, const ExprPtr& conjunct,
                       EquiConjunct* split) {
  const JoinType t = join.joinType;
  switch (p) {
    case Profile::Sound:
      return canGenerate(join, conjunct, split);
    case Profile::Doris:
      if (in(t, {JoinType::LeftAnti, JoinType::Full, JoinType::Left, JoinType::NullAwareLeftAnti}))
        return Decision::no("DorisProducerDenyList",
                            nodeRef(join) + " is on Doris' producer deny list");
      break;
    case Profile::StarRocks:
      if (!in(t, {JoinType::Inner, JoinType::LeftSemi, JoinType::Right, JoinType::RightSemi,
                  JoinType::RightAnti, JoinType::Cross}))
        return Decision::no(
            "StarRocksProducerTypes",
            nodeRef(join) +
                ": StarRocks builds filters at inner, left semi, right and cross joins only");
      break;
    case Profile::Trino:
      if (!in(t, {JoinType::Inner, JoinType::Right}))
        return Decision::no(
            "TrinoProducerTypes",
            nodeRef(join) + ": Trino creates dynamic filters at INNER and RIGHT joins only");
      break;
  }
  // The engines differ in which join types produce; the conjunct checks are shared.
  // Range conjuncts make scalar filters in the sound (Hologres) policy only.
  auto s = splitConjunct(join, conjunct);
  if (!s || !isEquality(s->op))
    return Decision::no(
        "GenerateFromJoinConjunct",
        "`" + exprToString(*conjunct) + "` is not an equality of a probe and a build expression");
  if (split) *split = *s;
  return Decision::yes(std::string(profileName(p)) + "Producer",
                       nodeRef(join) + " produces from `" + exprToString(*conjunct) + "`");
}

std::vector<JoinMove> joinMovesUnder(Profile p, const PlanNode& join, const ExprPtr& e,
                                     const RuntimeFilter& f) {
  switch (p) {
    case Profile::Sound:
      return soundMoves(join, e, f);
    case Profile::Doris:
      return dorisMoves(join, e, f);
    case Profile::StarRocks:
      return starRocksMoves(join, e);
    case Profile::Trino:
      return trinoMoves(join, e);
  }
  return {};
}

Decision consumeUnder(Profile p, const PlanNode& scan, const ExprPtr& target,
                      const RuntimeFilter& f) {
  Decision d = canConsume(scan, target, f);
  if (!d.ok) return d;
  if (p == Profile::Doris && columnsOf(*target).size() != 1)
    return Decision::no("DorisSingleSlotTarget",
                        "`" + exprToString(*target) + "` does not bind to a single slot");
  if (p == Profile::Trino) {
    const Expr* x = target.get();
    if (x->kind == ExprKind::Cast) x = x->args[0].get();
    if (x->kind != ExprKind::Column)
      return Decision::no("TrinoSymbolOrCastTarget",
                          "`" + exprToString(*target) + "` is neither a symbol nor a CAST of one");
  }
  return d;
}

}  // namespace rfguard
