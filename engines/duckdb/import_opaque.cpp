// Operators whose columns DuckDB does not print: EMPTY_RESULT (a part of the
// plan statistics proved empty) and COLUMN_DATA_SCAN outside a delim join
// (materialised rows: a VALUES list, a long IN list). Their columns are the
// ones the operator above reads of them, by name or by #n; they become a scan
// of a table that stands for those rows, of any content (the verifier then
// judges every placement for every content, which is sound for the actual
// one), under a false filter for EMPTY_RESULT, which has none.
#include <algorithm>

#include "engines/duckdb/import_state.h"

namespace rfguard::duckdb_import {

namespace {

/// The column names `e` reads (unqualified, in order of first use) and how
/// many columns its #n references count.
void namesIn(const TextExprPtr& e, std::vector<std::string>& names, int& refs) {
  if (!e) return;
  if (e->kind == TextExpr::Kind::Name && e->text != "*") {
    std::string n = e->text.substr(e->text.rfind('.') + 1);
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  } else if (e->kind == TextExpr::Kind::Ref) {
    refs = std::max(refs, e->index + 1);
  }
  for (const auto& a : e->args) namesIn(a, names, refs);
  for (const auto& a : e->partitionBy) namesIn(a, names, refs);
  for (const auto& k : e->orderBy) namesIn(k.expr, names, refs);
}

}  // namespace

std::string Importer::columnType(const std::string& id) const {
  const auto dot = id.find('.');
  if (dot == std::string::npos) return "unknown";
  auto a = aliasTable.find(id.substr(0, dot));
  if (a == aliasTable.end()) return "unknown";
  const std::string column = id.substr(dot + 1);
  if (const TableDef* t = schema.table(a->second))
    if (int i = t->columnIndex(column); i >= 0)
      return t->columns[static_cast<size_t>(i)].type.toString();
  auto use = tables.find(a->second);
  if (use == tables.end()) return "unknown";
  auto it = use->second.types.find(column);
  return it == use->second.types.end() ? "unknown" : it->second;
}

void Importer::shareType(const std::string& a, const std::string& b) {
  const std::string ta = columnType(a), tb = columnType(b);
  if (ta == "unknown" && tb != "unknown") noteType(a, tb);
  if (tb == "unknown" && ta != "unknown") noteType(b, ta);
}

Built Importer::opaque(const std::string& op, int id, const std::string& ptr) {
  Built out;
  // What the parent reads of this child: for a join, the side of each
  // comparison over it (DuckDB prints the probe side left, the build side
  // right); for anything else, every column its expressions name.
  std::vector<std::string> names;
  int refs = 0;
  if (parent.node) {
    const Json& p = *parent.node;
    const std::string pop = opName(p);
    std::vector<std::string> texts;
    if (isJoinOp(pop)) {
      texts = infoList(p, "Conditions");
      if (texts.empty()) texts = infoList(p, "Condition");
    } else if (auto ei = p.find("extra_info"); ei != p.end() && ei->is_object()) {
      for (const auto& item : ei->items())
        if (item.key() != "Estimated Cardinality")
          for (const auto& t : infoList(p, item.key().c_str())) texts.push_back(t);
    }
    for (const auto& t : texts) {
      std::string err;
      TextExprPtr e = parseExpr(t, err);
      if (!e) continue;
      if (!isJoinOp(pop))
        namesIn(e, names, refs);
      else if (isComparison(e) && parent.child < 2)
        namesIn(e->args[parent.child], names, refs);
    }
  }
  std::vector<std::string> columns;
  for (int i = 0; i < refs; ++i) columns.push_back("c" + std::to_string(i));
  for (const auto& n : names)
    if (std::find(columns.begin(), columns.end(), n) == columns.end()) columns.push_back(n);
  if (columns.empty())
    return error(ptr, op + ": DuckDB does not print its columns and the operator above reads "
                           "none of them; it cannot be imported"),
           out;
  const bool empty = op == "EMPTY_RESULT";
  std::string alias = (empty ? "empty_" : "rows_") + std::to_string(id);
  for (int k = 2; !aliases.insert(alias).second; ++k) alias += "_" + std::to_string(k);
  aliasTable[alias] = alias;
  TableUse& use = tables[alias];
  use.opaque = true;
  use.columns = columns;
  std::string list;
  for (const auto& c : columns) {
    out.cols.push_back(makeCol(alias + "." + c, c));
    out.rfOut.push_back(alias + "." + c);
    list += (list.empty() ? "" : ", ") + c;
  }
  loss(ptr, empty ? "EMPTY_RESULT: DuckDB proved this part of the plan empty and prints no "
                    "columns: imported as no rows of the columns the operator above reads (" +
                        list + ")"
                  : "COLUMN_DATA_SCAN: rows DuckDB materialised (a VALUES list, a long IN "
                    "list) and does not print: imported as a table " +
                        alias + " of any content with the columns the operator above reads (" +
                        list + ")");
  Json scan{{"id", id},       {"op", "scan"},       {"table", alias},
            {"alias", alias}, {"columns", columns}, {"children", Json::array()}};
  if (!empty) {
    out.node = scan;
    return out;
  }
  scan["id"] = nextId;
  q.sourcePointer[nextId++] = ptr;
  out.node = Json{{"id", id},
                  {"op", "filter"},
                  {"predicate", {{"literal", false}, {"type", "boolean"}}},
                  {"children", {scan}}};
  return out;
}

}  // namespace rfguard::duckdb_import
