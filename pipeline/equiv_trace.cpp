// Traces (docs/equiv.md): an optimizer's plan after every rule, read from
// JSON Lines or a JSON array, rfguard's own normalisation written as one, and
// every step checked against the one before it.
#include <nlohmann/json.hpp>

#include "ir/json_depth.h"
#include "ir/locating_sax.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
#include "pipeline/equiv.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

}  // namespace

bool readTrace(const std::string& text, const std::string& file, const Catalog& schema,
               std::vector<TraceStep>& steps, Diagnostics& diags) {
  if (auto at = jsonNestingBeyond(text, kMaxJsonDepth)) {
    diags.error(file, *at, "nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
    return false;
  }
  // The steps as (where, pointer prefix, JSON).
  struct Raw {
    std::string where, prefix;
    Json step;
  };
  std::vector<Raw> raws;
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '[') {
    Json all = Json::parse(text, nullptr, false);
    if (all.is_discarded() || !all.is_array()) {
      diags.error(file, {1, 1}, "malformed JSON: a trace is a JSON array or JSON Lines");
      return false;
    }
    for (size_t i = 0; i < all.size(); ++i)
      raws.push_back({file, "/" + std::to_string(i), std::move(all[i])});
  } else {
    size_t start = 0;
    for (int line = 1; start <= text.size(); ++line) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      const std::string l = text.substr(start, end - start);
      start = end + 1;
      if (l.find_first_not_of(" \t\r") == std::string::npos) continue;
      Json j = Json::parse(l, nullptr, false);
      if (j.is_discarded()) {
        diags.error(file, {line, 1},
                    "malformed JSON on this line (a trace holds one step per line)");
        return false;
      }
      raws.push_back({file + ":" + std::to_string(line), "", std::move(j)});
    }
  }
  Json catalog;
  if (!schema.tables().empty()) catalog = catalogToJson(schema, {});
  bool ok = true;
  for (auto& raw : raws) {
    const Json& s = raw.step;
    auto fail = [&](const std::string& ptr, const std::string& msg) {
      diags.errorAt(raw.where, raw.prefix + ptr, msg);
      ok = false;
    };
    if (!s.is_object()) {
      fail("", "a step is an object {\"rule\": NAME, \"plan\": PLAN DOCUMENT}");
      continue;
    }
    bool known = true;
    for (const auto& [k, v] : s.items())
      if (k != "rule" && k != "plan") {
        fail("/" + k, "unknown key \"" + k + "\" (a step has \"rule\" and \"plan\")");
        known = false;
      }
    if (!known) continue;
    if (s.contains("rule") && !s["rule"].is_string()) {
      fail("/rule", "rule must be a string");
      continue;
    }
    if (!s.contains("plan") || !s["plan"].is_object()) {
      fail("/plan", "plan must be a plan JSON document (docs/plan-json.md)");
      continue;
    }
    Json doc = s["plan"];
    if (!doc.contains("catalog")) {
      if (catalog.is_null()) {
        fail("/plan", "no catalog: give the first step one, or --schema");
        continue;
      }
      doc["catalog"] = catalog;
    } else if (catalog.is_null()) {
      catalog = doc["catalog"];
    }
    Catalog c;
    std::vector<Query> queries;
    Diagnostics inner;
    if (!readPlanDocument(doc.dump(), raw.where, c, queries, inner)) {
      for (const auto& d : inner.items()) fail("/plan" + d.pointer, d.message);
      continue;
    }
    if (queries.size() != 1) {
      fail("/plan/queries", "holds " + std::to_string(queries.size()) +
                                " queries; a trace step is one query's plan");
      continue;
    }
    TraceStep step;
    step.rule = s.value("rule", "");
    step.where = raw.where + (raw.prefix.empty() ? "" : " " + raw.prefix);
    step.plan = queries[0].plan;
    steps.push_back(std::move(step));
  }
  if (ok && steps.empty()) {
    diags.error(file, {1, 1}, "a trace needs at least one plan (the plan before the first rule)");
    return false;
  }
  return ok;
}

std::vector<TraceStep> normalisationTrace(const PlanNode& bound, NormalizeOptions options) {
  std::vector<TraceStep> steps;
  auto add = [&](const std::string& rule, const PlanNode& plan) {
    TraceStep s;
    s.rule = rule;
    s.where = "step " + std::to_string(steps.size());
    s.plan = deepClonePlan(plan);
    refreshOutputs(*s.plan);
    assignIds(*s.plan);
    steps.push_back(std::move(s));
  };
  add("", bound);
  options.verify = false;
  options.onStep = add;
  PlanPtr plan = deepClonePlan(bound);
  NormalizeReport report;
  normalize(plan, options, report);
  return steps;
}

std::string traceJsonLines(const Catalog& catalog, const Query& query,
                           const std::vector<TraceStep>& steps) {
  std::string out;
  for (size_t i = 0; i < steps.size(); ++i) {
    Query q = query;
    q.plan = steps[i].plan;
    Json doc = documentToJson(catalog, {q});
    if (i) doc.erase("catalog");
    Json step;
    if (!steps[i].rule.empty()) step["rule"] = steps[i].rule;
    step["plan"] = doc;
    out += step.dump() + "\n";
  }
  return out;
}

std::vector<TraceVerdict> checkTrace(const std::vector<TraceStep>& steps,
                                     const BoundedOptions& options) {
  std::vector<TraceVerdict> out;
  bool broken = false;
  for (size_t i = 1; i < steps.size(); ++i) {
    TraceVerdict v;
    v.step = i;
    v.result.requested = options.bound;
    std::string why;
    if (broken) {
      v.skipped = true;
    } else if (structurallyIdentical(*steps[i - 1].plan, *steps[i].plan)) {
      v.identical = true;
      v.result.verdict = "equivalent";
      v.result.bounded.bound = options.bound;
    } else if (!comparable(*steps[i - 1].plan, *steps[i].plan, why)) {
      v.result.verdict = "error";
      v.result.reason = why;
    } else {
      v.result = checkRewrite(*steps[i - 1].plan, *steps[i].plan, options);
      v.subtree = v.result.subtree;
      broken = v.result.verdict == "different";
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace rfguard
