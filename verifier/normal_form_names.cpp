// The normal form's names (normal_form_laws.h, kNames): a table is named by
// the table, whatever alias the query gave it (numbered where it is read twice).
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "ir/join_type.h"
#include "verifier/normal_form_laws.h"

namespace rfguard::normal_form {

namespace {

using Renames = std::map<std::string, std::string>;  // old column id -> new

ExprPtr renamed(const ExprPtr& e, const Renames& to) {
  if (!e) return e;
  if (e->kind == ExprKind::Column) {
    auto it = to.find(e->name);
    if (it == to.end()) return e;
    auto copy = makePooled<Expr>(*e);
    copy->name = it->second;
    return copy;
  }
  return mapArgsIfChanged(e, [&](const ExprPtr& a) { return renamed(a, to); });
}

ColumnId renamedId(const ColumnId& id, const Renames& to) {
  auto it = to.find(id.str());
  return it == to.end() ? id : ColumnId(it->second);
}

/// Every node of the plan, subquery plans included (collected before any is changed).
std::vector<PlanNode*> nodesOf(PlanNode& root) {
  std::vector<PlanNode*> out;
  forEachNode(root, [&](const PlanNode& n) { out.push_back(const_cast<PlanNode*>(&n)); });
  return out;
}

void renameIn(PlanNode& n, const Renames& to) {
  mapExprs(n, [&](const ExprPtr& e) { return renamed(e, to); });
  for (auto& ne : n.exprs) ne.name = renamedId(ne.name, to).str();
  for (auto& a : n.aggs) a.name = renamedId(a.name, to).str();
  for (auto& w : n.windows) w.name = renamedId(w.name, to).str();
  for (auto& o : n.outNames) o = renamedId(o, to).str();
  for (auto& f : n.runtimeFilters) {
    f.build = renamed(f.build, to);
    f.probe = renamed(f.probe, to);
  }
  for (auto& t : n.runtimeFilterTargets) t.target = renamed(t.target, to);
  if (n.op != PlanOp::Scan) return;
  for (auto& c : n.tableColumns) c.id = renamedId(c.id, to);
  for (auto& c : n.scanColumns) c = renamedId(c, to);
  for (auto& c : n.primaryKey) c = renamedId(c, to);
  for (auto& k : n.uniqueKeys)
    for (auto& c : k) c = renamedId(c, to);
  for (auto& fk : n.foreignKeys)
    for (auto& c : fk.columns) c = renamedId(c, to);
  for (auto& [c, ndv] : n.columnNdv) c = renamedId(c, to);
  for (auto& e : n.checks) e = renamed(e, to);
  n.tableIndex.reset();
}

}  // namespace

namespace {

/// renameGroupKeys for one aggregate of `root`.
bool renameKeysOf(PlanNode& root, PlanNode& aggregate) {
  // Below: the aggregate's own subtree, whose ids stay.
  std::set<const PlanNode*> below;
  for (PlanNode* n : nodesOf(aggregate))
    if (n != &aggregate) below.insert(n);
  std::set<std::string> outside;  // ids made or read anywhere else
  std::vector<PlanNode*> others;
  for (PlanNode* n : nodesOf(root)) {
    if (below.count(n) || n == &aggregate) continue;
    others.push_back(n);
    for (const auto& c : n->output) outside.insert(c.id.str());
    forEachExpr(*n, [&](const ExprPtr& e) {
      for (const auto& c : columnsOf(*e)) outside.insert(c);
    });
  }
  Renames to;
  std::set<std::string> names;
  for (const auto& ne : aggregate.exprs) names.insert(ne.name);
  for (const auto& a : aggregate.aggs) names.insert(a.name);
  for (auto& ne : aggregate.exprs) {
    if (ne.expr->kind != ExprKind::Column || ne.expr->name == ne.name) continue;
    const std::string& c = ne.expr->name;
    if (outside.count(c) || names.count(c)) continue;
    to[ne.name] = c;
    names.insert(c);
    ne.name = c;  // (its expressions read the input's columns: they stay)
  }
  if (to.empty()) return false;
  for (PlanNode* n : others) renameIn(*n, to);
  aggregate.outputStamp = {};
  return true;
}

}  // namespace

void renameGroupKeys(PlanNode& root) {
  bool renamed = false;
  for (PlanNode* n : nodesOf(root))
    if (n->op == PlanOp::Aggregate) renamed = renameKeysOf(root, *n) || renamed;
  if (renamed) refreshOutputs(root);
}

namespace {

/// The renaming a projection makes, output id -> the input column it lists,
/// when each of its expressions is a plain column, no two the same: it then
/// only renames and drops columns. Empty otherwise.
Renames renamingOf(const PlanNode& p) {
  Renames to;
  std::set<std::string> sources;
  if (p.op != PlanOp::Project || p.children.size() != 1) return {};
  for (const auto& ne : p.exprs) {
    if (ne.expr->kind != ExprKind::Column || !sources.insert(ne.expr->name).second ||
        to.count(ne.name))
      return {};
    to[ne.name] = ne.expr->name;
  }
  return to;
}

/// dropRenamings for the projection `*slot` of `root`: its input in its place,
/// what reads its columns reading the input's instead.
bool dropRenaming(PlanNode& root, PlanPtr& slot) {
  PlanNode& p = *slot;
  Renames to = renamingOf(p);
  if (to.empty()) return false;
  std::set<const PlanNode*> inside;
  for (PlanNode* n : nodesOf(p)) inside.insert(n);
  std::set<std::string> outside;  // ids made or read anywhere else
  std::vector<PlanNode*> others;
  for (PlanNode* n : nodesOf(root)) {
    if (inside.count(n)) continue;
    others.push_back(n);
    for (const auto& c : n->output) outside.insert(c.id.str());
    forEachExpr(*n, [&](const ExprPtr& e) {
      for (const auto& c : columnsOf(*e)) outside.insert(c);
    });
  }
  for (const auto& [name, source] : to)
    if (name != source && outside.count(source)) return false;
  slot = p.children[0];
  for (PlanNode* n : others) {
    renameIn(*n, to);
    n->outputStamp = {};
  }
  return true;
}

}  // namespace

bool dropRenamings(PlanNode& root) {
  // A projection that only renames (and drops) its input's columns is its
  // input under the old names: every reader above reads the same values by
  // the input's ids instead. Not where an input id is made or read outside
  // the projection's subtree (two columns would then share a name: a self-join
  // `(SELECT k AS j FROM a) x JOIN a`, whose `a.k` above is the other scan's).
  // Nor where its columns' positions are seen: up through the nodes that pass
  // their inputs' columns on in order (filters, sorts, LIMITs, joins, windows)
  // the first reader must read by name (a projection, an aggregate), not by
  // position (a set operation: `SELECT w, k FROM b` as an input of UNION is
  // not b; the root; a subquery's result). The other input of a semi or anti
  // join is read by its condition alone, by name; but not NOT IN's: the form
  // of `x NOT IN (subquery)` keeps the subquery's select list, and the
  // NULL-aware anti join it decorrelates to must keep it too (IN is EXISTS
  // in a filter, normal_form_constants.cpp, whose form has none).
  std::map<const PlanNode*, const PlanNode*> parent;
  std::vector<PlanNode*> nodes = nodesOf(root);
  for (PlanNode* n : nodes)
    for (const auto& c : n->children) parent[c.get()] = n;
  auto byName = [&](const PlanNode* n) {
    for (auto it = parent.find(n); it != parent.end(); it = parent.find(n)) {
      const PlanNode* p = it->second;
      if (p->op == PlanOp::Project || p->op == PlanOp::Aggregate) return true;
      if (p->op == PlanOp::Union || p->op == PlanOp::Intersect || p->op == PlanOp::Except)
        return false;
      n = p;
    }
    return false;  // the root, or a subquery's
  };
  for (PlanNode* n : nodes)
    for (size_t i = 0; i < n->children.size(); ++i) {
      PlanPtr& c = n->children[i];
      if (n->op == PlanOp::Join && n->children.size() == 2 && !joinInfo(n->joinType).outputs[i] &&
          joinInfo(n->joinType).nullAware)
        continue;
      const bool semi =
          n->op == PlanOp::Join && n->children.size() == 2 && !joinInfo(n->joinType).outputs[i];
      if (c->op == PlanOp::Project && (semi || byName(c.get())) && dropRenaming(root, c)) {
        refreshOutputs(root);
        return true;
      }
    }
  return false;
}

void renameSetOperationInputs(PlanNode& root) {
  // A set operation reads its inputs by position: the names their
  // projections give their columns are read by no one else, so they go.
  for (PlanNode* n : nodesOf(root)) {
    if (n->op != PlanOp::Union && n->op != PlanOp::Intersect && n->op != PlanOp::Except) continue;
    for (const auto& c : n->children)
      if (c->op == PlanOp::Project)
        for (size_t j = 0; j < c->exprs.size(); ++j) c->exprs[j].name = "$in." + std::to_string(j);
  }
  refreshOutputs(root);
}

void renameSetOperationOutputs(PlanNode& root) {
  // A set operation's columns are what its inputs give by position: their
  // names, from a derived table's alias or the first input's select list,
  // say nothing. "$set.<depth>.<position>", where no column of the plan has
  // that name already (else the names stay: two set operations at one depth
  // keep one name apart), is a one-to-one renaming: the rows stay the same.
  std::set<std::string> used;
  for (PlanNode* n : nodesOf(root))
    for (const auto& c : n->output) used.insert(c.id.str());
  Renames to;
  std::function<void(const PlanNode&, int)> walk = [&](const PlanNode& n, int depth) {
    if (n.op == PlanOp::Union || n.op == PlanOp::Intersect || n.op == PlanOp::Except)
      for (size_t j = 0; j < n.outNames.size(); ++j) {
        const std::string name = "$set." + std::to_string(depth) + "." + std::to_string(j);
        if (!used.count(name) && !to.count(n.outNames[j])) {
          to.emplace(n.outNames[j], name);
          used.insert(name);
        }
      }
    for (const auto& c : n.children) walk(*c, depth + 1);
  };
  walk(root, 0);
  if (to.empty()) return;
  for (PlanNode* n : nodesOf(root)) {
    renameIn(*n, to);
    n->outputStamp = {};
  }
  refreshOutputs(root);
}

namespace {

/// `p`'s columns named "$sq.0", "$sq.1"... where it is read by position
/// only; wrapped in a projection first when it is none. The new root.
PlanPtr positional(const PlanPtr& p) {
  PlanPtr root = p;
  if (root->op != PlanOp::Project) root = passingColumns(root->output, root, root->id);
  for (size_t j = 0; j < root->exprs.size(); ++j) root->exprs[j].name = "$sq." + std::to_string(j);
  root->outputStamp = {};
  computeOutput(*root);
  return root;
}

ExprPtr withPositionalSubqueries(const ExprPtr& e) {
  if (!e) return e;
  if (e->kind == ExprKind::Subquery && e->plan) {
    auto copy = makePooled<Expr>(*e);
    copy->plan = positional(e->plan);
    if (!copy->args.empty()) copy->args[0] = withPositionalSubqueries(copy->args[0]);
    return copy;
  }
  return mapArgsIfChanged(e, withPositionalSubqueries);
}

}  // namespace

void renameSubqueryOutputs(PlanNode& root) {
  // A subquery's result is read by position (IN and a scalar subquery its
  // first column, EXISTS none), and so is the select list of the other input
  // of a semi or anti join (IN's, decorrelated): their names do not matter.
  // Nothing outside reads them by name (a correlated reference reads a table
  // of the query around it, not its select list).
  for (PlanNode* n : nodesOf(root)) {
    mapExprs(*n, [](const ExprPtr& e) { return withPositionalSubqueries(e); });
    if (n->op != PlanOp::Join || n->children.size() != 2) continue;
    const JoinTypeInfo& info = joinInfo(n->joinType);
    for (size_t i = 0; i < 2; ++i) {
      PlanPtr& c = n->children[i];
      if (info.outputs[i] || !info.outputs[1 - i] || c->op != PlanOp::Project) continue;
      Renames to;
      for (size_t j = 0; j < c->exprs.size(); ++j)
        to[c->exprs[j].name] = "$sq." + std::to_string(j);
      c = positional(c);
      renameIn(*n, to);
    }
  }
  refreshOutputs(root);
}

void renameColumns(PlanNode& root, const std::map<std::string, std::string>& to,
                   std::vector<std::string>& columns) {
  for (PlanNode* n : nodesOf(root)) {
    renameIn(*n, to);
    n->outputStamp = {};
  }
  for (auto& c : columns) c = renamedId(ColumnId(c), to).str();
  refreshOutputs(root);
}

std::vector<std::string> rootColumns(PlanPtr& root, bool look) {
  // A root projection of plain columns, each once, only picks and renames
  // its input's columns: the result is those columns by position, whatever
  // else the input makes (no one reads it) and whatever the names.
  const PlanNode& p = *root;
  std::vector<std::string> out;
  std::set<std::string> seen;
  bool plain = look && p.op == PlanOp::Project && p.children.size() == 1;
  for (size_t j = 0; plain && j < p.exprs.size(); ++j) {
    plain = p.exprs[j].expr->kind == ExprKind::Column && seen.insert(p.exprs[j].expr->name).second;
    out.push_back(p.exprs[j].expr->name);
  }
  if (plain) {
    root = p.children[0];
    return out;
  }
  out.clear();
  for (const auto& c : p.output) out.push_back(c.id.str());
  return out;
}

void renameOutputs(PlanNode& root, std::vector<std::string>& columns) {
  // "$out.j": names no query writes. The same id twice keeps its first place.
  // Not a scan's column: its name "alias.col" is what binds it to its table
  // column (a scan's form does not list its columns), so it keeps it.
  std::set<std::string> scanned;
  std::vector<PlanNode*> nodes = nodesOf(root);
  for (PlanNode* n : nodes)
    if (n->op == PlanOp::Scan)
      for (const auto& c : n->tableColumns) scanned.insert(c.id.str());
  Renames to;
  for (size_t j = 0; j < columns.size(); ++j)
    if (!scanned.count(columns[j])) to.emplace(columns[j], "$out." + std::to_string(j));
  for (auto& c : columns) c = renamedId(ColumnId(c), to).str();
  if (to.empty()) return;
  for (PlanNode* n : nodes) {
    renameIn(*n, to);
    n->outputStamp = {};
  }
  refreshOutputs(root);
}

std::map<std::string, int> tablesReadTwice(const PlanNode& root) {
  std::map<std::string, int> reads, out;
  forEachNode(root, [&](const PlanNode& n) {
    if (n.op == PlanOp::Scan) ++reads[n.table];
  });
  for (const auto& [table, n] : reads)
    if (n > 1) out[table] = n;
  return out;
}

bool renameTables(PlanNode& root, const Naming* naming, std::vector<std::string>* columns) {
  // Alias-free names: a table read once takes its own name; with a `naming`,
  // a table read n times "table#1" to "table#n" (its scans in the plan's
  // order, or as `naming` permutes them), else its aliases stay; when no column
  // of the plan is called that already. Names are what a plan calls its columns, not what they
  // hold: any one-to-one renaming leaves the rows the same.
  std::vector<PlanNode*> nodes = nodesOf(root);
  std::map<std::string, int> reads, seen;
  std::set<std::string> ids, aliases;
  for (PlanNode* n : nodes) {
    if (n->op == PlanOp::Scan) {
      ++reads[n->table];
      aliases.insert(n->alias);
      for (const auto& c : n->tableColumns) ids.insert(c.id.str());
    }
    for (const auto& c : n->output) ids.insert(c.id.str());
  }
  Renames to;
  std::map<PlanNode*, std::string> renamedScans;
  for (PlanNode* n : nodes) {
    if (n->op != PlanOp::Scan) continue;
    const int k = seen[n->table]++;
    std::string alias = n->table;
    if (reads[n->table] > 1 && !naming) continue;
    if (reads[n->table] > 1) {
      int i = k;
      auto it = naming->find(n->table);
      if (it != naming->end() && static_cast<size_t>(k) < it->second.size())
        i = it->second[static_cast<size_t>(k)];
      alias += "#" + std::to_string(i + 1);
    }
    if (n->alias == alias || aliases.count(alias)) continue;
    Renames mine;
    const std::string prefix = n->alias + ".";
    bool ok = true;
    for (const auto& c : n->tableColumns) {
      const std::string& id = c.id.str();
      if (id.rfind(prefix, 0) != 0) ok = false;
      const std::string fresh = alias + "." + id.substr(std::min(prefix.size(), id.size()));
      if (!ok || ids.count(fresh)) ok = false;
      mine[id] = fresh;
    }
    if (!ok) continue;
    to.insert(mine.begin(), mine.end());
    renamedScans[n] = alias;
  }
  if (to.empty()) return false;
  if (columns)
    for (auto& c : *columns) c = renamedId(ColumnId(c), to).str();
  for (PlanNode* n : nodes) {
    renameIn(*n, to);
    if (auto it = renamedScans.find(n); it != renamedScans.end()) n->alias = it->second;
    n->outputStamp = {};
  }
  refreshOutputs(root);
  return true;
}

}  // namespace rfguard::normal_form
