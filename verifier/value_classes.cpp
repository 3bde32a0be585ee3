// Value classes: union-find over column ids. Two columns meet when one
// expression atom mentions both (a comparison, an arithmetic or function
// call, a join key, a filter's build and probe sides), when a projection,
// aggregate or set operation passes one into the other, or when two scans
// read the same table column. A count's class meets 0, 1 and 2. AND, OR, NOT and CASE conditions
// split atoms: `a = 1 OR b = 2` relates neither a to b nor 2 to a.
#include "verifier/value_classes.h"

#include "ir/comparison.h"

#include <cctype>

#include <algorithm>
#include <optional>
#include <set>

namespace rfguard {

namespace {

bool connective(const Expr& e) {
  return e.kind == ExprKind::Call && (e.name == "and" || e.name == "or" || e.name == "not");
}

bool orderComparison(const Expr& e) {
  const ComparisonInfo* c = comparisonOf(e);
  return c && c->order;
}

/// The columns, constants and order comparisons of one atom; nested boolean
/// parts (connectives, CASE conditions) go to `split` to be atoms of their own.
struct Gathered {
  std::vector<std::string> columns;
  std::vector<const Expr*> literals;
  std::vector<std::string> witnesses;  ///< strings a pattern accepts or rejects by a hair
  bool ranges = false;
  std::vector<int64_t> offsets, factors;  ///< `x + c`, `x - c`; `x * c`
};

/// The integer literal operand of `x + c`, `c + x`, `x - c` or `x * c`.
std::optional<int64_t> arithmeticConstant(const Expr& e) {
  if (e.kind != ExprKind::Call || e.args.size() != 2 ||
      (e.name != "+" && e.name != "-" && e.name != "*"))
    return std::nullopt;
  for (size_t i = 0; i < 2; ++i) {
    const Expr& l = *e.args[i];
    if (l.kind != ExprKind::Literal || l.isNull || !l.type.isInteger()) continue;
    if (e.name == "-" && i == 0) return std::nullopt;  // c - x reflects, not shifts
    std::string err;
    auto v = rt::literalValue(l, &err);
    if (v && std::holds_alternative<int64_t>(*v)) return std::get<int64_t>(*v);
  }
  return std::nullopt;
}

/// Strings a pattern or affix constant may accept or reject by a hair: the
/// pattern with % as nothing and as "zz" and _ as "x" (and in upper case for
/// ILIKE); the affix with a character before and after it.
std::vector<std::string> witnesses(const Expr& e) {
  if (e.kind != ExprKind::Call || e.args.size() < 2 || e.args[1]->kind != ExprKind::Literal ||
      e.args[1]->isNull || !e.args[1]->type.isString())
    return {};
  const std::string& p = e.args[1]->value;
  if (e.name == "starts_with" || e.name == "ends_with" || e.name == "strpos")
    return {p + "x", "x" + p};
  if (e.name != "like" && e.name != "ilike" && e.name != "similar_to") return {};
  std::string none, more;
  for (char ch : p) {
    none += ch == '%' ? "" : ch == '_' ? "x" : std::string(1, ch);
    more += ch == '%' ? "zz" : ch == '_' ? "x" : std::string(1, ch);
  }
  std::vector<std::string> out{none, more};
  if (e.name == "ilike") {
    for (auto& ch : none) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    out.push_back(none);
  }
  return out;
}

void gather(const Expr& e, Gathered& g, std::vector<const Expr*>& split) {
  if (connective(e)) {
    split.push_back(&e);
    return;
  }
  if (e.kind == ExprKind::Column) g.columns.push_back(e.name);
  if (e.kind == ExprKind::Literal && !e.isNull && e.type.kind != TypeKind::Interval)
    g.literals.push_back(&e);
  if (e.kind == ExprKind::Subquery && e.plan && e.subquery != SubqueryKind::Exists &&
      !e.plan->output.empty())
    g.columns.push_back(e.plan->output[0].id);
  g.ranges = g.ranges || orderComparison(e);
  if (auto c = arithmeticConstant(e)) (e.name == "*" ? g.factors : g.offsets).push_back(*c);
  for (auto& w : witnesses(e)) g.witnesses.push_back(std::move(w));
  const bool isCase = e.kind == ExprKind::Call && e.name == "case";
  for (size_t i = 0; i < e.args.size(); ++i) {
    if (isCase && i % 2 == 0 && i + 1 < e.args.size())
      split.push_back(e.args[i].get());  // a WHEN condition
    else
      gather(*e.args[i], g, split);
  }
}

}  // namespace

int ValueClasses::find(int x) const {
  while (parent_[static_cast<size_t>(x)] != x)
    x = parent_[static_cast<size_t>(x)] =
        parent_[static_cast<size_t>(parent_[static_cast<size_t>(x)])];
  return x;
}

int ValueClasses::idOf(const std::string& column) {
  auto [it, fresh] = ids_.emplace(column, static_cast<int>(parent_.size()));
  if (fresh) parent_.push_back(it->second);
  return it->second;
}

void ValueClasses::unite(const std::string& a, const std::string& b) {
  int x = find(idOf(a)), y = find(idOf(b));
  if (x != y) parent_[static_cast<size_t>(y)] = x;
}

void ValueClasses::atom(const Expr& e, const std::string& with) {
  std::vector<const Expr*> todo{&e};
  bool first = true;
  while (!todo.empty()) {
    const Expr* x = todo.back();
    todo.pop_back();
    std::vector<const Expr*> split;
    Gathered g;
    if (connective(*x))
      for (const auto& a : x->args) split.push_back(a.get());
    else
      gather(*x, g, split);
    // Only the top atom defines `with`: a boolean's parts do not flow into it.
    if (first && !with.empty() && !connective(*x)) g.columns.push_back(with);
    first = false;
    for (const auto& c : g.columns) unite(g.columns[0], c);
    if (!g.columns.empty()) {
      int id = idOf(g.columns[0]);
      for (const Expr* l : g.literals) {
        std::string err;
        if (auto v = rt::literalValue(*l, &err)) pending_[id].emplace_back(rt::valueKey(*v), *v);
      }
      for (const auto& w : g.witnesses) pending_[id].emplace_back(rt::valueKey(rt::Value(w)), w);
      ranges_[id] = ranges_[id] || g.ranges;
      offsets_[id].insert(offsets_[id].end(), g.offsets.begin(), g.offsets.end());
      factors_[id].insert(factors_[id].end(), g.factors.begin(), g.factors.end());
    }
    todo.insert(todo.end(), split.begin(), split.end());
  }
}

void ValueClasses::counted(const std::string& column) {
  // A count or row number is 0, 1 or 2 on the databases a search reaches: a
  // column compared with one needs those values (a fresh value never equals it).
  for (int64_t n : {0, 1, 2}) pending_[idOf(column)].emplace_back(rt::valueKey(rt::Value(n)), n);
}

void ValueClasses::ordered(const Expr& e) {
  // SELECT b FROM (SELECT b FROM t ORDER BY b LIMIT 1) s WHERE b = 1 against the
  // filter moved below the LIMIT differs only on a b that sorts before 1: the
  // domain {1, fresh} never has one.
  for (const auto& c : columnsOf(e)) ranges_[idOf(c)] = true;
}

ValueClasses::ValueClasses(const std::vector<const PlanNode*>& nodes) {
  std::map<int, const Expr*> probeOf;
  std::map<std::string, const PlanNode*> firstScan;
  for (const PlanNode* n : nodes)
    for (const auto& rf : n->runtimeFilters) probeOf[rf.id] = rf.probe.get();
  for (const PlanNode* n : nodes) {
    switch (n->op) {
      case PlanOp::Scan: {
        auto [it, fresh] = firstScan.emplace(n->table, n);
        if (!fresh)
          for (const auto& c : n->tableColumns)
            unite(c.id, it->second->alias + c.id.substr(n->alias.size()));
        for (const auto& check : n->checks) atom(*check, "");
        break;
      }
      case PlanOp::Project:
      case PlanOp::Aggregate:
        for (const auto& ne : n->exprs) atom(*ne.expr, ne.name);
        for (const auto& a : n->aggs) {
          for (const auto& arg : a.args) atom(*arg, aggregateNeverNull(a.func) ? "" : a.name);
          if (aggregateNeverNull(a.func) && a.type.isInteger()) counted(a.name);
          if (a.func == "min" || a.func == "max")
            for (const auto& arg : a.args) ordered(*arg);
        }
        break;
      case PlanOp::Window:
        for (const auto& w : n->windows) {
          bool passes = !aggregateNeverNull(w.func);
          for (const auto& arg : w.args) atom(*arg, passes ? w.name : "");
          if (!passes && w.type.isInteger()) counted(w.name);
          for (const auto& p : w.partitionBy) atom(*p, "");
          for (const auto& k : w.orderBy) {
            atom(*k.expr, "");
            ordered(*k.expr);
          }
          if (w.func == "min" || w.func == "max")
            for (const auto& arg : w.args) ordered(*arg);
        }
        break;
      case PlanOp::Sort:
        for (const auto& k : n->sortKeys) {
          atom(*k.expr, "");
          ordered(*k.expr);
        }
        break;
      case PlanOp::Values:
        for (const auto& row : n->rows)
          for (size_t j = 0; j < row.size() && j < n->outNames.size(); ++j)
            atom(*row[j], n->outNames[j]);
        break;
      case PlanOp::Union:
      case PlanOp::Intersect:
      case PlanOp::Except:
        for (const auto& c : n->children)
          for (size_t i = 0; i < n->outNames.size() && i < c->output.size(); ++i)
            unite(n->outNames[i], c->output[i].id);
        break;
      default:
        forEachExpr(*n, [&](const ExprPtr& e) { atom(*e, ""); });
    }
    for (const auto& rf : n->runtimeFilters)
      for (const auto& c : columnsOf(*rf.build)) atom(*rf.probe, c);
    for (const auto& t : n->runtimeFilterTargets) {
      auto p = probeOf.find(t.id);
      std::set<std::string> cs =
          p == probeOf.end() ? std::set<std::string>{} : columnsOf(*p->second);
      atom(*t.target, cs.empty() ? "" : *cs.begin());
    }
  }
  // A foreign key relates its columns to the referenced ones (once both are scanned).
  for (const PlanNode* n : nodes)
    for (const auto& fk : n->foreignKeys)
      if (auto parent = firstScan.find(fk.refTable); parent != firstScan.end())
        for (size_t i = 0; i < fk.columns.size() && i < fk.refColumns.size(); ++i)
          unite(fk.columns[i], parent->second->alias + "." + fk.refColumns[i]);
  for (const auto& [id, consts] : pending_) {
    ValueClass& c = classes_[find(id)];
    for (const auto& [key, v] : consts) {
      bool seen = false;
      for (const auto& w : c.constants) seen = seen || rt::valueKey(w) == key;
      if (!seen) c.constants.push_back(v);
    }
  }
  for (const auto& [id, r] : ranges_) classes_[find(id)].ranges |= r;
  auto merge = [](std::vector<int64_t>& into, const std::vector<int64_t>& from) {
    for (int64_t x : from)
      if (std::find(into.begin(), into.end(), x) == into.end()) into.push_back(x);
  };
  for (const auto& [id, xs] : offsets_) merge(classes_[find(id)].offsets, xs);
  for (const auto& [id, xs] : factors_) merge(classes_[find(id)].factors, xs);
}

const ValueClass& ValueClasses::of(const std::string& id) const {
  auto it = ids_.find(id);
  if (it == ids_.end()) return none_;
  auto c = classes_.find(find(it->second));
  return c == classes_.end() ? none_ : c->second;
}

}  // namespace rfguard
