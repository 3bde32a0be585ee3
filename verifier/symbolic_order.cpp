// Orders in the symbolic encoding (verifier/symbolic_encode.h): LIMIT / OFFSET
// anywhere in a plan and window functions. A row's place in an order is the
// number of rows before it; rows the ORDER BY ties (peers) come in an order SQL
// leaves open, so each such node breaks ties by free integer priorities, one per
// row slot (tieBreaks). A proof then holds for every priority, which is every
// order of the rewritten plan's ties, each matched by a valid order of the
// original's; a model may need an order the evaluator lists as one of the
// answers (rt::evaluateAll), and counts only when the evaluator confirms it.
#include <functional>
#include <string>

#include "ir/window_order.h"
#include "verifier/symbolic_encode.h"

namespace rfguard::sym {

namespace {

/// The ORDER BY of a LIMIT's input: the Sort below it, or none (every row ties).
const std::vector<SortKey>& orderOf(const PlanNode& limit) {
  static const std::vector<SortKey> none;
  const PlanNode& below = *limit.children[0];
  return below.op == PlanOp::Sort ? below.sortKeys : none;
}

}  // namespace

bool Encoder::sortValues(const std::vector<SortKey>& keys, const Rel& rel,
                         std::vector<std::vector<Val>>& out) {
  out.assign(rel.rows.size(), {});
  for (size_t i = 0; i < rel.rows.size(); ++i)
    for (const auto& k : keys) {
      Val v{c_.int_val(0), c_.bool_val(false)};
      Kind kind;
      if (!expr(*k.expr, Env{&rel, &rel.rows[i], nullptr}, v, kind)) return false;
      out[i].push_back(v);
    }
  return true;
}

z3::expr Encoder::sortsBefore(const std::vector<SortKey>& keys, const std::vector<Val>& x,
                              const std::vector<Val>& y) const {
  // From the last key back: x before y on key k, or the same there and before on the rest.
  z3::expr rest = c_.bool_val(false);
  for (size_t k = keys.size(); k-- > 0;) {
    z3::expr a = x[k].v, b = y[k].v;
    unify(a, b);
    const z3::expr nullFirst =
        keys[k].nullsFirst ? x[k].null && !y[k].null : !x[k].null && y[k].null;
    const z3::expr less =
        nullFirst || (!x[k].null && !y[k].null && (keys[k].ascending ? a < b : a > b));
    rest = less || (same(x[k], y[k]) && rest);
  }
  return rest;
}

z3::expr Encoder::peers(const std::vector<Val>& x, const std::vector<Val>& y) const {
  z3::expr eq = c_.bool_val(true);
  for (size_t k = 0; k < x.size(); ++k) eq = eq && same(x[k], y[k]);
  return eq;
}

std::vector<z3::expr> Encoder::places(const std::vector<SortKey>& keys,
                                      const std::vector<std::vector<Val>>& values,
                                      const std::vector<z3::expr>& p,
                                      const std::function<z3::expr(size_t, size_t)>& counts) {
  std::vector<z3::expr> place;
  for (size_t i = 0; i < values.size(); ++i) {
    z3::expr_vector ahead(c_);
    ahead.push_back(c_.int_val(0));
    for (size_t j = 0; j < values.size(); ++j)
      if (j != i)
        ahead.push_back(z3::ite(counts(j, i) && (sortsBefore(keys, values[j], values[i]) ||
                                                 (peers(values[j], values[i]) && firstOf(p, j, i))),
                                c_.int_val(1), c_.int_val(0)));
    place.push_back(z3::sum(ahead));
  }
  return place;
}

std::vector<z3::expr> Encoder::tieBreaks(const std::vector<SortKey>& keys,
                                         const std::vector<std::vector<Val>>& values,
                                         const Rel& rel) {
  ++ties;
  const int k = tieNodes_++;
  const std::string node = std::to_string(k) + "#";
  auto name = [&](bool rewritten, size_t i) {
    return (rewritten ? "tieB#" : "tieA#") + node + std::to_string(i);
  };
  std::vector<z3::expr> p;
  for (size_t i = 0; i < values.size(); ++i) p.push_back(c_.int_const(name(rewritten_, i).c_str()));
  if (!rewritten_) {
    originalTies_[k] = rel;
    return p;
  }
  // Each row's rank in the rewritten plan's order at this node (keys, then
  // priority, then slot; present or not).
  const std::vector<z3::expr> rank =
      places(keys, values, p, [&](size_t, size_t) { return c_.bool_val(true); });
  // The original's priorities at its node of the same number: a row takes the
  // least rank of a present row of the rewritten plan's that holds the same
  // values (rows of the same columns), else comes after them, by slot; rows
  // of other columns take the rank of their slot. So the original breaks its
  // ties as the rewritten plan orders those rows. Any priorities give a valid
  // order of the original: a proof stays a proof.
  auto found = originalTies_.find(k);
  if (found == originalTies_.end()) return p;
  const Rel& original = found->second;
  const bool sameColumns = original.kinds == rel.kinds;
  const int64_t after = static_cast<int64_t>(values.size());
  for (size_t i = 0; i < original.rows.size(); ++i) {
    z3::expr priority = c_.int_val(after + static_cast<int64_t>(i));
    if (sameColumns) {
      for (size_t j = 0; j < rel.rows.size(); ++j) {
        const z3::expr match = rel.rows[j].present && sameRow(original.rows[i], rel.rows[j]);
        priority = z3::ite(match && rank[j] < priority, rank[j], priority);
      }
    } else if (i < rank.size()) {
      priority = rank[i];
    }
    constraints.push_back(c_.int_const(name(false, i).c_str()) == priority);
  }
  return p;
}

std::optional<Rel> Encoder::limit(const PlanNode& n) {
  if (!publishTopN(n)) return std::nullopt;
  auto in = plan(*n.children[0]);  // a Sort passes its input's rows
  if (!in || !cut(n, *in)) return std::nullopt;
  in->ids.clear();
  for (const auto& c : n.output) in->ids.push_back(c.id);
  return in;
}

bool Encoder::cut(const PlanNode& n, Rel& rel) {
  if (n.unprinted) return fail("a LIMIT without its numbers at " + nodeRef(n));
  const size_t rows = rel.rows.size();
  if (rows * rows > kMaxPairs)
    return fail("LIMIT over " + std::to_string(rows) + " symbolic rows at " + nodeRef(n) +
                ", more than the solver takes");
  const auto& keys = orderOf(n);
  std::vector<std::vector<Val>> values;
  if (!sortValues(keys, rel, values)) return false;
  // Row i's place: the present rows before it, peers by priority, then by slot.
  const std::vector<z3::expr> place = places(keys, values, tieBreaks(keys, values, rel),
                                             [&](size_t j, size_t) { return rel.rows[j].present; });
  const z3::expr from = c_.int_val(static_cast<int64_t>(n.offset));
  for (size_t i = 0; i < rows; ++i) {
    z3::expr keep = rel.rows[i].present && place[i] >= from;
    if (n.limit) keep = keep && place[i] < from + c_.int_val(static_cast<int64_t>(*n.limit));
    rel.rows[i].present = keep;
  }
  return true;
}

std::optional<Rel> Encoder::window(const PlanNode& n) {
  auto in = plan(*n.children[0]);
  if (!in) return std::nullopt;
  const size_t rows = in->rows.size();
  if (rows * rows > kMaxPairs)
    return fail("window functions over " + std::to_string(rows) + " symbolic rows at " +
                nodeRef(n) + ", more than the solver takes"),
           std::nullopt;
  Rel out = *in;
  out.ids.clear();
  for (const auto& c : n.output) out.ids.push_back(c.id);
  using K = FrameBound::Kind;
  for (const WindowCall& wc : n.windows) {
    const bool rank = wc.func == "row_number" || wc.func == "rank" || wc.func == "dense_rank";
    const bool aggregate = wc.func == "count" || wc.func == "sum" || wc.func == "avg" ||
                           wc.func == "min" || wc.func == "max";
    if (!rank && !aggregate)
      return fail("window function " + wc.func + " at " + nodeRef(n)), std::nullopt;
    if (wc.args.size() > (aggregate ? 1 : 0))
      return fail("window function " + wc.func + " of several arguments"), std::nullopt;
    const WindowFrame* frame = wc.frame ? &*wc.frame : nullptr;
    bool rangeOffset = false;
    if (frame && !frame->rows)
      for (const FrameBound* b : {&frame->start, &frame->end})
        rangeOffset = rangeOffset || b->kind == K::Preceding || b->kind == K::Following;
    if (rangeOffset && (wc.orderBy.size() != 1 || kindOf(wc.orderBy[0].expr->type) == Kind::Text ||
                        !kindOf(wc.orderBy[0].expr->type)))
      return fail("a RANGE frame with an offset over other than one numeric key at " + nodeRef(n)),
             std::nullopt;
    std::vector<std::vector<Val>> part, order;
    std::vector<SortKey> partKeys;
    for (const auto& e : wc.partitionBy) partKeys.push_back(SortKey{e, true, false});
    if (!sortValues(partKeys, *in, part) || !sortValues(wc.orderBy, *in, order))
      return std::nullopt;
    std::vector<Val> args(rows, Val{c_.int_val(0), c_.bool_val(true)});
    Kind argKind = Kind::Int;
    for (size_t i = 0; i < rows && !wc.args.empty(); ++i)
      if (!expr(*wc.args[0], Env{&*in, &in->rows[i], nullptr}, args[i], argKind))
        return std::nullopt;
    if (!wc.args.empty() && rows == 0) {
      auto k = kindOf(wc.args[0]->type);
      if (!k) return fail("a window argument of type " + wc.args[0]->type.toString()), std::nullopt;
      argKind = *k;
    }
    if ((wc.func == "sum" || wc.func == "avg") && argKind == Kind::Text)
      return fail(wc.func + " of a text value at " + nodeRef(n)), std::nullopt;
    // j and i: both present, in one partition; j strictly before i; peers.
    auto mate = [&](size_t j, size_t i) { return in->rows[j].present && peers(part[j], part[i]); };
    auto before = [&](size_t j, size_t i) { return sortsBefore(wc.orderBy, order[j], order[i]); };
    auto peer = [&](size_t j, size_t i) { return peers(order[j], order[i]); };
    // With peers in an order SQL leaves open: each row's place in its partition.
    std::vector<z3::expr> place;
    if (dependsOnPeerOrder(wc))
      place = places(wc.orderBy, order, tieBreaks(wc.orderBy, order, *in), mate);
    auto count = [&](const std::function<z3::expr(size_t)>& counted) {
      z3::expr_vector ones(c_);
      ones.push_back(c_.int_val(0));
      for (size_t j = 0; j < rows; ++j)
        ones.push_back(z3::ite(counted(j), c_.int_val(1), c_.int_val(0)));
      return z3::sum(ones);
    };
    for (size_t i = 0; i < rows; ++i) {
      Val v{c_.int_val(0), c_.bool_val(false)};
      if (wc.func == "row_number") {
        v.v = place[i] + 1;
      } else if (wc.func == "rank") {
        v.v = count([&](size_t j) { return j != i && mate(j, i) && before(j, i); }) + 1;
      } else if (wc.func == "dense_rank") {  // distinct peer groups before: their first rows
        v.v = count([&](size_t j) {
                z3::expr firstOfPeers = mate(j, i) && before(j, i);
                for (size_t l = 0; l < j; ++l)
                  firstOfPeers = firstOfPeers && !(mate(l, j) && peer(l, j));
                return firstOfPeers;
              }) +
              1;
      } else {
        // A RANGE offset bound, as the evaluator reads it: the frame starts at
        // the first row whose value is within the offset (x >= v - n ascending
        // for n PRECEDING) and ends at the last one; a NULL value's frame is
        // its NULL peers. Row j is in when such a row comes at or before it
        // (start), at or after it (end).
        auto rangeBound = [&](const FrameBound& b, size_t j, bool start) -> z3::expr {
          const bool ascending = wc.orderBy[0].ascending;
          const Val& v = order[i][0];
          z3::expr x0 = v.v, off = c_.int_val(b.offset);
          if (x0.is_real()) off = asReal(off);
          const z3::expr limit = (b.kind == K::Preceding) == ascending ? x0 - off : x0 + off;
          auto within = [&](size_t q) {
            z3::expr x = order[q][0].v, l = limit;
            unify(x, l);
            const bool atLeast = start ? ascending : !ascending;
            return !order[q][0].null && (atLeast ? x >= l : x <= l);
          };
          z3::expr any = c_.bool_val(false);
          for (size_t q = 0; q < rows; ++q) {
            const z3::expr member = q == i ? in->rows[i].present : mate(q, i);
            any = any || (member && within(q) && (start ? !before(j, q) : !before(q, j)));
          }
          const z3::expr nullFrame = start ? !before(j, i) : !before(i, j);
          return z3::ite(v.null, nullFrame, any);
        };
        // The frame: a ROWS frame by places, RANGE (and the default) by peers.
        auto bound = [&](const FrameBound& b, size_t j, bool start) -> z3::expr {
          if (frame && frame->rows) {
            const z3::expr d = place[j] - place[i];
            const z3::expr o = c_.int_val(b.offset);
            switch (b.kind) {
              case K::UnboundedPreceding:
                return c_.bool_val(start);
              case K::Preceding:
                return start ? d >= -o : d <= -o;
              case K::CurrentRow:
                return start ? d >= 0 : d <= 0;
              case K::Following:
                return start ? d >= o : d <= o;
              case K::UnboundedFollowing:
                return c_.bool_val(!start);
            }
          }
          switch (b.kind) {  // RANGE: peers are one place
            case K::UnboundedPreceding:
              return c_.bool_val(start);
            case K::UnboundedFollowing:
              return c_.bool_val(!start);
            case K::CurrentRow:
              return start ? !before(j, i) : !before(i, j);
            default:
              return rangeBound(b, j, start);
          }
        };
        std::vector<z3::expr> member;
        for (size_t j = 0; j < rows; ++j) {
          z3::expr m = j == i ? in->rows[i].present : mate(j, i);
          if (frame) {
            m = m && bound(frame->start, j, true) && bound(frame->end, j, false);
          } else if (!wc.orderBy.empty()) {  // RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
            m = m && !before(i, j);
          }
          member.push_back(m);
        }
        v = fold(wc.func, wc.args.empty(), false, member, args);
      }
      out.rows[i].cols.push_back(v);
    }
    out.kinds.push_back(rank || wc.func == "count" ? Kind::Int
                        : wc.func == "avg"         ? Kind::Real
                                                   : argKind);
  }
  return out;
}

}  // namespace rfguard::sym
