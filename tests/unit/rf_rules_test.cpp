// The rule and profile tables: names unique and documented, every finding a
// rule maps to exists, every engine row's words fill in, and the engine
// interpreter takes exactly the moves each row describes.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "rules/rf_profiles.h"
#include "rules/rf_rules.h"
#include "tests/unit/rf_test_support.h"
#include "verifier/findings.h"

using namespace rfguard;
using namespace rfguard::testing;

namespace {

std::string readDoc(const std::string& rel) {
  std::ifstream in(std::string(RFGUARD_SOURCE_DIR) + "/" + rel);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

}  // namespace

TEST_CASE("rule table: enum order, unique names, known findings, documented") {
  const std::string doc = readDoc("docs/rules.md");
  REQUIRE_FALSE(doc.empty());
  std::set<std::string> names, codes;
  for (const auto& c : findingCodes()) codes.insert(c.id);
  for (size_t i = 0; i < allRfRules().size(); ++i) {
    const RfRuleInfo& r = allRfRules()[i];
    CAPTURE(r.name);
    CHECK(static_cast<size_t>(r.rule) == i);
    CHECK(names.insert(r.name).second);
    CHECK(codes.count(r.finding) == 1);
    CHECK(parseRfRule(r.name) == r.rule);
    CHECK(std::string(r.doc).size() > 10);
    // docs/rules.md's row is the table's own: name, finding and doc as written there.
    CHECK(doc.find("| " + std::string(r.name) + " | " + r.finding + " | " + r.doc + " |") !=
          std::string::npos);
  }
  CHECK_FALSE(parseRfRule("NoSuchRule"));
}

TEST_CASE("rule table: a refused step names the finding of its own rule") {
  CHECK(std::string(rfRuleInfo(RfRule::PassThroughJoinNullGeneratingSide).finding) ==
        "unsafe-null-generating-side");
  CHECK(std::string(rfRuleInfo(RfRule::CopyAcrossNullAwareJoin).finding) ==
        "into-null-aware-anti-build");
  CHECK(std::string(rfRuleInfo(RfRule::BlockAtLimit).finding) == "crossed-limit");
  // The NOT IN refusal is its own rule, so that its finding comes from the table.
  Planned p = plan(
      "SELECT 1 FROM (SELECT a.k FROM a WHERE a.k NOT IN (SELECT b.k FROM b)) x JOIN c ON x.k = "
      "c.k");
  bool sawNullAware = false;
  for (const auto& e : p.report.rejected)
    sawNullAware = sawNullAware || e.decision.rule == RfRule::CopyAcrossNullAwareJoin;
  CHECK(sawNullAware);
}

TEST_CASE("profile table: enum order, names parse, only engines have rows") {
  for (size_t i = 0; i < allProfileInfos().size(); ++i) {
    const ProfileInfo& p = allProfileInfos()[i];
    CAPTURE(p.name);
    CHECK(static_cast<size_t>(p.profile) == i);
    CHECK(parseProfile(p.name) == p.profile);
    CHECK((p.engine == nullptr) == (p.profile == Profile::Sound));
  }
  CHECK(allProfiles().front() == Profile::Sound);
  CHECK_FALSE(parseProfile("postgres"));
}

TEST_CASE("engine rows: each step is decided by the rule the row names") {
  // StarRocks: bilateral at an inner join's `=` key; the rule and both children.
  Planned sr =
      plan("SELECT 1 FROM (a JOIN b ON a.k = b.k) JOIN c ON a.k = c.k", true, Profile::StarRocks);
  std::set<std::string> rules;
  for (const auto& d : sr.report.consumers)
    for (const auto& s : sr.report.derivation(d)) rules.insert(ruleName(s.rule));
  CHECK(rules.count("StarRocksBilateral") == 1);
  CHECK(consumers(sr, 1) == std::set<std::string>{"a.k", "b.k"});
  // Trino: a filter over a LEFT JOIN's NULL-generating side stays above.
  Planned tr =
      plan("SELECT 1 FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.v = c.k", false, Profile::Trino);
  CHECK(rejectionRule(tr, 1) == "TrinoPreservedSideFirst");
  CHECK(consumers(tr, 1).empty());
  // Doris: a <=> filter stops at an outer join.
  Planned dr = plan("SELECT 1 FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON a.k <=> c.k", false,
                    Profile::Doris);
  CHECK(rejectionRule(dr, 1) == "DorisNullSafeStopsAtOuterJoin");
}

TEST_CASE("engine rows: StarRocks's nested-loop join builds from range comparisons") {
  // A join without an equality builds a local filter from `probe column OP
  // build` (NestLoopJoinNode): TPC-H q22's `c_acctbal > avg(c_acctbal)`.
  Planned loop = plan("SELECT 1 FROM a JOIN (SELECT max(v) AS m FROM b) t ON a.v > t.m", true,
                      Profile::StarRocks);
  CHECK(consumers(loop, 1) == std::set<std::string>{"a.v"});
  std::set<std::string> rules;
  for (const auto& e : loop.report.generation) rules.insert(ruleName(e.decision.rule));
  CHECK(rules.count("StarRocksLoopJoinProducer") == 1);
  // With the build side first StarRocks's canBuildFilter refuses it.
  Planned flipped = plan("SELECT 1 FROM a JOIN (SELECT max(v) AS m FROM b) t ON t.m < a.v", true,
                         Profile::StarRocks);
  CHECK(flipped.report.consumers.empty());
  // A hash join (an equality) builds from its equalities only.
  Planned hash =
      plan("SELECT 1 FROM a JOIN b ON a.k = b.k AND a.v > b.v", true, Profile::StarRocks);
  std::set<int> ids;
  for (const auto& c : hash.report.consumers) ids.insert(c.filter);
  CHECK(ids.size() == 1);
  CHECK(consumers(hash, *ids.begin()) == std::set<std::string>{"a.k"});
  // A LEFT join builds none, nested loop or not.
  Planned left = plan("SELECT 1 FROM a LEFT JOIN (SELECT max(v) AS m FROM b) t ON a.v > t.m", true,
                      Profile::StarRocks);
  CHECK(left.report.consumers.empty());
}
