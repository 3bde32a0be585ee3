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
  size_t queries = 0, engineTotal = 0, soundTotal = 0, both = 0, engineOnly = 0, soundOnly = 0,
         profileAgree = 0;
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
      lines((who + " only").c_str(), onlyEngine);
      lines("sound only", onlySound);
      lines(("not in the " + q.engine->profileName() + " profile").c_str(), notEmulated);
      lines(("only in the " + q.engine->profileName() + " profile").c_str(), onlyEmulated);
    }
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
                  {"import_losses", losses}});
  }
  if (args.format == "json") {
    out << Json{{"queries", js},
                {"engine_placed", engineTotal},
                {"sound_placed", soundTotal},
                {"both", both},
                {"engine_only", engineOnly},
                {"sound_only", soundOnly},
                {"profile_agrees", profileAgree}}
               .dump(2)
        << "\n";
  } else {
    out << "-- " << queries << (queries == 1 ? " query" : " queries") << ": the engines placed "
        << engineTotal << " consumers, the sound profile " << soundTotal << " (" << both
        << " both, " << engineOnly << " the engines' only, " << soundOnly
        << " sound only); the engines' "
        << "profiles agree on " << profileAgree << " of " << queries << "\n";
  }
  return inputError ? kExitInputError : kExitOk;
}

}  // namespace rfguard
