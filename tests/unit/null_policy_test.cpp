// The function catalog's null policies, per function, and isNullPropagating.
#include <doctest/doctest.h>

#include "ir/ascii.h"
#include "ir/functions.h"

using namespace rfguard;

namespace {
ExprPtr col(const std::string& id) {
  return makeColumn(id, Type::of(TypeKind::Int), true);
}
ExprPtr lit(int v) {
  return makeLiteral(std::to_string(v), Type::of(TypeKind::Int));
}
ExprPtr str(const std::string& v) {
  return makeLiteral(v, Type::of(TypeKind::Varchar));
}
const std::set<std::string> kB = {"b.k"};
bool prop(const ExprPtr& e) {
  return isNullPropagating(*e, kB);
}
}  // namespace

TEST_CASE("each function's null policy") {
  struct Row {
    const char* name;
    NullPolicy policy;
  };
  const Row rows[] = {
      {"=", NullPolicy::Strict},
      {"<>", NullPolicy::Strict},
      {"<", NullPolicy::Strict},
      {"+", NullPolicy::Strict},
      {"*", NullPolicy::Strict},
      {"abs", NullPolicy::Strict},
      {"substring", NullPolicy::Strict},
      {"upper", NullPolicy::Strict},
      {"lower", NullPolicy::Strict},
      {"round", NullPolicy::Strict},
      {"extract", NullPolicy::Strict},
      {"like", NullPolicy::Strict},
      {"||", NullPolicy::Strict},
      {"not", NullPolicy::Strict},
      {"coalesce", NullPolicy::AllArgs},
      {"ifnull", NullPolicy::AllArgs},
      {"nvl", NullPolicy::AllArgs},
      {"and", NullPolicy::AllArgs},
      {"or", NullPolicy::AllArgs},
      {"nullif", NullPolicy::FirstArg},
      {"in", NullPolicy::FirstArg},
      {"case", NullPolicy::CaseResults},
      {"<=>", NullPolicy::NeverNull},
      {"is_distinct_from", NullPolicy::NeverNull},
      {"is_null", NullPolicy::NeverNull},
      {"is_not_null", NullPolicy::NeverNull},
      {"concat", NullPolicy::NeverNull},
      {"count", NullPolicy::NeverNull},
      {"row_number", NullPolicy::NeverNull},
  };
  for (const auto& r : rows) {
    CAPTURE(r.name);
    const FunctionInfo* fn = lookupFunction(r.name);
    REQUIRE(fn);
    CHECK(fn->policy == r.policy);
  }
  CHECK(lookupFunction("SUBSTR") == lookupFunction("substring"));
  CHECK(lookupFunction("CoUnT") == lookupFunction("count"));
  CHECK(lookupFunction("no_such_function") == nullptr);
  // Names fold by ASCII rules only: '@' and '[' sit next to 'A' and 'Z', and
  // bytes of UTF-8 sequences stay as they are.
  CHECK(asciiLower('A') == 'a');
  CHECK(asciiLower('Z') == 'z');
  CHECK(asciiLower('@') == '@');
  CHECK(asciiLower('[') == '[');
  CHECK(asciiLower('\xC4') == '\xC4');
  std::string name = "L_OrderKey9";
  asciiLowerInPlace(name);
  CHECK(name == "l_orderkey9");
  CHECK_FALSE(lookupFunction("random")->deterministic);
}

TEST_CASE("isNullPropagating: NULL in, NULL out") {
  CHECK(prop(col("b.k")));
  CHECK_FALSE(prop(col("a.k")));
  CHECK(prop(makeCast(col("b.k"), Type::of(TypeKind::BigInt))));
  CHECK(prop(makeCall("+", {col("b.k"), lit(1)})));
  CHECK(prop(makeCall("abs", {col("b.k")})));
  CHECK(prop(makeCall("=", {col("b.k"), col("c.k")})));
  CHECK(prop(
      makeCall("substring", {makeCast(col("b.k"), Type::of(TypeKind::Varchar)), lit(1), lit(2)})));
  CHECK(prop(makeCall("||", {str("x"), makeCast(col("b.k"), Type::of(TypeKind::Varchar))})));
  CHECK(prop(makeNull()));
}

TEST_CASE("isNullPropagating: functions that turn NULL into a value") {
  CHECK_FALSE(prop(makeCall("coalesce", {col("b.k"), lit(0)})));
  CHECK_FALSE(prop(makeCall("ifnull", {col("b.k"), lit(0)})));
  CHECK_FALSE(prop(makeCall("nvl", {col("b.k"), lit(0)})));
  CHECK_FALSE(prop(makeCall("is_null", {col("b.k")})));
  CHECK_FALSE(prop(makeCall("is_not_null", {col("b.k")})));
  CHECK_FALSE(prop(makeCall("<=>", {col("b.k"), col("c.k")})));
  CHECK_FALSE(
      prop(makeCall("concat", {str("x"), makeCast(col("b.k"), Type::of(TypeKind::Varchar))})));
  // CASE WHEN b.k IS NULL THEN 0 ELSE b.k END: one branch is a value.
  CHECK_FALSE(prop(makeCall("case", {makeCall("is_null", {col("b.k")}), lit(0), col("b.k")})));
  // An OR with a branch that does not depend on b.
  CHECK_FALSE(prop(
      makeCall("or", {makeCall("=", {col("b.k"), lit(1)}), makeCall("=", {col("a.k"), lit(1)})})));
}

TEST_CASE("isNullPropagating: non-strict functions that still give NULL") {
  // coalesce of two NULL-generating columns is NULL when both are.
  CHECK(isNullPropagating(*makeCall("coalesce", {col("b.k"), col("b.v")}), {"b.k", "b.v"}));
  CHECK_FALSE(isNullPropagating(*makeCall("coalesce", {col("b.k"), col("b.v")}), {"b.k"}));
  // nullif(x, y) is NULL when x is, whatever y is; not when only y is.
  CHECK(prop(makeCall("nullif", {col("b.k"), lit(0)})));
  CHECK_FALSE(prop(makeCall("nullif", {lit(0), col("b.k")})));
  // CASE whose every branch is NULL-propagating, with no ELSE (an implicit NULL).
  CHECK(prop(makeCall("case", {makeCall(">", {col("a.k"), lit(0)}), col("b.k")})));
  // CASE WHEN b.k > 0 THEN 1 END: the branch is never taken when b.k is NULL,
  // and without ELSE the result is NULL; with ELSE 0, or WHEN b.k IS NULL, not.
  CHECK(prop(makeCall("case", {makeCall(">", {col("b.k"), lit(0)}), lit(1)})));
  CHECK_FALSE(prop(makeCall("case", {makeCall(">", {col("b.k"), lit(0)}), lit(1), lit(0)})));
  CHECK_FALSE(prop(makeCall("case", {makeCall("is_null", {col("b.k")}), lit(1)})));
  CHECK(prop(makeCall("in", {col("b.k"), lit(1), lit(2)})));
  CHECK(prop(
      makeCall("and", {makeCall("=", {col("b.k"), lit(1)}), makeCall(">", {col("b.k"), lit(0)})})));
  CHECK(prop(
      makeCall("or", {makeCall("=", {col("b.k"), lit(1)}), makeCall("=", {col("b.k"), lit(2)})})));
}

TEST_CASE("result types from the catalog") {
  CHECK(makeCall("=", {col("a.k"), lit(1)})->type.kind == TypeKind::Boolean);
  CHECK(makeCall("count", {})->type.kind == TypeKind::BigInt);
  CHECK(makeCall("sum", {col("a.k")})->type.kind == TypeKind::BigInt);
  auto dec = makeLiteral("1.50", Type::of(TypeKind::Decimal, 3, 2));
  CHECK(makeCall("*", {dec, dec})->type == Type::of(TypeKind::Decimal, 6, 4));
  CHECK(
      makeCall("coalesce", {col("a.k"), makeLiteral("1", Type::of(TypeKind::BigInt))})->type.kind ==
      TypeKind::BigInt);
  auto date = makeLiteral("2024-01-01", Type::of(TypeKind::Date));
  auto iv = makeLiteral("3 month", Type::of(TypeKind::Interval));
  CHECK(makeCall("+", {date, iv})->type.kind == TypeKind::Date);
}
