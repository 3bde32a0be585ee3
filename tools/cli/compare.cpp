// `rfguard compare`: what an engine placed, what the sound profile places on
// the same join tree, and what the engine's profile in rfguard places there.
// The sound profile should place every filter the engine places safely, and
// more; the engine's profile should reproduce the engine.
#include "tools/cli/compare.h"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>

#include "pipeline/session.h"
#include "rules/rf_planner.h"
#include "tools/cli/cli.h"
#include "tools/cli/join_trees.h"
#include "tools/cli/placements.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

std::vector<Placed> minus(const std::vector<Placed>& a, const std::vector<Placed>& b) {
  std::vector<Placed> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::vector<Placed> placedBy(const PlanNode& plan, Profile profile) {
  PlanPtr copy = clonePlan(plan);
  RfReport report;
  planRuntimeFilters(*copy, report, RfOptions(profile));
  return placements(*copy);
}

Json listOf(const std::vector<Placed>& ps) {
  Json out = Json::array();
  for (const auto& p : ps)
    out.push_back({{"producer", p.producer}, {"scan", p.scan}, {"target", p.target}});
  return out;
}

/// The TPC-style query number a name carries (`tpch_sf1000_shape_q05` -> "q5"):
/// its last `q` that follows no letter or digit and is followed by digits.
std::string queryNumber(const std::string& name) {
  for (size_t i = name.size(); i-- > 0;) {
    if ((name[i] != 'q' && name[i] != 'Q') ||
        (i > 0 && std::isalnum(static_cast<unsigned char>(name[i - 1]))))
      continue;
    size_t j = i + 1;
    while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j]))) ++j;
    if (j == i + 1 || (j < name.size() && std::isalnum(static_cast<unsigned char>(name[j]))))
      continue;
    std::string digits = name.substr(i + 1, j - i - 1);
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
    return "q" + digits;
  }
  return "";
}

/// The file name without its folders and extensions.
std::string stemOf(const std::string& path) {
  std::string s =
      path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  return s.substr(0, s.find('.'));
}

}  // namespace

int runCompare(const CompareArgs& args, std::ostream& out, std::ostream& err) {
  SessionOptions so;
  so.given = GivenPlans::Json;
  if (!applyInputArgs(args.input, so, err)) return kExitInputError;
  Session session(so);
  Diagnostics diags;
  bool inputError = false;
  for (const auto& f : args.files) inputError = !session.load(f, diags) || inputError;
  err << renderErrors(diags);
  // rfguard's own plans of the same queries, by query number.
  SessionOptions qo;
  Session own(qo);
  std::map<std::string, const QueryRun*> ownPlans;
  for (const auto& f : args.queries) inputError = !own.load(f, diags) || inputError;
  err << renderErrors(diags);
  own.run();
  for (const auto& q : own.queries())
    if (q.query.plan && !queryNumber(q.query.name).empty())
      ownPlans[queryNumber(q.query.name)] = &q;
  size_t queries = 0, engineTotal = 0, soundTotal = 0, both = 0, engineOnly = 0, soundOnly = 0,
         profileAgree = 0;
  JoinTreeTally trees;
  Json js = Json::array();
  for (const auto& q : session.queries()) {
    if (!q.engine) {
      err << q.input << ": note: " << q.query.name
          << ": not an engine's plan (SQL or plan JSON): nothing to compare\n";
      continue;
    }
    ++queries;
    const std::string who = q.engine->displayName();
    const std::optional<Profile> profile = parseProfile(q.engine->profileName());
    const std::vector<Placed> engine = placements(*q.query.plan);
    const std::vector<Placed> sound = placedBy(*q.query.plan, Profile::Sound);
    const std::vector<Placed> emulated =
        profile ? placedBy(*q.query.plan, *profile) : std::vector<Placed>{};
    const auto onlyEngine = minus(engine, sound), onlySound = minus(sound, engine);
    const auto notEmulated = minus(engine, emulated), onlyEmulated = minus(emulated, engine);
    const bool agrees = notEmulated.empty() && onlyEmulated.empty();
    const size_t losses = q.imported ? q.imported->losses.size() : 0;
    engineTotal += engine.size(), soundTotal += sound.size();
    both += engine.size() - onlyEngine.size();
    engineOnly += onlyEngine.size(), soundOnly += onlySound.size();
    profileAgree += agrees;
    // rfguard's join tree for the same query.
    std::optional<JoinTreeComparison> tree;
    if (!args.queries.empty()) {
      std::string number = queryNumber(q.query.name);
      if (number.empty()) number = queryNumber(stemOf(q.input));
      if (auto it = ownPlans.find(number); it != ownPlans.end()) {
        tree = compareJoinTrees(*q.query.plan, *it->second->query.plan);
        trees.add(*tree);
      }
    }
    if (args.format == "text") {
      out << "-- " << q.query.name << " (" << q.input << "): " << who << " " << engine.size()
          << ", sound " << sound.size() << ": " << engine.size() - onlyEngine.size() << " both, "
          << onlyEngine.size() << " " << who << " only, " << onlySound.size() << " sound only; the "
          << q.engine->profileName() << " profile " << (agrees ? "agrees" : "differs") << "\n";
      auto lines = [&](const char* what, const std::vector<Placed>& ps) {
        for (const auto& p : ps)
          out << "  " << what << ": #" << p.producer << " -> " << p.target << " at scan #" << p.scan
              << "\n";
      };
      // A filter the import left out (applied where rfguard's plans cannot
      // say, or built by no printed join) reads as the sound profile's alone.
      if (losses && (!onlyEngine.empty() || !onlySound.empty() || !agrees))
        out << "  the import lost " << losses << (losses == 1 ? " thing" : " things")
            << " (notes on stderr): a difference may be the import's, not " << who << "'s\n";
      if (tree)
        out << joinTreeLines(who, *tree);
      else if (!args.queries.empty())
        out << "  join tree: no query of --queries has its number\n";
      lines((who + " only").c_str(), onlyEngine);
      lines("sound only", onlySound);
      lines(("not in the " + q.engine->profileName() + " profile").c_str(), notEmulated);
      lines(("only in the " + q.engine->profileName() + " profile").c_str(), onlyEmulated);
    }
    Json treeJson = tree ? joinTreeJson(*tree) : Json(nullptr);
    js.push_back({{"name", q.query.name},
                  {"input", q.input},
                  {"engine", q.engine->name()},
                  {"engine_placed", engine.size()},
                  {"sound_placed", sound.size()},
                  {"engine_only", listOf(onlyEngine)},
                  {"sound_only", listOf(onlySound)},
                  {"profile", q.engine->profileName()},
                  {"profile_agrees", agrees},
                  {"not_in_profile", listOf(notEmulated)},
                  {"only_in_profile", listOf(onlyEmulated)},
                  {"import_losses", losses},
                  {"join_tree", treeJson}});
  }
  if (args.format == "json") {
    out << Json{{"queries", js},
                {"engine_placed", engineTotal},
                {"sound_placed", soundTotal},
                {"both", both},
                {"engine_only", engineOnly},
                {"sound_only", soundOnly},
                {"profile_agrees", profileAgree},
                {"join_trees", trees.json()}}
               .dump(2)
        << "\n";
  } else {
    out << "-- " << queries << (queries == 1 ? " query" : " queries") << ": the engines placed "
        << engineTotal << " consumers, the sound profile " << soundTotal << " (" << both
        << " both, " << engineOnly << " the engines' only, " << soundOnly
        << " sound only); the engines' "
        << "profiles agree on " << profileAgree << " of " << queries << "\n";
    if (!args.queries.empty()) out << trees.summary();
  }
  return inputError ? kExitInputError : kExitOk;
}

}  // namespace rfguard
