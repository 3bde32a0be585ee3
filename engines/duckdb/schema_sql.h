#pragma once
// rfguard's tables as DuckDB SQL: CREATE TABLE, and INSERTs of generated rows
// (seeded, with NULLs and skew) computed inside DuckDB from range().
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engines/query_facts.h"
#include "ir/catalog.h"
#include "ir/plan.h"

namespace rfguard::duckdb_import {

/// DuckDB's spelling of rfguard's type.
std::string duckdbType(const Type& t);
/// CREATE TABLE for `t` (columns, types, NOT NULL; keys are not enforced).
std::string createTableSql(const TableDef& t);
/// INSERT INTO `t` `rows` generated rows. Deterministic for a seed: values come
/// from DuckDB's hash() of (row, seed, column). A single integer primary key
/// numbers the rows; other columns draw from a domain of about rows/4 values
/// (or the column's ndv), 30% of rows from ten hot values, and 5% NULL where
/// the column is nullable.
/// A column's hot values are drawn from `hot` (as text) when it has any.
/// A join key ("table.column" in `joinKeys`) draws without the ten hot values,
/// which make a multi-way join on one key explode: from 0 up to its value
/// (the rows of the table whose numbered key it joins), or over its own domain
/// when the value is 0.
std::string populateSql(const TableDef& t, long long rows, uint64_t seed,
                        const std::map<std::string, std::set<std::string>>& hot = {},
                        int nullPercent = 5, int skewPercent = 30,
                        const std::map<std::string, long long>& joinKeys = {});

/// The queries' facts (engines/query_facts.h), under their old names.
using engine::comparedLiterals;
using engine::equatedColumns;
using engine::joinKeyDomains;

/// CREATE VIEW for `v`.
std::string createViewSql(const ViewDef& v);
/// A query's text as DuckDB parses it: SQL-standard interval leading-field
/// precisions (`interval '90' day (3)`) dropped, `LEFT SEMI|ANTI JOIN` as
/// DuckDB's `SEMI|ANTI JOIN`, `<=>` as `IS NOT DISTINCT FROM`. (A `<=>` inside
/// a string literal would be rewritten too.)
std::string duckdbDialect(const std::string& sql);

}  // namespace rfguard::duckdb_import
