#include "ir/join_type.h"

#include <cassert>

namespace rfguard {

namespace {

// Columns: outputs, preserves, generatesNulls, whereIntoSide, onIntoSide,
// conditionRejectsNullsOf, hasCondition, nullAware, probeRowsOnlyIfMatched.
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
const std::vector<JoinTypeInfo> kTable = {
    {JoinType::Inner,
     "inner",
     "JOIN",
     {true, true},
     {false, false},
     {false, false},
     {true, true},
     {true, true},
     {true, true},
     true,
     false,
     true},
    {JoinType::Left,
     "left",
     "LEFT JOIN",
     {true, true},
     {true, false},
     {false, true},
     {true, false},
     {false, true},
     {false, true},
     true,
     false,
     false},
    {JoinType::Right,
     "right",
     "RIGHT JOIN",
     {true, true},
     {false, true},
     {true, false},
     {false, true},
     {true, false},
     {true, false},
     true,
     false,
     true},
    {JoinType::Full,
     "full",
     "FULL JOIN",
     {true, true},
     {true, true},
     {true, true},
     {false, false},
     {false, false},
     {false, false},
     true,
     false,
     false},
    {JoinType::Cross,
     "cross",
     "CROSS JOIN",
     {true, true},
     {false, false},
     {false, false},
     {true, true},
     {true, true},
     {false, false},
     false,
     false,
     true},
    {JoinType::LeftSemi,
     "left_semi",
     "LEFT SEMI JOIN",
     {true, false},
     {false, false},
     {false, false},
     {true, false},
     {true, true},
     {true, true},
     true,
     false,
     true},
    {JoinType::RightSemi,
     "right_semi",
     "RIGHT SEMI JOIN",
     {false, true},
     {false, false},
     {false, false},
     {false, true},
     {true, true},
     {true, true},
     true,
     false,
     true},
    {JoinType::LeftAnti,
     "left_anti",
     "LEFT ANTI JOIN",
     {true, false},
     {true, false},
     {false, false},
     {true, false},
     {false, true},
     {false, true},
     true,
     false,
     false},
    {JoinType::RightAnti,
     "right_anti",
     "RIGHT ANTI JOIN",
     {false, true},
     {false, true},
     {false, false},
     {false, true},
     {true, false},
     {true, false},
     true,
     false,
     true},
    {JoinType::NullAwareLeftAnti,
     "null_aware_left_anti",
     "NULL AWARE LEFT ANTI JOIN",
     {true, false},
     {true, false},
     {false, false},
     {true, false},
     {false, true},
     {false, false},
     true,
     true,
     false},
};

}  // namespace

const JoinTypeInfo& joinInfo(JoinType t) {
  const auto& info = kTable[static_cast<size_t>(t)];
  assert(info.type == t && "table rows are in enum order");
  return info;
}

const std::vector<JoinTypeInfo>& allJoinTypes() {
  return kTable;
}

std::optional<JoinType> parseJoinType(std::string_view name) {
  for (const auto& info : kTable)
    if (name == info.name) return info.type;
  return std::nullopt;
}

}  // namespace rfguard
