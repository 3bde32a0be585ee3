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

std::string counterexampleScript(const PlanNode& plan, const Counterexample& c,
                                 const PlanNode* normalised) {
  const bool rewrite = normalised != nullptr;
  std::string why;
  std::string out =
      "-- rfguard counterexample: run with sqlite3 (dates are day numbers)\n"
      "PRAGMA case_sensitive_like = ON;  -- LIKE as SQL means it\n" +
      databaseToSqlite(c.db);
  auto original = planToSqlite(plan, {}, &why);
  out += "-- original (" + rowsText(c.original) + ")\n" +
         (original ? *original + ";\n" : "-- not expressible in SQLite: " + why + "\n");
  std::optional<std::string> rewritten;
  if (rewrite) {
    rewritten = planToSqlite(*normalised, {}, &why);
  } else {
    SqlFilters f{true, c.content, c.extras, c.filters};
    rewritten = planToSqlite(plan, f, &why);
  }
  out += std::string("-- rewritten") +
         (rewrite ? ""
                  : std::string(" with ") + filtersText(c.filters) + ", " +
                        rt::contentName(c.content) + " content") +
         " (" + rowsText(c.rewritten) + ")\n" +
         (rewritten ? *rewritten + ";\n" : "-- not expressible in SQLite: " + why + "\n");
  return out;
}

}  // namespace rfguard
