#pragma once
// How bounded verdicts are written, shared by `check` and `equiv`: rows and
// counterexamples as JSON, and a counterexample's script indented under text.
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "verifier/bounded.h"

namespace rfguard {

/// A value as JSON: null, a number or a string.
nlohmann::ordered_json valueJson(const rt::Value& v);
/// Rows as an array of arrays.
nlohmann::ordered_json rowsJson(const std::vector<rt::Row>& rows);
/// {"tables", "original", "rewritten", "sql"} of a counterexample (the rows in
/// the order the comparison used).
nlohmann::ordered_json counterexampleJson(const Counterexample& c, const std::string& sql);
/// The counterexample's tables and both results, then its script, indented.
void counterexampleText(const Counterexample& c, const std::string& sql, std::ostream& out);
/// The SQLite cross-check's account, when there was one; evaluator defects named.
void oracleText(const BoundedVerdict& v, std::ostream& out);
/// "87704 databases (by bound: 1: 12, 2: 1200, 3: 86492)": what the search
/// evaluated, and at which bound (Budgets by --databases repeat on any machine).
std::string databasesText(const BoundedVerdict& v);
/// Which values a bounded verdict speaks for: "over every value" (the solver),
/// or "on values from {NULL, 0, 1} (why the solver did not decide)".
std::string valuesText(const BoundedVerdict& v);
/// A duration as people read it: "0.38 ms", "27.5 ms", "412 ms", "27.7 s".
std::string durationText(double ms);
/// The same as JSON, or null when SQLite was not consulted.
nlohmann::ordered_json oracleJson(const BoundedVerdict& v);

}  // namespace rfguard
