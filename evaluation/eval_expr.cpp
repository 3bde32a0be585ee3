// Expressions in three-valued logic, and the contents producers publish.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>

#include "evaluation/eval_internal.h"

namespace rfguard::rt {

// The comparisons by name, deliberately independent of ir/comparison.h: the
// evaluator is the oracle the comparison facts are tested against
// (tests/unit/comparison_test.cpp), so it does not read them.
Form formOf(const std::string& f) {
  static const std::map<std::string, Form> kForms = {{"and", Form::And},
                                                     {"or", Form::Or},
                                                     {"case", Form::Case},
                                                     {"coalesce", Form::Coalesce},
                                                     {"ifnull", Form::Coalesce},
                                                     {"nvl", Form::Coalesce},
                                                     {"<=>", Form::NullSafe},
                                                     {"is_distinct_from", Form::NullSafe},
                                                     {"is_null", Form::IsNull},
                                                     {"is_not_null", Form::IsNotNull},
                                                     {"nullif", Form::Nullif},
                                                     {"in", Form::In},
                                                     {"concat", Form::Concat},
                                                     {"row", Form::Row},
                                                     {"=", Form::Eq},
                                                     {"<>", Form::Ne},
                                                     {"<", Form::Lt},
                                                     {"<=", Form::Le},
                                                     {">", Form::Gt},
                                                     {">=", Form::Ge}};
  auto it = kForms.find(f);
  return it == kForms.end() ? Form::Other : it->second;
}

bool Evaluator::truth(const Expr& e, const Ctx& ctx, bool* isTrue) {
  auto v = expr(e, ctx);
  if (!v) return false;
  if (!isNull(*v) && !std::holds_alternative<int64_t>(*v)) {
    error = "a condition did not evaluate to a boolean";
    return false;
  }
  *isTrue = !isNull(*v) && std::get<int64_t>(*v) != 0;
  return true;
}

const Value* Evaluator::column(const Expr& e, const Ctx& ctx) {
  for (const Ctx* c = &ctx; c; c = c->outer) {
    if (!c->index) continue;
    bool fresh;
    size_t& position = cache_->resolved.at(&e, c->index, fresh);
    if (fresh) {
      auto it = c->index->find(e.name);
      position = it == c->index->end() ? SIZE_MAX : it->second;
    }
    if (position != SIZE_MAX) return &c->at(position);
  }
  error = "column " + e.name + " is not in scope";
  return nullptr;
}

const Value* Evaluator::operand(const Expr& e, const Ctx& ctx, std::optional<Value>& held) {
  if (e.kind == ExprKind::Column) return column(e, ctx);
  held = expr(e, ctx);
  return held ? &*held : nullptr;
}

std::optional<Value> Evaluator::expr(const Expr& e, const Ctx& ctx) {
  switch (e.kind) {
    case ExprKind::Column:
      if (const Value* v = column(e, ctx)) return *v;
      return std::nullopt;
    case ExprKind::Literal: {  // parsed once per plan
      auto it = cache_->literals.find(&e);
      if (it != cache_->literals.end()) return it->second;
      auto v = literalValue(e, &error);
      if (v) cache_->literals.emplace(&e, *v);
      return v;
    }
    case ExprKind::Cast: {
      auto v = expr(*e.args[0], ctx);
      return v ? castTo(*v, e.type, &error) : std::nullopt;
    }
    case ExprKind::Subquery: {
      auto rel = node(*e.plan, &ctx);
      if (!rel) return std::nullopt;
      if (e.subquery == SubqueryKind::Exists) return boolean(!rel->rows.empty());
      if (e.subquery == SubqueryKind::Scalar) {
        if (rel->rows.size() > 1) {
          error = kQueryFails + "a scalar subquery returned more than one row";
          return std::nullopt;
        }
        return rel->rows.empty() ? null() : rel->rows[0][0];
      }
      auto x = expr(*e.args[0], ctx);  // x IN (subquery)
      if (!x) return std::nullopt;
      if (isNull(*x)) return rel->rows.empty() ? boolean(false) : null();
      bool sawNull = false;
      for (const auto& r : rel->rows) {
        auto c = compare(*x, r[0]);
        if (!c) sawNull = true;
        if (c && *c == 0) return boolean(true);
      }
      return sawNull ? null() : boolean(false);
    }
    case ExprKind::Call:
      break;
  }
  const std::string& f = e.name;
  bool fresh;
  size_t& known = cache_->forms.at(&e, nullptr, fresh);
  if (fresh) known = static_cast<size_t>(formOf(f));
  const Form form = static_cast<Form>(known);
  if (form >= Form::Eq && e.args.size() == 2) {  // no argument vector: one per joined pair
    std::optional<Value> xs, ys;                 // computed operands; columns are read in place
    const Value* x = operand(*e.args[0], ctx, xs);
    if (!x) return std::nullopt;
    const Value* y = operand(*e.args[1], ctx, ys);
    if (!y) return std::nullopt;
    if (isNull(*x) || isNull(*y)) return null();
    const int c = *compare(*x, *y);
    switch (form) {
      case Form::Eq:
        return boolean(c == 0);
      case Form::Ne:
        return boolean(c != 0);
      case Form::Lt:
        return boolean(c < 0);
      case Form::Le:
        return boolean(c <= 0);
      case Form::Gt:
        return boolean(c > 0);
      default:
        return boolean(c >= 0);
    }
  }
  if (form == Form::And || form == Form::Or) {
    bool sawNull = false;
    for (const auto& a : e.args) {
      auto v = expr(*a, ctx);
      if (!v) return std::nullopt;
      if (isNull(*v)) {
        sawNull = true;
        continue;
      }
      if (!std::holds_alternative<int64_t>(*v))
        return error = "AND/OR of a non-boolean", std::nullopt;
      bool b = std::get<int64_t>(*v) != 0;
      if (form == Form::And && !b) return boolean(false);
      if (form == Form::Or && b) return boolean(true);
    }
    return sawNull ? null() : boolean(form == Form::And);
  }
  if (form == Form::Case) {
    size_t i = 0;
    for (; i + 1 < e.args.size(); i += 2) {
      bool t;
      if (!truth(*e.args[i], ctx, &t)) return std::nullopt;
      if (t) return expr(*e.args[i + 1], ctx);
    }
    return i < e.args.size() ? expr(*e.args[i], ctx) : null();
  }
  std::vector<Value> a;
  a.reserve(e.args.size());
  for (const auto& x : e.args) {
    auto v = expr(*x, ctx);
    if (!v) return std::nullopt;
    a.push_back(std::move(*v));
  }
  if (form == Form::Other) return applyFunction(f, a, e.type, &error);
  if (form == Form::Coalesce) {
    for (const auto& v : a)
      if (!isNull(v)) return v;
    return null();
  }
  if (form == Form::NullSafe) {
    bool same =
        isNull(a[0]) || isNull(a[1]) ? isNull(a[0]) && isNull(a[1]) : *compare(a[0], a[1]) == 0;
    return boolean(f == "<=>" ? same : !same);
  }
  if (form == Form::IsNull) return boolean(isNull(a[0]));
  if (form == Form::IsNotNull) return boolean(!isNull(a[0]));
  if (form == Form::Nullif) {
    if (isNull(a[0]) || isNull(a[1])) return a[0];
    return *compare(a[0], a[1]) == 0 ? null() : a[0];
  }
  if (form == Form::In) {
    if (isNull(a[0])) return null();
    bool sawNull = false;
    for (size_t i = 1; i < a.size(); ++i) {
      auto c = compare(a[0], a[i]);
      if (!c) sawNull = true;
      if (c && *c == 0) return boolean(true);
    }
    return sawNull ? null() : boolean(false);
  }
  if (form == Form::Concat) {
    std::string out;
    for (const auto& v : a) {
      if (isNull(v)) continue;
      auto s = castTo(v, Type::of(TypeKind::Varchar), &error);
      out += std::get<std::string>(*s);
    }
    return Value(out);
  }
  if (form == Form::Row) {  // a composite key, strict: its canonical encoding
    for (const auto& v : a)
      if (isNull(v)) return null();
    std::string key = "\x01row";
    for (const auto& v : a) key += valueKey(v);
    return Value(key);
  }
  return applyFunction(f, a, e.type, &error);
}

bool FilterState::accept(const Value& v) const {
  const CmpOp op = filter->op;
  if (filter->acceptNull && isNull(v)) return true;
  if (topN) {
    if (topNAll) return true;
    if (isNull(v)) return filter->nullAllowed || isNull(*threshold);
    if (isNull(*threshold)) return !filter->nullAllowed;
    int c = *compare(v, *threshold);
    return op == CmpOp::Le ? c <= 0 : c >= 0;
  }
  if (built) {  // keyOf changes only doubles: the rest are looked up as they are
    const double* x = std::get_if<double>(&v);
    if (built->accept(x ? keyOf(v) : v)) return true;
    // One comparison for keys and values: past 2^53 an integer and a double are
    // equal when the integer rounds to the double (compare() in values.cpp).
    if (built->kind() != Kind::In) return false;
    auto has = [](const std::vector<double>& keys, double d) {
      return std::binary_search(keys.begin(), keys.end(), d);
    };
    if (x)
      return std::fabs(*x) >= kExactDoubles && (has(bigFromInts, *x) || has(bigFromDoubles, *x));
    if (auto i = std::get_if<int64_t>(&v)) {
      const double d = static_cast<double>(*i);
      return std::fabs(d) >= kExactDoubles && has(bigFromDoubles, d);
    }
    return false;
  }
  // A scalar filter p OP s: NULL never passes, nor anything against an empty build side.
  if (isNull(v) || empty) return false;
  const bool below = op == CmpOp::Lt || op == CmpOp::Le;
  int c = *compare(v, below ? *max : *min);
  switch (op) {
    case CmpOp::Lt:
      return c < 0;
    case CmpOp::Le:
      return c <= 0;
    case CmpOp::Gt:
      return c > 0;
    default:
      return c >= 0;
  }
}

Value FilterState::keyOf(const Value& v) {
  if (auto x = std::get_if<double>(&v))
    if (std::floor(*x) == *x && std::fabs(*x) < kExactDoubles)
      return Value(static_cast<int64_t>(*x));
  return v;
}

void FilterState::noteBigKey(const Value& key) {
  if (auto i = std::get_if<int64_t>(&key)) {
    const double d = static_cast<double>(*i);
    if (std::fabs(d) >= kExactDoubles) bigFromInts.push_back(d);
  } else if (auto x = std::get_if<double>(&key)) {
    if (std::fabs(*x) >= kExactDoubles) bigFromDoubles.push_back(*x);
  }
}

std::shared_ptr<EvalCache> newEvalCache() {
  return std::make_shared<EvalCache>();
}

const Index& Evaluator::indexFor(const PlanNode& n) {
  auto it = cache_->output.find(&n);
  if (it != cache_->output.end()) return it->second;
  Index& m = cache_->output[&n];
  for (size_t i = 0; i < n.output.size(); ++i) m[n.output[i].id] = i;
  return m;
}

const Index& Evaluator::joinIndexFor(const PlanNode& join) {
  auto it = cache_->joined.find(&join);
  if (it != cache_->joined.end()) return it->second;
  Index& m = cache_->joined[&join];
  size_t i = 0;
  for (const auto& c : join.children)
    for (const auto& col : c->output) m[col.id] = i++;
  return m;
}

bool Evaluator::identityProject(const PlanNode& project, const Index& index) {
  auto [it, fresh] = cache_->identity.try_emplace(&project, false);
  if (!fresh) return it->second;
  const size_t width = project.children[0]->output.size();
  bool same = project.exprs.size() == width && index.size() == width;
  for (size_t i = 0; same && i < project.exprs.size(); ++i) {
    const Expr& e = *project.exprs[i].expr;
    auto at = e.kind == ExprKind::Column ? index.find(e.name) : index.end();
    same = at != index.end() && at->second == i;
  }
  return it->second = same;
}

void Evaluator::publish(const PlanNode& join, size_t input, const Relation& build,
                        const Ctx* outer) {
  const Index& index = indexFor(*join.children[input]);
  for (const auto& f : join.runtimeFilters) {
    if (!applies(f.id)) continue;  // the original query publishes nothing
    if (filterBuildInput(join, f) != static_cast<int>(input)) continue;
    if (!isEquality(f.op)) {  // a scalar filter: the bounds of the build rows
      std::optional<Value> min, max;
      for (const auto& row : build.rows) {
        std::optional<Value> held;
        const Value* v = operand(*f.build, Ctx{&index, &row, outer}, held);
        if (!v) return;
        if (isNull(*v)) continue;
        if (!min) min = max = *v;
        if (*compare(*v, *min) < 0) min = *v;
        if (*compare(*v, *max) > 0) max = *v;
      }
      FilterState& s = publishing(f);
      s.empty = !min;
      s.min = std::move(min);
      s.max = std::move(max);
      continue;
    }
    // The content modes of docs/design.md section 6 as the runtime builds them: exact is
    // an IN filter of every key (no limit: the model checks contents, not the
    // degradation), false-positive the same with one key D lacks, MinMax the
    // runtime's MinMax (TOP where it has no order, as on floating point).
    FilterLimits exact;
    exact.maxInKeys = SIZE_MAX;
    const FilterKind kind = opt_.content == Content::MinMax ? FilterKind::MinMax : FilterKind::In;
    FilterBuilder b(runtimeKind(kind), f.nullAllowed, exact);
    const bool falsePositive = opt_.content == Content::FalsePositive;
    b.reserve(build.rows.size());
    std::vector<std::string> inD;  // false-positive: D's keys, encoded
    bool sawNull = false, empty = true;
    FilterState big;  // the keys past 2^53, moved into the published state below
    for (const auto& row : build.rows) {
      std::optional<Value> held;
      const Value* v = operand(*f.build, Ctx{&index, &row, outer}, held);
      if (!v) return;
      if (isNull(*v)) {
        sawNull = true;
        continue;
      }
      empty = false;
      Value key = FilterState::keyOf(*v);
      if (falsePositive) inD.push_back(encode(KeyView(&key, 1)));
      big.noteBigKey(key);
      b.add(key);
    }
    if (sawNull) b.add(Value(std::monostate{}));  // kept only by a null-safe filter
    if (falsePositive) {
      // The first candidate of the key's kind (text or number) that D lacks.
      std::sort(inD.begin(), inD.end());
      const bool text = f.build->type.isString();
      for (const auto& x : opt_.extras) {
        if (std::holds_alternative<std::string>(x) != text) continue;
        Value key = FilterState::keyOf(x);
        if (std::binary_search(inD.begin(), inD.end(), encode(KeyView(&key, 1)))) continue;
        big.noteBigKey(key);
        b.add(key);
        break;
      }
    }
    FilterState& s = publishing(f);
    s.empty = empty;
    s.perWorker = opt_.content == Content::Workers && localFilterPerWorker(join, f);
    s.built = b.release();
    s.bigFromInts = std::move(big.bigFromInts);
    s.bigFromDoubles = std::move(big.bigFromDoubles);
    std::sort(s.bigFromInts.begin(), s.bigFromInts.end());
    std::sort(s.bigFromDoubles.begin(), s.bigFromDoubles.end());
  }
}

void Evaluator::publishTopN(const RuntimeFilter& f, const PlanNode& limit, const Relation& sorted) {
  std::optional<Value> threshold;  // none: fewer rows than the limit, keep everything
  size_t need = static_cast<size_t>(limit.offset + *limit.limit);
  if (sorted.rows.size() >= need && need > 0) {
    const Index& index = indexFor(*limit.children[0]);
    Ctx ctx{&index, &sorted.rows[need - 1], nullptr};
    threshold = expr(*f.probe, ctx);
    if (!threshold) return;
  }
  FilterState& s = publishing(f);
  s.topN = true;
  s.topNAll = !threshold;
  s.threshold = std::move(threshold);
}

}  // namespace rfguard::rt
