#include "verifier/row_keys.h"

#include <algorithm>
#include <map>

#include "ir/functions.h"
#include "ir/join_keys.h"
#include "ir/join_type.h"

namespace rfguard {

namespace {

/// Keys of a node's output: `strict` ones no two rows agree on, NULLs equal to
/// NULLs; `weak` ones no two rows agree on where none of their columns is NULL
/// (UNIQUE over nullable columns).
struct Keys {
  std::vector<RowKey> strict, weak;
};

Keys keysOf(const PlanNode& n);

bool within(const RowKey& k, const std::set<std::string>& columns) {
  return std::includes(columns.begin(), columns.end(), k.begin(), k.end());
}

Keys scanKeys(const PlanNode& n) {
  std::set<std::string> out, notNull;
  for (const auto& c : n.output) out.insert(c.id.str());
  for (const auto& c : n.tableColumns)
    if (!c.nullable) notNull.insert(c.id.str());
  Keys keys;
  auto add = [&](const std::vector<ColumnId>& cols, bool primary) {
    if (cols.empty()) return;
    RowKey k;
    bool nullable = false;
    for (const auto& c : cols) {
      if (!out.count(c.str())) return;
      nullable = nullable || !notNull.count(c.str());
      k.insert(c.str());
    }
    // A primary key's columns are NOT NULL whatever they say.
    (primary || !nullable ? keys.strict : keys.weak).push_back(std::move(k));
  };
  add(n.primaryKey, true);
  for (const auto& u : n.uniqueKeys) add(u, false);
  return keys;
}

/// True when a row whose column `c` is NULL never passes `conjunct`: IS NOT
/// NULL of it, or a conjunct NULL whenever `c` is (the catalog's null policies).
bool rejectsNull(const Expr& conjunct, const std::string& c) {
  if (isCallOf(conjunct, "is_not_null") && conjunct.args.size() == 1 &&
      conjunct.args[0]->kind == ExprKind::Column && conjunct.args[0]->name == c)
    return true;
  return isNullPropagating(conjunct, std::set<std::string>{c});
}

Keys filterKeys(const PlanNode& n) {
  Keys keys = keysOf(*n.children[0]);
  const std::vector<ExprPtr> cs = conjuncts(n.predicate);
  std::vector<RowKey> weak;
  for (auto& k : keys.weak) {
    bool rejected = true;
    for (const auto& c : k)
      rejected = rejected && std::any_of(cs.begin(), cs.end(),
                                         [&](const ExprPtr& x) { return rejectsNull(*x, c); });
    (rejected ? keys.strict : weak).push_back(std::move(k));
  }
  keys.weak = std::move(weak);
  return keys;
}

Keys projectKeys(const PlanNode& n) {
  std::map<std::string, std::string> as;  // a child column -> the first output that is it
  for (const auto& ne : n.exprs)
    if (ne.expr->kind == ExprKind::Column) as.emplace(ne.expr->name, ne.name);
  auto mapped = [&](const std::vector<RowKey>& in) {
    std::vector<RowKey> out;
    for (const auto& k : in) {
      RowKey m;
      for (const auto& c : k) {
        auto it = as.find(c);
        if (it == as.end()) break;
        m.insert(it->second);
      }
      if (m.size() == k.size()) out.push_back(std::move(m));
    }
    return out;
  };
  const Keys in = keysOf(*n.children[0]);
  return Keys{mapped(in.strict), mapped(in.weak)};
}

/// Joins: a semi or anti join returns some rows of one input, each at most once.
/// An inner join's rows are pairs, so a key of each side together is a key; and
/// where the condition equates every column of a key of one side with columns
/// of the other (`=` never matches NULL, so a weak key will do), each row of the
/// other side meets at most one row: its keys stay keys. The same for the
/// preserved side of a LEFT or RIGHT join, whose unmatched rows appear once.
Keys joinKeys(const PlanNode& n) {
  const auto& info = joinInfo(n.joinType);
  if (n.children.size() != 2) return {};
  if (info.outputs[0] != info.outputs[1]) return keysOf(*n.children[info.outputs[0] ? 0 : 1]);
  const Keys side[2] = {keysOf(*n.children[0]), keysOf(*n.children[1])};
  std::set<std::string> equated[2];
  if (n.predicate) {
    auto reads = [](const PlanNode& c) {
      return [&c](const Expr& e) {
        if (e.kind != ExprKind::Column) return false;
        for (const auto& o : c.output)
          if (o.id == e.name) return true;
        return false;
      };
    };
    std::vector<const Expr*> parts;
    for (const auto& c : conjuncts(n.predicate)) parts.push_back(c.get());
    for (const JoinKey& k :
         splitJoinCondition(parts, reads(*n.children[0]), reads(*n.children[1])).keys) {
      equated[0].insert(k.left()->name);
      equated[1].insert(k.right()->name);
    }
  }
  auto covered = [&](int s) {
    for (const auto* list : {&side[s].strict, &side[s].weak})
      for (const auto& k : *list)
        if (!k.empty() && within(k, equated[s])) return true;
    return false;
  };
  Keys out;
  const bool inner = !info.preserves[0] && !info.preserves[1];
  for (int s = 0; s < 2; ++s) {
    const bool kept = inner || (info.preserves[s] && !info.preserves[1 - s]);
    if (kept && covered(1 - s))
      out.strict.insert(out.strict.end(), side[s].strict.begin(), side[s].strict.end());
  }
  if (inner)
    for (const auto& a : side[0].strict)
      for (const auto& b : side[1].strict) {
        RowKey k = a;
        k.insert(b.begin(), b.end());
        out.strict.push_back(std::move(k));
      }
  return out;
}

Keys keysOf(const PlanNode& n) {
  switch (n.op) {
    case PlanOp::Scan:
      return scanKeys(n);
    case PlanOp::Filter:
      return filterKeys(n);
    case PlanOp::Sort:
    case PlanOp::Limit:
      return keysOf(*n.children[0]);
    case PlanOp::Project:
      return projectKeys(n);
    case PlanOp::Aggregate: {
      if (!n.groupingSets.empty()) return {};
      RowKey k;
      for (const auto& ne : n.exprs) k.insert(ne.name);
      return Keys{{k}, {}};
    }
    case PlanOp::Join:
      return joinKeys(n);
    default:
      return {};
  }
}

}  // namespace

std::vector<RowKey> rowKeys(const PlanNode& n) {
  return keysOf(n).strict;
}

bool hasRowKeyWithin(const PlanNode& n, const std::set<std::string>& columns) {
  for (const auto& k : rowKeys(n))
    if (within(k, columns)) return true;
  return false;
}

}  // namespace rfguard
