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
                                 const PlanNode* normalised,
                                 const std::vector<const SqlSpelling*>& engines) {
  const bool rewrite = normalised != nullptr;
  // The queries in each engine's spelling: the script is SQLite's; where an
  // engine's differs (LIKE, date functions, regular expressions), its forms
  // follow as comments.
  auto write = [&](const SqlSpelling* spelling, bool filtered, std::string& why) {
    SqlFilters f;
    f.spelling = spelling;
    if (!filtered) return planToSqlite(plan, f, &why);
    if (rewrite) return planToSqlite(*normalised, f, &why);
    f = SqlFilters{true, c.content, c.extras, c.filters, spelling};
    return planToSqlite(plan, f, &why);
  };
  std::string why, whyRewritten, ignored;
  auto original = write(nullptr, false, why);
  auto rewritten = write(nullptr, true, whyRewritten);
  const bool like = (original && original->find(" LIKE ") != std::string::npos) ||
                    (rewritten && rewritten->find(" LIKE ") != std::string::npos);
  std::string runsIn, notForLike, otherForms;
  for (const SqlSpelling* e : engines) {
    auto o = write(e, false, ignored);
    auto r = write(e, true, ignored);
    if (o == original && r == rewritten) {
      if (!like) runsIn += " and in " + e->name();
    } else if (o || r) {
      otherForms += "-- " + e->name() + " spells these queries differently; its forms:\n";
      if (o) otherForms += "-- original: " + *o + ";\n";
      if (r) otherForms += "-- rewritten: " + *r + ";\n";
    }
    if (e->likeIsCaseSensitive()) notForLike += (notForLike.empty() ? "" : ", ") + e->name();
  }
  SqlTableTypes types;
  collectSqlTypes(plan, types);
  if (normalised) collectSqlTypes(*normalised, types);
  std::string out = original && rewritten
                        ? "-- rfguard counterexample: runs as is in sqlite3" + runsIn +
                              " (dates are day numbers)\n"
                        : std::string(
                              "-- rfguard counterexample: the database runs in sqlite3 ("
                              "dates are day numbers); a query SQLite cannot run is "
                              "given in the forms below\n");
  if (like)
    out += "PRAGMA case_sensitive_like = ON;  -- SQLite: LIKE as SQL means it" +
           (notForLike.empty() ? "" : " (not for " + notForLike + ")") + "\n";
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
         (c.tieAnswer ? "-- (an answer its ties allow: rows tied in an ORDER BY taken in another "
                        "order than the tie-break written below, which gives another answer)\n"
                      : "") +
         (rewritten ? *rewritten + ";\n" : "-- not expressible in SQLite: " + whyRewritten + "\n");
  return out + otherForms;
}

}  // namespace rfguard
