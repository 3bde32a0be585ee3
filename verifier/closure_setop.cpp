// The producer check of a set operation's filter (docs/runtime-filters.md,
// "Set-operation filters"), part of closure (closure.cpp).
#include "verifier/plan_facts.h"

namespace rfguard {

namespace {

/// The position of column `e` in input `i` of set operation `n`, or -1.
int positionIn(const PlanNode& n, int i, const Expr& e) {
  if (i < 0 || e.kind != ExprKind::Column) return -1;
  const auto& out = n.children[static_cast<size_t>(i)]->output;
  for (size_t k = 0; k < out.size(); ++k)
    if (out[k].id == e.name) return static_cast<int>(k);
  return -1;
}

}  // namespace

/// A set operation's producer (Doris's RuntimeFilterV2): an INTERSECT keeps a
/// row of an input only where every other input has it, an EXCEPT a row of its
/// first input only where no other input has it; so rows of another input
/// whose value at one position no row of the first input has change nothing,
/// and a filter of the first input's values there may drop them (for
/// INTERSECT, of any input's values from any other). Counterexamples: a UNION
/// keeps every row (a = {1}, b = {2}: filtering b by a's values loses 2); an
/// EXCEPT's first input filtered by b's values loses the rows it returns (a =
/// {1}, b = {}); positions 0 and 1 compared ((1, 2) in both inputs: a filter
/// of a's first column on b's second drops it, and the EXCEPT returns it);
/// NULL keys: the set operation matches a NULL with a NULL, so where both
/// inputs may hold NULL there, a filter that drops NULL keys drops a matching
/// row (a = b = {NULL}: the EXCEPT returns NULL).
void checkSetOpProducer(const Producer& p, std::vector<Finding>& out) {
  const PlanNode& n = *p.node;
  const RuntimeFilter& f = *p.filter;
  auto finding = [&](const char* code, const std::string& msg) {
    out.push_back(producerFinding(p, code, msg));
  };
  const char* bad = "set-op-producer-ineligible";
  if (n.op == PlanOp::Union)
    return finding(bad, "a UNION keeps every row of each input: no input's values bound another's");
  if (f.besideOnly) return finding(bad, "a set operation's filter needs a probe key");
  const int b = filterBuildInput(n, f), k = filterProbeInput(n, f);
  if (b < 0 || k < 0)
    return finding(bad, "`" + exprToString(*(b < 0 ? f.build : f.probe)) +
                            "` is not an output column of one of its inputs");
  if (b == k) return finding(bad, "its build and probe keys are columns of the same input");
  if (n.op == PlanOp::Except && b != 0)
    return finding(bad,
                   "an EXCEPT returns the rows of its first input that the others lack: "
                   "only the first input's values bound the others' (this filter's are "
                   "input " +
                       std::to_string(b + 1) + "'s)");
  if (!isEquality(f.op)) return finding(bad, "a set operation compares its rows by equality");
  const int pb = positionIn(n, b, *f.build), pk = positionIn(n, k, *f.probe);
  if (pb < 0 || pb != pk)
    return finding(bad, "`" + exprToString(*f.build) + "` and `" + exprToString(*f.probe) +
                            "` are not the columns of one position of the inputs: the set "
                            "operation compares a row's columns position by position");
  const Column& bc = n.children[static_cast<size_t>(b)]->output[static_cast<size_t>(pb)];
  const Column& kc = n.children[static_cast<size_t>(k)]->output[static_cast<size_t>(pk)];
  if (bc.nullable && kc.nullable && !f.nullAllowed && !f.acceptNull)
    finding("null-flag-mismatch",
            std::string(n.op == PlanOp::Intersect ? "INTERSECT" : "EXCEPT") +
                " matches a NULL with a NULL, and both `" + exprToString(*f.build) + "` and `" +
                exprToString(*f.probe) +
                "` may be NULL: a filter that drops NULL keys drops the rows of input " +
                std::to_string(k + 1) + " that match input " + std::to_string(b + 1) +
                "'s NULLs (make it null-allowing)");
}

}  // namespace rfguard
