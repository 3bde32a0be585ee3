// Pattern matching and the string and date functions engines' bug reports use:
// evaluator semantics, NULL policies, SQL spellings.
#include <doctest/doctest.h>

#include "evaluation/patterns.h"
#include "evaluation/values.h"
#include "grammar/sql.h"
#include "ir/functions.h"

using namespace rfguard;
using rt::PatternKind;

namespace {

bool m(PatternKind k, const std::string& s, const std::string& p, const char* esc = nullptr) {
  std::string e = esc ? esc : "", error;
  auto r = rt::matchPattern(k, s, p, esc ? &e : nullptr, &error);
  REQUIRE_MESSAGE(r, error);
  return *r;
}

std::string fails(PatternKind k, const std::string& p, const char* esc = nullptr) {
  std::string e = esc ? esc : "", error;
  CHECK_FALSE(rt::matchPattern(k, "x", p, esc ? &e : nullptr, &error));
  return error;
}

rt::Value call(const std::string& f, std::vector<rt::Value> args,
               Type t = Type::of(TypeKind::Int)) {
  std::string error;
  auto v = rt::applyFunction(f, args, t, &error);
  REQUIRE_MESSAGE(v, error);
  return *v;
}

}  // namespace

TEST_CASE("patterns: LIKE, ESCAPE and ILIKE") {
  CHECK(m(PatternKind::Like, "abc", "a%"));
  CHECK(m(PatternKind::Like, "abc", "_b_"));
  CHECK_FALSE(m(PatternKind::Like, "abc", "_b"));
  CHECK(m(PatternKind::Like, "", "%"));
  CHECK_FALSE(m(PatternKind::Like, "ABC", "a%"));  // case matters
  CHECK(m(PatternKind::Like, "a\nb", "a%b"));      // % crosses line breaks
  CHECK(m(PatternKind::Like, "a.c", "a.c"));       // regex characters are literal
  CHECK_FALSE(m(PatternKind::Like, "abc", "a.c"));
  CHECK(m(PatternKind::Like, "50%", "50!%", "!"));
  CHECK_FALSE(m(PatternKind::Like, "500", "50!%", "!"));
  CHECK(m(PatternKind::Like, "a_b", "a\\_b", "\\"));
  CHECK(m(PatternKind::Like, "\xC3\xA9t\xC3\xA9", "_t_"));  // _ is one character, not one byte
  CHECK(m(PatternKind::ILike, "ABC", "a%"));
  CHECK(m(PatternKind::ILike, "abc", "A_C"));
  CHECK(fails(PatternKind::Like, "ab!", "!") == "the pattern ends with its ESCAPE character");
  CHECK(fails(PatternKind::Like, "ab", "!!") == "ESCAPE takes one character, got '!!'");
  // The old backtracking matcher took time exponential in the number of %.
  CHECK_FALSE(
      m(PatternKind::Like, std::string(60, 'a'), std::string(30, 'a') + "%a%a%a%a%a%a%a%a%b"));
}

TEST_CASE("patterns: SIMILAR TO and regexp_matches") {
  CHECK(m(PatternKind::SimilarTo, "abd", "(ab|cd)%"));
  CHECK(m(PatternKind::SimilarTo, "cdx", "(ab|cd)_"));
  CHECK_FALSE(m(PatternKind::SimilarTo, "xab", "(ab|cd)%"));  // anchored at both ends
  CHECK(m(PatternKind::SimilarTo, "aaa", "a+"));
  CHECK(m(PatternKind::SimilarTo, "a.b", "a.b"));  // . is literal in SIMILAR TO
  CHECK_FALSE(m(PatternKind::SimilarTo, "axb", "a.b"));
  CHECK(m(PatternKind::SimilarTo, "a|b", "a!|b", "!"));
  CHECK(m(PatternKind::RegexMatch, "xaby", "ab"));  // anywhere
  CHECK_FALSE(m(PatternKind::RegexMatch, "xaby", "^ab"));
  CHECK(fails(PatternKind::RegexMatch, "a(").rfind("bad regular expression 'a(': ", 0) == 0);
}

TEST_CASE("patterns: string and date functions, with their NULL policies") {
  using rt::Value;
  CHECK(call("starts_with", {Value("abc"), Value("ab")}) == rt::boolean(true));
  CHECK(call("starts_with", {Value("abc"), Value("")}) == rt::boolean(true));
  CHECK(call("ends_with", {Value("abc"), Value("bc")}) == rt::boolean(true));
  CHECK(call("ends_with", {Value("c"), Value("bc")}) == rt::boolean(false));
  CHECK(call("strpos", {Value("abcb"), Value("b")}) == Value(int64_t{2}));
  CHECK(call("strpos", {Value("abc"), Value("z")}) == Value(int64_t{0}));
  CHECK(call("strpos", {Value("\xC3\xA9x"), Value("x")}) == Value(int64_t{2}));  // characters
  CHECK(call("like", {Value("a%"), Value("a!%"), Value("!")}) == rt::boolean(true));
  CHECK(rt::isNull(call("strpos", {rt::null(), Value("b")})));
  CHECK(rt::isNull(call("like", {Value("a"), rt::null()})));
  const int64_t d = rt::daysFromCivil(2024, 5, 17);  // a Friday
  auto trunc = [&](const char* part) {
    return call("date_trunc", {Value(part), Value(d)}, Type::of(TypeKind::Date));
  };
  CHECK(trunc("year") == Value(rt::daysFromCivil(2024, 1, 1)));
  CHECK(trunc("quarter") == Value(rt::daysFromCivil(2024, 4, 1)));
  CHECK(trunc("month") == Value(rt::daysFromCivil(2024, 5, 1)));
  CHECK(trunc("week") == Value(rt::daysFromCivil(2024, 5, 13)));  // Monday
  CHECK(trunc("day") == Value(d));
  for (const char* f : {"starts_with", "ends_with", "strpos", "date_trunc", "ilike", "similar_to",
                        "regexp_matches", "like"}) {
    CAPTURE(f);
    const FunctionInfo* fn = lookupFunction(f);
    REQUIRE(fn);
    CHECK(fn->policy == NullPolicy::Strict);
  }
  CHECK(std::string(lookupFunction("instr")->name) == "strpos");
}

TEST_CASE("patterns: the SQL forms bind and print") {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(
      loadSql("CREATE TABLE s (x varchar, d date);"
              "SELECT x FROM s WHERE x LIKE 'a!%' ESCAPE '!' AND x NOT ILIKE 'B%' AND x SIMILAR TO "
              "'(a|b)%' AND regexp_matches(x, 'a') AND date_trunc('month', d) = d;",
              "p.sql", c, qs, d),
      d.render());
  CHECK_FALSE(loadSql("SELECT x FROM s WHERE x LIKE 'a' ESCAPE 'ab';", "e.sql", c, qs, d));
  CHECK(d.render() == "e.sql:1:41: error: ESCAPE takes one character, got 'ab'\n");
}
