// Binding of function calls: catalog look-up, arity, aggregates and windows.
#include "grammar/binder.h"
#include "grammar/suggest.h"
#include "ir/functions.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

SortKey Binder::bindSortItem(P::SortItemContext* ctx, ExprPtr e) {
  SortKey k;
  k.expr = std::move(e);
  k.ascending = !(ctx->ordering && ctx->ordering->getType() == P::DESC);
  // Unless given, the dialect's order: NULLs as the largest value (last
  // ascending, first descending), as the smallest, or last either way.
  const NullOrder order = dialectRules(dialect).nullOrder;
  k.nullsFirst = ctx->nullOrder                 ? ctx->nullOrder->getType() == P::FIRST
                 : order == NullOrder::Largest  ? !k.ascending
                 : order == NullOrder::Smallest ? k.ascending
                                                : false;
  return k;
}

std::optional<WindowFrame> Binder::bindFrame(P::WindowFrameContext* ctx,
                                             const std::vector<SortKey>& orderBy) {
  using K = FrameBound::Kind;
  bool ok = true;
  auto bound = [&](P::FrameBoundContext* b) {
    FrameBound out;
    const bool preceding = b->side && b->side->getType() == P::PRECEDING;
    // UNBOUNDED side | CURRENT ROW | INTEGER_VALUE side: the first token says which.
    const size_t first = b->getStart()->getType();
    if (first == P::CURRENT) {
      out.kind = K::CurrentRow;
    } else if (first == P::UNBOUNDED) {
      out.kind = preceding ? K::UnboundedPreceding : K::UnboundedFollowing;
    } else {
      out.kind = preceding ? K::Preceding : K::Following;
      const std::string digits = b->getStart()->getText();
      auto offset = parseFrameOffset(digits);
      if (!offset) {
        error(b, "frame offset " + digits + " is out of range (at most " +
                     std::to_string(kMaxFrameOffset) + ")");
        ok = false;
      }
      out.offset = offset.value_or(0);
    }
    return out;
  };
  WindowFrame frame;
  frame.rows = ctx->unit->getType() == P::ROWS;
  frame.start = bound(ctx->lower);
  frame.end = ctx->upper ? bound(ctx->upper) : FrameBound{K::CurrentRow, 0};
  if (!ok) return std::nullopt;
  if (auto problem = frameProblem(frame, orderBy)) {
    error(ctx, *problem);
    return std::nullopt;
  }
  return frame;
}

ExprPtr Binder::bindFunction(P::PrimaryExprContext* ctx, const std::string& name,
                             std::vector<ExprPtr> args, bool distinct, bool star,
                             P::OverContext* over, const Scope& scope, BlockState& block,
                             ExprPtr filter) {
  SourceLoc loc = locOf(ctx);
  const FunctionInfo* fn = lookupFunction(name);
  if (!fn || fn->kind == FunctionKind::Operator) {
    std::vector<std::string> names;
    for (const auto& f : allFunctions())
      if (f.kind != FunctionKind::Operator) names.push_back(f.name);
    error(ctx, "unknown function " + name + "()" + didYouMean(name, names));
    return makeNull({}, loc);
  }
  if (std::string(fn->name) == "count" && distinct && args.size() > 1) {
    // COUNT(DISTINCT a, b): the distinct rows (a, b) with no NULL, counted as
    // the distinct values of one injective text of them (each part's length,
    // ':', the part): CASE WHEN a IS NOT NULL AND b IS NOT NULL THEN ... END.
    // Parts whose text is not one to one with their value (floating point,
    // decimals) are refused.
    std::vector<ExprPtr> notNull;
    ExprPtr text;
    const Type varchar = Type::of(TypeKind::Varchar);
    for (const auto& a : args) {
      const Type& t = a->type;
      if (!(t.isInteger() || t.isString() || t.kind == TypeKind::Date ||
            t.kind == TypeKind::Boolean)) {
        error(ctx, "COUNT(DISTINCT a, b, ...) takes integers, strings, dates and booleans, got " +
                       t.toString());
        return makeNull({}, loc);
      }
      notNull.push_back(call("is_not_null", {a}, loc));
      ExprPtr part = cast(a, varchar, loc);
      ExprPtr piece = call(
          "||",
          {call("||",
                {cast(call("length", {part}, loc), varchar, loc), makeLiteral(":", varchar, loc)},
                loc),
           part},
          loc);
      text = text ? call("||", {text, piece}, loc) : piece;
    }
    args = {call("case", {makeAnd(notNull), text}, loc)};
  }
  if (star && std::string(fn->name) != "count") {
    error(ctx, "only count takes *, not " + name);
    return makeNull({}, loc);
  }
  int n = static_cast<int>(args.size());
  if (!star && (n < fn->minArgs || (fn->maxArgs >= 0 && n > fn->maxArgs))) {
    error(ctx, std::string(fn->name) + "() takes " + arityText(*fn) + ", got " + std::to_string(n));
    return makeNull({}, loc);
  }
  if ((fn->ret == ReturnRule::Sum || fn->ret == ReturnRule::Average ||
       fn->ret == ReturnRule::Deviation) &&
      !args.empty() && !args[0]->type.isNumeric() && args[0]->type.kind != TypeKind::Unknown) {
    error(ctx, std::string(fn->name) + "() needs a number, got " + args[0]->type.toString());
    return makeNull({}, loc);
  }
  const bool grouping = std::string(fn->name) == "grouping";
  const DialectRules& rules = dialectRules(dialect);
  if (std::string(fn->name) == "concat" && !rules.concatSkipsNull) {
    error(ctx, std::string("concat() under --dialect ") + rules.name +
                   " depends on the function library (NULL for a NULL argument in MySQL's and "
                   "BigQuery's, skipped in PostgreSQL's): write || with coalesce");
    return makeNull({}, loc);
  }
  // Calcite's AVG of an integer is an integer: SUM / COUNT, truncated.
  const bool truncatedAverage = std::string(fn->name) == "avg" &&
                                rules.integerAverage == IntegerAverage::Truncated &&
                                !args.empty() && args[0]->type.isInteger();
  // single_value counts rows, NULL ones too: a FILTER's CASE would count the
  // rows it leaves out, DISTINCT would hide copies.
  const bool single = std::string(fn->name) == "single_value";
  if (single && (filter || distinct)) {
    error(ctx, std::string("single_value() takes no ") + (filter ? "FILTER" : "DISTINCT"));
    return makeNull({}, loc);
  }
  if (filter) {
    // agg(x) FILTER (WHERE p) aggregates the rows where p holds: agg(CASE
    // WHEN p THEN x END), as aggregates skip NULLs; count(*) counts CASE
    // WHEN p THEN 1 END. DISTINCT and OVER apply to what is left.
    if (fn->kind != FunctionKind::Aggregate || grouping) {
      error(ctx, "FILTER (WHERE ...) applies to aggregate functions, not " + std::string(fn->name) +
                     "()");
      return makeNull({}, loc);
    }
    ExprPtr value = star ? makeLiteral("1", Type::of(TypeKind::Int), loc) : args[0];
    args = {call("case", {filter, value}, loc)};
    star = false;
  }
  if (distinct && (grouping || fn->ret == ReturnRule::Deviation)) {
    error(ctx, "DISTINCT is not supported in " + std::string(fn->name) + "()");
    return makeNull({}, loc);
  }
  if (over) {
    if (grouping) {
      error(ctx, "grouping() is not a window function");
      return makeNull({}, loc);
    }
    if (fn->kind != FunctionKind::Window && fn->kind != FunctionKind::Aggregate) {
      error(ctx, std::string(fn->name) + "() is not a window function");
      return makeNull({}, loc);
    }
    if (!block.allowWindows || !block.windows) {
      error(ctx, "window functions are not allowed here");
      return makeNull({}, loc);
    }
    if (truncatedAverage) {
      error(ctx, std::string("AVG of an integer over a window under --dialect ") + rules.name +
                     " (an integer, truncated) is not supported");
      return makeNull({}, loc);
    }
    WindowCall w;
    w.func = fn->name;
    w.args = args;
    BlockState inner = block;
    inner.allowWindows = false;
    for (auto* p : over->partitions) w.partitionBy.push_back(bindExpr(p, scope, inner));
    for (auto* s : over->orders)
      w.orderBy.push_back(bindSortItem(s, bindExpr(s->value, scope, inner)));
    // A ranking function's frame is ignored (SQL's rule; PostgreSQL and DuckDB do so).
    if (auto* f = over->frame; f && fn->kind == FunctionKind::Aggregate) {
      auto frame = bindFrame(f, w.orderBy);
      if (!frame) return makeNull({}, loc);
      w.frame = *frame;
    }
    w.type = returnType(*fn, args);
    w.name = block.windowQualifier + "." + fn->name + std::to_string(block.windows->size() + 1);
    block.windows->push_back(w);
    bool nullable = fn->policy != NullPolicy::NeverNull;
    return makeColumn(w.name, w.type, nullable, loc);
  }
  if (fn->kind == FunctionKind::Window) {
    error(ctx, std::string(fn->name) + "() needs an OVER clause");
    return makeNull({}, loc);
  }
  if (fn->kind == FunctionKind::Aggregate) {
    if (!block.allowAggregates) {
      error(ctx, "aggregate function " + std::string(fn->name) + "() is not allowed here");
      return makeNull({}, loc);
    }
    if (truncatedAverage) {
      ExprPtr sum = makeAggregate("sum", args, distinct, loc);
      ExprPtr count = makeAggregate("count", args, distinct, loc);
      return cast(divide("/", sum, count, loc), args[0]->type, loc);
    }
    return makeAggregate(fn->name, std::move(args), distinct, loc);
  }
  if (distinct) error(ctx, "DISTINCT is only allowed in aggregate functions");
  return call(fn->name, std::move(args), loc);
}

}  // namespace rfguard
