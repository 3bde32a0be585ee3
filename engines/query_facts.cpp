// Facts the queries state about their columns, for data generation and imports.
#include "engines/query_facts.h"

#include "ir/comparison.h"

#include <functional>

namespace rfguard::engine {

namespace {

/// The column under casts, or null.
const Expr* columnOf(const ExprPtr& e) {
  const Expr* x = e.get();
  while (x && x->kind == ExprKind::Cast && !x->args.empty()) x = x->args[0].get();
  return x && x->kind == ExprKind::Column ? x : nullptr;
}

const Expr* literalOf(const ExprPtr& e) {
  const Expr* x = e.get();
  while (x && x->kind == ExprKind::Cast && !x->args.empty()) x = x->args[0].get();
  return x && x->kind == ExprKind::Literal && !x->isNull ? x : nullptr;
}

void collect(const PlanNode& n, std::map<std::string, std::string>& aliases,
             std::vector<ExprPtr>& exprs) {
  if (n.op == PlanOp::Scan) aliases[n.alias] = n.table;
  forEachExpr(n, [&](const ExprPtr& e) {
    std::vector<const Expr*> stack{e.get()};
    while (!stack.empty()) {
      const Expr* x = stack.back();
      stack.pop_back();
      if (!x) continue;
      if (x->kind == ExprKind::Call) exprs.push_back(makePooled<Expr>(*x));
      if (x->plan) collect(*x->plan, aliases, exprs);
      for (const auto& a : x->args) stack.push_back(a.get());
    }
  });
  for (const auto& c : n.children) collect(*c, aliases, exprs);
}

}  // namespace

std::map<std::string, std::set<std::string>> comparedLiterals(const std::vector<Query>& queries) {
  std::map<std::string, std::set<std::string>> out;
  // Comparisons but IS [NOT] DISTINCT FROM (the catalog's facts), IN lists and LIKE.
  auto compares = [](const Expr& c) {
    const ComparisonInfo* cmp = comparisonOf(c);
    return cmp ? !cmp->nullSafe : c.name == "in" || c.name == "like";
  };
  for (const auto& q : queries) {
    std::map<std::string, std::string> aliases;
    std::vector<ExprPtr> calls;
    collect(*q.plan, aliases, calls);
    for (const auto& c : calls) {
      if (!compares(*c) || c->args.size() < 2) continue;
      const Expr* col = columnOf(c->args[0]);
      if (!col) continue;
      auto dot = col->name.find('.');
      auto it = aliases.find(col->name.substr(0, dot));
      if (dot == std::string::npos || it == aliases.end()) continue;
      std::string key = it->second + "." + col->name.substr(dot + 1);
      for (size_t i = 1; i < c->args.size(); ++i) {
        const Expr* lit = literalOf(c->args[i]);
        if (!lit) continue;
        std::string v = lit->value;
        if (c->name == "like") {  // a value the pattern matches
          std::string m;
          for (char ch : v) m += ch == '%' ? "" : ch == '_' ? "x" : std::string(1, ch);
          v = m;
        }
        out[key].insert(v);
      }
    }
  }
  return out;
}

std::set<std::pair<std::string, std::string>> equatedColumns(const std::vector<Query>& queries) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& q : queries) {
    std::map<std::string, std::string> aliases;
    std::vector<ExprPtr> calls;
    collect(*q.plan, aliases, calls);
    auto name = [&](const Expr* col) -> std::string {
      if (!col) return "";
      auto dot = col->name.find('.');
      auto it = aliases.find(col->name.substr(0, dot));
      if (dot == std::string::npos || it == aliases.end()) return "";
      return it->second + "." + col->name.substr(dot + 1);
    };
    for (const auto& c : calls) {
      if (const ComparisonInfo* cmp = comparisonOf(*c); !cmp || !cmp->equality) continue;
      std::string a = name(columnOf(c->args[0])), b = name(columnOf(c->args[1]));
      if (!a.empty() && !b.empty()) out.insert({a, b});
    }
  }
  return out;
}

std::map<std::string, long long> joinKeyDomains(const std::vector<Query>& queries,
                                                const Catalog& catalog,
                                                const std::map<std::string, long long>& rows) {
  // The rows of `table.column`'s table when the column is its numbered key.
  auto numberedKey = [&](const std::string& tc) -> long long {
    const auto dot = tc.find('.');
    const TableDef* t = catalog.table(tc.substr(0, dot));
    if (!t) return 0;
    int pk = 0;
    const ColumnDef* key = nullptr;
    for (const auto& c : t->columns)
      if (c.primaryKey) ++pk, key = &c;
    if (pk != 1 || key->name != tc.substr(dot + 1) || !key->type.isInteger()) return 0;
    auto r = rows.find(t->name);
    return r == rows.end() ? 0 : r->second;
  };
  // Columns the queries equate, as classes (mk.movie_id = mi.movie_id and
  // t.id = mk.movie_id put mi.movie_id with t.id too).
  std::map<std::string, std::string> parent;
  std::function<std::string(const std::string&)> find = [&](const std::string& x) {
    auto it = parent.find(x);
    if (it == parent.end() || it->second == x) return parent[x] = x;
    return it->second = find(it->second);
  };
  for (const auto& [a, b] : equatedColumns(queries))
    if (a.substr(0, a.find('.')) != b.substr(0, b.find('.'))) parent[find(a)] = find(b);
  // A class with a numbered key: its other columns draw over the smallest such key.
  std::map<std::string, long long> classKey;
  for (const auto& [col, p] : parent) {
    const long long d = numberedKey(col);
    if (d <= 0) continue;
    auto [it, fresh] = classKey.emplace(find(col), d);
    if (!fresh) it->second = std::min(it->second, d);
  }
  std::map<std::string, long long> out;
  for (const auto& [col, p] : parent) {
    auto k = classKey.find(find(col));
    out[col] = numberedKey(col) > 0 || k == classKey.end() ? 0 : k->second;
  }
  return out;
}

}  // namespace rfguard::engine
