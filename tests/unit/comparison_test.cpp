// The comparison facts (ir/comparison.h) against the reference evaluator, which
// keeps its own comparisons as the oracle, and the one split of join conditions
// into keys and a residue (ir/join_keys.h).
#include <doctest/doctest.h>

#include <map>
#include <utility>

#include "eval_test_support.h"
#include "ir/comparison.h"
#include "ir/functions.h"
#include "ir/join_keys.h"

namespace rfguard {

namespace {

constexpr Comparison kAll[] = {Comparison::Eq,          Comparison::Ne,      Comparison::Lt,
                               Comparison::Le,          Comparison::Gt,      Comparison::Ge,
                               Comparison::NotDistinct, Comparison::Distinct};

using Pair = std::pair<int, int>;  // 0 stands for NULL
using Outcome = std::map<Pair, rt::Value>;

/// `k OP v` evaluated by the reference evaluator on every pair of NULL, 1, 2, 3.
Outcome outcomes(const ComparisonInfo& c) {
  rt::Database db;
  auto value = [](int x) { return x == 0 ? rt::null() : rt::Value(int64_t{x}); };
  for (int k = 0; k <= 3; ++k)
    for (int v = 0; v <= 3; ++v) db["a"].rows.push_back({value(k), value(v)});
  db["a"].columns = {"k", "v"};
  const FunctionInfo* fn = lookupFunction(c.name);
  REQUIRE(fn);
  REQUIRE(fn->infix);
  rt::Relation r = testing::run(std::string("SELECT k, v, k ") + fn->infix + " v AS r FROM a", db);
  Outcome out;
  auto number = [](const rt::Value& x) {
    return rt::isNull(x) ? 0 : static_cast<int>(std::get<int64_t>(x));
  };
  for (const auto& row : r.rows) out[{number(row[0]), number(row[1])}] = row[2];
  REQUIRE(out.size() == 16);
  return out;
}

rt::Value notOf(const rt::Value& b) {
  return rt::isNull(b) ? b : rt::boolean(std::get<int64_t>(b) == 0);
}

}  // namespace

TEST_CASE("every comparison is in the catalog and the catalog entry points to its facts") {
  int withFacts = 0;
  for (const auto& f : allFunctions())
    if (f.comparison) {
      ++withFacts;
      CHECK(std::string(f.comparison->name) == f.name);
    }
  CHECK(withFacts == 8);
  for (Comparison c : kAll) {
    const ComparisonInfo& info = comparisonInfo(c);
    CHECK(info.kind == c);
    CHECK(comparisonNamed(info.name) == &info);
    REQUIRE(lookupFunction(info.name));
    CHECK(lookupFunction(info.name)->comparison == &info);
    // Symmetric exactly when swapping the operands is the same test.
    CHECK(info.symmetric == (info.flipped == c));
    CHECK(comparisonInfo(info.flipped).flipped == c);
    CHECK(comparisonInfo(info.negated).negated == c);
  }
  CHECK(comparisonNamed("!=") == nullptr);  // an alias: the binder resolves it to <>
  CHECK(comparisonNamed("+") == nullptr);
  auto x = makeColumn("x", Type::of(TypeKind::Int), true);
  CHECK(comparisonOf(*makeCall("<", {x, x})) == &comparisonInfo(Comparison::Lt));
  CHECK(comparisonOf(*makeCall("+", {x, x})) == nullptr);
  CHECK(comparisonOf(*x) == nullptr);
}

TEST_CASE("the comparison facts agree with the evaluator on every pair of values and NULL") {
  std::map<Comparison, Outcome> seen;
  for (Comparison c : kAll) seen[c] = outcomes(comparisonInfo(c));
  for (Comparison c : kAll) {
    const ComparisonInfo& info = comparisonInfo(c);
    CAPTURE(info.name);
    for (const auto& [pair, result] : seen[c]) {
      const int k = pair.first, v = pair.second;  // not a binding: clang-14's CAPTURE
      CAPTURE(k);
      CAPTURE(v);
      if (k != 0 && v != 0) {
        const bool expected = k < v ? info.onLess : k == v ? info.onEqual : info.onGreater;
        CHECK(result == rt::boolean(expected));
      } else if (info.nullSafe) {
        // NULL is a value: equal to NULL only; the result never NULL.
        CHECK(result == rt::boolean((k == v) == info.onEqual));
      } else {
        CHECK(rt::isNull(result));
      }
      CHECK(seen[info.flipped].at({v, k}) == result);         // b op' a is a op b
      CHECK(seen[info.negated].at({k, v}) == notOf(result));  // NOT (a op b), NULLs included
      if (info.equality) CHECK(info.onEqual);
      if (info.equality) CHECK_FALSE((info.onLess || info.onGreater));
    }
  }
}

TEST_CASE("runtime-filter operators: spellings, flips and equalities from the facts") {
  for (CmpOp op : {CmpOp::Eq, CmpOp::NullSafeEq, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge}) {
    CHECK(parseCmpOp(cmpSpelling(op)) == op);
    CHECK(flipped(flipped(op)) == op);
    CHECK(comparisonInfo(op).filterOp == op);
  }
  CHECK(std::string(cmpSpelling(CmpOp::NullSafeEq)) == "<=>");
  CHECK(flipped(CmpOp::Lt) == CmpOp::Gt);
  CHECK(flipped(CmpOp::Ge) == CmpOp::Le);
  CHECK(isEquality(CmpOp::Eq));
  CHECK(isEquality(CmpOp::NullSafeEq));
  CHECK_FALSE(isEquality(CmpOp::Le));
  CHECK_FALSE(parseCmpOp("<>"));  // no runtime filter tests inequality
  CHECK_FALSE(parseCmpOp("is_distinct_from"));
  CHECK_FALSE(parseCmpOp("=="));
}

TEST_CASE("a join condition splits into keys oriented left to right and a residue") {
  const Type t = Type::of(TypeKind::Int);
  auto col = [&](const char* id) { return makeColumn(id, t, true); };
  auto left = [](const Expr& e) { return e.kind == ExprKind::Column && e.name[0] == 'a'; };
  auto right = [](const Expr& e) { return e.kind == ExprKind::Column && e.name[0] == 'b'; };
  std::vector<ExprPtr> parts = {
      makeCall("=", {col("a.k"), col("b.k")}),    // a key as written
      makeCall("<", {col("b.v"), col("a.v")}),    // swapped: a.v > b.v
      makeCall("<>", {col("a.x"), col("b.x")}),   // no key: <> filters nothing
      makeCall("=", {col("a.y"), col("a.z")}),    // both operands on one side
      makeCall("<=>", {col("b.n"), col("a.n")}),  // null-safe, swapped
      makeCall("=", {makeCall("+", {col("a.w"), col("a.w")}), col("b.w")}),  // not a column
  };
  std::vector<const Expr*> raw;
  for (const auto& p : parts) raw.push_back(p.get());

  SplitCondition eq = splitJoinCondition(raw, left, right);  // `=` only, the default
  REQUIRE(eq.keys.size() == 1);
  CHECK(eq.keys[0].left()->name == "a.k");
  CHECK(eq.keys[0].right()->name == "b.k");
  CHECK(eq.residue.size() == 5);
  CHECK(eq.residue[0] == parts[1].get());

  SplitCondition all = splitJoinCondition(
      raw, left, right, {CmpOp::Eq, CmpOp::NullSafeEq, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge});
  REQUIRE(all.keys.size() == 3);
  CHECK(all.keys[1].swapped);
  CHECK(all.keys[1].op == CmpOp::Gt);
  CHECK(all.keys[1].left()->name == "a.v");
  CHECK(all.keys[2].op == CmpOp::NullSafeEq);
  CHECK(all.keys[2].left()->name == "a.n");
  CHECK(all.residue == std::vector<const Expr*>{parts[2].get(), parts[3].get(), parts[5].get()});

  CHECK_FALSE(joinKeyOf(*parts[2], left, right, {CmpOp::Eq}));
  CHECK(joinKeyOf(*parts[5], [](const Expr&) { return true; }, right, {CmpOp::Eq}));
}

}  // namespace rfguard
