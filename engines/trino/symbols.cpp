// Which scan column each printed symbol is. Trino names a column's symbol
// after the column (`orderkey`, then `orderkey_5` for the next one of that
// name) and prints no projection, so a symbol is the column of its name of a
// scan below every line that prints it; when several scans qualify, the
// symbols already known to be one of them leave the others (each scan column
// has one symbol), and what stays ambiguous is said, not guessed.
#include <algorithm>

#include "engines/trino/import_state.h"

namespace rfguard::trino_import {

void Importer::index(const PlanOp& n, int depth) {
  depth_[&n] = depth;
  if (n.kind == OpKind::Scan) {
    std::string alias = n.table;
    for (int k = 2; std::any_of(alias_.begin(), alias_.end(),
                                [&](const auto& a) { return a.second == alias; });
         ++k)
      alias = n.table + "_" + std::to_string(k);
    alias_[&n] = alias;
    scans_.push_back(&n);
    if (!schema_.table(n.table)) openColumns_[&n];
  }
  for (const auto& s : n.symbols) uses_[s].push_back(&n);
  for (const auto& f : n.filters) uses_[f.symbol].push_back(&n);
  for (const auto& in : n.inputs) index(*in, depth + 1);
}

void Importer::scansUnder(const PlanOp& n, std::vector<const PlanOp*>& out) const {
  if (n.kind == OpKind::Scan) out.push_back(&n);
  for (const auto& in : n.inputs) scansUnder(*in, out);
}

std::vector<ScanColumn> Importer::columnsNamed(const std::string& symbol, const PlanOp& n) {
  std::vector<ScanColumn> out;
  const std::string base = baseName(symbol);
  for (const auto& c : visible(n))
    if (c.column == symbol || (base != symbol && c.column == base)) out.push_back(c);
  // A column named as the symbol whole is it; else one named as its base.
  if (std::any_of(out.begin(), out.end(), [&](const ScanColumn& c) { return c.column == symbol; }))
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](const ScanColumn& c) { return c.column != symbol; }),
              out.end());
  return out;
}

const std::set<ScanColumn>& Importer::visible(const PlanOp& n) {
  if (auto it = visible_.find(&n); it != visible_.end()) return it->second;
  std::set<ScanColumn> out;
  if (n.kind == OpKind::Scan) {
    if (const TableDef* t = schema_.table(n.table)) {
      for (const auto& c : t->columns) out.insert({&n, c.name});
    } else if (auto open = openColumns_.find(&n); open != openColumns_.end()) {
      for (const auto& c : open->second) out.insert({&n, c});
    }
  } else if (n.kind == OpKind::Aggregation && n.inputs.size() == 1) {
    for (const auto& s : n.symbols) {
      if (auto o = owner(s)) {
        if (visible(*n.inputs[0]).count(*o)) out.insert(*o);
        continue;
      }
      for (const auto& c : columnsNamed(s, *n.inputs[0])) out.insert(c);
    }
  } else if ((n.kind == OpKind::RemoteExchange || n.kind == OpKind::LocalExchange) &&
             n.inputs.size() > 1) {
    // A union: its outputs are none of its inputs' columns.
  } else if (n.kind == OpKind::SemiJoin && !n.inputs.empty()) {
    out = visible(*n.inputs[0]);
  } else {
    for (const auto& in : n.inputs) {
      const auto& sub = visible(*in);
      out.insert(sub.begin(), sub.end());
    }
  }
  return visible_[&n] = std::move(out);
}

std::vector<ScanColumn> Importer::keyPartners(const ScanColumn& target, const PlanOp& side) {
  std::vector<ScanColumn> out;
  auto pairs = [&](const std::string& fromTable, const std::string& fromColumn,
                   const std::string& toTable, const std::string& toColumn) {
    const TableDef* t = schema_.table(fromTable);
    if (!t) return false;
    for (const auto& fk : t->foreignKeys)
      for (size_t i = 0; i < fk.columns.size() && i < fk.refColumns.size(); ++i)
        if (fk.refTable == toTable && fk.columns[i] == fromColumn && fk.refColumns[i] == toColumn)
          return true;
    return false;
  };
  for (const auto& c : visible(side))
    if (pairs(target.scan->table, target.column, c.scan->table, c.column) ||
        pairs(c.scan->table, c.column, target.scan->table, target.column))
      out.push_back(c);
  return out;
}

std::optional<ScanColumn> Importer::owner(const std::string& symbol) const {
  auto it = owners_.find(symbol);
  if (it == owners_.end()) return std::nullopt;
  return it->second;
}

void Importer::resolveSymbols() {
  // A table the schema lacks has the columns the filters directly above it name.
  for (auto& [scan, cols] : openColumns_)
    if (scan->parent && scan->parent->kind == OpKind::DynamicFilter)
      for (const auto& f : scan->parent->filters) cols.insert(baseName(f.symbol));
  // Each symbol's candidates: the scan columns of its name that every line
  // printing it reads. A symbol with one candidate owns it, which takes it
  // from the others, and narrows what the aggregations above output.
  std::map<std::string, std::vector<ScanColumn>> candidates;
  std::set<ScanColumn> taken;
  for (bool progress = true; progress;) {
    progress = false;
    visible_.clear();
    for (const auto& [symbol, lines] : uses_) {
      if (owners_.count(symbol)) continue;
      // A line reads its input's columns (a scan line, its own).
      std::vector<ScanColumn> c =
          columnsNamed(symbol, lines[0]->inputs.size() == 1 ? *lines[0]->inputs[0] : *lines[0]);
      for (size_t i = 1; i < lines.size(); ++i) {
        const auto more =
            columnsNamed(symbol, lines[i]->inputs.size() == 1 ? *lines[i]->inputs[0] : *lines[i]);
        c.erase(std::remove_if(c.begin(), c.end(),
                               [&](const ScanColumn& x) {
                                 return std::find(more.begin(), more.end(), x) == more.end();
                               }),
                c.end());
      }
      c.erase(
          std::remove_if(c.begin(), c.end(), [&](const ScanColumn& x) { return taken.count(x); }),
          c.end());
      candidates[symbol] = c;
      if (c.size() != 1) continue;
      owners_[symbol] = c[0];
      taken.insert(c[0]);
      progress = true;
      break;  // what the others read may have narrowed
    }
  }
  visible_.clear();
  for (const auto& [symbol, c] : candidates) {
    if (owners_.count(symbol) || c.size() < 2) continue;
    std::string which;
    for (const auto& x : c) which += (which.empty() ? "" : ", ") + columnId(x);
    ambiguity(*uses_[symbol][0], "symbol " + symbol + " may be any of " + which +
                                     ": the plan prints no projection to tell, and the lines "
                                     "that print it are imported without it");
  }
}

}  // namespace rfguard::trino_import
