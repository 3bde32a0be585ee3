#pragma once
// What a live engine's data generation and every importer read from the
// queries themselves (bound by rfguard): the literals they compare columns
// with, the columns they equate, and the join keys whose domains must meet.
// Engine-neutral: any adapter (engines/<name>/) uses them.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/catalog.h"
#include "ir/plan.h"

namespace rfguard::engine {

/// "table.column" -> the literals the queries compare it with (`= 'ASIA'`,
/// `IN (...)`, a LIKE pattern's fixed parts), so that generated data meets the
/// queries' predicates instead of making every selective scan empty.
std::map<std::string, std::set<std::string>> comparedLiterals(const std::vector<Query>& queries);

/// ("table.column", "table.column") pairs the queries compare with `=` or
/// `<=>` (join conditions and WHERE), to resolve an engine's unqualified names.
std::set<std::pair<std::string, std::string>> equatedColumns(const std::vector<Query>& queries);

/// The join keys of `queries` for data generation: every column compared with
/// `=` or `<=>` to another table's column, with the rows of that table when the
/// other column is its single integer primary key (numbered 0 to rows - 1),
/// else 0. `rows` gives each table's generated rows.
std::map<std::string, long long> joinKeyDomains(const std::vector<Query>& queries,
                                                const Catalog& catalog,
                                                const std::map<std::string, long long>& rows);

}  // namespace rfguard::engine
