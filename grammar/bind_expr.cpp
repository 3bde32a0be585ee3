// Binding of expressions: names, literals, operators, subqueries, types.
#include <algorithm>
#include <cctype>

#include "grammar/binder.h"
#include "grammar/literals.h"
#include "grammar/suggest.h"
#include "ir/ascii.h"
#include "ir/date_days.h"
#include "ir/functions.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

ExprPtr Binder::call(const std::string& name, std::vector<ExprPtr> args, SourceLoc loc) {
  return makeCall(name, std::move(args), loc);
}

ExprPtr Binder::cast(ExprPtr e, Type t, SourceLoc loc) {
  return makeCast(std::move(e), t, loc);
}

ExprPtr Binder::bindExpr(P::ExprContext* ctx, const Scope& scope, BlockState& block) {
  size_t i = 0;
  return foldBoolean(ctx, i, 0, scope, block).e;
}

// The terms are bound in the order a left-recursive grammar's tree would bind
// them (left operand, right operand, then the operator), so that the first
// error of a statement is the same one.
Binder::Folded Binder::foldBoolean(P::ExprContext* ctx, size_t& i, int minPrec, const Scope& scope,
                                   BlockState& block) {
  Folded left{bindBoolean(operandOf(ctx, i), scope, block), operandOf(ctx, i)->getStart()};
  for (++i; i < operandCount(ctx);) {
    bool isAnd = ctx->ops[i - 1]->getType() == P::AND;
    int prec = isAnd ? 1 : 0;
    if (prec < minPrec) break;
    Folded right = foldBoolean(ctx, i, prec + 1, scope, block);
    std::string op = isAnd ? "and" : "or";
    if (!isBooleanish(*left.e))
      error(left.start, "operand of " + op + " must be boolean, got " + left.e->type.toString());
    if (!isBooleanish(*right.e))
      error(right.start, "operand of " + op + " must be boolean, got " + right.e->type.toString());
    // Flatten chains so that a AND b AND c is one call with three arguments.
    std::vector<ExprPtr> args;
    for (const auto& side : {left.e, right.e}) {
      if (side->kind == ExprKind::Call && side->name == op)
        args.insert(args.end(), side->args.begin(), side->args.end());
      else
        args.push_back(side);
    }
    left.e = call(op, std::move(args), locOf(left.start));
  }
  return left;
}

ExprPtr Binder::bindBoolean(P::BooleanTermContext* ctx, const Scope& scope, BlockState& block) {
  if (auto* p = alt<P::PredicatedContext>(ctx)) {
    if (p->ops.empty())
      if (auto items = rowItems(p->first); !items.empty())
        return bindRowPredicate(p, items, scope, block);
    ExprPtr left = bindValue(p, scope, block);
    return p->pred ? bindPredicate(left, p->pred, scope, block) : left;
  }
  auto* n = alt<P::LogicalNotContext>(ctx);
  ExprPtr e = bindBoolean(n->inner, scope, block);
  if (!isBooleanish(*e)) error(n->inner, "NOT needs a boolean operand, got " + e->type.toString());
  return call("not", {e}, locOf(ctx));
}

ExprPtr Binder::bindPredicate(ExprPtr left, P::PredicateContext* ctx, const Scope& scope,
                              BlockState& block) {
  SourceLoc loc = left->loc;
  auto checkComparable = [&](const ExprPtr& a, const ExprPtr& b, antlr4::ParserRuleContext* at) {
    if (!comparable(a->type, b->type))
      error(at, "cannot compare " + a->type.toString() + " with " + b->type.toString());
  };
  if (auto* c = alt<P::ComparisonContext>(ctx)) {
    if (c->sub) return bindQuantified(left, c, scope);
    ExprPtr right = bindValue(c->right, scope, block);
    checkComparable(left, right, ctx);
    std::string op = c->op->getText();
    if (op == "!=") op = "<>";
    if (op == "==") op = "=";
    return call(op, {left, right}, loc);
  }
  if (auto* is = alt<P::IsPredicateContext>(ctx)) {
    if (is->truth || is->word) return bindTruthTest(left, is);
    if (!is->right) return call(is->negated ? "is_not_null" : "is_null", {left}, loc);
    ExprPtr right = bindValue(is->right, scope, block);
    checkComparable(left, right, ctx);
    return call(is->negated ? "<=>" : "is_distinct_from", {left, right}, loc);
  }
  auto* n = alt<P::NegatableContext>(ctx);
  const bool negated = n->negated != nullptr;
  auto negate = [&](ExprPtr e) { return negated ? call("not", {std::move(e)}, loc) : e; };
  if (n->lower) {  // BETWEEN
    ExprPtr lo = bindValue(n->lower, scope, block);
    ExprPtr hi = bindValue(n->upper, scope, block);
    checkComparable(left, lo, n->lower);
    checkComparable(left, hi, n->upper);
    // BETWEEN is sugar for two comparisons; ScalarFilter and pushdown see them apart.
    return negate(call("and", {call(">=", {left, lo}, loc), call("<=", {left, hi}, loc)}, loc));
  }
  if (const auto* rows = n->sub ? bareValues(n->sub) : nullptr) {
    // x IN (VALUES (1), (2)) is x IN (1, 2): the same three-valued test.
    std::vector<ExprPtr> args{left};
    for (auto* row : *rows) {
      if (row->items.size() != 1) {
        error(row,
              "IN (VALUES ...) needs rows of one value, got " + std::to_string(row->items.size()));
        return makeNull({}, loc);
      }
      args.push_back(bindExpr(row->items[0], scope, block));
      checkComparable(left, args.back(), row);
    }
    return negate(call("in", std::move(args), loc));
  }
  if (n->sub) {
    BoundRel sub = bindQuery(n->sub, &scope, "sq");
    if (sub.plan->output.size() != 1) {
      error(n->sub, "IN subquery must return one column, it returns " +
                        std::to_string(sub.plan->output.size()));
      return makeNull({}, loc);
    }
    checkComparable(left, makeColumn("", sub.plan->output[0].type, true), n);
    return negate(makeSubquery(SubqueryKind::In, sub.plan, left, Type::of(TypeKind::Boolean), loc));
  }
  if (n->in) {
    std::vector<ExprPtr> args{left};
    for (auto* item : n->items) {
      args.push_back(bindExpr(item, scope, block));
      checkComparable(left, args.back(), item);
    }
    return negate(call("in", std::move(args), loc));
  }
  // LIKE / ILIKE / SIMILAR TO, with an optional ESCAPE character.
  const size_t op = n->op->getType();
  const char* name = op == P::ILIKE ? "ilike" : op == P::LIKE ? "like" : "similar_to";
  const std::string spelled = op == P::ILIKE ? "ILIKE" : op == P::LIKE ? "LIKE" : "SIMILAR TO";
  std::vector<ExprPtr> args{left, bindValue(n->pattern, scope, block)};
  if (!left->type.isString() && left->type.kind != TypeKind::Unknown)
    error(ctx, spelled + " needs a string operand, got " + left->type.toString());
  if (!args[1]->type.isString() && args[1]->type.kind != TypeKind::Unknown)
    error(n->pattern, spelled + " needs a string pattern, got " + args[1]->type.toString());
  if (n->escape) {
    args.push_back(bindValue(n->escape, scope, block));
    const Expr& e = *args.back();
    if (e.kind == ExprKind::Literal && !e.isNull && e.value.size() != 1)
      error(n->escape, "ESCAPE takes one character, got '" + e.value + "'");
  }
  // SQLite's LIKE ignores the case of ASCII letters, as lower() folds them.
  if (op == P::LIKE && dialectRules(dialect).likeIgnoresAsciiCase)
    for (auto& a : args) a = call("lower", {a}, loc);
  return negate(call(name, std::move(args), loc));
}

template <typename Ctx>
ExprPtr Binder::bindValue(Ctx* ctx, const Scope& scope, BlockState& block) {
  if (ctx->ops.empty()) return bindPrimary(ctx->first, scope, block);
  size_t i = 0;
  return foldValue(ctx, i, 0, scope, block).e;
}

template <typename Ctx>
Binder::Folded Binder::foldValue(Ctx* ctx, size_t& i, int minPrec, const Scope& scope,
                                 BlockState& block) {
  Folded left{bindPrimary(operandOf(ctx, i), scope, block), operandOf(ctx, i)->getStart()};
  for (++i; i < operandCount(ctx);) {
    antlr4::Token* op = ctx->ops[i - 1];
    size_t type = op->getType();
    int prec = type == P::CONCAT ? 0 : type == P::PLUS || type == P::MINUS ? 1 : 2;
    if (prec < minPrec) break;
    Folded right = foldValue(ctx, i, prec + 1, scope, block);
    left.e = type == P::CONCAT ? call("||", {left.e, right.e}, locOf(left.start))
                               : arithmetic(op->getText(), left, right);
  }
  return left;
}

ExprPtr Binder::arithmetic(const std::string& op, const Folded& left, const Folded& right) {
  const ExprPtr& le = left.e;
  const ExprPtr& re = right.e;
  SourceLoc loc = locOf(left.start);
  // date + n, n + date and date - n count days (ir/date_days.h).
  if (int d = dayOperand(op, le->type, re->type); d >= 0) {
    const ExprPtr& n = d ? re : le;
    ExprPtr days = daysInterval(*n);
    if (!days) {
      error(d ? right.start : left.start,
            "date " + op + " integer needs an integer constant (a number of days)");
      days = n;
    }
    return d ? call(op, {le, days}, loc) : call(op, {days, re}, loc);
  }
  const Type& lt = le->type;
  const Type& rt = re->type;
  bool ok = (lt.isNumeric() || lt.kind == TypeKind::Unknown) &&
            (rt.isNumeric() || rt.kind == TypeKind::Unknown);
  if (op == "+" || op == "-")
    ok = ok || (lt.isTemporal() && rt.kind == TypeKind::Interval) ||
         (op == "+" && rt.isTemporal() && lt.kind == TypeKind::Interval) ||
         (op == "-" && lt.kind == TypeKind::Date && rt.kind == TypeKind::Date);
  if (!ok)
    error(left.start, "operator " + op + " cannot take " + lt.toString() + " and " + rt.toString());
  if (op != "/" && op != "%") return call(op, {le, re}, loc);
  return divide(op, le, re, loc);
}

ExprPtr Binder::divide(const std::string& op, ExprPtr l, ExprPtr r, SourceLoc loc) {
  // Division by the dialect's rules: DuckDB's / of integers is exact (a
  // double); by zero NULL, or no result: nonzero_divisor(y, x) fails where y
  // is 0 and x is not NULL (NULL / 0 is NULL in every engine).
  const DialectRules& rules = dialectRules(dialect);
  const bool nonzeroLiteral = r->kind == ExprKind::Literal && !r->isNull &&
                              r->value.find_first_not_of("0.+-") != std::string::npos;
  if (op == "/" && !rules.integerDivisionTruncates && l->type.isInteger() && r->type.isInteger()) {
    l = cast(l, Type::of(TypeKind::Double), loc);
    r = cast(r, Type::of(TypeKind::Double), loc);
  }
  if ((op == "/" ? rules.divisionByZero : rules.moduloByZero) == DivisionByZero::Fails &&
      !nonzeroLiteral)
    r = call("nonzero_divisor", {r, l}, loc);
  return call(op, {l, r}, loc);
}

ExprPtr Binder::bindPrimary(P::PrimaryExprContext* ctx, const Scope& scope, BlockState& block) {
  SourceLoc loc = locOf(ctx);
  if (alt<P::NullLiteralContext>(ctx)) return makeNull({}, loc);
  // Literals of one token: the context's start is the token.
  if (alt<P::IntegerLiteralContext>(ctx)) return integerLiteral(ctx->getStart()->getText(), loc);
  if (alt<P::DecimalLiteralContext>(ctx)) return decimalLiteral(ctx->getStart()->getText(), loc);
  if (alt<P::StringLiteralContext>(ctx))
    return makeLiteral(unquote(ctx->getStart()->getText(), '\''), Type::of(TypeKind::Varchar), loc);
  if (alt<P::BooleanLiteralContext>(ctx))
    return makeBool(ctx->getStart()->getType() == P::TRUE, loc);
  if (auto* d = alt<P::DateLiteralContext>(ctx)) {
    std::string v = unquote(d->value->getText(), '\'');
    if (!validDate(v)) error(ctx, "invalid date literal '" + v + "' (expected YYYY-MM-DD)");
    return makeLiteral(v, Type::of(TypeKind::Date), loc);
  }
  if (auto* t = alt<P::TimestampLiteralContext>(ctx)) {
    std::string v = unquote(t->value->getText(), '\'');
    if (!validTimestamp(v)) error(ctx, "invalid timestamp literal '" + v + "'");
    return makeLiteral(v, Type::of(TypeKind::Timestamp), loc);
  }
  if (auto* iv = alt<P::IntervalLiteralContext>(ctx)) {
    std::string n = unquote(iv->value->getText(), '\'');
    std::string unit = identText(iv->unit);
    if (!validIntervalUnit(unit)) error(iv->unit, "unknown interval unit " + unit);
    if (n.empty() || n.size() > 9 || !std::all_of(n.begin(), n.end(), ::isdigit))
      error(ctx, "interval amount must be a whole number, got '" + n + "'");
    return makeLiteral((iv->minus ? "-" : "") + n + " " + unit, Type::of(TypeKind::Interval), loc);
  }
  if (auto* c = alt<P::CaseExprContext>(ctx)) {
    ExprPtr operand = c->operand ? bindExpr(c->operand, scope, block) : nullptr;
    std::vector<ExprPtr> args;
    for (auto* w : c->whens) {
      ExprPtr cond = bindExpr(w->condition, scope, block);
      if (operand) {
        if (!comparable(operand->type, cond->type))
          error(w->condition,
                "cannot compare " + operand->type.toString() + " with " + cond->type.toString());
        cond = call("=", {operand, cond}, cond->loc);
      } else if (!isBooleanish(*cond)) {
        error(w->condition, "WHEN condition must be boolean, got " + cond->type.toString());
      }
      args.push_back(cond);
      args.push_back(bindExpr(w->result, scope, block));
    }
    if (c->elseExpr) args.push_back(bindExpr(c->elseExpr, scope, block));
    return call("case", std::move(args), loc);
  }
  if (auto* c = alt<P::CastExprContext>(ctx)) {
    ExprPtr e = bindExpr(c->value, scope, block);
    auto t = parseType(typeText(c->type));
    if (!t) {
      error(c->type, "unknown type " + text(c->type));
      return e;
    }
    // CAST('1999-02-22' AS date), as TPC-DS writes its dates: a date literal,
    // checked here, so that date arithmetic and the oracles see a date.
    if (e->kind == ExprKind::Literal && !e->isNull && e->type.isString() &&
        (t->kind == TypeKind::Date || t->kind == TypeKind::Timestamp)) {
      std::string v = e->value;
      if (t->kind == TypeKind::Timestamp && validDate(v)) v += " 00:00:00";
      if (t->kind == TypeKind::Date ? !validDate(v) : !validTimestamp(v)) {
        error(c->value, "cannot cast '" + e->value + "' to " + t->toString() +
                            (t->kind == TypeKind::Date ? " (expected YYYY-MM-DD)"
                                                       : " (expected YYYY-MM-DD hh:mm:ss)"));
        return makeNull(*t, loc);
      }
      return makeLiteral(v, *t, loc);
    }
    return cast(e, *t, loc);
  }
  if (auto* x = alt<P::ExtractExprContext>(ctx)) {
    std::string field = identText(x->field);
    if (!validIntervalUnit(field)) error(x->field, "cannot extract " + field);
    ExprPtr v = bindValue(x->source, scope, block);
    if (!v->type.isTemporal() && v->type.kind != TypeKind::Unknown)
      error(x->source, "extract needs a date or timestamp, got " + v->type.toString());
    return call("extract", {makeLiteral(field, Type::of(TypeKind::Varchar)), v}, loc);
  }
  if (auto* s = alt<P::SubstringExprContext>(ctx)) {
    std::vector<ExprPtr> args;
    if (s->value) {
      args = {bindValue(s->value, scope, block), bindValue(s->from, scope, block)};
      if (s->forLen) args.push_back(bindValue(s->forLen, scope, block));
    } else {
      for (auto* a : s->args) args.push_back(bindExpr(a, scope, block));
    }
    return bindFunction(ctx, "substring", std::move(args), false, false, nullptr, scope, block);
  }
  if (auto* t = alt<P::TrimExprContext>(ctx)) {
    // TRIM([BOTH | LEADING | TRAILING] [chars] FROM s): trim, ltrim, rtrim.
    const size_t side = t->side ? t->side->getType() : static_cast<size_t>(P::BOTH);
    std::vector<ExprPtr> args{bindValue(t->source, scope, block)};
    if (t->chars) args.push_back(bindValue(t->chars, scope, block));
    // The characters ' ' are the default: trim(s, ' ') is trim(s), one form for the normal form.
    if (args.size() == 2 && args[1]->kind == ExprKind::Literal && !args[1]->isNull &&
        args[1]->type.isString() && args[1]->value == " ")
      args.pop_back();
    const char* fn = side == P::LEADING ? "ltrim" : side == P::TRAILING ? "rtrim" : "trim";
    return bindFunction(ctx, fn, std::move(args), false, false, nullptr, scope, block);
  }
  if (auto* e = alt<P::ExistsExprContext>(ctx)) {
    BoundRel sub = bindQuery(e->sub, &scope, "sq");
    return makeSubquery(SubqueryKind::Exists, sub.plan, nullptr, Type::of(TypeKind::Boolean), loc);
  }
  if (auto* p = alt<P::ParenExprContext>(ctx)) {
    if (!p->sub && !p->more.empty()) {
      error(ctx,
            "a row value (a, b, ...) is only supported compared with =, <>, <=> or IN, or "
            "tested with IS [NOT] NULL");
      return makeNull({}, loc);
    }
    if (!p->sub) return bindExpr(p->inner, scope, block);
    BoundRel sub = bindQuery(p->sub, &scope, "sq");
    if (sub.plan->output.size() != 1) {
      error(ctx, "scalar subquery must return one column, it returns " +
                     std::to_string(sub.plan->output.size()));
      return makeNull({}, loc);
    }
    return makeSubquery(SubqueryKind::Scalar, sub.plan, nullptr, sub.plan->output[0].type, loc);
  }
  if (auto* u = alt<P::UnaryMinusContext>(ctx)) {
    ExprPtr e = bindPrimary(u->operand, scope, block);
    if (!e->type.isNumeric() && e->type.kind != TypeKind::Unknown &&
        e->type.kind != TypeKind::Interval)
      error(ctx, "unary " + u->op->getText() + " needs a number, got " + e->type.toString());
    if (u->op->getType() == P::PLUS) return e;
    if (e->kind == ExprKind::Literal && !e->isNull && e->type.isNumeric())
      return makeLiteral(e->value[0] == '-' ? e->value.substr(1) : "-" + e->value, e->type, loc);
    return call("negate", {e}, loc);
  }
  auto* n = alt<P::NameExprContext>(ctx);
  if (n->allColumns) {
    error(ctx, identText(n->name) + ".* stands for columns only as a whole select item");
    return makeNull({}, loc);
  }
  if (n->column) {
    std::string qual = identText(n->name);
    return resolveColumn(&qual, identText(n->column), loc, scope);
  }
  if (!n->call) return resolveColumn(nullptr, identText(n->name), loc, scope);
  std::string name = identText(n->name);
  ExprPtr filter;
  if (n->filterCond) {  // agg(...) FILTER (WHERE cond): no aggregate or window inside
    BlockState plain = block;
    plain.allowAggregates = plain.allowWindows = false;
    filter = bindExpr(n->filterCond, scope, plain);
    if (!isBooleanish(*filter))
      error(n->filterCond, "FILTER (WHERE ...) needs a boolean, got " + filter->type.toString());
  }
  if (n->star) return bindFunction(ctx, name, {}, false, true, n->window, scope, block, filter);
  bool distinct = n->quant && n->quant->getStart()->getType() == P::DISTINCT;
  BlockState inner = block;
  const FunctionInfo* fn = lookupFunction(name);
  if (fn && fn->kind == FunctionKind::Aggregate && !n->window) inner.allowAggregates = false;
  if (fn && (fn->kind == FunctionKind::Aggregate || fn->kind == FunctionKind::Window))
    inner.allowWindows = false;
  std::vector<ExprPtr> args;
  for (auto* a : n->args) args.push_back(bindExpr(a, scope, inner));
  return bindFunction(ctx, name, std::move(args), distinct, false, n->window, scope, block, filter);
}

}  // namespace rfguard
