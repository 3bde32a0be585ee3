// `rfguard <engine> compare`: an engine's profile against the engine itself.
// Each query runs in the engine; the consumers it reports (imported) are
// compared with the ones its profile places on the same join tree, and every
// difference gets the engine's reason it is expected, or "unexplained".
#include <cassert>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "pipeline/session.h"
#include "rules/rf_planner.h"
#include "tools/cli/cli.h"
#include "tools/cli/engine_run.h"
#include "tools/cli/join_trees.h"
#include "tools/cli/placements.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

/// Scans (rfguard node ids) where the engine printed a runtime filter the
/// import could not read or attribute: what the engine filtered there is unknown.
std::set<int> scansWithUnimported(const engine::Adapter& engine, const engine::ImportedQuery& imp,
                                  size_t& printed, size_t& imported) {
  std::map<std::string, int> scanAt;  // the engine's pointer -> rfguard node
  for (const auto& [id, ptr] : imp.sourcePointer) scanAt.emplace(ptr, id);
  std::set<int> out;
  auto mark = [&](const std::string& scanPointer) {
    if (auto it = scanAt.find(scanPointer); it != scanAt.end()) out.insert(it->second);
  };
  for (const auto& df : imp.dynamicFilters) {
    ++printed;
    if (!df.producers.empty()) {
      ++imported;
      continue;
    }
    mark(df.scanPointer);
  }
  for (const auto& l : imp.losses)
    if (std::string at = engine.unreadFilterConsumer(l); !at.empty()) {
      ++printed;  // a piece the import could not read
      mark(at);
    }
  return out;
}

}  // namespace

int runEngineCompare(const EngineCompareArgs& args, std::ostream& out, std::ostream& err) {
  const engine::Adapter& eng = *args.engine;
  const std::string who = eng.displayName();
  const std::optional<Profile> profile = parseProfile(eng.profileName());
  assert(profile && "an adapter names a profile of rules/rf_engines.cpp");
  EngineSetup setup;
  if (!setUpEngine(eng, args.file, args.threads, args.limits, args.scale, args.seed, setup, err))
    return kExitInputError;
  SessionOptions so;
  so.given = GivenPlans::Json;
  so.schema = setup.schema;
  Session session(so);
  Diagnostics diags;
  bool inputError = false;
  size_t agree = 0, differ = 0, unexplained = 0, reported = 0, placed = 0;
  // Queries whose comparison the import leaves open (a runtime filter the
  // engine printed and the import lost): counted apart, never as agreeing.
  size_t unknown = 0, printed = 0, importedFilters = 0;
  Json queries = Json::array();
  // rfguard's own plans of the same queries, for their join trees.
  Session own{SessionOptions{}};
  std::map<std::string, const PlanNode*> ownPlans;
  if (own.load(args.file, diags)) {
    own.run();
    for (const auto& q : own.queries())
      if (q.query.plan) ownPlans[q.query.name] = q.query.plan.get();
  }
  JoinTreeTally trees;
  for (const auto& q : setup.queries) {
    engine::Result rows;
    std::string plan, error;
    if (!setup.db->profile(eng.querySql(q.sql), rows, plan, error)) {
      diags.error(q.file, q.loc, who + ": " + error);
      inputError = true;
      continue;
    }
    const size_t first = session.queries().size();
    if (!session.loadEngine(plan, eng.name() + "-profile:" + q.name, eng, diags)) {
      inputError = true;
      continue;
    }
    const QueryRun& run = session.queries()[first];
    const PlanNode& imported = *run.query.plan;
    std::vector<Placed> duck = placements(imported);
    PlanPtr copy = clonePlan(imported);
    RfReport report;
    planRuntimeFilters(*copy, report, RfOptions(*profile));
    std::vector<Placed> mine = placements(*copy);
    reported += duck.size();
    placed += mine.size();
    const std::set<int> lost = scansWithUnimported(eng, *run.imported, printed, importedFilters);
    Json diffs = Json::array();
    for (const auto& p : mine)
      if (!std::binary_search(duck.begin(), duck.end(), p)) {
        std::string why = eng.unreportedReason(imported, *run.imported, p.producer, p.scan);
        if (why.empty() && lost.count(p.scan))
          why = "unknown: " + who +
                " printed a dynamic filter at this scan that the import could not read or "
                "attribute to a join";
        if (why.empty()) ++unexplained;
        diffs.push_back({{"kind", "placed, not reported"},
                         {"producer", p.producer},
                         {"scan", p.scan},
                         {"target", p.target},
                         {"why", why.empty() ? "unexplained" : why}});
      }
    for (const auto& p : duck)
      if (!std::binary_search(mine.begin(), mine.end(), p)) {
        ++unexplained;  // the engine did what its profile says it cannot
        diffs.push_back({{"kind", "reported, not placed"},
                         {"producer", p.producer},
                         {"scan", p.scan},
                         {"target", p.target},
                         {"why", "unexplained"}});
      }
    // An agreement over a plan that lost a filter proves nothing (TPC-H q15:
    // the lost filter and a lost join condition read "0 = 0").
    const bool open = !lost.empty();
    open ? ++unknown : diffs.empty() ? ++agree : ++differ;
    std::optional<JoinTreeComparison> tree;
    if (auto it = ownPlans.find(q.name); it != ownPlans.end()) {
      tree = compareJoinTrees(imported, *it->second);
      trees.add(*tree);
    }
    if (args.format == "text") {
      out << "-- " << q.name << ": " << who << " " << duck.size() << ", profile " << mine.size()
          << (open ? ", unknown: the import lost " + std::to_string(lost.size()) +
                         " scan's dynamic filters"
              : diffs.empty() ? ", agree"
                              : "")
          << "\n";
      for (const auto& d : diffs)
        out << "  " << d["kind"].get<std::string>() << ": #" << d["producer"].get<int>() << " -> "
            << d["target"].get<std::string>() << " at scan #" << d["scan"].get<int>() << ": "
            << d["why"].get<std::string>() << "\n";
      if (tree) out << joinTreeLines(who, *tree);
    }
    queries.push_back({{"name", q.name},
                       {"unknown", open},
                       {"reported", duck.size()},
                       {"placed", mine.size()},
                       {"differences", diffs},
                       {"join_tree", tree ? joinTreeJson(*tree) : Json(nullptr)}});
  }
  err << diags.render();
  if (args.format == "json") {
    out << Json{{"engine", setup.db->version()},
                {"queries", queries},
                {"agree", agree},
                {"differ", differ},
                {"unknown", unknown},
                {"unexplained", unexplained},
                {"dynamic_filters_printed", printed},
                {"dynamic_filters_imported", importedFilters},
                {"join_trees", trees.json()}}
               .dump(2)
        << "\n";
  } else {
    out << "-- " << queries.size() << " queries: " << agree << " agree, " << differ << " differ ("
        << unexplained << " unexplained differences), " << unknown
        << " unknown (a dynamic filter lost in the import); " << who << " printed " << printed
        << " dynamic filters, " << importedFilters << " imported; " << who << " reported "
        << reported << " consumers, the profile placed " << placed << "\n"
        << trees.summary();
  }
  if (inputError) return kExitInputError;
  return unexplained ? kExitFindings : kExitOk;
}

}  // namespace rfguard
