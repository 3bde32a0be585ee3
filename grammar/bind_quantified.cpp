// Binding of predicates SQL writes as sugar over others: `x = ANY (q)` and
// `x <> ALL (q)` as IN and NOT IN, `x IS [NOT] TRUE | FALSE | UNKNOWN` as
// coalesce and IS NULL.
#include "grammar/binder.h"
#include "ir/ascii.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

ExprPtr Binder::bindQuantified(const ExprPtr& left, P::ComparisonContext* c, const Scope& scope) {
  // `x = ANY (q)` and `x = SOME (q)` are `x IN (q)`, `x <> ALL (q)` is
  // `x NOT IN (q)`, NULLs included (SQL defines IN so). Other comparisons with
  // ANY or ALL would need their own NULL semantics: refused, by name.
  SourceLoc loc = left->loc;
  std::string quant = c->quant ? "all" : identText(c->quantName);
  std::string op = c->op->getText();
  if (op == "!=") op = "<>";
  if (op == "==") op = "=";
  std::string spelled = quant == "all" ? "ALL" : quant == "any" ? "ANY" : "SOME";
  if (quant != "all" && quant != "any" && quant != "some") {
    error(c->quantName, "expected ANY, SOME or ALL before a subquery, got `" +
                            c->quantName->getStart()->getText() + "`");
    return makeNull({}, loc);
  }
  const bool in = quant != "all" && op == "=";
  const bool notIn = quant == "all" && op == "<>";
  if (!in && !notIn) {
    error(c, "`" + op + " " + spelled +
                 " (subquery)` is not supported: only = ANY and = SOME (which are IN) and <> ALL "
                 "(which is NOT IN)");
    return makeNull({}, loc);
  }
  BoundRel sub = bindQuery(c->sub, &scope, "sq");
  if (sub.plan->output.size() != 1) {
    error(c->sub, spelled + " subquery must return one column, it returns " +
                      std::to_string(sub.plan->output.size()));
    return makeNull({}, loc);
  }
  if (!comparable(left->type, sub.plan->output[0].type))
    error(c, "cannot compare " + left->type.toString() + " with " +
                 sub.plan->output[0].type.toString());
  ExprPtr e = makeSubquery(SubqueryKind::In, sub.plan, left, Type::of(TypeKind::Boolean), loc);
  return notIn ? call("not", {e}, loc) : e;
}

ExprPtr Binder::bindTruthTest(const ExprPtr& left, P::IsPredicateContext* is) {
  // x IS TRUE is coalesce(x, FALSE), IS FALSE coalesce(NOT x, FALSE), IS
  // UNKNOWN x IS NULL; IS NOT each the other way (never NULL either way).
  SourceLoc loc = left->loc;
  std::string what = is->truth ? is->truth->getText() : identText(is->word);
  asciiLowerInPlace(what);
  if (what != "true" && what != "false" && what != "unknown") {
    error(is->word, "expected TRUE, FALSE, UNKNOWN, NULL or DISTINCT FROM after IS, got `" +
                        is->word->getStart()->getText() + "`");
    return makeNull({}, loc);
  }
  if (!isBooleanish(*left)) {
    std::string upper = what;
    for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    error(is, "IS " + std::string(is->negated ? "NOT " : "") + upper +
                  " needs a boolean operand, got " + left->type.toString());
    return makeNull({}, loc);
  }
  const bool negated = is->negated != nullptr;
  if (what == "unknown") return call(negated ? "is_not_null" : "is_null", {left}, loc);
  // IS TRUE / IS NOT FALSE keep x; IS FALSE / IS NOT TRUE test NOT x.
  const bool keep = (what == "true") != negated;
  ExprPtr x = keep ? left : call("not", {left}, loc);
  return call("coalesce", {x, makeBool(negated, loc)}, loc);
}

}  // namespace rfguard
