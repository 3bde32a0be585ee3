// The join-type table against a truth table written out by hand from the
// semantics of each join (docs/design.md sections 1 and 3).
#include <doctest/doctest.h>

#include "ir/join_type.h"

using namespace rfguard;

namespace {
struct Truth {
  JoinType t;
  bool outL, outR, presL, presR, nullL, nullR, probeOnlyIfMatched;
};
// outputs, preserved (unmatched rows reach the output), NULL-generating, and
// whether unmatched left (probe) rows never reach the output.
const Truth kTruth[] = {
    {JoinType::Inner, 1, 1, 0, 0, 0, 0, 1},
    {JoinType::Left, 1, 1, 1, 0, 0, 1, 0},
    {JoinType::Right, 1, 1, 0, 1, 1, 0, 1},
    {JoinType::Full, 1, 1, 1, 1, 1, 1, 0},
    {JoinType::Cross, 1, 1, 0, 0, 0, 0, 1},
    {JoinType::LeftSemi, 1, 0, 0, 0, 0, 0, 1},
    {JoinType::RightSemi, 0, 1, 0, 0, 0, 0, 1},
    {JoinType::LeftAnti, 1, 0, 1, 0, 0, 0, 0},
    {JoinType::RightAnti, 0, 1, 0, 1, 0, 0, 1},
    {JoinType::NullAwareLeftAnti, 1, 0, 1, 0, 0, 0, 0},
    {JoinType::NullAwareRightAnti, 0, 1, 0, 1, 0, 0, 1},
};
}  // namespace

TEST_CASE("join-type table matches the hand-written truth table") {
  REQUIRE(allJoinTypes().size() == std::size(kTruth));
  for (const auto& t : kTruth) {
    const auto& info = joinInfo(t.t);
    CAPTURE(info.name);
    CHECK(info.type == t.t);
    CHECK(info.outputs[0] == t.outL);
    CHECK(info.outputs[1] == t.outR);
    CHECK(info.preserves[0] == t.presL);
    CHECK(info.preserves[1] == t.presR);
    CHECK(info.generatesNulls[0] == t.nullL);
    CHECK(info.generatesNulls[1] == t.nullR);
    CHECK(info.probeRowsOnlyIfMatched == t.probeOnlyIfMatched);
  }
}

TEST_CASE(
    "WHERE conjuncts never enter a NULL-generating side; ON conjuncts never a preserved one") {
  for (const auto& info : allJoinTypes()) {
    CAPTURE(info.name);
    for (int s = 0; s < 2; ++s) {
      if (info.generatesNulls[s]) CHECK_FALSE(info.whereIntoSide[s]);
      if (info.preserves[s]) CHECK_FALSE(info.onIntoSide[s]);
      if (!info.outputs[s]) CHECK_FALSE(info.whereIntoSide[s]);
    }
  }
  CHECK(joinInfo(JoinType::Left).onIntoSide[1]);
  CHECK(joinInfo(JoinType::Inner).whereIntoSide[0]);
  CHECK_FALSE(joinInfo(JoinType::NullAwareLeftAnti).conditionRejectsNullsOf[1]);
  CHECK(joinInfo(JoinType::LeftAnti).conditionRejectsNullsOf[1]);
  CHECK_FALSE(joinInfo(JoinType::Cross).hasCondition);
  CHECK(joinInfo(JoinType::NullAwareLeftAnti).nullAware);
}

TEST_CASE("join types parse from their plan JSON names") {
  for (const auto& info : allJoinTypes()) CHECK(parseJoinType(info.name) == info.type);
  CHECK_FALSE(parseJoinType("sideways").has_value());
  CHECK_FALSE(parseJoinType("LEFT").has_value());
}

TEST_CASE("a mirrored join type is the same join with its sides exchanged") {
  for (const auto& info : allJoinTypes()) {
    CAPTURE(info.name);
    const auto& m = joinInfo(mirrored(info.type));
    CHECK(mirrored(m.type) == info.type);
    for (int s = 0; s < 2; ++s) {
      CHECK(m.outputs[s] == info.outputs[1 - s]);
      CHECK(m.preserves[s] == info.preserves[1 - s]);
      CHECK(m.generatesNulls[s] == info.generatesNulls[1 - s]);
      CHECK(m.whereIntoSide[s] == info.whereIntoSide[1 - s]);
      CHECK(m.onIntoSide[s] == info.onIntoSide[1 - s]);
      CHECK(m.conditionRejectsNullsOf[s] == info.conditionRejectsNullsOf[1 - s]);
    }
    CHECK(m.hasCondition == info.hasCondition);
    CHECK(m.nullAware == info.nullAware);
    CHECK(m.innerJoinsCommuteOn ==
          (info.innerJoinsCommuteOn < 0 ? -1 : 1 - info.innerJoinsCommuteOn));
  }
  CHECK(mirrored(JoinType::Left) == JoinType::Right);
  CHECK(mirrored(JoinType::NullAwareLeftAnti) == JoinType::NullAwareRightAnti);
  CHECK(mirrored(JoinType::Inner) == JoinType::Inner);
}

TEST_CASE("inner joins commute with a join along the input whose rows it keeps or drops whole") {
  for (const auto& info : allJoinTypes()) {
    CAPTURE(info.name);
    int side = info.innerJoinsCommuteOn;
    if (side < 0) continue;
    // That input's rows reach the output whole (its columns never padded), and
    // the join never pads them: LEFT, semi and anti joins and their mirrors.
    CHECK(info.outputs[side]);
    CHECK_FALSE(info.generatesNulls[side]);
    CHECK_FALSE(info.preserves[1 - side]);
    CHECK_FALSE(info.freelyReordered);
  }
  CHECK(joinInfo(JoinType::Left).innerJoinsCommuteOn == 0);
  CHECK(joinInfo(JoinType::NullAwareRightAnti).innerJoinsCommuteOn == 1);
  CHECK(joinInfo(JoinType::Full).innerJoinsCommuteOn == -1);
  CHECK(joinInfo(JoinType::Inner).innerJoinsCommuteOn == -1);
}

TEST_CASE("outer-join simplification: the type once a side's NULLs are rejected above") {
  // LEFT: its right side is the NULL-extended one.
  CHECK(withNullsRejected(JoinType::Left, false, true) == JoinType::Inner);
  CHECK(withNullsRejected(JoinType::Left, true, false) == JoinType::Left);
  CHECK(withNullsRejected(JoinType::Right, true, false) == JoinType::Inner);
  CHECK(withNullsRejected(JoinType::Right, false, true) == JoinType::Right);
  // FULL: each side's rejection removes the rows padded on that side.
  CHECK(withNullsRejected(JoinType::Full, false, true) == JoinType::Right);
  CHECK(withNullsRejected(JoinType::Full, true, false) == JoinType::Left);
  CHECK(withNullsRejected(JoinType::Full, true, true) == JoinType::Inner);
  CHECK(withNullsRejected(JoinType::Full, false, false) == JoinType::Full);
  // Types that NULL-extend nothing stay.
  for (JoinType t : {JoinType::Inner, JoinType::Cross, JoinType::LeftSemi, JoinType::LeftAnti,
                     JoinType::NullAwareLeftAnti, JoinType::RightSemi})
    CHECK(withNullsRejected(t, true, true) == t);
  // Mirrors simplify to mirrors.
  for (const auto& info : allJoinTypes())
    for (int l = 0; l < 2; ++l)
      for (int r = 0; r < 2; ++r)
        CHECK(withNullsRejected(info.mirror, r, l) == mirrored(withNullsRejected(info.type, l, r)));
  CHECK(isLeftOuter(JoinType::Left));
  for (JoinType t : {JoinType::Right, JoinType::Full, JoinType::LeftAnti, JoinType::Inner,
                     JoinType::NullAwareLeftAnti})
    CHECK_FALSE(isLeftOuter(t));
}
