// The two front doors of the bounded check, `rfguard check` and the C++ API's
// Plans::check, report the same verdict for every check of every query
// (issue 48): both word the session's check (pipeline/check.h).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "include/rfguard/rfguard.h"
#include "tools/cli/cli.h"

using namespace rfguard::api;

namespace {

std::string src(const std::string& rel) {
  return std::string(RFGUARD_SOURCE_DIR) + "/" + rel;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

/// `rfguard check --format json` on `file`: per query, the verdict words in order.
std::vector<std::vector<std::string>> cliVerdicts(const std::string& file,
                                                  const std::string& profile) {
  std::vector<std::string> args{"rfguard",     "check", "--format",  "json",  "--bound", "1",
                                "--databases", "20000", "--profile", profile, file};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  rfguard::runCli(static_cast<int>(argv.size()), argv.data(), out, err);
  std::vector<std::vector<std::string>> verdicts;
  const auto doc = nlohmann::json::parse(out.str());
  for (const auto& q : doc["files"][0]["queries"]) {
    verdicts.emplace_back();
    for (const auto& c : q["checks"])
      if (!c.contains("rewrite")) verdicts.back().push_back(c["verdict"].get<std::string>());
  }
  return verdicts;
}

}  // namespace

TEST_CASE("rfguard check and Plans::check give the same verdicts") {
  CheckSettings settings;
  settings.bound = 1;
  settings.maxDatabases = 20000;
  settings.seconds = 1e9;  // the database budget alone: the same verdict on any machine
  struct Input {
    const char* file;
    const char* profile;
    Profile api;
  };
  size_t compared = 0;
  for (const Input& in :
       {Input{"corpus/examples/seeds.sql", "starrocks", Profile::StarRocks},
        Input{"corpus/examples/seeds.sql", "sound", Profile::Sound},
        Input{"corpus/lint/coalesce_into_left_join.json", "sound", Profile::Sound}}) {
    CAPTURE(in.file);
    CAPTURE(in.profile);
    const std::string path = src(in.file);
    const auto cli = cliVerdicts(path, in.profile);
    std::optional<Plans> plans;
    if (path.size() > 5 && path.substr(path.size() - 5) == ".json") {
      plans = Plans::fromJson(readAll(path), path);
    } else {
      Loaded l = Plans::loadSql(readAll(path), path);
      plans = std::move(l.plans);
      REQUIRE(plans);
      plans->normalize();
      plans->placeRuntimeFilters({in.api});
    }
    REQUIRE(plans);
    REQUIRE(cli.size() == plans->size());
    for (size_t i = 0; i < plans->size(); ++i) {
      CAPTURE(i);
      std::vector<std::string> api;
      for (const auto& v : plans->check(i, settings)) api.push_back(v.verdict);
      CHECK(api == cli[i]);
      compared += api.size();
    }
  }
  CHECK(compared >= 20);
}
