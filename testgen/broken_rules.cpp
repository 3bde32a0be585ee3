#include "testgen/broken_rules.h"

#include <functional>

namespace rfguard {

namespace {

/// The first node in pre-order that `pick` accepts, as the pointer that owns it.
PlanPtr* find(PlanPtr& n, const std::function<bool(const PlanNode&)>& pick) {
  if (pick(*n)) return &n;
  for (auto& c : n->children)
    if (PlanPtr* p = find(c, pick)) return p;
  return nullptr;
}

PlanPtr finish(PlanPtr p) {
  refreshOutputs(*p);
  assignIds(*p);
  return p;
}

/// A projection over `input` that passes every column through except `column`,
/// which becomes coalesce(column, 0) under the same id.
PlanPtr coalescing(PlanPtr input, const Column& column) {
  auto p = makePooled<PlanNode>();
  p->op = PlanOp::Project;
  for (const auto& c : input->output) {
    ExprPtr e = makeColumn(c.id, c.type, c.nullable);
    if (c.id == column.id) e = makeCall("coalesce", {e, makeLiteral("0", c.type)});
    p->exprs.push_back({c.id, e});
  }
  p->children.push_back(std::move(input));
  computeOutput(*p);
  return p;
}

std::optional<BrokenRewrite> outerJoinToInner(const PlanNode& plan) {
  PlanPtr b = deepClonePlan(plan);
  PlanPtr* j = find(b, [](const PlanNode& n) {
    return n.op == PlanOp::Join &&
           (joinInfo(n.joinType).generatesNulls[0] || joinInfo(n.joinType).generatesNulls[1]);
  });
  if (!j) return std::nullopt;
  std::string where = nodeRef(**j);
  (*j)->joinType = JoinType::Inner;
  return BrokenRewrite{finish(deepClonePlan(plan)), finish(b), where};
}

/// `column > 1`.
ExprPtr greaterThanOne(const Column& c) {
  return makeCall(">", {makeColumn(c.id, c.type, c.nullable), makeLiteral("1", c.type)});
}

/// A filter `column > 1` over `input`.
PlanPtr filteredAboveOne(PlanPtr input, const Column& c) {
  auto f = makePooled<PlanNode>();
  f->op = PlanOp::Filter;
  f->predicate = greaterThanOne(c);
  f->children.push_back(std::move(input));
  computeOutput(*f);
  return f;
}

/// The first integer output column of a join's input `side`, if any.
std::optional<Column> integerOf(const PlanNode& join, int side) {
  for (const auto& c : join.children[side]->output)
    if (c.type.isInteger()) return c;
  return std::nullopt;
}

/// The rewrite `edit` makes at the first LEFT join (with a condition, when
/// `conditioned`) that has an integer column on input `side`: it edits that join
/// in the plan before (`before`) and after (`after`) the rewrite.
using JoinEdit = std::function<void(PlanPtr& before, PlanPtr& after, const Column& column)>;
std::optional<BrokenRewrite> atLeftJoin(const PlanNode& plan, int side, bool conditioned,
                                        const JoinEdit& edit) {
  auto pick = [&](const PlanNode& n) {
    return n.op == PlanOp::Join && isLeftOuter(n.joinType) && (!conditioned || n.predicate) &&
           integerOf(n, side);
  };
  PlanPtr a = deepClonePlan(plan);
  PlanPtr* ja = find(a, pick);
  if (!ja) return std::nullopt;
  const Column column = *integerOf(**ja, side);
  std::string where = nodeRef(**ja);
  PlanPtr b = deepClonePlan(*a);
  edit(*ja, *find(b, pick), column);
  return BrokenRewrite{finish(a), finish(b), where};
}

std::optional<BrokenRewrite> coalesceBelow(const PlanNode& plan) {
  // Before: coalesce above the join, over the padded column. After: below it.
  return atLeftJoin(plan, 1, false, [](PlanPtr& before, PlanPtr& after, const Column& c) {
    before = coalescing(before, c);
    after->children[1] = coalescing(after->children[1], c);
  });
}

std::optional<BrokenRewrite> filterIntoNullSide(const PlanNode& plan) {
  // Before: the filter drops the padded rows. After: the right input's rows
  // are filtered, and a left row without a match is padded and kept.
  return atLeftJoin(plan, 1, false, [](PlanPtr& before, PlanPtr& after, const Column& c) {
    before = filteredAboveOne(before, c);
    after->children[1] = filteredAboveOne(after->children[1], c);
  });
}

std::optional<BrokenRewrite> onIntoPreservedSide(const PlanNode& plan) {
  // Before: a left row failing the conjunct matches nothing and is padded.
  // After: it is dropped.
  return atLeftJoin(plan, 0, true, [](PlanPtr& before, PlanPtr& after, const Column& c) {
    before->predicate = makeAnd({before->predicate, greaterThanOne(c)});
    after->children[0] = filteredAboveOne(after->children[0], c);
  });
}

std::optional<BrokenRewrite> notInAsPlainAnti(const PlanNode& plan) {
  PlanPtr b = deepClonePlan(plan);
  PlanPtr* j = find(b, [](const PlanNode& n) {
    return n.op == PlanOp::Join && joinInfo(n.joinType).nullAware &&
           joinInfo(n.joinType).outputs[0];
  });
  if (!j) return std::nullopt;
  std::string where = nodeRef(**j);
  (*j)->joinType = JoinType::LeftAnti;
  return BrokenRewrite{finish(deepClonePlan(plan)), finish(b), where};
}

std::optional<BrokenRewrite> filterBelowLimit(const PlanNode& plan) {
  auto pick = [](const PlanNode& n) {
    return n.op == PlanOp::Limit && !n.output.empty() && n.output[0].type.isInteger();
  };
  PlanPtr a = deepClonePlan(plan);
  PlanPtr* la = find(a, pick);
  if (!la) return std::nullopt;
  const Column c = (*la)->output[0];
  std::string where = nodeRef(**la);
  PlanPtr b = deepClonePlan(*a);
  PlanPtr* lb = find(b, pick);
  // Before: the filter reads the LIMIT's rows. After: the LIMIT reads the filter's.
  *la = filteredAboveOne(*la, c);
  PlanNode& limit = **lb;
  PlanPtr& below =
      limit.children[0]->op == PlanOp::Sort ? limit.children[0]->children[0] : limit.children[0];
  below = filteredAboveOne(below, c);  // under the ORDER BY the LIMIT cuts
  return BrokenRewrite{finish(a), finish(b), where};
}

}  // namespace

const std::vector<BrokenRule>& brokenRules() {
  static const std::vector<BrokenRule> rules = {
      {"OuterJoinToInner", "an outer join made inner without a NULL-rejecting predicate above it",
       outerJoinToInner},
      {"CoalesceBelowNullGeneratingSide",
       "coalesce over a LEFT join's padded column moved into its right input (Trino #13109)",
       coalesceBelow},
      {"NotInAsPlainAnti", "NOT IN (a null-aware anti join) decorrelated as NOT EXISTS",
       notInAsPlainAnti},
      {"FilterBelowLimit", "a filter above a LIMIT moved below it", filterBelowLimit},
      {"FilterIntoNullGeneratingSide",
       "a filter above a LEFT join over its padded columns moved into its right input",
       filterIntoNullSide},
      {"OnConjunctIntoPreservedSide",
       "a LEFT join's ON conjunct over its left input moved into that input", onIntoPreservedSide},
  };
  return rules;
}

}  // namespace rfguard
