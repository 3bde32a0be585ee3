// Aggregates (with grouping sets) and window functions of the evaluator.
#include <algorithm>
#include <cmath>

#include "evaluation/eval_internal.h"
#include "ir/functions.h"
#include "ir/window_order.h"

namespace rfguard::rt {

namespace {

/// var_samp, var_pop and the stddev forms, by the formula their SQL forms spell
/// for SQLite and DuckDB (verifier/plan_sql.cpp), in the same order of
/// operations, so that the oracle's doubles equal these:
/// (sum(x*x) - sum(x) * sum(x) / n) / (n - 1), or / n for the population.
std::optional<Value> deviation(const std::string& f, const std::vector<Value>& xs) {
  const bool sample = f == "var_samp" || f == "stddev_samp";
  const size_t n = xs.size();
  if (n == 0 || (sample && n < 2)) return null();
  double s = 0, ss = 0;
  for (const auto& v : xs) {
    const double x = asDouble(v);
    s += x;
    ss += x * x;
  }
  const double d = static_cast<double>(n);
  double var = (ss - s * s / d) / (sample ? d - 1 : d);
  if (f == "var_samp" || f == "var_pop") return Value(var);
  return Value(std::sqrt(var));
}

/// count, sum, avg, min, max over the argument values of a group (NULLs
/// skipped); any_value and single_value where their value is determined.
std::optional<Value> aggregate(const std::string& f, bool star, bool distinct,
                               std::vector<Value> vals, size_t rows, std::string* error) {
  if (star) return Value(static_cast<int64_t>(rows));
  if (f == "single_value") {
    if (rows > 1) {
      *error = kQueryFails + "single_value() over a group of " + std::to_string(rows) + " rows";
      return std::nullopt;
    }
    return vals.empty() ? null() : vals[0];
  }
  if (f == "any_value") {
    for (const auto& v : vals)
      if (rowKey({v}) != rowKey({vals[0]})) {
        *error = kQueryFails +
                 "any_value() over a group of different values (or NULL and a value): which "
                 "one is returned is the engine's choice";
        return std::nullopt;
      }
    return vals.empty() ? null() : vals[0];
  }
  std::vector<Value> xs;
  std::set<std::string> seen;
  for (auto& v : vals)
    if (!isNull(v) && (!distinct || seen.insert(valueKey(v)).second)) xs.push_back(v);
  if (f == "count") return Value(static_cast<int64_t>(xs.size()));
  if (xs.empty()) return null();
  if (f == "min" || f == "max") {
    Value best = xs[0];
    for (const auto& v : xs) {
      int c = *compare(v, best);
      if (f == "min" ? c < 0 : c > 0) best = v;
    }
    return best;
  }
  if (f == "sum" || f == "avg") {
    bool ints = true;
    for (const auto& v : xs) ints = ints && std::holds_alternative<int64_t>(v);
    if (f == "sum" && ints) {
      int64_t s = 0;
      for (const auto& v : xs) s += std::get<int64_t>(v);
      return Value(s);
    }
    double s = 0;
    for (const auto& v : xs)
      s += std::holds_alternative<int64_t>(v) ? static_cast<double>(std::get<int64_t>(v))
                                              : std::get<double>(v);
    return Value(f == "sum" ? s : s / static_cast<double>(xs.size()));
  }
  if (const FunctionInfo* fn = lookupFunction(f); fn && fn->ret == ReturnRule::Deviation)
    return deviation(f, xs);
  *error = "aggregate " + f + " is not supported";
  return std::nullopt;
}

/// The frame of the row at sorted position `r` of a partition of `size` rows:
/// positions [lo, hi). `before(a, b)`: position a sorts strictly before b;
/// `key(q)`: the single ORDER BY value at q (RANGE with an offset only).
template <typename Before, typename Key>
std::pair<size_t, size_t> frameRows(const WindowCall& wc, size_t r, size_t size, Before before,
                                    Key key) {
  using K = FrameBound::Kind;
  auto firstPeer = [&] {
    size_t q = r;
    while (q > 0 && !before(q - 1, r)) --q;
    return q;
  };
  auto afterLastPeer = [&] {
    size_t q = r + 1;
    while (q < size && !before(r, q)) ++q;
    return q;
  };
  if (!wc.frame) {  // SQL's default: the partition, or with ORDER BY up to the last peer
    return {0, wc.orderBy.empty() ? size : afterLastPeer()};
  }
  const WindowFrame& f = *wc.frame;
  const auto n = [](const FrameBound& b) { return static_cast<size_t>(b.offset); };
  size_t lo = 0, hi = size;
  if (f.rows) {
    switch (f.start.kind) {
      case K::UnboundedPreceding:
        lo = 0;
        break;
      case K::Preceding:
        lo = r >= n(f.start) ? r - n(f.start) : 0;
        break;
      case K::CurrentRow:
        lo = r;
        break;
      case K::Following:
        lo = std::min(size, r + n(f.start));
        break;
      case K::UnboundedFollowing:
        lo = size;
        break;
    }
    switch (f.end.kind) {
      case K::UnboundedPreceding:
        hi = 0;
        break;
      case K::Preceding:
        hi = r + 1 >= n(f.end) ? r + 1 - n(f.end) : 0;
        break;
      case K::CurrentRow:
        hi = r + 1;
        break;
      case K::Following:
        hi = std::min(size, r + 1 + n(f.end));
        break;
      case K::UnboundedFollowing:
        hi = size;
        break;
    }
    return {lo, std::max(lo, hi)};
  }
  // RANGE: an offset bound compares the one numeric ORDER BY value (PRECEDING
  // is towards the start of the order, so smaller values when ascending). A row
  // whose value is NULL has its NULL peers as the frame of an offset bound.
  const bool ascending = wc.orderBy.empty() || wc.orderBy[0].ascending;
  const Value& v = key(r);
  auto within = [&](size_t q, double limit, bool atLeast) {
    const Value& x = key(q);
    if (isNull(x)) return false;
    const double d = asDouble(x);
    return atLeast ? d >= limit : d <= limit;
  };
  auto offsetLimit = [&](const FrameBound& b) {
    const double sign = (b.kind == K::Preceding) == ascending ? -1.0 : 1.0;
    return asDouble(v) + sign * static_cast<double>(b.offset);
  };
  switch (f.start.kind) {
    case K::UnboundedPreceding:
      lo = 0;
      break;
    case K::CurrentRow:
      lo = firstPeer();
      break;
    case K::UnboundedFollowing:
      lo = size;
      break;
    default:
      if (isNull(v)) {
        lo = firstPeer();
      } else {
        lo = 0;
        while (lo < size && !within(lo, offsetLimit(f.start), ascending)) ++lo;
      }
  }
  switch (f.end.kind) {
    case K::UnboundedPreceding:
      hi = 0;
      break;
    case K::CurrentRow:
      hi = afterLastPeer();
      break;
    case K::UnboundedFollowing:
      hi = size;
      break;
    default:
      if (isNull(v)) {
        hi = afterLastPeer();
      } else {
        hi = size;
        while (hi > 0 && !within(hi - 1, offsetLimit(f.end), !ascending)) --hi;
      }
  }
  return {lo, std::max(lo, hi)};
}

}  // namespace

std::optional<Relation> Evaluator::aggregateOrWindow(const PlanNode& n, const Ctx* outer) {
  auto in = node(*n.children[0], outer);
  if (!in) return std::nullopt;
  Relation out;
  const Index& index = indexFor(*n.children[0]);
  auto eval = [&](const ExprPtr& e, const Row& row) { return expr(*e, Ctx{&index, &row, outer}); };

  if (n.op == PlanOp::Aggregate) {
    std::vector<std::vector<int>> sets = n.groupingSets;
    if (sets.empty()) {
      sets.emplace_back();
      for (size_t i = 0; i < n.exprs.size(); ++i) sets.back().push_back(static_cast<int>(i));
    }
    for (const auto& set : sets) {
      std::map<std::string, std::pair<std::vector<Value>, std::vector<const Row*>>> groups;
      std::vector<std::string> order;
      for (const auto& row : in->rows) {
        std::vector<Value> k(n.exprs.size(), null());
        for (int i : set) {
          auto v = eval(n.exprs[static_cast<size_t>(i)].expr, row);
          if (!v) return std::nullopt;
          k[static_cast<size_t>(i)] = *v;
        }
        std::string gk = rowKey(k);
        if (!groups.count(gk)) order.push_back(gk);
        auto& g = groups[gk];
        g.first = k;
        g.second.push_back(&row);
      }
      // The empty grouping set (a global aggregate, ROLLUP's total) has a row even for no input.
      if (set.empty() && groups.empty()) {
        order.push_back("");
        groups[""] = {std::vector<Value>(n.exprs.size(), null()), {}};
      }
      for (const auto& gk : order) {
        auto& [k, rows] = groups[gk];
        Row r = k;
        for (const auto& a : n.aggs) {
          if (a.func == "grouping") {
            auto bits = groupingBits(n, a, set);
            if (!bits) {
              error = "grouping() of an expression that is not a key";
              return std::nullopt;
            }
            r.push_back(Value(*bits));
            continue;
          }
          std::vector<Value> vals;
          for (const Row* row : rows) {
            if (a.args.empty()) break;
            auto v = eval(a.args[0], *row);
            if (!v) return std::nullopt;
            vals.push_back(*v);
          }
          auto v = aggregate(a.func, a.args.empty(), a.distinct, vals, rows.size(), &error);
          if (!v) return std::nullopt;
          r.push_back(*v);
        }
        out.rows.push_back(std::move(r));
      }
    }
    return out;
  }

  // Window: every input row, plus one value per window function.
  std::vector<Row> rows = in->rows;
  for (auto& r : rows) r.resize(r.size() + n.windows.size(), null());
  const size_t base = n.children[0]->output.size();
  for (size_t w = 0; w < n.windows.size(); ++w) {
    const WindowCall& wc = n.windows[w];
    std::map<std::string, std::vector<size_t>> parts;
    for (size_t i = 0; i < in->rows.size(); ++i) {
      std::vector<Value> k;
      for (const auto& p : wc.partitionBy) {
        auto v = eval(p, in->rows[i]);
        if (!v) return std::nullopt;
        k.push_back(*v);
      }
      parts[rowKey(k)].push_back(i);
    }
    for (auto& part : parts) {
      const auto& idx = part.second;  // a plain reference: lambdas below capture it
      std::vector<std::vector<Value>> ok(idx.size());
      for (size_t j = 0; j < idx.size(); ++j)
        for (const auto& s : wc.orderBy) {
          auto v = eval(s.expr, in->rows[idx[j]]);
          if (!v) return std::nullopt;
          ok[j].push_back(*v);
        }
      std::vector<size_t> pos(idx.size());
      for (size_t j = 0; j < pos.size(); ++j) pos[j] = j;
      auto before = [&](size_t a, size_t b) {  // a strictly before b in ORDER BY
        for (size_t k = 0; k < wc.orderBy.size(); ++k) {
          const Value &x = ok[a][k], &y = ok[b][k];
          if (isNull(x) != isNull(y)) return isNull(x) == wc.orderBy[k].nullsFirst;
          auto c = compare(x, y);
          if (c && *c) return wc.orderBy[k].ascending ? *c < 0 : *c > 0;
        }
        return false;
      };
      std::stable_sort(pos.begin(), pos.end(), [&](size_t a, size_t b) {
        if (before(a, b) || before(b, a)) return before(a, b);
        return rowLess(in->rows[idx[a]], in->rows[idx[b]]);
      });
      if (dependsOnPeerOrder(wc))  // peers in any order: a tie cut per group of them
        for (size_t a = 0, b = 0; a < pos.size(); a = b) {
          for (b = a + 1; b < pos.size() && !before(pos[a], pos[b]);) ++b;
          if (b - a > 1)
            orderPeers(pos, a, b, [&](size_t j) -> const Row& { return in->rows[idx[j]]; });
        }
      int64_t rank = 0, dense = 0;
      for (size_t r = 0; r < pos.size(); ++r) {
        bool peer = r > 0 && !before(pos[r - 1], pos[r]);
        if (!peer) {
          rank = static_cast<int64_t>(r) + 1;
          ++dense;
        }
        Value v;
        if (wc.func == "row_number") {
          v = Value(static_cast<int64_t>(r) + 1);
        } else if (wc.func == "rank") {
          v = Value(rank);
        } else if (wc.func == "dense_rank") {
          v = Value(dense);
        } else {
          // An aggregate over the frame, positions [lo, hi) of the sorted partition.
          auto [lo, hi] = frameRows(
              wc, r, pos.size(), [&](size_t a, size_t b) { return before(pos[a], pos[b]); },
              [&](size_t q) -> const Value& { return ok[pos[q]][0]; });
          std::vector<Value> vals;
          for (size_t q = lo; q < hi; ++q) {
            if (wc.args.empty()) break;
            auto x = eval(wc.args[0], in->rows[idx[pos[q]]]);
            if (!x) return std::nullopt;
            vals.push_back(*x);
          }
          auto a = aggregate(wc.func, wc.args.empty(), false, vals, hi - lo, &error);
          if (!a) return std::nullopt;
          v = *a;
        }
        rows[idx[pos[r]]][base + w] = v;
      }
    }
  }
  out.rows = std::move(rows);
  return out;
}

}  // namespace rfguard::rt
