#include "verifier/oracle_run.h"

#include "verifier/answers.h"

namespace rfguard {

bool Oracle::open(const BoundedOptions& o, std::initializer_list<const PlanNode*> plans,
                  BoundedVerdict& out) {
  std::string err;
  engine = o.oracleFactory ? o.oracleFactory(err) : std::make_unique<SqliteOracle>();
  if (!engine) {
    out.oracleSkipped = err;
    return false;
  }
  out.oracleName = engine->name();
  for (const PlanNode* p : plans) collectSqlTypes(*p, types);
  return true;
}

void addOracleAccount(const BoundedVerdict& from, BoundedVerdict& to) {
  to.oracleRuns += from.oracleRuns;
  if (to.oracleName.empty()) to.oracleName = from.oracleName;
  if (to.oracleSkipped.empty()) to.oracleSkipped = from.oracleSkipped;
  to.oracleDisagreements.insert(to.oracleDisagreements.end(), from.oracleDisagreements.begin(),
                                from.oracleDisagreements.end());
}

std::string bagText(const std::vector<rt::Row>& rows) {
  std::string s;
  for (const auto& r : rt::sortedBag(rows)) s += (s.empty() ? "" : " ") + rt::keyToString(r);
  return "{" + s + "}";
}

void consult(Oracle& oracle, const std::optional<std::string>& sql, const rt::Database& db,
             const std::vector<rt::Relation>& answers, const std::string& what,
             BoundedVerdict& out) {
  if (!oracle.active || !sql) return;
  std::string err;
  std::vector<rt::Row> theirs;
  if (!oracle.loaded && !oracle.engine->load(db, oracle.types, err)) {
    out.oracleSkipped = err;
    return;
  }
  oracle.loaded = true;
  ++out.oracleRuns;
  if (!oracle.engine->query(*sql, theirs, err)) {
    out.oracleSkipped = err;
    return;
  }
  for (const auto& a : answers)
    if (a.topK ? rt::validTopK(*a.topK, theirs) : sameBag(a.rows, theirs)) return;
  if (out.oracleDisagreements.size() >= 3) return;
  const std::vector<rt::Row>& ours = answers[0].rows;
  std::string tables;
  for (const auto& [name, t] : db) tables += " " + name + "=" + bagText(t.rows);
  out.oracleDisagreements.push_back(what + ": evaluator " + bagText(ours) + ", " +
                                    oracle.engine->name() + " " + bagText(theirs) + " on" + tables);
}

}  // namespace rfguard
