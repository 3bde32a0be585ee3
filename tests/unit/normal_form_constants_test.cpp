// The normal form's constant laws (kConstants, verifier/normal_form_constants.cpp)
// against the evaluator: random expressions with NULLs, CASE, coalesce, nullif,
// NOT, IN lists, IS [NOT] TRUE / FALSE / UNKNOWN / NULL and literals, in a select list and a WHERE,
// evaluate to the same rows before and after the laws, over every pair of values of {NULL, 0, 1,
// 2}.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "evaluation/evaluator.h"
#include "grammar/sql.h"
#include "ir/printers.h"
#include "ir/random.h"
#include "verifier/normal_form_laws.h"

using namespace rfguard;

namespace {

struct Gen {
  std::mt19937_64 rng;
  int pick(int n) { return randomBelow(rng, n); }

  std::string literal() {
    static const char* const kLits[] = {"0", "1", "2", "NULL", "CAST(NULL AS int)"};
    return kLits[pick(5)];
  }

  std::string integer(int depth) {
    if (depth == 0) return pick(3) == 0 ? literal() : (pick(2) ? "k" : "v");
    switch (pick(8)) {
      case 0:
        return "(" + integer(depth - 1) + " + " + integer(depth - 1) + ")";
      case 1:
        return "coalesce(" + integer(depth - 1) + ", " + integer(depth - 1) +
               (pick(2) ? ", " + integer(depth - 1) : "") + ")";
      case 2:
        return "nullif(" + integer(depth - 1) + ", " + integer(depth - 1) + ")";
      case 3:
        return "CASE WHEN " + boolean(depth - 1) + " THEN " + integer(depth - 1) +
               (pick(2) ? " WHEN " + boolean(depth - 1) + " THEN " + integer(depth - 1) : "") +
               (pick(2) ? " ELSE " + integer(depth - 1) : "") + " END";
      case 4:
        return "CASE " + integer(depth - 1) + " WHEN " + literal() + " THEN " + integer(depth - 1) +
               " ELSE " + integer(depth - 1) + " END";
      case 5:
        return "CAST(" + integer(depth - 1) + " AS bigint)";
      default:
        return integer(0);
    }
  }

  std::string boolean(int depth) {
    static const char* const kCmp[] = {
        "=", "<>", "<", "<=", ">", ">=", "IS NOT DISTINCT FROM", "IS DISTINCT FROM"};
    if (depth == 0) {
      static const char* const kLits[] = {"true", "false", "k > 0", "v IS NULL"};
      return kLits[pick(4)];
    }
    static const char* const kTruth[] = {" IS TRUE",      " IS NOT TRUE", " IS FALSE",
                                         " IS NOT FALSE", " IS UNKNOWN",  " IS NULL",
                                         " IS NOT NULL"};
    switch (pick(11)) {
      case 9:
        return "(" + boolean(depth - 1) + ")" + kTruth[pick(7)];
      case 0:
        return integer(depth - 1) + " " + kCmp[pick(8)] + " " + integer(depth - 1);
      case 1:
        return "NOT (" + boolean(depth - 1) + ")";
      case 2:
        return "(" + boolean(depth - 1) + " AND " + boolean(depth - 1) + ")";
      case 3:
        return "(" + boolean(depth - 1) + " OR " + boolean(depth - 1) + ")";
      case 4:
        return integer(depth - 1) + (pick(2) ? " IS NULL" : " IS NOT NULL");
      case 5:
        return integer(depth - 1) + (pick(2) ? " NOT IN (" : " IN (") + literal() + ", " +
               literal() + ")";
      case 6:
        return "CASE WHEN " + boolean(depth - 1) + " THEN " + boolean(depth - 1) + " ELSE " +
               boolean(depth - 1) + " END";
      case 7:
        return integer(depth - 1) + " = " + integer(0);
      case 8:  // never TRUE with TRUE, maybe TRUE with FALSE: a disjunct that goes, one that stays
        return "nullif(" + boolean(depth - 1) + (pick(2) ? ", true)" : ", false)");
      default:
        return boolean(0);
    }
  }
};

rt::Database everyPair() {
  rt::Database db;
  db["a"].columns = {"k", "v"};
  const rt::Value vals[] = {rt::null(), rt::Value(int64_t{0}), rt::Value(int64_t{1}),
                            rt::Value(int64_t{2})};
  for (const auto& k : vals)
    for (const auto& v : vals) db["a"].rows.push_back({k, v});
  return db;
}

}  // namespace

TEST_CASE("normal form: the constant laws keep every expression's value") {
  Gen g{std::mt19937_64(20261207)};
  const rt::Database db = everyPair();
  int checked = 0, changed = 0;
  for (int i = 0; i < 1500; ++i) {
    const std::string sql = "CREATE TABLE a (k int, v int); SELECT k, v, " + g.integer(3) + ", " +
                            g.boolean(3) + " FROM a WHERE " + g.boolean(3) + ";";
    CAPTURE(sql);
    Catalog c;
    std::vector<Query> qs;
    Diagnostics d;
    if (!loadSql(sql, "q.sql", c, qs, d)) continue;  // a type the binder refuses
    REQUIRE(qs.size() == 1);
    rt::Relation before, after;
    std::string error;
    if (!rt::evaluate(*qs[0].plan, db, {}, before, error)) continue;
    PlanPtr lawful = normal_form::withLaws(*qs[0].plan, normal_form::kConstants);
    REQUIRE_MESSAGE(rt::evaluate(*lawful, db, {}, after, error), error);
    CHECK(rt::sortedBag(before.rows) == rt::sortedBag(after.rows));
    ++checked;
    changed += planToText(*lawful) != planToText(*qs[0].plan);
  }
  // Most draws bind and evaluate, and most are changed by the laws.
  CHECK(checked > 1000);
  CHECK(changed > checked / 2);
}
