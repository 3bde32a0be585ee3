#pragma once
// DuckDB's executed plan (its JSON profile, or EXPLAIN (FORMAT JSON)) imported
// into rfguard's plan JSON (docs/plan-json.md), so that every command judges it
// as it judges any optimizer's plan. What DuckDB does not print (the
// expression behind an aliased projection, the build columns a join outputs,
// a LIMIT's count) is listed per plan as a loss; a dynamic filter whose
// producer cannot be told apart from another is listed as an ambiguity, with
// the candidates (docs/duckdb.md).
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "ir/catalog.h"
#include "ir/diagnostics.h"

namespace rfguard::duckdb_import {

/// Something the import could not carry over faithfully, at a JSON pointer
/// into DuckDB's document.
struct Note {
  std::string pointer;
  std::string message;
};

/// One dynamic filter DuckDB reported at a scan, and the join it came from.
struct DynamicFilter {
  std::string scanPointer;         ///< the scan in DuckDB's document
  std::string column;              ///< the scan's column id (t.k)
  std::vector<std::string> kinds;  ///< in, bloom, min_max
  std::vector<int> producers;      ///< rfguard node ids of the joins it is attributed to
  std::vector<int> candidates;     ///< every join it could have come from
};

/// One imported query.
struct ImportedQuery {
  std::string name;
  nlohmann::json plan;  ///< an rfguard plan node
  std::vector<Note> losses;
  std::vector<Note> ambiguities;
  std::vector<DynamicFilter> dynamicFilters;
  std::map<int, std::string> sourcePointer;  ///< rfguard node id -> pointer in DuckDB's document
  /// rfguard node id -> the rows DuckDB's operator produced (a profile's
  /// operator_cardinality; absent in EXPLAIN).
  std::map<int, long long> cardinality;
  /// Nodes of copies the import made: a DELIM_SCAN's input or a CTE's plan,
  /// which DuckDB reads materialised (it has no such scan to filter).
  std::set<int> copied;
  /// Joins that were MARK joins in DuckDB (IN (...) or a subquery filtered
  /// above them), imported as semi and NOT IN joins: DuckDB builds no join
  /// filter at a MARK join.
  std::set<int> markJoins;
};

/// Column pairs the query's own SQL compares with `=` or `<=>`, as
/// "table.column": DuckDB prints names unqualified (`k = k`), and when a name
/// matches two columns the pair the SQL compares is the one meant.
using EqualityHints = std::set<std::pair<std::string, std::string>>;

/// True when `text` is DuckDB's JSON: a profile (an object with "children" and
/// DuckDB's metric keys) or an EXPLAIN (FORMAT JSON) array of operators.
bool looksLikeDuckDbJson(const std::string& text);

/// Imports every query of DuckDB's document `text` (one profile, an array of
/// profiles, or one EXPLAIN array) into an rfguard plan document `doc`. Tables
/// come from `schema` when it has them, else from the columns the scans name
/// (with unknown types: a loss). False, with errors at JSON pointers, when the
/// document is not DuckDB's or holds an operator that cannot be imported.
bool importDocument(const std::string& text, const std::string& name, const Catalog& schema,
                    nlohmann::json& doc, std::vector<ImportedQuery>& queries, Diagnostics& diags,
                    const EqualityHints& hints = {});
/// The SQL texts DuckDB's document names its queries by ("query_name"), in order.
std::vector<std::string> queryTexts(const std::string& text);

/// rfguard's type for DuckDB's type name (INTEGER, DECIMAL(15,2), VARCHAR); empty when unknown.
std::string typeFromDuckDb(const std::string& duckdbType);

}  // namespace rfguard::duckdb_import
