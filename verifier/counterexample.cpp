#include "verifier/counterexample.h"

#include "verifier/plan_sql.h"

namespace rfguard {

std::string rowsText(const std::vector<rt::Row>& rows) {
  if (rows.empty()) return "no rows";
  std::string s = std::to_string(rows.size()) + (rows.size() == 1 ? " row:" : " rows:");
  for (const auto& r : rows) s += " " + rt::keyToString(r);
  return s;
}

std::string filtersText(const std::set<int>& ids) {
  std::string s;
  for (int id : ids) s += (s.empty() ? "RF" : ", RF") + std::to_string(id);
  return s.empty() ? "runtime filters" : s;
}

std::string partitioningText(const Counterexample& c) {
  if (c.content != rt::Content::Workers) return "";
  const std::string n = std::to_string(rt::kWorkers);
  return "on " + n + " workers: the i-th row of a table (from 1) is read on worker (i - 1) mod " +
         n + ", a row of a table hash-distributed on a column on worker (its value mod " + n +
         "), and a build key k is shuffled to worker k mod " + n +
         " (a value that is not an integer by the xxHash64 of its encoding)";
}

std::string counterexampleScript(const PlanNode& plan, const Counterexample& c,
                                 const PlanNode* normalised) {
  const bool rewrite = normalised != nullptr;
  // The queries in both dialects: the script is SQLite's; where DuckDB's differs
  // (LIKE, date functions, regular expressions), DuckDB's forms follow as comments.
  auto write = [&](SqlDialect d, bool filtered, std::string& why) {
    SqlFilters f;
    f.dialect = d;
    if (!filtered) return planToSqlite(plan, f, &why);
    if (rewrite) return planToSqlite(*normalised, f, &why);
    f = SqlFilters{true, c.content, c.extras, c.filters, d};
    return planToSqlite(plan, f, &why);
  };
  std::string why, whyRewritten, ignored;
  auto original = write(SqlDialect::Sqlite, false, why);
  auto rewritten = write(SqlDialect::Sqlite, true, whyRewritten);
  auto duckOriginal = write(SqlDialect::DuckDb, false, ignored);
  auto duckRewritten = write(SqlDialect::DuckDb, true, ignored);
  const bool sameInDuckDb = duckOriginal == original && duckRewritten == rewritten;
  const bool like = (original && original->find(" LIKE ") != std::string::npos) ||
                    (rewritten && rewritten->find(" LIKE ") != std::string::npos);
  SqlTableTypes types;
  collectSqlTypes(plan, types);
  if (normalised) collectSqlTypes(*normalised, types);
  std::string out = std::string("-- rfguard counterexample: runs as is in sqlite3") +
                    (sameInDuckDb && !like ? " and in DuckDB" : "") + " (dates are day numbers)\n";
  if (like)
    out += "PRAGMA case_sensitive_like = ON;  -- SQLite: LIKE as SQL means it (not for DuckDB)\n";
  if (c.content == rt::Content::Workers)
    out += "-- the rewritten query applies local filters " + partitioningText(c) +
           "; a row's worker is its position in its table\n";
  out += databaseToSql(c.db, types);
  out += "-- original (" + rowsText(c.original) + ")\n" +
         (original ? *original + ";\n" : "-- not expressible in SQLite: " + why + "\n");
  out += std::string("-- rewritten") +
         (rewrite ? ""
                  : std::string(" with ") + filtersText(c.filters) + ", " +
                        rt::contentName(c.content) + " content") +
         " (" + rowsText(c.rewritten) + ")\n" +
         (rewritten ? *rewritten + ";\n" : "-- not expressible in SQLite: " + whyRewritten + "\n");
  if (!sameInDuckDb && (duckOriginal || duckRewritten)) {
    out += "-- DuckDB spells these queries differently; its forms:\n";
    if (duckOriginal) out += "-- original: " + *duckOriginal + ";\n";
    if (duckRewritten) out += "-- rewritten: " + *duckRewritten + ";\n";
  }
  return out;
}

}  // namespace rfguard
