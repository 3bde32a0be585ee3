// rfguard lint end to end through runCli: exit codes, the must-hold cases of
// issue 4, the JSON and SARIF documents, and the findings documentation.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tools/cli/cli.h"
#include "verifier/findings.h"

using namespace rfguard;
using Json = nlohmann::json;

namespace {

struct Run {
  int code;
  std::string out, err;
};

Run lint(std::vector<std::string> args) {
  args.insert(args.begin(), {"rfguard", "lint"});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  int code = runCli(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

std::string src(const std::string& rel) {
  return std::string(RFGUARD_SOURCE_DIR) + "/" + rel;
}

}  // namespace

TEST_CASE("lint: the sound profile is clean on the bundled examples; StarRocks is not") {
  auto sound = lint({src("corpus/examples/seeds.sql"), src("corpus/examples/tpch.sql"),
                     src("corpus/examples/ssb.sql")});
  CHECK(sound.code == kExitOk);
  CHECK(sound.out.find("0 findings") != std::string::npos);
  auto sr = lint({"--profile", "starrocks", src("corpus/examples/seeds.sql")});
  CHECK(sr.code == kExitFindings);
  // (A LEFT JOIN B ON A.k = B.k) JOIN C ON B.k <=> C.k: the copy to A is reported.
  CHECK(sr.out.find("[unsafe-equality-copy] null_safe_parent: RF1 -> a.k at scan #4: a "
                    "filter for which a NULL key counts (`<=>`, null-allowing, or below a NOT IN "
                    "list) copied from the "
                    "NULL-generating side of left join #3 to its preserved side") !=
        std::string::npos);
  CHECK(sr.out.find("seeds.sql:15:16: error") != std::string::npos);
}

TEST_CASE("lint: a plan JSON consuming coalesce(b.k, 0) on b is flagged") {
  auto r = lint({"--format", "json", src("corpus/lint/coalesce_into_left_join.json")});
  CHECK(r.code == kExitFindings);
  Json j = Json::parse(r.out);
  CHECK(j["format"] == "rfguard-lint");
  CHECK(j["version"] == 1);
  const Json& f = j["files"][0]["queries"][0]["findings"][0];
  CHECK(f["code"] == "unsafe-null-generating-side");
  CHECK(f["severity"] == "error");
  CHECK(f["filter"] == 1);
  CHECK(f["nodes"] == Json::array({2, 5, 3}));
  CHECK(f["location"]["line"] == 6);
  CHECK(f["location"]["column"] == 27);
  CHECK(f["location"]["plan"]["pointer"] == "/queries/0/plan/children/0/children/0/children/1");
  CHECK(f["message"].get<std::string>().find(
            "entered the NULL-generating side of left join #3 with `coalesce(b.k, 0)`, which is "
            "not NULL-propagating") != std::string::npos);
  CHECK(j["summary"]["findings"] == 1);
}

TEST_CASE("lint: input errors exit 2, also beside findings") {
  CHECK(lint({}).code == kExitInputError);
  CHECK(lint({src("corpus/nope.sql")}).code == kExitInputError);
  CHECK(lint({"--format", "xml", src("corpus/examples/seeds.sql")}).code == kExitInputError);
  auto r = lint({src("corpus/lint/coalesce_into_left_join.json"), src("corpus/nope.sql")});
  CHECK(r.code == kExitInputError);
  CHECK(r.out.find("unsafe-null-generating-side") != std::string::npos);
}

TEST_CASE("lint: SARIF 2.1.0 with the fields GitHub code scanning reads") {
  auto r = lint({"--format", "sarif", "--profile", "starrocks", src("corpus/examples/seeds.sql"),
                 src("corpus/lint/coalesce_into_left_join.json")});
  CHECK(r.code == kExitFindings);
  Json j = Json::parse(r.out);
  CHECK(j["$schema"].get<std::string>().find("sarif-2.1.0") != std::string::npos);
  CHECK(j["version"] == "2.1.0");
  REQUIRE(j["runs"].size() == 1);
  const Json& driver = j["runs"][0]["tool"]["driver"];
  CHECK(driver["name"] == "rfguard");
  CHECK(driver["version"] == kVersion);
  REQUIRE(driver["rules"].size() == findingCodes().size());
  std::set<std::string> ids;
  for (const auto& rule : driver["rules"]) {
    ids.insert(rule["id"].get<std::string>());
    CHECK(!rule["shortDescription"]["text"].get<std::string>().empty());
    CHECK(!rule["fullDescription"]["text"].get<std::string>().empty());
    CHECK(!rule["help"]["text"].get<std::string>().empty());
  }
  const Json& results = j["runs"][0]["results"];
  REQUIRE(results.size() == 3);
  std::set<std::string> prints;
  for (const auto& res : results) {
    CHECK(ids.count(res["ruleId"].get<std::string>()));
    CHECK(driver["rules"][res["ruleIndex"].get<size_t>()]["id"] == res["ruleId"]);
    CHECK(res["level"] == "error");
    CHECK(!res["message"]["text"].get<std::string>().empty());
    const Json& loc = res["locations"][0]["physicalLocation"];
    std::string uri = loc["artifactLocation"]["uri"];
    CHECK(uri.front() != '/');  // relative to the working directory
    CHECK(uri.find("corpus/") != std::string::npos);
    CHECK(loc["region"]["startLine"].get<int>() >= 1);
    CHECK(loc["region"]["startColumn"].get<int>() >= 1);
    prints.insert(res["partialFingerprints"]["rfguardFinding/v2"].get<std::string>());
  }
  CHECK(prints.size() == 3);
  // Stable: the same input gives the same fingerprints.
  auto again =
      lint({"--format", "sarif", "--profile", "starrocks", src("corpus/examples/seeds.sql"),
            src("corpus/lint/coalesce_into_left_join.json")});
  CHECK(again.out == r.out);
}

TEST_CASE("every finding code is kebab-case and documented in docs/findings.md") {
  std::ifstream in(src("docs/findings.md"));
  REQUIRE(in);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string doc = buf.str();
  for (const auto& c : findingCodes()) {
    CAPTURE(c.id);
    for (char ch : std::string(c.id)) CHECK(((ch >= 'a' && ch <= 'z') || ch == '-'));
    CHECK(doc.find("\n## " + std::string(c.id) + "\n") != std::string::npos);
    CHECK(doc.find("[`" + std::string(c.id) + "`](#" + c.id + ")") != std::string::npos);
  }
}
