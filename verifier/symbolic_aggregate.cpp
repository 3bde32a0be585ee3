// Grouping in the symbolic encoding (verifier/symbolic_encode.h): GROUP BY,
// grouping sets and aggregates without keys, one output row per group at its
// first member; the aggregate functions over a set of member rows (fold), which
// window frames use too (symbolic_order.cpp).
#include <algorithm>

#include "verifier/symbolic_encode.h"

namespace rfguard::sym {

Val Encoder::fold(const std::string& func, bool star, bool distinct,
                  const std::vector<z3::expr>& member, const std::vector<Val>& args) {
  const size_t rows = member.size();
  // The members that count: non-NULL argument, and with DISTINCT the first of its value.
  auto counts = [&](size_t j) {
    z3::expr in = member[j];
    if (star) return in;
    in = in && !args[j].null;
    if (distinct)
      for (size_t k = 0; k < j; ++k)
        in = in && !(member[k] && !args[k].null && equal(args[k], args[j]));
    return in;
  };
  z3::expr_vector terms(c_), ones(c_);
  z3::expr any = c_.bool_val(false);
  const bool real = rows && !star && args[0].v.is_real();
  const z3::expr zero = real ? c_.real_val(0) : c_.int_val(0);
  Val best{zero, c_.bool_val(true)};
  for (size_t j = 0; j < rows; ++j) {
    const z3::expr cnt = counts(j);
    any = any || cnt;
    ones.push_back(z3::ite(cnt, c_.int_val(1), c_.int_val(0)));
    if (func == "sum" || func == "avg") terms.push_back(z3::ite(cnt, args[j].v, zero));
    if (func == "min" || func == "max") {
      const z3::expr better = func == "min" ? args[j].v < best.v : args[j].v > best.v;
      const z3::expr take = cnt && (best.null || better);
      best = Val{z3::ite(take, args[j].v, best.v), best.null && !take};
    }
  }
  const z3::expr total = terms.empty() ? zero : z3::sum(terms);
  const z3::expr count = ones.empty() ? c_.int_val(0) : z3::sum(ones);
  if (func == "count") return Val{count, c_.bool_val(false)};
  if (func == "sum") return Val{total, !any};
  if (func == "avg")  // the evaluator's double: sum over count
    return Val{z3::ite(any, asReal(total) / asReal(count), c_.real_val(0)), !any};
  return best;
}

std::optional<Rel> Encoder::aggregate(const PlanNode& n) {
  auto in = plan(*n.children[0]);
  if (!in) return std::nullopt;
  const size_t rows = in->rows.size();
  // Per input row: its keys and each aggregate's argument.
  std::vector<std::vector<Val>> keys(rows), args(rows);
  std::vector<Kind> keyKinds, argKinds;
  for (const auto& ne : n.exprs) {
    auto k = kindOf(ne.expr->type);
    if (!k) return fail("a grouping key of type " + ne.expr->type.toString()), std::nullopt;
    keyKinds.push_back(*k);
  }
  for (const auto& a : n.aggs) {
    if (a.func == "grouping") {  // a constant per grouping set
      argKinds.push_back(Kind::Int);
      continue;
    }
    if (a.func != "count" && a.func != "sum" && a.func != "avg" && a.func != "min" &&
        a.func != "max")
      return fail("aggregate " + a.func + " at " + nodeRef(n)), std::nullopt;
    if (a.args.size() > 1)
      return fail("aggregate " + a.func + " of several arguments"), std::nullopt;
    auto k = a.args.empty() ? std::optional<Kind>(Kind::Int) : kindOf(a.args[0]->type);
    if (!k || ((a.func == "sum" || a.func == "avg") && *k == Kind::Text))
      return fail(a.func + " of a text value at " + nodeRef(n)), std::nullopt;
    argKinds.push_back(*k);
  }
  for (size_t i = 0; i < rows; ++i) {
    const Env env{&*in, &in->rows[i], nullptr};
    for (const auto& ne : n.exprs) {
      Val v{c_.int_val(0), c_.bool_val(false)};
      Kind k;
      if (!expr(*ne.expr, env, v, k)) return std::nullopt;
      keys[i].push_back(v);
    }
    for (const auto& a : n.aggs) {
      Val v{c_.int_val(0), c_.bool_val(false)};
      Kind k;
      if (a.func != "grouping" && !a.args.empty() && !expr(*a.args[0], env, v, k))
        return std::nullopt;
      args[i].push_back(v);
    }
  }
  Rel out;
  for (const auto& c : n.output) out.ids.push_back(c.id);
  out.kinds = keyKinds;
  for (size_t a = 0; a < n.aggs.size(); ++a)
    out.kinds.push_back(n.aggs[a].func == "count" || n.aggs[a].func == "grouping" ? Kind::Int
                        : n.aggs[a].func == "avg"                                 ? Kind::Real
                                                                                  : argKinds[a]);
  // Each grouping set in turn (GROUP BY alone is one set of every key): its keys
  // outside the set are NULL in its rows, grouping() a constant.
  std::vector<std::vector<int>> sets = n.groupingSets;
  if (sets.empty()) {
    sets.emplace_back();
    for (size_t i = 0; i < n.exprs.size(); ++i) sets.back().push_back(static_cast<int>(i));
  }
  for (const auto& set : sets) {
    auto sameKeys = [&](size_t i, size_t j) {
      z3::expr eq = c_.bool_val(true);
      for (int k : set)
        eq = eq && same(keys[i][static_cast<size_t>(k)], keys[j][static_cast<size_t>(k)]);
      return eq;
    };
    // One output row per group, at its first member; with no keys, exactly one
    // row (the empty set's, for no input too).
    const bool global = set.empty();
    const size_t groups = global ? 1 : rows;
    for (size_t g = 0; g < groups; ++g) {
      auto member = [&](size_t j) {
        return global ? in->rows[j].present : in->rows[j].present && sameKeys(g, j);
      };
      z3::expr present = c_.bool_val(true);
      if (!global) {
        present = in->rows[g].present;
        for (size_t j = 0; j < g; ++j) present = present && !member(j);
      }
      Row r{present, {}};
      for (size_t k = 0; k < n.exprs.size(); ++k)
        r.cols.push_back(std::find(set.begin(), set.end(), static_cast<int>(k)) != set.end()
                             ? keys[g][k]
                             : Val{c_.int_val(0), c_.bool_val(true)});
      std::vector<z3::expr> members;
      for (size_t j = 0; j < rows; ++j) members.push_back(member(j));
      for (size_t a = 0; a < n.aggs.size(); ++a) {
        const AggCall& call = n.aggs[a];
        if (call.func == "grouping") {
          const auto bits = groupingBits(n, call, set);
          if (!bits) return fail("grouping() of an expression that is not a key"), std::nullopt;
          r.cols.push_back(Val{c_.int_val(*bits), c_.bool_val(false)});
          continue;
        }
        std::vector<Val> column;
        for (size_t j = 0; j < rows; ++j) column.push_back(args[j][a]);
        r.cols.push_back(fold(call.func, call.args.empty(), call.distinct, members, column));
      }
      out.rows.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace rfguard::sym
