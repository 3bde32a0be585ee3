#pragma once
// A counterexample as people read it: its rows in words, and the script that
// sqlite3 runs as is to show the two results differ.
#include <set>
#include <string>
#include <vector>

#include "ir/sql_spelling.h"
#include "verifier/bounded.h"

namespace rfguard {

/// "2 rows: (1, NULL) (2, 3)" or "no rows".
std::string rowsText(const std::vector<rt::Row>& rows);
/// "RF1, RF3", or "runtime filters" for none.
std::string filtersText(const std::set<int>& ids);
/// For a per-worker content (rt::Content::Workers), how the counterexample
/// partitions rows and build keys among workers; empty for the other contents.
std::string partitioningText(const Counterexample& c);
/// The tables, the original query and the rewritten one, for sqlite3. The
/// rewritten query is `plan` with the counterexample's filters applied, or
/// `rewritten` (a normalised plan) when given. For each engine of `engines`
/// (their adapters' spellings, engine::scriptSpellings()), the script says that
/// it runs there as well, or adds the engine's forms of the queries as comments.
std::string counterexampleScript(const PlanNode& plan, const Counterexample& c,
                                 const PlanNode* rewritten = nullptr,
                                 const std::vector<const SqlSpelling*>& engines = {});

}  // namespace rfguard
