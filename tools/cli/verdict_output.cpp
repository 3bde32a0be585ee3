#include "tools/cli/verdict_output.h"

#include <cctype>
#include <cstdio>

#include "verifier/counterexample.h"

namespace rfguard {

using Json = nlohmann::ordered_json;

Json valueJson(const rt::Value& v) {
  if (rt::isNull(v)) return nullptr;
  if (auto i = std::get_if<int64_t>(&v)) return *i;
  if (auto d = std::get_if<double>(&v)) return *d;
  return std::get<std::string>(v);
}

Json rowsJson(const std::vector<rt::Row>& rows) {
  Json a = Json::array();
  for (const auto& r : rows) {
    Json row = Json::array();
    for (const auto& v : r) row.push_back(valueJson(v));
    a.push_back(row);
  }
  return a;
}

Json counterexampleJson(const Counterexample& c, const std::string& sql) {
  Json tables = Json::object();
  for (const auto& [name, t] : c.db) tables[name] = rowsJson(t.rows);
  Json j{{"tables", tables},
         {"original", rowsJson(c.original)},
         {"rewritten", rowsJson(c.rewritten)},
         {"sql", sql}};
  if (c.repeated) j["repeated"] = c.repeated;
  if (c.tieAnswer) j["tie_answer"] = true;
  if (c.content == rt::Content::Workers) j["partitioning"] = partitioningText(c);
  return j;
}

void counterexampleText(const Counterexample& c, const std::string& sql, std::ostream& out) {
  for (const auto& [name, t] : c.db) out << "  " << name << ": " << rowsText(t.rows) << "\n";
  if (c.content == rt::Content::Workers) out << "  " << partitioningText(c) << "\n";
  out << "  original:  " << rowsText(c.original) << "\n  rewritten: " << rowsText(c.rewritten)
      << (c.tieAnswer ? " (one of the answers its ties allow)" : "") << "\n";
  std::string line;
  for (char ch : sql) {
    if (ch == '\n') {
      out << "  | " << line << "\n";
      line.clear();
    } else {
      line += ch;
    }
  }
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string databasesText(const BoundedVerdict& v) {
  std::string s = std::to_string(v.databases) + (v.databases == 1 ? " database" : " databases");
  if (v.databasesPerBound.size() < 2) return s;
  s += " (by bound:";
  for (size_t n = 0; n < v.databasesPerBound.size(); ++n)
    s += std::string(n ? ", " : " ") + std::to_string(n + 1) + ": " +
         std::to_string(v.databasesPerBound[n]);
  return s + ")";
}

std::string valuesText(const BoundedVerdict& v) {
  if (v.everyValue) return "over every value";
  std::string s =
      "on values from " + (v.domain.empty() ? std::string("a finite domain") : v.domain);
  return v.valuesOpen.empty() ? s : s + " (" + v.valuesOpen + ")";
}

std::string durationText(double ms) {
  char buf[32];
  if (ms >= 1000)
    std::snprintf(buf, sizeof buf, "%.1f s", ms / 1000);
  else if (ms >= 100)
    std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  else if (ms >= 10)
    std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  else
    std::snprintf(buf, sizeof buf, "%.2f ms", ms);
  return buf;
}

void oracleText(const BoundedVerdict& v, std::ostream& out) {
  if (v.oracleRuns || !v.oracleSkipped.empty())
    out << "  " << (v.oracleName.empty() ? "oracle" : lower(v.oracleName)) << ": " << v.oracleRuns
        << " queries"
        << (v.oracleSkipped.empty() ? "" : ", not all expressible (" + v.oracleSkipped + ")")
        << (v.oracleDisagreements.empty() ? ", all agree" : "") << "\n";
  for (const auto& d : v.oracleDisagreements) out << "  EVALUATOR DEFECT: " << d << "\n";
}

Json oracleJson(const BoundedVerdict& v) {
  if (!v.oracleRuns && v.oracleSkipped.empty() && v.oracleDisagreements.empty()) return nullptr;
  return Json{{"name", v.oracleName},
              {"runs", v.oracleRuns},
              {"skipped", v.oracleSkipped},
              {"disagreements", v.oracleDisagreements}};
}

}  // namespace rfguard
