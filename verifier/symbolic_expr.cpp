// Expressions of the symbolic encoding (verifier/symbolic_encode.h): SQL's
// three-valued logic, comparisons in one sort, arithmetic as C++ and the
// evaluator truncate, text in byte order, subqueries encoded per outer row,
// and other functions as uninterpreted ones.
#include <cctype>
#include <map>

#include "evaluation/values.h"
#include "ir/comparison.h"
#include "ir/functions.h"
#include "ir/type_range.h"
#include "verifier/symbolic_encode.h"

namespace rfguard::sym {

namespace {

bool isNullLiteral(const Expr& e) {
  return e.kind == ExprKind::Literal && e.isNull;
}

/// How the encoding reads a call, by name (the evaluator's formOf, independently).
enum class Op {
  And,
  Or,
  Not,
  Cmp,
  NullSafe,
  IsNull,
  IsNotNull,
  Coalesce,
  Case,
  Nullif,
  In,
  Arith,
  Negate,
  Abs,
  Same,  ///< nonzero_divisor(y, x): y (where y is 0 the query has no result to compare)
  Other
};
Op opOf(const Expr& e) {
  if (const ComparisonInfo* c = comparisonOf(e)) return c->nullSafe ? Op::NullSafe : Op::Cmp;
  static const std::map<std::string, Op> kOps = {{"and", Op::And},
                                                 {"or", Op::Or},
                                                 {"not", Op::Not},
                                                 {"is_null", Op::IsNull},
                                                 {"is_not_null", Op::IsNotNull},
                                                 {"coalesce", Op::Coalesce},
                                                 {"ifnull", Op::Coalesce},
                                                 {"nvl", Op::Coalesce},
                                                 {"case", Op::Case},
                                                 {"nullif", Op::Nullif},
                                                 {"in", Op::In},
                                                 {"+", Op::Arith},
                                                 {"-", Op::Arith},
                                                 {"*", Op::Arith},
                                                 {"/", Op::Arith},
                                                 {"%", Op::Arith},
                                                 {"negate", Op::Negate},
                                                 {"abs", Op::Abs},
                                                 {"nonzero_divisor", Op::Same}};
  auto it = kOps.find(e.name);
  return it == kOps.end() ? Op::Other : it->second;
}

}  // namespace

z3::expr Encoder::textCode(const std::string& s) {
  auto it = textCodes.find(s);
  if (it == textCodes.end()) {
    const std::string name = "text#" + std::to_string(textCodes.size());
    it = textCodes.emplace(s, c_.int_const(name.c_str())).first;
  }
  return it->second;
}

void Encoder::orderTextCodes() {
  const z3::expr* before = nullptr;  // std::map: the strings in byte order
  for (const auto& [text, code] : textCodes) {
    if (before) constraints.push_back(*before < code);
    before = &code;
  }
}

bool Encoder::subquery(const Expr& e, const Env& env, Val& out, Kind& kind) {
  if (e.subquery == SubqueryKind::Scalar && !oneRow(*e.plan))
    return fail("a scalar subquery that may return several rows");
  Val x{c_.int_val(0), c_.bool_val(false)};
  Kind xk = Kind::Int;
  if (e.subquery == SubqueryKind::In && !expr(*e.args[0], env, x, xk)) return false;
  // The subquery's rows for this row of the query around it (encoded again
  // for each: at most kMaxSubqueries in all).
  if (++subqueries_ > kMaxSubqueries) return fail("subqueries encoded for too many rows");
  outers_.push_back(&env);
  auto rel = plan(*e.plan);
  outers_.pop_back();
  if (!rel) return false;
  kind = Kind::Bool;
  z3::expr any = c_.bool_val(false);
  for (const auto& r : rel->rows) any = any || r.present;
  if (e.subquery == SubqueryKind::Exists) {
    out = boolVal(any, c_.bool_val(false));
    return true;
  }
  if (e.subquery == SubqueryKind::Scalar) {  // its one row's value
    if (rel->rows.size() != 1 || rel->kinds.empty()) return fail("a scalar subquery");
    const Row& r = rel->rows[0];
    out = Val{r.cols[0].v, !r.present || r.cols[0].null};
    kind = rel->kinds[0];
    return true;
  }
  if (rel->kinds.empty() || (rel->kinds[0] == Kind::Text) != (xk == Kind::Text))
    return fail("IN over a subquery of another kind");
  // x IN (rows): true on an equal row; NULL when x is NULL (over some row) or a
  // row is NULL and none equal; false otherwise.
  z3::expr hit = c_.bool_val(false), anyNull = c_.bool_val(false);
  for (const auto& r : rel->rows) {
    hit = hit || (r.present && !r.cols[0].null && equal(r.cols[0], x));
    anyNull = anyNull || (r.present && r.cols[0].null);
  }
  out = boolVal(!x.null && hit, (x.null && any) || (!x.null && !hit && anyNull));
  return true;
}

bool Encoder::prefixMatch(const Expr& e, const std::vector<Val>& a, Val& out, Kind& kind) {
  if (a.size() != 2 || e.args[1]->kind != ExprKind::Literal || e.args[1]->isNull ||
      !e.args[1]->type.isString())
    return false;
  std::string p = e.args[1]->value;
  const bool like = e.name == "like";
  if (!like && e.name != "starts_with") return false;
  if (like) {  // 'abc' or 'abc%' (any number of trailing %), no _ and no other %
    const size_t end = p.find_last_not_of('%');
    const std::string head = end == std::string::npos ? "" : p.substr(0, end + 1);
    if (head.find_first_of("%_") != std::string::npos) return false;
    if (head.size() == p.size()) {  // no wildcard: equality
      out = boolVal(a[0].v == textCode(p), a[0].null);
      kind = Kind::Bool;
      return true;
    }
    p = head;
  }
  // x starts with p: p <= x < p's successor (p without its trailing 0xff bytes,
  // the last one plus one), in byte order; every string starts with ''.
  z3::expr in = c_.bool_val(true);
  if (!p.empty()) {
    in = a[0].v >= textCode(p);
    std::string next = p;
    while (!next.empty() && static_cast<unsigned char>(next.back()) == 0xff) next.pop_back();
    if (!next.empty()) {
      next.back() = static_cast<char>(static_cast<unsigned char>(next.back()) + 1);
      in = in && a[0].v < textCode(next);
    }
  }
  out = boolVal(in, a[0].null);
  kind = Kind::Bool;
  return true;
}

bool Encoder::uninterpreted(const Expr& e, const std::vector<Val>& a, Val& out, Kind& kind) {
  const FunctionInfo* fn = functionOf(e);
  auto rk = kindOf(e.type);
  if (!fn || !fn->deterministic || fn->policy != NullPolicy::Strict ||
      fn->kind == FunctionKind::Aggregate || fn->kind == FunctionKind::Window || !rk)
    return fail("the function " + e.name);
  // f(x...) and whether it is NULL: functions of the argument values, any
  // function (sound for a proof; a model is confirmed by the evaluator).
  z3::sort_vector domain(c_);
  z3::expr_vector args(c_);
  std::string name = "fn#" + e.name;
  z3::expr anyNull = c_.bool_val(false);
  for (const auto& v : a) {
    domain.push_back(v.v.get_sort());
    args.push_back(v.v);
    anyNull = anyNull || v.null;
    name += v.v.is_real() ? ".r" : ".i";
  }
  const z3::sort range = *rk == Kind::Real ? c_.real_sort() : c_.int_sort();
  const z3::func_decl f =
      c_.function((name + (*rk == Kind::Real ? ":r" : ":i")).c_str(), domain, range);
  const z3::func_decl isNull = c_.function((name + ":null").c_str(), domain, c_.bool_sort());
  uninterpretedUsed.insert(e.name);
  z3::expr v = f(args);
  if (*rk == Kind::Bool) v = z3::ite(v != 0, c_.int_val(1), c_.int_val(0));
  out = Val{v, anyNull || isNull(args)};
  kind = *rk;
  return true;
}

bool Encoder::literal(const Expr& e, Val& out, Kind& kind) {
  auto k = kindOf(e.type);
  if (!k) return fail("a literal of type " + e.type.toString());
  kind = *k;
  if (e.isNull) {
    out = Val{c_.int_val(0), c_.bool_val(true)};
    return true;
  }
  std::string error;
  auto v = rt::literalValue(e, &error);
  if (!v) return fail("the literal " + e.value);
  if (auto i = std::get_if<int64_t>(&*v)) {
    out = Val{c_.int_val(*i), c_.bool_val(false)};
    return true;
  }
  if (std::holds_alternative<double>(*v)) {  // its text, exactly: 0.05 is 1/20
    const std::string& t = e.value;
    size_t digits = 0, dots = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      digits += std::isdigit(static_cast<unsigned char>(t[i])) != 0;
      dots += t[i] == '.';
    }
    const bool sign = !t.empty() && t[0] == '-';
    if (!digits || dots > 1 || digits + dots + sign != t.size()) return fail("the literal " + t);
    out = Val{c_.real_val(t.c_str()), c_.bool_val(false)};
    kind = Kind::Real;
    return true;
  }
  if (auto s = std::get_if<std::string>(&*v)) {
    out = Val{textCode(*s), c_.bool_val(false)};
    kind = Kind::Text;
    return true;
  }
  return fail("the literal " + e.value);
}

bool Encoder::expr(const Expr& e, const Env& env, Val& out, Kind& kind) {
  switch (e.kind) {
    case ExprKind::Column: {
      auto find = [&](const Env* from) {
        for (const Env* x = from; x; x = x->next)
          for (size_t k = 0; k < x->rel->ids.size(); ++k)
            if (x->rel->ids[k] == e.name) {
              out = x->row->cols[k];
              kind = x->rel->kinds[k];
              return true;
            }
        return false;
      };
      if (find(&env)) return true;
      for (size_t i = outers_.size(); i-- > 0;)
        if (find(outers_[i])) return true;
      return fail("a reference to " + e.name + " outside its scope");
    }
    case ExprKind::Literal:
      return literal(e, out, kind);
    case ExprKind::Cast: {
      Kind from;
      if (!expr(*e.args[0], env, out, from)) return false;
      auto to = kindOf(e.type);
      const Type& src = e.args[0]->type;
      // A number is true unless 0; a boolean is 0 or 1 as a number.
      if (to && *to == Kind::Bool && from != Kind::Text) {
        out = boolVal(out.v != 0, out.null);
        kind = Kind::Bool;
        return true;
      }
      if (to && *to == Kind::Int && from == Kind::Bool) {
        kind = Kind::Int;
        return true;
      }
      // Exact casts to a number with a fraction: an integer, a decimal to as
      // many digits or more, anything to a floating type.
      if (to && *to == Kind::Real && (from == Kind::Int || from == Kind::Real)) {
        const bool exact = from == Kind::Int || e.type.isFloating() ||
                           (src.kind == TypeKind::Decimal && e.type.scale >= src.scale &&
                            e.type.precision - e.type.scale >= src.precision - src.scale);
        if (!exact)
          return fail("a rounding CAST(" + src.toString() + " AS " + e.type.toString() + ")");
        out.v = asReal(out.v);
        kind = Kind::Real;
        return true;
      }
      if (!to || *to != from || (*to == Kind::Text && e.type.precision != 0))
        return fail("CAST(" + src.toString() + " AS " + e.type.toString() + ")");
      if (*to == Kind::Int && src.kind != TypeKind::Unknown) {
        auto [lo, hi] = integerRange(e.type);
        auto [slo, shi] = integerRange(src);
        if (slo < lo || shi > hi)
          return fail("a narrowing CAST(" + src.toString() + " AS " + e.type.toString() + ")");
      }
      kind = *to;
      return true;
    }
    case ExprKind::Subquery:
      return subquery(e, env, out, kind);
    case ExprKind::Call:
      return call(e, env, out, kind);
  }
  return fail("an expression of an unknown kind");
}

bool Encoder::call(const Expr& e, const Env& env, Val& out, Kind& kind) {
  const Op op = opOf(e);
  if (e.args.empty()) return fail("the function " + e.name);
  std::vector<Val> a;
  std::vector<Kind> k;
  for (const auto& x : e.args) {
    Val v{c_.int_val(0), c_.bool_val(false)};
    Kind xk;
    if (!expr(*x, env, v, xk)) return false;
    a.push_back(v);
    k.push_back(xk);
  }
  if (op == Op::Other && prefixMatch(e, a, out, kind)) return true;
  if (op == Op::Other) return uninterpreted(e, a, out, kind);
  // The kind two operands are compared in; a NULL literal takes the other's.
  auto common = [&](size_t i, size_t j, Kind& into) {
    if (isNullLiteral(*e.args[i])) return into = k[j], true;
    if (isNullLiteral(*e.args[j])) return into = k[i], true;
    if ((k[i] == Kind::Text) != (k[j] == Kind::Text))
      return fail("a comparison of text with a number"), false;
    into = k[i];
    return true;
  };
  const z3::expr F = c_.bool_val(false), T = c_.bool_val(true);
  kind = Kind::Bool;
  switch (op) {
    case Op::And:
    case Op::Or: {
      z3::expr decided = F, anyNull = F;  // a false (AND) or true (OR) argument
      for (const auto& v : a) {
        decided = decided || (op == Op::And ? falsity(v) : truth(v));
        anyNull = anyNull || v.null;
      }
      out = boolVal(op == Op::And ? !decided : decided, !decided && anyNull);
      return true;
    }
    case Op::Not:
      out = boolVal(a[0].v == 0, a[0].null);
      return true;
    case Op::Cmp: {
      Kind ck;
      if (!common(0, 1, ck)) return false;
      z3::expr x = a[0].v, y = a[1].v;
      unify(x, y);
      z3::expr r = x == y;
      switch (comparisonOf(e)->kind) {
        case Comparison::Eq:
          break;
        case Comparison::Ne:
          r = x != y;
          break;
        case Comparison::Lt:
          r = x < y;
          break;
        case Comparison::Le:
          r = x <= y;
          break;
        case Comparison::Gt:
          r = x > y;
          break;
        default:
          r = x >= y;
          break;  // Ge: the null-safe ones are Op::NullSafe
      }
      out = boolVal(r, a[0].null || a[1].null);
      return true;
    }
    case Op::NullSafe: {
      Kind ck;
      if (!common(0, 1, ck)) return false;
      const z3::expr s = same(a[0], a[1]);
      out = boolVal(comparisonOf(e)->onEqual ? s : !s, F);  // <=> or IS DISTINCT FROM
      return true;
    }
    case Op::IsNull:
    case Op::IsNotNull:
      out = boolVal(op == Op::IsNull ? a[0].null : !a[0].null, F);
      return true;
    case Op::In: {
      z3::expr hit = F, anyNull = F;
      for (size_t i = 1; i < a.size(); ++i) {
        Kind ck;
        if (!common(0, i, ck)) return false;
        hit = hit || (!a[i].null && equal(a[0], a[i]));
        anyNull = anyNull || a[i].null;
      }
      out = boolVal(hit, a[0].null || (!hit && anyNull));
      return true;
    }
    default:
      break;
  }
  auto result = kindOf(e.type);
  if (!result) return fail("a value of type " + e.type.toString());
  kind = *result;
  // Values of a real result are reals: coalesce(decimal, 0).
  auto inKind = [&](Val v) {
    if (kind == Kind::Real) v.v = asReal(v.v);
    return v;
  };
  switch (op) {
    case Op::Coalesce: {
      for (auto& v : a) v = inKind(v);
      Val v = a.back();
      for (size_t i = a.size() - 1; i-- > 0;)
        v = Val{z3::ite(a[i].null, v.v, a[i].v), a[i].null && v.null};
      out = v;
      return true;
    }
    case Op::Case: {
      Val v = inKind(a.size() % 2 ? a.back() : Val{c_.int_val(0), T});
      for (size_t i = (a.size() - a.size() % 2); i >= 2; i -= 2) {
        const z3::expr t = truth(a[i - 2]);
        const Val then = inKind(a[i - 1]);
        v = Val{z3::ite(t, then.v, v.v), z3::ite(t, then.null, v.null)};
      }
      out = v;
      return true;
    }
    case Op::Same:  // NULL where the dividend is, as the division is anyway
      out = Val{a[0].v, a[0].null || a[1].null};
      return true;
    case Op::Nullif: {
      Kind ck;
      if (!common(0, 1, ck)) return false;
      const z3::expr eq = !a[0].null && !a[1].null && equal(a[0], a[1]);
      out = Val{a[0].v, a[0].null || eq};
      return true;
    }
    default:
      break;
  }
  bool real = kind == Kind::Real;
  for (size_t i = 0; i < a.size(); ++i) {
    if (k[i] != Kind::Int && k[i] != Kind::Real && !isNullLiteral(*e.args[i]))
      return fail("arithmetic on a value that is not a number");
    real = real || (k[i] == Kind::Real && !isNullLiteral(*e.args[i]));
  }
  if (kind != Kind::Int && kind != Kind::Real)
    return fail("arithmetic of type " + e.type.toString());
  if (real) {  // exact: the evaluator's doubles round
    for (auto& v : a) v.v = asReal(v.v);
    kind = Kind::Real;
  }
  z3::expr anyNull = F;
  for (const auto& v : a) anyNull = anyNull || v.null;
  if (op == Op::Negate) {
    out = Val{-a[0].v, anyNull};
    return true;
  }
  if (op == Op::Abs) {
    out = Val{z3::ite(a[0].v < 0, -a[0].v, a[0].v), anyNull};
    return true;
  }
  const z3::expr &x = a[0].v, &y = a[1].v;
  const std::string& f = e.name;
  if (f == "+" || f == "-" || f == "*") {
    out = Val{f == "+" ? x + y : f == "-" ? x - y : x * y, anyNull};
    return true;
  }
  if (real) {
    if (f == "%") return fail("a remainder of numbers with a fraction");
    out = Val{x / y, anyNull || y == c_.real_val(0)};
    return true;
  }
  // Division and remainder truncate toward zero, as C++ and SQL engines do; a
  // zero divisor gives NULL (the evaluator's reading).
  const z3::expr ax = z3::ite(x < 0, -x, x), ay = z3::ite(y < 0, -y, y);
  const z3::expr q = z3::ite((x < 0) == (y < 0), ax / ay, -(ax / ay));
  out = Val{f == "/" ? q : x - y * q, anyNull || y == 0};
  return true;
}

}  // namespace rfguard::sym
