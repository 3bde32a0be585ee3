// Plans as symbolic rows (verifier/symbolic.h): tables, filters, projections,
// every join type, grouping, set operations. An independent reading of SQL's
// semantics, like the evaluator's: the two are cross-checked on random plans
// (tests/unit/symbolic_test.cpp), so neither calls the other.
#include "verifier/symbolic_encode.h"

#include <cctype>
#include <limits>

#include "evaluation/values.h"
#include "ir/functions.h"
#include "ir/join_type.h"

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

namespace {

/// The values a column of an integer type holds.
std::pair<int64_t, int64_t> rangeOf(const Type& t) {
  switch (t.kind) {
    case TypeKind::Boolean:
      return {0, 1};
    case TypeKind::TinyInt:
      return {-128, 127};
    case TypeKind::SmallInt:
      return {-32768, 32767};
    case TypeKind::Int:
    case TypeKind::Date:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

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
  Other
};
Op opOf(const std::string& f) {
  static const std::map<std::string, Op> kOps = {{"and", Op::And},
                                                 {"or", Op::Or},
                                                 {"not", Op::Not},
                                                 {"=", Op::Cmp},
                                                 {"<>", Op::Cmp},
                                                 {"<", Op::Cmp},
                                                 {"<=", Op::Cmp},
                                                 {">", Op::Cmp},
                                                 {">=", Op::Cmp},
                                                 {"<=>", Op::NullSafe},
                                                 {"is_distinct_from", Op::NullSafe},
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
                                                 {"abs", Op::Abs}};
  auto it = kOps.find(f);
  return it == kOps.end() ? Op::Other : it->second;
}

}  // namespace

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

void Encoder::distinct(Rel& r) const {
  std::vector<z3::expr> first;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    z3::expr keep = r.rows[i].present;
    for (size_t j = 0; j < i; ++j) {
      z3::expr eq = r.rows[j].present;
      for (size_t k = 0; k < r.ids.size(); ++k)
        eq = eq && same(r.rows[i].cols[k], r.rows[j].cols[k]);
      keep = keep && !eq;
    }
    first.push_back(keep);
  }
  for (size_t i = 0; i < r.rows.size(); ++i) r.rows[i].present = first[i];
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
      Rel out;
      for (const auto& c : n.output) out.ids.push_back(c.id);
      for (const auto& row : in->rows) {
        Row r{row.present, {}};
        out.kinds.clear();
        for (const auto& ne : n.exprs) {
          Val v{c_.int_val(0), c_.bool_val(false)};
          Kind k;
          if (!expr(*ne.expr, Env{&*in, &row, nullptr}, v, k)) return std::nullopt;
          r.cols.push_back(v);
          out.kinds.push_back(k);
        }
        out.rows.push_back(std::move(r));
      }
      if (in->rows.empty())
        for (const auto& ne : n.exprs) {
          auto k = kindOf(ne.expr->type);
          if (!k) return fail("a value of type " + ne.expr->type.toString()), std::nullopt;
          out.kinds.push_back(*k);
        }
      return out;
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
      return fail("LIMIT / OFFSET at " + nodeRef(n)), std::nullopt;
    case PlanOp::Window:
      return fail("window functions at " + nodeRef(n)), std::nullopt;
  }
  return fail("a node of an unknown kind"), std::nullopt;
}

std::optional<Rel> Encoder::scan(const PlanNode& n) {
  if (!n.runtimeFilterTargets.empty())
    return fail("runtime filters applied at " + nodeRef(n)), std::nullopt;
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
          auto [lo, hi] = rangeOf(type);
          constraints.push_back(v.v >= c_.int_val(lo) && v.v <= c_.int_val(hi));
        }
        row.cols.push_back(v);
      }
      if (i > 0) constraints.push_back(implies(row.present, t.rows.back().present));
      t.rows.push_back(std::move(row));
    }
    // Keys: distinct among present rows; a primary key is never NULL, a UNIQUE
    // set is distinct only among rows where none of its columns is NULL.
    auto indexes = [&](const std::vector<ColumnId>& ids, std::vector<size_t>& out) {
      for (const auto& id : ids) {
        const int at = [&] {
          for (size_t j = 0; j < t.columns.size(); ++j)
            if (t.columns[j] == bare(id)) return static_cast<int>(j);
          return -1;
        }();
        if (at < 0) return false;
        out.push_back(static_cast<size_t>(at));
      }
      return true;
    };
    std::vector<std::pair<std::vector<size_t>, bool>> keys;  // columns, primary
    std::vector<size_t> pk;
    if (!n.primaryKey.empty() && indexes(n.primaryKey, pk)) keys.push_back({pk, true});
    for (const auto& set : n.uniqueKeys) {
      std::vector<size_t> u;
      if (indexes(set, u)) keys.push_back({u, false});
    }
    for (const auto& [cols, primary] : keys)
      for (int i = 0; i < bound_; ++i) {
        if (primary)
          for (size_t j : cols) constraints.push_back(!t.rows[i].cols[j].null);
        for (int k = 0; k < i; ++k) {
          z3::expr clash = t.rows[i].present && t.rows[k].present;
          for (size_t j : cols)
            clash = clash && !t.rows[i].cols[j].null && !t.rows[k].cols[j].null &&
                    equal(t.rows[i].cols[j], t.rows[k].cols[j]);
          constraints.push_back(!clash);
        }
      }
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
  return out;
}

std::optional<Rel> Encoder::join(const PlanNode& n) {
  if (!n.runtimeFilters.empty())
    return fail("runtime filters produced at " + nodeRef(n)), std::nullopt;
  auto left = plan(*n.children[0]);
  if (!left) return std::nullopt;
  auto right = plan(*n.children[1]);
  if (!right) return std::nullopt;
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

std::optional<Rel> Encoder::aggregate(const PlanNode& n) {
  if (!n.groupingSets.empty()) return fail("grouping sets at " + nodeRef(n)), std::nullopt;
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
      if (!a.args.empty() && !expr(*a.args[0], env, v, k)) return std::nullopt;
      args[i].push_back(v);
    }
  }
  auto sameKeys = [&](size_t i, size_t j) {
    z3::expr eq = c_.bool_val(true);
    for (size_t k = 0; k < n.exprs.size(); ++k) eq = eq && same(keys[i][k], keys[j][k]);
    return eq;
  };
  Rel out;
  for (const auto& c : n.output) out.ids.push_back(c.id);
  out.kinds = keyKinds;
  for (size_t a = 0; a < n.aggs.size(); ++a)
    out.kinds.push_back(n.aggs[a].func == "count" ? Kind::Int
                        : n.aggs[a].func == "avg" ? Kind::Real
                                                  : argKinds[a]);
  // One output row per group, at its first member; with no keys, exactly one row.
  const bool global = n.exprs.empty();
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
    Row r{present, global ? std::vector<Val>{} : keys[g]};
    for (size_t a = 0; a < n.aggs.size(); ++a) {
      const AggCall& call = n.aggs[a];
      // The members that count: non-NULL argument, and with DISTINCT the first of its value.
      auto counts = [&](size_t j) {
        z3::expr in_ = member(j);
        if (call.args.empty()) return in_;
        in_ = in_ && !args[j][a].null;
        if (call.distinct)
          for (size_t k = 0; k < j; ++k)
            in_ = in_ && !(member(k) && !args[k][a].null && equal(args[k][a], args[j][a]));
        return in_;
      };
      z3::expr_vector terms(c_), ones(c_);
      z3::expr any = c_.bool_val(false);
      const bool real = rows && !call.args.empty() && args[0][a].v.is_real();
      const z3::expr zero = real ? c_.real_val(0) : c_.int_val(0);
      Val best{zero, c_.bool_val(true)};
      for (size_t j = 0; j < rows; ++j) {
        const z3::expr cnt = counts(j);
        any = any || cnt;
        ones.push_back(z3::ite(cnt, c_.int_val(1), c_.int_val(0)));
        if (call.func == "sum" || call.func == "avg")
          terms.push_back(z3::ite(cnt, args[j][a].v, zero));
        if (call.func == "min" || call.func == "max") {
          const z3::expr better =
              call.func == "min" ? args[j][a].v < best.v : args[j][a].v > best.v;
          const z3::expr take = cnt && (best.null || better);
          best = Val{z3::ite(take, args[j][a].v, best.v), best.null && !take};
        }
      }
      const z3::expr total = terms.empty() ? zero : z3::sum(terms);
      const z3::expr count = ones.empty() ? c_.int_val(0) : z3::sum(ones);
      if (call.func == "count")
        r.cols.push_back(Val{count, c_.bool_val(false)});
      else if (call.func == "sum")
        r.cols.push_back(Val{total, !any});
      else if (call.func == "avg")  // the evaluator's double: sum over count
        r.cols.push_back(Val{z3::ite(any, asReal(total) / asReal(count), c_.real_val(0)), !any});
      else
        r.cols.push_back(best);
    }
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
    ins.push_back(std::move(*r));
  }
  Rel out;
  out.kinds = ins[0].kinds;
  for (const auto& c : n.output) out.ids.push_back(c.id);
  auto rowSame = [&](const Row& a, const Row& b) {
    z3::expr eq = c_.bool_val(true);
    for (size_t k = 0; k < a.cols.size(); ++k) eq = eq && same(a.cols[k], b.cols[k]);
    return eq;
  };
  if (n.op == PlanOp::Union) {
    for (const auto& r : ins) out.rows.insert(out.rows.end(), r.rows.begin(), r.rows.end());
    if (!n.all) distinct(out);
    return out;
  }
  if (n.children.size() != 2) return fail("a set operation of several inputs"), std::nullopt;
  const Rel& a = ins[0];
  const Rel& b = ins[1];
  const bool intersect = n.op == PlanOp::Intersect;
  for (size_t i = 0; i < a.rows.size(); ++i) {
    // ALL: the i-th row is the k-th copy of its value on the left; it stays while
    // k <= copies on the right (INTERSECT) or k > them (EXCEPT).
    z3::expr_vector before(c_), copies(c_);
    before.push_back(c_.int_val(1));
    for (size_t j = 0; j < i; ++j)
      before.push_back(z3::ite(a.rows[j].present && rowSame(a.rows[i], a.rows[j]), c_.int_val(1),
                               c_.int_val(0)));
    copies.push_back(c_.int_val(0));
    for (const auto& r : b.rows)
      copies.push_back(z3::ite(r.present && rowSame(a.rows[i], r), c_.int_val(1), c_.int_val(0)));
    const z3::expr k = z3::sum(before), m = z3::sum(copies);
    z3::expr keep = n.all ? (intersect ? k <= m : k > m) : (intersect ? m > 0 : m == 0);
    out.rows.push_back(Row{a.rows[i].present && keep, a.rows[i].cols});
  }
  if (!n.all) distinct(out);
  return out;
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

z3::expr Encoder::textCode(const std::string& s) {
  auto it = textCodes.find(s);
  if (it == textCodes.end()) {
    const std::string name = "text#" + std::to_string(textCodes.size());
    it = textCodes.emplace(s, c_.int_const(name.c_str())).first;
  }
  return it->second;
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
        auto [lo, hi] = rangeOf(e.type);
        auto [slo, shi] = rangeOf(src);
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
  const Op op = opOf(e.name);
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
      const std::string& f = e.name;
      z3::expr x = a[0].v, y = a[1].v;
      unify(x, y);
      const z3::expr r = f == "="    ? x == y
                         : f == "<>" ? x != y
                         : f == "<"  ? x < y
                         : f == "<=" ? x <= y
                         : f == ">"  ? x > y
                                     : x >= y;
      out = boolVal(r, a[0].null || a[1].null);
      return true;
    }
    case Op::NullSafe: {
      Kind ck;
      if (!common(0, 1, ck)) return false;
      const z3::expr s = same(a[0], a[1]);
      out = boolVal(e.name == "<=>" ? s : !s, F);
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
