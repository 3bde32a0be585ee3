#pragma once
// Shared by the importers of engines' plan text (engines/doris/,
// engines/starrocks/): lists in printed plans, expressions' columns, and the
// plan JSON document their imported queries make.
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "ir/catalog.h"
#include "ir/diagnostics.h"

namespace rfguard::engine {

/// True when `text` is UTF-8 throughout; else false, with an error at the
/// line and column (in characters) of the first byte of no UTF-8 character:
/// names and conditions end up in JSON, which holds UTF-8 only.
bool checkUtf8(const std::string& text, const std::string& file, Diagnostics& diags);

/// The lines of `text`, without their '\r' (a last line after the last '\n'
/// too, empty when the text ends with one).
std::vector<std::string> textLines(const std::string& text);

/// Items of a printed list at its top level, trimmed: separators inside
/// brackets, parentheses and single quotes do not split; empty items are dropped.
std::vector<std::string> splitTop(const std::string& s, char sep);

/// True when plan JSON expression `e` reads columns and all of them are in `ids`.
bool readsOnly(const nlohmann::json& e, const std::set<std::string>& ids);

/// Adds `more`'s tables to `all`, a table both have with the columns of both.
void mergeTables(std::map<std::string, TableDef>& all, const std::map<std::string, TableDef>& more);

/// The UNION ALL of `inputs`' rows without their columns (each projected to
/// none): for a union whose outputs the plan does not tie to its inputs'
/// columns. `nextId` numbers the new nodes.
nlohmann::json unionOfRows(std::vector<nlohmann::json> inputs, const std::function<int()>& nextId);

/// An operator of several inputs whose outputs the plan does not tie to its
/// inputs' columns (a set operation whose columns are not printed, an
/// operator rfguard does not know): some of its inputs' rows, without
/// columns: their unionOfRows under a limit that may cut any rows, since
/// what any such operator returns is among those rows. `nextId` numbers the new nodes.
nlohmann::json opaqueOfInputs(std::vector<nlohmann::json> inputs,
                              const std::function<int()>& nextId);

/// The plan JSON document of `queries` (`{"name", "plan"}` objects): its
/// catalog is every table of `schema` (their keys may reference tables the
/// plans do not scan) and, for the tables `schema` lacks, `used` as the plans
/// read them.
nlohmann::json planDocument(const Catalog& schema, const std::map<std::string, TableDef>& used,
                            nlohmann::json queries);

}  // namespace rfguard::engine
