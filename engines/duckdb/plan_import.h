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

#include "engines/adapter.h"
#include "ir/catalog.h"
#include "ir/diagnostics.h"

namespace rfguard::duckdb_import {

/// The import's records, engine-neutral (engines/adapter.h), under their old names.
using Note = engine::ImportNote;
using DynamicFilter = engine::ImportedFilter;
using ImportedQuery = engine::ImportedQuery;
using EqualityHints = engine::EqualityHints;

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
