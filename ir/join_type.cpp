#include "ir/join_type.h"

#include <cassert>

namespace rfguard {

namespace {

// Columns: outputs, preserves, generatesNulls, whereIntoSide, onIntoSide,
// conditionRejectsNullsOf, hasCondition, nullAware, probeRowsOnlyIfMatched,
// whereIntoCondition, keepsMatched, freelyReordered, mirror, innerJoinsCommuteOn.
//
// whereIntoSide is false for a NULL-generating side: SELECT * FROM a LEFT JOIN b
// ON a.k = b.k WHERE b.x IS NULL keeps a's unmatched rows; pushing the filter into
// b changes nothing for them but drops matched rows whose b.x is not NULL, so the
// original NULL-extended rows would reappear for a rows that lost their match.
// conditionRejectsNullsOf is false for NOT IN's right side: a build row whose key
// is NULL makes every probe row fail (1 NOT IN (SELECT NULL) is NULL), so rows
// with NULL keys there matter and an outer join below must not lose them.
// onIntoSide is false for a preserved side: an ON conjunct over a preserved side
// only decides matching; moving it below would drop preserved rows.
// whereIntoCondition only for INNER and CROSS: an outer join's condition decides
// matching, not survival, so a WHERE conjunct there would keep the rows it rejects
// NULL-extended.
// freelyReordered only for INNER and CROSS: they commute and associate with
// each other, and a conjunct may sit at any of them above the inputs it reads.
// (A LEFT JOIN B ON a=b) JOIN C ON b=c differs from A LEFT JOIN (B JOIN C ON
// b=c) ON a=b: with A={1}, B={1}, C={} the first is empty, the second keeps
// (1, NULL, NULL).
// innerJoinsCommuteOn is the input a join keeps or drops rows of whole, without
// reading other rows of it: inner joins above or below that input commute with
// the join (Moerkotte et al., SIGMOD 2013, l-asscom): (A LEFT JOIN B ON p) JOIN
// C ON q equals (A JOIN C ON q) LEFT JOIN B ON p when p reads no column of C,
// and the same for LEFT SEMI, LEFT ANTI and NOT IN (a row of A's fate there
// depends on that row and B alone). Not along the other input of a LEFT join
// (see freelyReordered), and not for FULL: (A FULL JOIN B ON a=b) JOIN C ON
// a=c with A={}, B={1}, C={} is empty, (A JOIN C ON a=c) FULL JOIN B ON a=b
// keeps (NULL, NULL, 1).
// mirror is the type of the same join with its children swapped (LEFT <-> RIGHT,
// the semi and anti variants likewise): every two-sided fact of a type is its
// mirror's with the sides exchanged (tests/unit/join_type_test.cpp).
// One row per join type, one column per fact (1 = true), in the order the
// comment above lists them.
// clang-format off
const std::vector<JoinTypeInfo> kTable = {
    {JoinType::Inner,             "inner",                "JOIN",                      {1, 1}, {0, 0}, {0, 0}, {1, 1}, {1, 1}, {1, 1}, 1, 0, 1, 1, 0, 1, JoinType::Inner, -1},
    {JoinType::Left,              "left",                 "LEFT JOIN",                 {1, 1}, {1, 0}, {0, 1}, {1, 0}, {0, 1}, {0, 1}, 1, 0, 0, 0, 0, 0, JoinType::Right, 0},
    {JoinType::Right,             "right",                "RIGHT JOIN",                {1, 1}, {0, 1}, {1, 0}, {0, 1}, {1, 0}, {1, 0}, 1, 0, 1, 0, 0, 0, JoinType::Left, 1},
    {JoinType::Full,              "full",                 "FULL JOIN",                 {1, 1}, {1, 1}, {1, 1}, {0, 0}, {0, 0}, {0, 0}, 1, 0, 0, 0, 0, 0, JoinType::Full, -1},
    {JoinType::Cross,             "cross",                "CROSS JOIN",                {1, 1}, {0, 0}, {0, 0}, {1, 1}, {1, 1}, {0, 0}, 0, 0, 1, 1, 0, 1, JoinType::Cross, -1},
    {JoinType::LeftSemi,          "left_semi",            "LEFT SEMI JOIN",            {1, 0}, {0, 0}, {0, 0}, {1, 0}, {1, 1}, {1, 1}, 1, 0, 1, 0, 1, 0, JoinType::RightSemi, 0},
    {JoinType::RightSemi,         "right_semi",           "RIGHT SEMI JOIN",           {0, 1}, {0, 0}, {0, 0}, {0, 1}, {1, 1}, {1, 1}, 1, 0, 1, 0, 1, 0, JoinType::LeftSemi, 1},
    {JoinType::LeftAnti,          "left_anti",            "LEFT ANTI JOIN",            {1, 0}, {1, 0}, {0, 0}, {1, 0}, {0, 1}, {0, 1}, 1, 0, 0, 0, 0, 0, JoinType::RightAnti, 0},
    {JoinType::RightAnti,         "right_anti",           "RIGHT ANTI JOIN",           {0, 1}, {0, 1}, {0, 0}, {0, 1}, {1, 0}, {1, 0}, 1, 0, 1, 0, 0, 0, JoinType::LeftAnti, 1},
    {JoinType::NullAwareLeftAnti, "null_aware_left_anti", "NULL AWARE LEFT ANTI JOIN", {1, 0}, {1, 0}, {0, 0}, {1, 0}, {0, 1}, {0, 0}, 1, 1, 0, 0, 0, 0, JoinType::NullAwareRightAnti, 0},
    {JoinType::NullAwareRightAnti, "null_aware_right_anti", "NULL AWARE RIGHT ANTI JOIN", {0, 1}, {0, 1}, {0, 0}, {0, 1}, {1, 0}, {0, 0}, 1, 1, 1, 0, 0, 0, JoinType::NullAwareLeftAnti, 1},
};
// clang-format on

}  // namespace

const JoinTypeInfo& joinInfo(JoinType t) {
  const auto& info = kTable[static_cast<size_t>(t)];
  assert(info.type == t && "table rows are in enum order");
  return info;
}

const std::vector<JoinTypeInfo>& allJoinTypes() {
  return kTable;
}

JoinType mirrored(JoinType t) {
  return joinInfo(t).mirror;
}

JoinType withCondition(JoinType t, bool has) {
  if (has && t == JoinType::Cross) return JoinType::Inner;
  if (!has && t == JoinType::Inner) return JoinType::Cross;
  return t;
}

JoinType withNullsRejected(JoinType t, bool rejectLeftNulls, bool rejectRightNulls) {
  const auto& info = joinInfo(t);
  if (!info.generatesNulls[0] && !info.generatesNulls[1]) return t;
  const bool nullsLeft = info.generatesNulls[0] && !rejectLeftNulls;
  const bool nullsRight = info.generatesNulls[1] && !rejectRightNulls;
  // The outer join types differ only in which sides they NULL-extend.
  for (const auto& cand : allJoinTypes())
    if (cand.hasCondition && !cand.nullAware && cand.outputs[0] && cand.outputs[1] &&
        cand.generatesNulls[0] == nullsLeft && cand.generatesNulls[1] == nullsRight)
      return cand.type;
  return t;
}

std::optional<JoinType> parseJoinType(std::string_view name) {
  for (const auto& info : kTable)
    if (name == info.name) return info.type;
  return std::nullopt;
}

}  // namespace rfguard

namespace rfguard {
static_assert(static_cast<int>(JoinType::NullAwareRightAnti) == 10,
              "JoinTypeSet::all() covers eleven join types");
}  // namespace rfguard
