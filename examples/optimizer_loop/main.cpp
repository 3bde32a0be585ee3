// An optimizer's rule loop with rfguard in it: after every rewrite the plan
// is handed to rfguard, which verifies the runtime-filter placement; the loop
// stops at the first unsound step and shows the database that proves it.
//
// The optimizer here is a toy with two rewrites over plan JSON
// (docs/plan-json.md): GenerateJoinFilters adds a filter for every equality of
// an inner join; PushFiltersToScans sends each filter to every scan below the
// join's probe side that has the key column, the way engines did before they
// learnt about outer joins. Usage: rfguard_optimizer_loop FILE.sql
// Exit 0 when every step is sound, 1 at an unsound step, 2 on bad input.
#include <rfguard/rfguard.h>

#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

using Json = nlohmann::ordered_json;

namespace {

int nextFilterId = 1;

/// Every node below (and including) `n`, parents first.
void nodes(Json& n, std::vector<Json*>& out) {
  out.push_back(&n);
  for (auto& c : n["children"]) nodes(c, out);
}

bool isColumn(const Json& e) {
  return e.is_object() && e.contains("column");
}

/// Rewrite 1: a filter for every `=` / `<=>` of two columns in an inner join's condition.
bool generateJoinFilters(Json& plan) {
  std::vector<Json*> all;
  nodes(plan, all);
  bool changed = false;
  for (Json* n : all) {
    if ((*n)["op"] != "join" || (*n)["join_type"] != "inner" || !n->contains("condition")) continue;
    std::vector<Json> conjuncts;
    const Json& cond = (*n)["condition"];
    if (cond.value("call", "") == "and")
      for (const auto& a : cond["args"]) conjuncts.push_back(a);
    else
      conjuncts.push_back(cond);
    for (const auto& c : conjuncts) {
      std::string op = c.value("call", "");
      if ((op != "=" && op != "<=>") || !isColumn(c["args"][0]) || !isColumn(c["args"][1]))
        continue;
      // Left child is the probe side; which argument is whose is read from the scans.
      std::vector<Json*> left;
      nodes((*n)["children"][0], left);
      auto owns = [&](const std::vector<Json*>& side, const std::string& col) {
        for (Json* s : side)
          if ((*s)["op"] == "scan")
            for (const auto& name : (*s)["columns"])
              if ((*s)["alias"].get<std::string>() + "." + name.get<std::string>() == col)
                return true;
        return false;
      };
      Json probe = c["args"][0], build = c["args"][1];
      if (!owns(left, probe["column"])) std::swap(probe, build);
      (*n)["runtime_filters"].push_back(Json{{"id", nextFilterId++},
                                             {"build", build},
                                             {"probe", probe},
                                             {"op", op},
                                             {"null_allowed", op == "<=>"},
                                             {"kinds", {"bloom"}},
                                             {"scope", "global"}});
      changed = true;
    }
  }
  return changed;
}

/// Rewrite 2: each filter goes to every scan under the probe side that has the
/// probe column, whatever joins lie between (the bug rfguard is there to catch).
bool pushFiltersToScans(Json& plan) {
  std::vector<Json*> all;
  nodes(plan, all);
  bool changed = false;
  for (Json* n : all) {
    if (!n->contains("runtime_filters")) continue;
    for (const auto& f : (*n)["runtime_filters"]) {
      std::vector<Json*> below;
      nodes((*n)["children"][0], below);
      for (Json* s : below) {
        if ((*s)["op"] != "scan") continue;
        for (const auto& name : (*s)["columns"])
          if ((*s)["alias"].get<std::string>() + "." + name.get<std::string>() ==
              f["probe"]["column"]) {
            (*s)["runtime_filter_targets"].push_back(Json{{"id", f["id"]}, {"target", f["probe"]}});
            changed = true;
          }
      }
    }
  }
  return changed;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: rfguard_optimizer_loop FILE.sql\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  // rfguard binds and normalises the SQL; the optimizer takes over from its plan JSON.
  rfguard::api::Loaded loaded = rfguard::api::Plans::loadSql(text.str(), argv[1]);
  if (!loaded.plans) {
    for (const auto& e : loaded.errors) std::cerr << e.text << "\n";
    return 2;
  }
  loaded.plans->normalize();
  Json doc = Json::parse(loaded.plans->render(rfguard::api::Format::Json));

  const std::vector<std::pair<const char*, std::function<bool(Json&)>>> rules = {
      {"GenerateJoinFilters", generateJoinFilters}, {"PushFiltersToScans", pushFiltersToScans}};
  for (auto& q : doc["queries"]) {
    const std::string name = q["name"];
    for (const auto& [rule, rewrite] : rules) {
      if (!rewrite(q["plan"])) continue;
      // After each rewrite: the whole document, as the optimizer now has it.
      rfguard::api::Loaded step = rfguard::api::Plans::loadJson(doc.dump(), name + ".json");
      if (!step.plans) {
        for (const auto& e : step.errors)
          std::cerr << rule << " wrote a bad plan: " << e.text << "\n";
        return 2;
      }
      std::vector<rfguard::api::VerifierFinding> findings;
      for (auto& f : step.plans->verify())
        if (f.query == name && f.severity == "error") findings.push_back(f);
      std::cout << name << ": " << rule << ": " << (findings.empty() ? "sound" : "UNSOUND") << "\n";
      if (findings.empty()) continue;
      for (const auto& f : findings)
        std::cout << "  " << f.code << " at " << f.pointer << ": " << f.message << "\n";
      for (size_t i = 0; i < step.plans->size(); ++i) {
        if (step.plans->name(i) != name) continue;
        auto verdicts = step.plans->check(i);
        if (!verdicts.empty() && verdicts[0].verdict == "unsafe")
          std::cout << "  a database on which the results differ:\n"
                    << verdicts[0].counterexampleSql;
      }
      std::cout << "stopped at the first unsound step\n";
      return 1;
    }
  }
  std::cout << "every step is sound\n";
  return 0;
}
