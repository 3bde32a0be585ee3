// Plans as symbolic rows (verifier/symbolic.h): tables, filters, projections,
// every join type, grouping, set operations. An independent reading of SQL's
// semantics, like the evaluator's: the two are cross-checked on random query
// pairs (tools/values_check.cpp), so neither calls the other. Expressions are
// in symbolic_expr.cpp, grouping in symbolic_aggregate.cpp, LIMIT and windows
// in symbolic_order.cpp.
#include "verifier/symbolic_encode.h"

#include <cctype>

#include "evaluation/values.h"
#include "ir/functions.h"
#include "ir/join_type.h"
#include "ir/type_range.h"

namespace rfguard::sym {

std::optional<Kind> kindOf(const Type& type) {
  if (type.kind == TypeKind::Boolean) return Kind::Bool;
  // A date is its day number, as the evaluator holds it.
  if (type.isInteger() || type.kind == TypeKind::Unknown || type.kind == TypeKind::Date)
    return Kind::Int;
  if (type.kind == TypeKind::Decimal || type.isFloating()) return Kind::Real;
  if (type.isString()) return Kind::Text;
  return std::nullopt;
}

bool Encoder::fail(std::string what) {
  if (gap.empty()) gap = std::move(what);
  return false;
}

z3::expr Encoder::same(const Val& a, const Val& b) const {
  z3::expr x = a.v, y = b.v;
  unify(x, y);
  return (a.null && b.null) || (!a.null && !b.null && x == y);
}

z3::expr Encoder::equal(const Val& a, const Val& b) const {
  z3::expr x = a.v, y = b.v;
  unify(x, y);
  return x == y;
}

Val Encoder::boolVal(const z3::expr& t, const z3::expr& null) const {
  return Val{z3::ite(t, c_.int_val(1), c_.int_val(0)), null};
}

z3::expr Encoder::sameRow(const Row& a, const Row& b) const {
  z3::expr eq = c_.bool_val(true);
  for (size_t k = 0; k < a.cols.size(); ++k) eq = eq && same(a.cols[k], b.cols[k]);
  return eq;
}

void Encoder::distinct(Rel& r) const {
  std::vector<z3::expr> first;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    z3::expr keep = r.rows[i].present;
    for (size_t j = 0; j < i; ++j)
      keep = keep && !(r.rows[j].present && sameRow(r.rows[i], r.rows[j]));
    first.push_back(keep);
  }
  for (size_t i = 0; i < r.rows.size(); ++i) r.rows[i].present = first[i];
}

std::optional<Rel> Encoder::project(const PlanNode& n, const Rel& in) {
  Rel out;
  for (const auto& c : n.output) out.ids.push_back(c.id);
  for (const auto& row : in.rows) {
    Row r{row.present, {}};
    out.kinds.clear();
    for (const auto& ne : n.exprs) {
      Val v{c_.int_val(0), c_.bool_val(false)};
      Kind k;
      if (!expr(*ne.expr, Env{&in, &row, nullptr}, v, k)) return std::nullopt;
      r.cols.push_back(v);
      out.kinds.push_back(k);
    }
    out.rows.push_back(std::move(r));
  }
  if (in.rows.empty())
    for (const auto& ne : n.exprs) {
      auto k = kindOf(ne.expr->type);
      if (!k) return fail("a value of type " + ne.expr->type.toString()), std::nullopt;
      out.kinds.push_back(*k);
    }
  return out;
}

std::optional<Rel> Encoder::plan(const PlanNode& n) {
  switch (n.op) {
    case PlanOp::Scan:
      return scan(n);
    case PlanOp::Filter: {
      auto in = plan(*n.children[0]);
      if (!in) return std::nullopt;
      for (auto& row : in->rows) {
        Val p{c_.int_val(0), c_.bool_val(false)};
        Kind k;
        if (!expr(*n.predicate, Env{&*in, &row, nullptr}, p, k)) return std::nullopt;
        row.present = row.present && truth(p);
      }
      return in;
    }
    case PlanOp::Project: {
      auto in = plan(*n.children[0]);
      if (!in) return std::nullopt;
      return project(n, *in);
    }
    case PlanOp::Sort: {  // a bag has no order; an order the result keeps is compared elsewhere
      auto in = plan(*n.children[0]);
      if (in) in->ids.clear();
      if (in)
        for (const auto& c : n.output) in->ids.push_back(c.id);
      return in;
    }
    case PlanOp::Join:
      return join(n);
    case PlanOp::Aggregate:
      return aggregate(n);
    case PlanOp::Union:
    case PlanOp::Intersect:
    case PlanOp::Except:
      return setOp(n);
    case PlanOp::Values:
      return values(n);
    case PlanOp::Limit:
      return limit(n);
    case PlanOp::Window:
      return window(n);
  }
  return fail("a node of an unknown kind"), std::nullopt;
}

std::optional<Rel> Encoder::scan(const PlanNode& n) {
  auto bare = [&](const ColumnId& id) { return std::string(id).substr(n.alias.size() + 1); };
  auto [it, fresh] = tables.try_emplace(n.table);
  TableVars& t = it->second;
  if (fresh) {
    for (const auto& col : n.tableColumns) {
      auto k = kindOf(col.type);
      if (!k)
        return fail("column " + n.table + "." + bare(col.id) + " of type " + col.type.toString()),
               std::nullopt;
      t.columns.push_back(bare(col.id));
      t.types.push_back(col.type);
      t.kinds.push_back(*k);
    }
    const std::string p = n.table + "#";
    for (int i = 0; i < bound_; ++i) {
      const std::string r = p + std::to_string(i);
      Row row{c_.bool_const((r + ".present").c_str()), {}};
      for (size_t j = 0; j < t.columns.size(); ++j) {
        const std::string name = r + "." + t.columns[j];
        Val v{c_.int_const(name.c_str()), n.tableColumns[j].nullable
                                              ? c_.bool_const((name + ".null").c_str())
                                              : c_.bool_val(false)};
        const Type& type = t.types[j];
        if (type.kind == TypeKind::Decimal) {  // n / 10^s, |n| < 10^p
          const std::string scale = "1" + std::string(static_cast<size_t>(type.scale), '0');
          if (type.precision > 0 && type.precision <= 18) {
            const std::string top = "1" + std::string(static_cast<size_t>(type.precision), '0');
            constraints.push_back(v.v > -c_.int_val(top.c_str()) && v.v < c_.int_val(top.c_str()));
          }
          v.v = z3::to_real(v.v) / c_.real_val(scale.c_str());
        } else if (t.kinds[j] == Kind::Real) {
          v.v = c_.real_const(name.c_str());
        } else if (t.kinds[j] != Kind::Text) {
          auto [lo, hi] = integerRange(type);
          constraints.push_back(v.v >= c_.int_val(lo) && v.v <= c_.int_val(hi));
        }
        row.cols.push_back(v);
      }
      if (i > 0) constraints.push_back(implies(row.present, t.rows.back().present));
      t.rows.push_back(std::move(row));
    }
    if (!tableConstraints(n, t)) return std::nullopt;
  }
  Rel out;
  std::vector<size_t> at;
  for (const auto& c : n.output) {
    size_t j = 0;
    while (j < t.columns.size() && t.columns[j] != bare(c.id)) ++j;
    if (j == t.columns.size())
      return fail("column " + std::string(c.id) + " of " + n.table), std::nullopt;
    at.push_back(j);
    out.ids.push_back(c.id);
    out.kinds.push_back(t.kinds[j]);
  }
  for (const auto& row : t.rows) {
    Row r{row.present, {}};
    for (size_t j : at) r.cols.push_back(row.cols[j]);
    out.rows.push_back(std::move(r));
  }
  if (filters_ == Filters::Apply && !consume(n, t, out)) return std::nullopt;
  return out;
}

std::optional<Rel> Encoder::join(const PlanNode& n) {
  auto left = plan(*n.children[0]);
  if (!left) return std::nullopt;
  auto right = plan(*n.children[1]);
  if (!right) return std::nullopt;
  if (filters_ == Filters::Apply && !publish(n, *right)) return std::nullopt;
  if (left->rows.size() * right->rows.size() > kMaxPairs)
    return fail("a join of " + std::to_string(left->rows.size()) + " by " +
                std::to_string(right->rows.size()) + " symbolic rows at " + nodeRef(n) +
                ", more than the solver takes"),
           std::nullopt;
  const JoinTypeInfo& info = joinInfo(n.joinType);
  // The condition's value for each pair (true when there is none).
  std::vector<std::vector<Val>> cond(left->rows.size());
  for (size_t i = 0; i < left->rows.size(); ++i)
    for (size_t j = 0; j < right->rows.size(); ++j) {
      Val v{c_.int_val(1), c_.bool_val(false)};
      Kind k;
      if (n.predicate) {
        const Env r{&*right, &right->rows[j], nullptr};
        if (!expr(*n.predicate, Env{&*left, &left->rows[i], &r}, v, k)) return std::nullopt;
      }
      cond[i].push_back(v);
    }
  auto matched = [&](size_t i, size_t j) {
    return left->rows[i].present && right->rows[j].present && truth(cond[i][j]);
  };
  Rel out;
  for (int s = 0; s < 2; ++s)
    if (info.outputs[s]) {
      const Rel& side = s ? *right : *left;
      out.kinds.insert(out.kinds.end(), side.kinds.begin(), side.kinds.end());
    }
  for (const auto& c : n.output) out.ids.push_back(c.id);
  auto nulls = [&](const Rel& side) {
    std::vector<Val> v;
    for (size_t k = 0; k < side.ids.size(); ++k) v.push_back(Val{c_.int_val(0), c_.bool_val(true)});
    return v;
  };
  const bool leftOnly = info.outputs[0] && !info.outputs[1];
  const bool rightOnly = info.outputs[1] && !info.outputs[0];
  if (leftOnly || rightOnly) {
    const Rel& kept = leftOnly ? *left : *right;
    const Rel& other = leftOnly ? *right : *left;
    for (size_t a = 0; a < kept.rows.size(); ++a) {
      z3::expr any = c_.bool_val(false), allFalse = c_.bool_val(true);
      for (size_t b = 0; b < other.rows.size(); ++b) {
        const size_t i = leftOnly ? a : b, j = leftOnly ? b : a;
        any = any || matched(i, j);
        allFalse = allFalse && (!other.rows[b].present || falsity(cond[i][j]));
      }
      z3::expr keep = info.keepsMatched ? any : info.nullAware ? allFalse : !any;
      out.rows.push_back(Row{kept.rows[a].present && keep, kept.rows[a].cols});
    }
    return out;
  }
  for (size_t i = 0; i < left->rows.size(); ++i)
    for (size_t j = 0; j < right->rows.size(); ++j) {
      Row r{matched(i, j), left->rows[i].cols};
      r.cols.insert(r.cols.end(), right->rows[j].cols.begin(), right->rows[j].cols.end());
      out.rows.push_back(std::move(r));
    }
  if (info.generatesNulls[1])  // LEFT / FULL: a left row without a match
    for (size_t i = 0; i < left->rows.size(); ++i) {
      z3::expr any = c_.bool_val(false);
      for (size_t j = 0; j < right->rows.size(); ++j) any = any || matched(i, j);
      Row r{left->rows[i].present && !any, left->rows[i].cols};
      for (const auto& v : nulls(*right)) r.cols.push_back(v);
      out.rows.push_back(std::move(r));
    }
  if (info.generatesNulls[0])  // RIGHT / FULL
    for (size_t j = 0; j < right->rows.size(); ++j) {
      z3::expr any = c_.bool_val(false);
      for (size_t i = 0; i < left->rows.size(); ++i) any = any || matched(i, j);
      Row r{right->rows[j].present && !any, nulls(*left)};
      r.cols.insert(r.cols.end(), right->rows[j].cols.begin(), right->rows[j].cols.end());
      out.rows.push_back(std::move(r));
    }
  return out;
}

std::optional<Rel> Encoder::setOp(const PlanNode& n) {
  std::vector<Rel> ins;
  for (const auto& ch : n.children) {
    auto r = plan(*ch);
    if (!r) return std::nullopt;
    auto text = [](const std::vector<Kind>& ks) {
      std::vector<bool> t;
      for (Kind k : ks) t.push_back(k == Kind::Text);
      return t;
    };
    if (!ins.empty() &&
        (r->kinds.size() != ins[0].kinds.size() || text(r->kinds) != text(ins[0].kinds)))
      return fail("a set operation over columns of other kinds at " + nodeRef(n)), std::nullopt;
    // The filters this input builds (an INTERSECT's or EXCEPT's, into the others).
    if (filters_ == Filters::Apply && !publish(n, *r, ins.size())) return std::nullopt;
    ins.push_back(std::move(*r));
  }
  Rel out;
  out.kinds = ins[0].kinds;
  for (const auto& c : n.output) out.ids.push_back(c.id);
  if (n.op == PlanOp::Union) {
    for (const auto& r : ins) out.rows.insert(out.rows.end(), r.rows.begin(), r.rows.end());
    if (!n.all) distinct(out);
    return out;
  }
  // Of several inputs, from the left: ((a - b) - c), as SQL and the evaluator read it.
  Rel acc = std::move(ins[0]);
  acc.ids = out.ids;
  for (size_t in = 1; in < ins.size(); ++in) {
    out.rows.clear();
    const Rel& a = acc;
    const Rel& b = ins[in];
    stepSetOp(n, a, b, out);
    acc.rows = std::move(out.rows);
  }
  out.rows = std::move(acc.rows);
  if (!n.all) distinct(out);
  return out;
}

void Encoder::stepSetOp(const PlanNode& n, const Rel& a, const Rel& b, Rel& out) {
  const bool intersect = n.op == PlanOp::Intersect;
  for (size_t i = 0; i < a.rows.size(); ++i) {
    // ALL: the i-th row is the k-th copy of its value on the left; it stays while
    // k <= copies on the right (INTERSECT) or k > them (EXCEPT).
    z3::expr_vector before(c_), copies(c_);
    before.push_back(c_.int_val(1));
    for (size_t j = 0; j < i; ++j)
      before.push_back(z3::ite(a.rows[j].present && sameRow(a.rows[i], a.rows[j]), c_.int_val(1),
                               c_.int_val(0)));
    copies.push_back(c_.int_val(0));
    for (const auto& r : b.rows)
      copies.push_back(z3::ite(r.present && sameRow(a.rows[i], r), c_.int_val(1), c_.int_val(0)));
    const z3::expr k = z3::sum(before), m = z3::sum(copies);
    z3::expr keep = n.all ? (intersect ? k <= m : k > m) : (intersect ? m > 0 : m == 0);
    out.rows.push_back(Row{a.rows[i].present && keep, a.rows[i].cols});
  }
}

std::optional<Rel> Encoder::values(const PlanNode& n) {
  Rel out, none;
  for (const auto& c : n.output) {
    auto k = kindOf(c.type);
    if (!k) return fail("a VALUES column of type " + c.type.toString()), std::nullopt;
    out.ids.push_back(c.id);
    out.kinds.push_back(*k);
  }
  for (const auto& row : n.rows) {
    Row r{c_.bool_val(true), {}};
    for (const auto& e : row) {
      Val v{c_.int_val(0), c_.bool_val(false)};
      Kind k;
      if (!expr(*e, Env{&none, nullptr, nullptr}, v, k)) return std::nullopt;
      r.cols.push_back(v);
    }
    out.rows.push_back(std::move(r));
  }
  return out;
}

bool Encoder::oneRow(const PlanNode& n) {
  switch (n.op) {
    case PlanOp::Project:
    case PlanOp::Sort:
    case PlanOp::Filter:  // HAVING: one row or none
      return oneRow(*n.children[0]);
    case PlanOp::Aggregate:  // no keys: one row, whatever its input
      return n.exprs.empty() && n.groupingSets.empty();
    default:
      return false;
  }
}

}  // namespace rfguard::sym
