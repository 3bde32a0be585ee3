// The profile interpreter: the sound profile asks the hooks, an engine profile
// applies its row of rules/rf_engines.cpp. Nothing here names an engine.
#include "rules/rf_profiles.h"

#include <cassert>
#include <cstring>

#include "ir/functions.h"
#include "rules/rule_util.h"

namespace rfguard {

namespace {

/// What a rule's words may name.
struct Words {
  const PlanNode* node = nullptr;
  const Expr* e = nullptr;
  const Expr* conj = nullptr;
  const Expr* other = nullptr;
  const Expr* target = nullptr;
  std::optional<CmpOp> op = std::nullopt;
};

/// The rule's words with their placeholders filled in.
std::string say(const RuleText& t, const Words& w) {
  std::string out;
  for (const char* p = t.why; *p;) {
    const char* close = *p == '{' ? std::strchr(p, '}') : nullptr;
    if (!close) {
      out += *p++;
      continue;
    }
    std::string_view name(p + 1, close - p - 1);
    if (name == "node" && w.node)
      out += nodeRef(*w.node);
    else if (name == "e" && w.e)
      out += exprToString(*w.e);
    else if (name == "conj" && w.conj)
      out += exprToString(*w.conj);
    else if (name == "other" && w.other)
      out += exprToString(*w.other);
    else if (name == "target" && w.target)
      out += exprToString(*w.target);
    else if (name == "op" && w.op)
      out += cmpSpelling(*w.op);
    else
      assert(false && "a rule's words name only what the caller supplies");
    p = close + 1;
  }
  return out;
}

Decision yes(const RuleText& t, const Words& w) {
  return Decision::yes(t.rule, say(t, w));
}
Decision no(const RuleText& t, const Words& w) {
  return Decision::no(t.rule, say(t, w));
}

/// The side whose output holds all of e's columns, or -1.
int sideOf(const PlanNode& join, const ExprPtr& e) {
  auto cols = columnsOf(*e);
  for (int s = 0; s < 2; ++s)
    if (joinInfo(join.joinType).outputs[s] && producesAll(*join.children[s], cols)) return s;
  return -1;
}

std::vector<JoinMove> engineMoves(const EngineProfile& x, const PlanNode& n, const ExprPtr& e,
                                  const RuntimeFilter& f) {
  const JoinType t = n.joinType;
  Words w{&n, e.get()};
  if (f.op == CmpOp::NullSafeEq && x.nullSafeStopsAt.contains(t))
    return {{0, nullptr, no(x.nullSafeStop, w)}};
  if (x.bilateralAt.contains(t) && e->kind == ExprKind::Column && n.predicate) {
    for (const auto& conj : conjuncts(n.predicate)) {
      if (!hasOperand(*conj, e)) continue;
      auto s = splitConjunct(n, conj);
      if (!s || !x.bilateralOps.contains(s->op)) continue;
      if (!exprEquals(e, s->probe) && !exprEquals(e, s->build)) continue;
      if (s->probe->kind != ExprKind::Column || s->build->kind != ExprKind::Column) continue;
      w.conj = conj.get();
      return {{0, s->probe, yes(x.bilateral, w)}, {1, s->build, yes(x.bilateral, w)}};
    }
  }
  const int side = sideOf(n, e);
  if (side < 0 || !x.lineageInto[side].contains(t))
    return {{static_cast<size_t>(side < 0 ? 0 : side), nullptr, no(x.stays, w)}};
  const auto c = static_cast<size_t>(side);
  if (joinInfo(t).generatesNulls[side] && (x.nullSide == NullSidePolicy::StaysAbove ||
                                           (x.nullSide == NullSidePolicy::NeedsNullPropagating &&
                                            !isNullPropagating(*e, columnsOf(*e)))))
    return {{c, nullptr, no(x.nullSideRefused, w)}};
  std::vector<JoinMove> moves{{c, e, yes(x.lineage, w)}};
  if (!x.copyAt.contains(t) || !n.predicate) return moves;
  for (const auto& conj : conjuncts(n.predicate)) {
    if (!hasOperand(*conj, e)) continue;
    auto s = splitConjunct(n, conj);
    if (!s || !x.copyOps.contains(s->op)) continue;
    size_t from = exprEquals(e, s->probe) ? 0 : exprEquals(e, s->build) ? 1 : 2;
    if (from != c) continue;  // copies start from the side the expression comes from
    const ExprPtr& other = from == 0 ? s->build : s->probe;
    if (x.copyToSingleColumn && columnsOf(*other).size() != 1) continue;
    Words cw = w;
    cw.conj = conj.get();
    cw.other = other.get();
    cw.op = s->op;
    moves.push_back({1 - from, other, yes(x.copy, cw)});
  }
  return moves;
}

/// Does `target` have the shape the engine binds a consumer to?
bool shapeFits(TargetShape shape, const Expr& target) {
  switch (shape) {
    case TargetShape::Any:
      return true;
    case TargetShape::SingleColumn:
      return columnsOf(target).size() == 1;
    case TargetShape::ColumnOrCast: {
      const Expr* x = &target;
      if (x->kind == ExprKind::Cast) x = x->args[0].get();
      return x->kind == ExprKind::Column;
    }
    case TargetShape::ColumnOrIntegralCast: {
      const Expr* x = &target;
      while (x->kind == ExprKind::Cast && x->type.isInteger() && !x->args.empty() &&
             x->args[0]->type.isInteger())
        x = x->args[0].get();
      return x->kind == ExprKind::Column;
    }
  }
  return false;
}

}  // namespace

const ProfileInfo& profileInfo(Profile p) {
  const auto& info = allProfileInfos()[static_cast<size_t>(p)];
  assert(info.profile == p && "profile rows are in enum order");
  return info;
}

const char* profileName(Profile p) {
  return profileInfo(p).name;
}

std::optional<Profile> parseProfile(std::string_view name) {
  for (const auto& info : allProfileInfos())
    if (name == info.name) return info.profile;
  return std::nullopt;
}

const std::vector<Profile>& allProfiles() {
  static const std::vector<Profile> kAll = [] {
    std::vector<Profile> all;
    for (const auto& info : allProfileInfos()) all.push_back(info.profile);
    return all;
  }();
  return kAll;
}

namespace {

/// A nested-loop join's producer (EngineProfile::loopJoinOps): `s` a range
/// comparison of a join of those types with no equality conjunct, written with
/// a probe column first.
bool loopJoinBuilds(const EngineProfile& x, const PlanNode& join, const ExprPtr& conjunct,
                    const EquiConjunct& s) {
  if (!x.loopJoinProducers.contains(join.joinType) || !x.loopJoinOps.contains(s.op) ||
      s.probe->kind != ExprKind::Column || conjunct->args.empty() ||
      !exprEquals(conjunct->args[0], s.probe))
    return false;
  bool equality = false;
  if (join.predicate)
    forEachConjunct(join.predicate, [&](const ExprPtr& c) {
      auto other = splitConjunct(join, c);
      equality = equality || (other && (other->op == CmpOp::Eq || other->op == CmpOp::NullSafeEq));
      return true;
    });
  return !equality;
}

}  // namespace

Decision generateUnder(Profile p, const PlanNode& join, const ExprPtr& conjunct,
                       EquiConjunct* split) {
  const EngineProfile* x = profileInfo(p).engine;
  if (!x) return canGenerate(join, conjunct, split);
  Words w{&join};
  w.conj = conjunct.get();
  if (!x->producers.contains(join.joinType)) return no(x->producerRefused, w);
  // The engines differ in which join types and comparisons produce; the
  // conjunct checks are shared.
  auto s = splitConjunct(join, conjunct);
  if (!s)
    return Decision::no(
        RfRule::GenerateFromJoinConjunct,
        "`" + exprToString(*conjunct) + "` is not a comparison of a probe and a build expression");
  if (!x->producerOps.contains(s->op)) {
    if (!loopJoinBuilds(*x, join, conjunct, *s)) return no(x->producerRefused, w);
    if (split) *split = *s;
    return yes(x->loopJoinProduces, w);
  }
  if (!shapeFits(x->passShape, *s->probe)) {
    w.target = s->probe.get();
    return no(x->passShapeRefused, w);
  }
  if (split) *split = *s;
  return yes(x->produces, w);
}

std::vector<JoinMove> joinMovesUnder(Profile p, const PlanNode& join, const ExprPtr& e,
                                     const RuntimeFilter& f) {
  const EngineProfile* x = profileInfo(p).engine;
  return x ? engineMoves(*x, join, e, f) : soundJoinMoves(join, e, f);
}

Decision passUnder(Profile p, const PlanNode& n, size_t child, const ExprPtr& e,
                   const RuntimeFilter& f, ExprPtr* down) {
  const EngineProfile* x = profileInfo(p).engine;
  if (!x) return canPassThrough(n, child, e, f, down);
  Words w{&n, e.get()};
  for (PlanOp op : x->stopsAt)
    if (op == n.op) return no(x->stopped, w);
  if (n.op == PlanOp::Limit && x->throughLimit) {
    if (down) *down = e;
    return yes(x->limit, w);
  }
  Decision d = canPassThrough(n, child, e, f, down);
  if (d.ok && down && *down && !shapeFits(x->passShape, **down)) {
    w.target = down->get();
    return no(x->passShapeRefused, w);
  }
  return d;
}

Decision consumeUnder(Profile p, const PlanNode& scan, const ExprPtr& target,
                      const RuntimeFilter& f) {
  Decision d = canConsume(scan, target, f);
  const EngineProfile* x = profileInfo(p).engine;
  if (!d.ok || !x || shapeFits(x->target, *target)) return d;
  Words w;
  w.target = target.get();
  return no(x->targetRefused, w);
}

}  // namespace rfguard
