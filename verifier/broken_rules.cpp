#include "verifier/broken_rules.h"

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
  auto p = std::make_shared<PlanNode>();
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
    return n.op == PlanOp::Join && (n.joinType == JoinType::Left || n.joinType == JoinType::Right ||
                                    n.joinType == JoinType::Full);
  });
  if (!j) return std::nullopt;
  std::string where = nodeRef(**j);
  (*j)->joinType = JoinType::Inner;
  return BrokenRewrite{finish(deepClonePlan(plan)), finish(b), where};
}

std::optional<BrokenRewrite> coalesceBelow(const PlanNode& plan) {
  PlanPtr a = deepClonePlan(plan);
  auto pick = [](const PlanNode& n) {
    if (n.op != PlanOp::Join || n.joinType != JoinType::Left) return false;
    for (const auto& c : n.children[1]->output)
      if (c.type.isInteger()) return true;
    return false;
  };
  PlanPtr* ja = find(a, pick);
  if (!ja) return std::nullopt;
  Column column;
  for (const auto& c : (*ja)->children[1]->output)
    if (c.type.isInteger()) {
      column = c;
      break;
    }
  std::string where = nodeRef(**ja);
  PlanPtr b = deepClonePlan(*a);
  PlanPtr* jb = find(b, pick);
  // Before: coalesce above the join, over the padded column. After: below it.
  *ja = coalescing(*ja, column);
  (*jb)->children[1] = coalescing((*jb)->children[1], column);
  return BrokenRewrite{finish(a), finish(b), where};
}

std::optional<BrokenRewrite> notInAsPlainAnti(const PlanNode& plan) {
  PlanPtr b = deepClonePlan(plan);
  PlanPtr* j = find(b, [](const PlanNode& n) {
    return n.op == PlanOp::Join && n.joinType == JoinType::NullAwareLeftAnti;
  });
  if (!j) return std::nullopt;
  std::string where = nodeRef(**j);
  (*j)->joinType = JoinType::LeftAnti;
  return BrokenRewrite{finish(deepClonePlan(plan)), finish(b), where};
}

/// A filter `column > 1` over `input`.
PlanPtr greaterThanOne(PlanPtr input, const Column& c) {
  auto f = std::make_shared<PlanNode>();
  f->op = PlanOp::Filter;
  f->predicate = makeCall(">", {makeColumn(c.id, c.type, c.nullable), makeLiteral("1", c.type)});
  f->children.push_back(std::move(input));
  computeOutput(*f);
  return f;
}

/// The first integer output column of a LEFT join's input `side`, if any.
std::optional<Column> integerOf(const PlanNode& join, int side) {
  for (const auto& c : join.children[side]->output)
    if (c.type.isInteger()) return c;
  return std::nullopt;
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
  *la = greaterThanOne(*la, c);
  PlanNode& limit = **lb;
  PlanPtr& below =
      limit.children[0]->op == PlanOp::Sort ? limit.children[0]->children[0] : limit.children[0];
  below = greaterThanOne(below, c);  // under the ORDER BY the LIMIT cuts
  return BrokenRewrite{finish(a), finish(b), where};
}

std::optional<BrokenRewrite> filterIntoNullSide(const PlanNode& plan) {
  auto pick = [](const PlanNode& n) {
    return n.op == PlanOp::Join && n.joinType == JoinType::Left && integerOf(n, 1);
  };
  PlanPtr a = deepClonePlan(plan);
  PlanPtr* ja = find(a, pick);
  if (!ja) return std::nullopt;
  const Column c = *integerOf(**ja, 1);
  std::string where = nodeRef(**ja);
  PlanPtr b = deepClonePlan(*a);
  PlanPtr* jb = find(b, pick);
  // Before: the filter drops the padded rows. After: the right input's rows
  // are filtered, and a left row without a match is padded and kept.
  *ja = greaterThanOne(*ja, c);
  (*jb)->children[1] = greaterThanOne((*jb)->children[1], c);
  return BrokenRewrite{finish(a), finish(b), where};
}

std::optional<BrokenRewrite> onIntoPreservedSide(const PlanNode& plan) {
  auto pick = [](const PlanNode& n) {
    return n.op == PlanOp::Join && n.joinType == JoinType::Left && n.predicate && integerOf(n, 0);
  };
  PlanPtr a = deepClonePlan(plan);
  PlanPtr* ja = find(a, pick);
  if (!ja) return std::nullopt;
  const Column c = *integerOf(**ja, 0);
  std::string where = nodeRef(**ja);
  PlanPtr b = deepClonePlan(*a);
  PlanPtr* jb = find(b, pick);
  // Before: a left row failing the conjunct matches nothing and is padded.
  // After: it is dropped.
  ExprPtr extra = makeCall(">", {makeColumn(c.id, c.type, c.nullable), makeLiteral("1", c.type)});
  (*ja)->predicate = makeAnd({(*ja)->predicate, extra});
  (*jb)->children[0] = greaterThanOne((*jb)->children[0], c);
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
