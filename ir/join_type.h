#pragma once
// The one join-type table. Every semantic fact about a join type lives here;
// no other file switches on JoinType to decide semantics.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

namespace rfguard {

/// Join types of the IR. The left child is the probe side, the right the build side.
enum class JoinType {
  Inner,
  Left,
  Right,
  Full,
  Cross,
  LeftSemi,
  RightSemi,
  LeftAnti,
  RightAnti,
  NullAwareLeftAnti,  ///< NOT IN: a NULL on either side of the key makes the row not qualify
  /// NOT IN with the outer rows on the build (right) side, DataFusion's shape: the
  /// right rows for which no left row matches and no comparison is NULL.
  NullAwareRightAnti,
};

/// The two children of a join.
enum class Side { Left = 0, Right = 1 };

/// Every fact about one join type, in the style of Calcite's JoinRelType.
struct JoinTypeInfo {
  JoinType type;
  const char* name;        ///< plan JSON spelling: "left_semi"
  const char* sql;         ///< SQL spelling: "LEFT SEMI JOIN"
  bool outputs[2];         ///< the side's columns appear in the join's output
  bool preserves[2];       ///< the side's unmatched rows reach the output
  bool generatesNulls[2];  ///< the side's columns are NULL-filled in some output rows
  bool whereIntoSide[2];   ///< a filter above that reads only this side may move below the join
  bool onIntoSide[2];      ///< an ON conjunct that reads only this side may move into that child
  bool conditionRejectsNullsOf[2];  ///< rows surviving the join satisfy its condition on this side
  bool hasCondition;                ///< false only for CROSS
  bool nullAware;                   ///< NOT IN semantics
  bool probeRowsOnlyIfMatched;      ///< unmatched probe (left) rows never reach the output
  bool whereIntoCondition;          ///< a WHERE conjunct over both sides may join the condition
  bool keepsMatched;     ///< semi (true) or anti (false); only read when one side is output
  bool freelyReordered;  ///< commutes and associates with the other such joins (INNER, CROSS)
  JoinType mirror;       ///< the same join with its children swapped: LEFT <-> RIGHT
  /// The input along which inner joins commute with this join (l-asscom): 0 or
  /// 1, the input whose rows it keeps or drops whole; -1 for none.
  int innerJoinsCommuteOn;
};

/// The table entry for a join type.
const JoinTypeInfo& joinInfo(JoinType t);
/// All entries, in enum order.
const std::vector<JoinTypeInfo>& allJoinTypes();
/// Parses the plan JSON spelling ("inner", "null_aware_left_anti").
std::optional<JoinType> parseJoinType(std::string_view name);
/// A set of join types (engine profiles list the join types a step applies at).
class JoinTypeSet {
 public:
  constexpr JoinTypeSet() = default;
  constexpr JoinTypeSet(std::initializer_list<JoinType> types) {
    for (JoinType t : types) bits_ |= bit(t);
  }
  /// Every join type.
  static constexpr JoinTypeSet all() {
    JoinTypeSet s;
    s.bits_ = 0x7ff;
    return s;
  }
  constexpr bool contains(JoinType t) const { return (bits_ & bit(t)) != 0; }
  /// This set without the types of `other`.
  constexpr JoinTypeSet minus(JoinTypeSet other) const {
    JoinTypeSet s;
    s.bits_ = bits_ & static_cast<uint16_t>(~other.bits_);
    return s;
  }

 private:
  static constexpr uint16_t bit(JoinType t) {
    return static_cast<uint16_t>(1u << static_cast<int>(t));
  }
  uint16_t bits_ = 0;
};

/// The type a join of type `t` has once its condition is given (`has`) or
/// removed: CROSS and INNER differ only in having one.
JoinType withCondition(JoinType t, bool has);

/// The type of the same join with its children swapped (Left -> Right).
JoinType mirrored(JoinType t);

/// True for LEFT (outer) JOIN: the join that keeps every left row, NULL-extending
/// the unmatched ones.
inline bool isLeftOuter(JoinType t) {
  const auto& info = joinInfo(t);
  return info.preserves[0] && !info.preserves[1] && info.outputs[1];
}

/// Outer-join simplification: the type a join has once a predicate above it
/// that rejects NULLs of side 0 (`rejectLeftNulls`) or side 1 removes the rows
/// the join NULL-extends on that side: LEFT becomes INNER when the right
/// side's NULLs are rejected, FULL becomes LEFT or RIGHT or INNER (Calcite's
/// JoinRelType, CockroachDB's SimplifyLeftJoin). A type that NULL-extends no
/// side stays as it is.
JoinType withNullsRejected(JoinType t, bool rejectLeftNulls, bool rejectRightNulls);

/// The other side.
inline Side other(Side s) {
  return s == Side::Left ? Side::Right : Side::Left;
}

}  // namespace rfguard
