// A filter check over every value (checkFiltersEveryValue in bounded.h): the
// solver's word on the plan with and without its filters, its model confirmed
// by the evaluator under a content the runtime can build.
#include <algorithm>
#include <chrono>
#include <set>

#include "verifier/answers.h"
#include "verifier/bounded.h"
#include "verifier/constraints.h"
#include "verifier/symbolic.h"

namespace rfguard {

namespace {

/// A content that changes the result on `db`: the exact one, MinMax, or a
/// false-positive one with one of `candidates` as the key D lacks.
std::optional<Counterexample> underSomeContent(const PlanNode& root, const rt::Database& db,
                                               const std::set<int>& filters,
                                               const std::vector<rt::Value>& candidates,
                                               std::string& error) {
  rt::EvalOptions plain;
  rt::Relation original;
  std::vector<rt::Relation> origins, answers;
  bool listed = true;
  if (!rt::evaluate(root, db, plain, original, error) ||
      !answersOf(root, db, plain, std::move(original), origins, error, &listed) || !listed)
    return std::nullopt;  // not every answer of the original listed: no counterexample
  auto tryContent = [&](rt::Content c, std::vector<rt::Value> extras) {
    rt::EvalOptions with;
    with.applyFilters = true;
    with.content = c;
    with.only = filters;
    with.extras = std::move(extras);
    rt::Relation canonical;
    std::string ignored;  // a content the evaluator cannot apply is just not this one
    if (!rt::evaluate(root, db, with, canonical, ignored) ||
        !answersOf(root, db, with, std::move(canonical), answers, ignored))
      return std::optional<Counterexample>();
    for (const auto& a : answers)
      if (a.dropped && !allowedIn(origins, a))
        return std::optional<Counterexample>(Counterexample{
            db, rt::sortedBag(origins[0].rows), rt::sortedBag(a.rows), c, filters, with.extras});
    return std::optional<Counterexample>();
  };
  if (auto c = tryContent(rt::Content::Exact, {})) return c;
  if (auto c = tryContent(rt::Content::MinMax, {})) return c;
  for (const auto& x : candidates)
    if (auto c = tryContent(rt::Content::FalsePositive, {x})) return c;
  return std::nullopt;
}

/// Every value of `db` and then `extras`, each once: the false positives to try.
std::vector<rt::Value> candidatesOf(const rt::Database& db, const std::vector<rt::Value>& extras) {
  std::vector<rt::Value> out;
  std::set<std::string> seen;
  auto add = [&](const rt::Value& v) {
    if (!rt::isNull(v) && seen.insert(rt::valueKey(v)).second) out.push_back(v);
  };
  for (const auto& [name, t] : db)
    for (const auto& row : t.rows)
      for (const auto& v : row) add(v);
  for (const auto& v : extras) add(v);
  return out;
}

}  // namespace

void checkFiltersEveryValue(const PlanNode& root, const std::set<int>& filters,
                            const std::vector<rt::Value>& extras, const BoundedOptions& o,
                            BoundedVerdict& v) {
  // The solver's budget: its own, else the search's up to 10 s.
  const double seconds = o.solverSeconds > 0 ? o.solverSeconds : std::min(o.seconds, 10.0);
  const SymbolicVerdict s = symbolicFilters(root, filters, o.bound, seconds);
  v.solverMs += s.ms;
  if (!recordSolverWord(s, v)) return;
  std::string error;
  auto found = underSomeContent(root, s.db, filters, candidatesOf(s.db, extras), error);
  if (!found) {
    // The solver's content may hold false positives no content of the evaluator
    // builds (two at once, say): no counterexample, and no proof either.
    v.valuesOpen = std::string("the solver found a content that holds every build key and ") +
                   "changes the result, but no exact, MinMax or one-false-positive content " +
                   "does on its database" +
                   (s.ties ? " under an order of tied rows the original allows" : "") +
                   (error.empty() ? "" : " (" + error + ")");
    return;
  }
  // Fewest rows: drop each row the difference does not need, under the same content.
  const TableConstraints constraints({&root});
  rt::Database db = s.db;
  for (auto& [name, table] : db)
    for (size_t i = table.rows.size(); i-- > 0;) {
      rt::Row row = table.rows[i];
      table.rows.erase(table.rows.begin() + static_cast<long>(i));
      std::string ignored;
      if (constraints.admissible(db)) {
        if (auto smaller = underSomeContent(
                root, db, filters, found->extras.empty() ? candidatesOf(db, extras) : found->extras,
                ignored)) {
          found = std::move(smaller);
          continue;
        }
      }
      table.rows.insert(table.rows.begin() + static_cast<long>(i), std::move(row));
    }
  if (o.oracle) {
    // The counterexample replayed by the oracle: the original and every content's
    // rewritten plan on its database, as the search checks each of its own.
    const BoundedVerdict replay = checkFiltersOnDatabase(
        root, filters, found->extras.empty() ? candidatesOf(found->db, extras) : found->extras,
        found->db, o);
    addOracleAccount(replay, v);
  }
  size_t rows = 0;
  for (const auto& [name, table] : found->db) rows = std::max(rows, table.rows.size());
  v.safe = false;
  v.counterexample = std::move(found);
  v.bound = std::min(v.bound, static_cast<int>(rows) - 1);
}

}  // namespace rfguard
