#include "ir/expr.h"

#include <cassert>

#include "ir/functions.h"
#include "ir/plan.h"

namespace rfguard {

ExprPtr makeColumn(std::string id, Type type, bool nullable, SourceLoc loc) {
  auto e = makePooled<Expr>();
  e->kind = ExprKind::Column;
  e->name = std::move(id);
  e->type = type;
  e->nullable = nullable;
  e->loc = loc;
  return e;
}

ExprPtr makeLiteral(std::string value, Type type, SourceLoc loc) {
  auto e = makePooled<Expr>();
  e->kind = ExprKind::Literal;
  e->value = std::move(value);
  e->type = type;
  e->nullable = false;
  e->loc = loc;
  return e;
}

ExprPtr makeNull(Type type, SourceLoc loc) {
  auto e = makePooled<Expr>();
  e->kind = ExprKind::Literal;
  e->isNull = true;
  e->type = type;
  e->nullable = true;
  e->loc = loc;
  return e;
}

ExprPtr makeBool(bool v, SourceLoc loc) {
  return makeLiteral(v ? "true" : "false", Type::of(TypeKind::Boolean), loc);
}

namespace {
ExprPtr makeCallOf(const FunctionInfo* fn, std::string name, std::vector<ExprPtr> args, Type type,
                   SourceLoc loc) {
  assert(fn && "calls name catalog functions");
  auto e = makePooled<Expr>();
  e->kind = ExprKind::Call;
  e->name = fn ? fn->name : name;
  e->fn = fn;
  e->type = type;
  e->args = std::move(args);
  settleArgs(*e);
  e->loc = loc;
  bool anyNullable = false;
  for (const auto& a : e->args) anyNullable = anyNullable || a->nullable;
  e->nullable =
      fn == nullptr || (fn->policy != NullPolicy::NeverNull &&
                        (anyNullable || fn->policy == NullPolicy::CaseResults ||
                         fn->name == std::string("nullif") || fn->kind == FunctionKind::Aggregate));
  if (fn && fn->name == std::string("count")) e->nullable = false;
  return e;
}
}  // namespace

ExprPtr makeTypedCall(std::string name, std::vector<ExprPtr> args, Type type, SourceLoc loc) {
  const FunctionInfo* fn = lookupFunction(name);
  return makeCallOf(fn, std::move(name), std::move(args), type, loc);
}

ExprPtr makeCall(std::string name, std::vector<ExprPtr> args, SourceLoc loc) {
  const FunctionInfo* fn = lookupFunction(name);
  Type t = fn ? returnType(*fn, args) : Type{};
  return makeCallOf(fn, std::move(name), std::move(args), t, loc);
}

ExprPtr makeComposite(std::vector<ExprPtr> parts) {
  return makeCall("row", std::move(parts));
}

bool isComposite(const Expr& e) {
  return isCallOf(e, "row");
}

ExprPtr makeAggregate(std::string name, std::vector<ExprPtr> args, bool distinct, SourceLoc loc) {
  auto e = std::const_pointer_cast<Expr>(makeCall(std::move(name), std::move(args), loc));
  e->distinct = distinct;
  return e;
}

ExprPtr makeCast(ExprPtr operand, Type type, SourceLoc loc) {
  auto e = makePooled<Expr>();
  e->kind = ExprKind::Cast;
  e->type = type;
  e->nullable = operand->nullable;
  e->args.push_back(std::move(operand));
  settleArgs(*e);
  e->loc = loc;
  return e;
}

ExprPtr makeSubquery(SubqueryKind kind, std::shared_ptr<PlanNode> plan, ExprPtr lhs, Type type,
                     SourceLoc loc) {
  auto e = makePooled<Expr>();
  e->kind = ExprKind::Subquery;
  e->subquery = kind;
  e->plan = std::move(plan);
  if (lhs) e->args.push_back(std::move(lhs));
  e->subqueryInside = true;
  e->type = type;
  e->nullable = kind != SubqueryKind::Exists;
  e->loc = loc;
  return e;
}

ExprPtr mapArgsIfChanged(const ExprPtr& e, const std::function<ExprPtr(const ExprPtr&)>& f) {
  bool changed = false;
  std::vector<ExprPtr> args;
  for (const auto& a : e->args) {
    args.push_back(f(a));
    changed = changed || args.back() != a;
  }
  if (!changed) return e;
  auto copy = makePooled<Expr>(*e);
  copy->args = std::move(args);
  settleArgs(*copy);
  return copy;
}

void settleArgs(Expr& e) {
  e.subqueryInside = e.kind == ExprKind::Subquery;
  for (const auto& a : e.args) e.subqueryInside = e.subqueryInside || a->subqueryInside;
}

bool exprEquals(const ExprPtr& a, const ExprPtr& b) {
  if (!a || !b) return !a && !b;
  return exprEquals(*a, *b);
}

bool exprEquals(const Expr& a, const Expr& b) {
  if (&a == &b) return true;
  if (a.kind != b.kind || a.name != b.name || a.isNull != b.isNull || a.value != b.value ||
      a.distinct != b.distinct || !(a.type == b.type) || a.args.size() != b.args.size())
    return false;
  if (a.kind == ExprKind::Subquery && (a.subquery != b.subquery || a.plan != b.plan)) return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!exprEquals(*a.args[i], *b.args[i])) return false;
  return true;
}

namespace {

int precedenceOf(const Expr& e) {
  if (e.kind == ExprKind::Subquery && e.subquery != SubqueryKind::Scalar) return 4;
  if (e.kind != ExprKind::Call) return 10;
  const FunctionInfo* fn = functionOf(e);
  return fn ? fn->precedence : 10;
}

std::string literalText(const Expr& e) {
  if (e.isNull) return "NULL";
  const Type& t = e.type;
  if (t.isString()) {
    std::string out = "'";
    for (char c : e.value) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
  }
  if (t.kind == TypeKind::Date) return "DATE '" + e.value + "'";
  if (t.kind == TypeKind::Timestamp) return "TIMESTAMP '" + e.value + "'";
  if (t.kind == TypeKind::Interval) {
    auto sp = e.value.find(' ');
    return "INTERVAL '" + e.value.substr(0, sp) + "' " +
           (sp == std::string::npos ? std::string("day") : e.value.substr(sp + 1));
  }
  return e.value;
}

std::string wrap(const Expr& child, int parentPrec, bool strict) {
  std::string s = exprToString(child);
  int p = precedenceOf(child);
  return (p < parentPrec || (strict && p == parentPrec)) ? "(" + s + ")" : s;
}

std::string joinArgs(const std::vector<ExprPtr>& args, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < args.size(); ++i)
    out += (i > from ? ", " : "") + exprToString(*args[i]);
  return out;
}

std::string callText(const Expr& e) {
  const FunctionInfo* fn = functionOf(e);
  const std::string& n = e.name;
  if (fn && fn->infix && e.args.size() == 3 &&
      (n == "like" || n == "ilike" || n == "similar_to"))  // the third is the ESCAPE character
    return wrap(*e.args[0], fn->precedence, false) + " " + fn->infix + " " +
           wrap(*e.args[1], fn->precedence, true) + " ESCAPE " +
           wrap(*e.args[2], fn->precedence, true);
  if (fn && fn->infix && n != "not" && e.args.size() >= 2) {
    // AND inside OR is bracketed although it binds tighter: easier to read.
    int p = n == "or" ? fn->precedence + 1 : fn->precedence;
    std::string out = wrap(*e.args[0], p, n == "or");
    for (size_t i = 1; i < e.args.size(); ++i)
      out += std::string(" ") + fn->infix + " " + wrap(*e.args[i], p, true);
    return out;
  }
  if (n == "not") return "NOT " + wrap(*e.args[0], 5, false);
  if (n == "negate") return "-" + wrap(*e.args[0], 7, false);
  if (n == "is_null") return wrap(*e.args[0], 5, false) + " IS NULL";
  if (n == "is_not_null") return wrap(*e.args[0], 5, false) + " IS NOT NULL";
  if (n == "in") return wrap(*e.args[0], 5, false) + " IN (" + joinArgs(e.args, 1) + ")";
  if (n == "count" && e.args.empty()) return "count(*)";
  if (n == "row") return "(" + joinArgs(e.args) + ")";
  if (n == "extract")
    return "extract(" + e.args[0]->value + " FROM " + exprToString(*e.args[1]) + ")";
  if (n == "case") {
    std::string out = "CASE";
    size_t i = 0;
    for (; i + 1 < e.args.size(); i += 2)
      out += " WHEN " + exprToString(*e.args[i]) + " THEN " + exprToString(*e.args[i + 1]);
    if (i < e.args.size()) out += " ELSE " + exprToString(*e.args[i]);
    return out + " END";
  }
  return n + "(" + (e.distinct ? "DISTINCT " : "") + joinArgs(e.args) + ")";
}

}  // namespace

std::string exprToString(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Column:
      return e.name;
    case ExprKind::Literal:
      return literalText(e);
    case ExprKind::Cast:
      return "CAST(" + exprToString(*e.args[0]) + " AS " + e.type.toString() + ")";
    case ExprKind::Call:
      return callText(e);
    case ExprKind::Subquery: {
      std::string ref = "subquery #" + std::to_string(e.plan ? e.plan->id : 0);
      if (e.subquery == SubqueryKind::Exists) return "EXISTS (" + ref + ")";
      if (e.subquery == SubqueryKind::In) return wrap(*e.args[0], 5, false) + " IN (" + ref + ")";
      return "(" + ref + ")";
    }
  }
  return "?";
}

namespace {
/// How many conjuncts forEachConjunct() finds at most (TRUE ones included).
size_t countConjuncts(const Expr& e) {
  if (!isCallOf(e, "and")) return 1;
  size_t n = 0;
  for (const auto& a : e.args) n += countConjuncts(*a);
  return n;
}
}  // namespace

std::vector<ExprPtr> conjuncts(const ExprPtr& e) {
  std::vector<ExprPtr> out;
  if (!e) return out;
  // The binder's ANDs are binary and nested: one allocation, not one per doubling.
  out.reserve(countConjuncts(*e));
  forEachConjunct(e, [&](const ExprPtr& c) {
    out.push_back(c);
    return true;
  });
  return out;
}

ExprPtr makeAnd(const std::vector<ExprPtr>& parts) {
  if (parts.empty()) return nullptr;
  if (parts.size() == 1) return parts[0];
  return makeCall("and", parts, parts[0]->loc);
}

namespace {
void collectColumns(const Expr& e, std::set<std::string>& out, bool intoSubqueries) {
  if (e.kind == ExprKind::Column) out.insert(e.name);
  for (const auto& a : e.args) collectColumns(*a, out, intoSubqueries);
  if (intoSubqueries && e.kind == ExprKind::Subquery && e.plan) {
    auto inner = freeColumns(*e.plan);
    out.insert(inner.begin(), inner.end());
  }
}

bool anyNode(const Expr& e, bool (*pred)(const Expr&)) {
  if (pred(e)) return true;
  for (const auto& a : e.args)
    if (anyNode(*a, pred)) return true;
  return false;
}

FunctionKind kindOf(const Expr& e) {
  if (e.kind != ExprKind::Call) return FunctionKind::Operator;
  const FunctionInfo* fn = functionOf(e);
  return fn ? fn->kind : FunctionKind::Scalar;
}
}  // namespace

std::set<std::string> columnsOf(const Expr& e) {
  std::set<std::string> out;
  collectColumns(e, out, false);
  return out;
}

std::set<std::string> freeColumnsOf(const Expr& e) {
  std::set<std::string> out;
  collectColumns(e, out, true);
  return out;
}

bool hasSubquery(const Expr& e) {
  assert(e.subqueryInside ==
             anyNode(e, [](const Expr& x) { return x.kind == ExprKind::Subquery; }) &&
         "a copy whose arguments changed called settleArgs");
  return e.subqueryInside;
}

bool hasAggregate(const Expr& e) {
  return anyNode(e, [](const Expr& x) { return kindOf(x) == FunctionKind::Aggregate; });
}

bool hasWindow(const Expr& e) {
  return anyNode(e, [](const Expr& x) { return kindOf(x) == FunctionKind::Window; });
}

bool isDeterministic(const Expr& e) {
  return !anyNode(e, [](const Expr& x) {
    const FunctionInfo* fn = functionOf(x);
    return fn && !fn->deterministic;
  });
}

ExprPtr substitute(const ExprPtr& e, const std::map<std::string, ExprPtr>& mapping) {
  return substituteBy(e, [&](const std::string& id) -> const ExprPtr* {
    auto it = mapping.find(id);
    return it == mapping.end() ? nullptr : &it->second;
  });
}

ExprPtr substituteBy(const ExprPtr& e,
                     const std::function<const ExprPtr*(const std::string&)>& lookup) {
  if (e->kind == ExprKind::Column) {
    const ExprPtr* to = lookup(e->name);
    return to ? *to : e;
  }
  if (e->args.empty()) return e;
  bool changed = false;
  std::vector<ExprPtr> args;
  args.reserve(e->args.size());
  for (const auto& a : e->args) {
    args.push_back(substituteBy(a, lookup));
    changed = changed || args.back() != a;
  }
  if (!changed) return e;
  auto copy = makePooled<Expr>(*e);
  copy->args = std::move(args);
  settleArgs(*copy);
  if (copy->kind == ExprKind::Call || copy->kind == ExprKind::Cast) {
    bool anyNullable = false;
    for (const auto& a : copy->args) anyNullable = anyNullable || a->nullable;
    const FunctionInfo* fn = functionOf(*copy);
    if (copy->kind == ExprKind::Cast || (fn && fn->policy == NullPolicy::Strict))
      copy->nullable = anyNullable;
  }
  return copy;
}

}  // namespace rfguard
