#pragma once
// The comparison operators a join conjunct or a runtime filter can use, as an
// enum: `=`, `<=>` (IS NOT DISTINCT FROM) and the four range operators.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace rfguard {

/// A comparison `probe OP build`.
enum class CmpOp : uint8_t { Eq, NullSafeEq, Lt, Le, Gt, Ge };

/// SQL spelling: "=", "<=>", "<", "<=", ">", ">=" (also the plan JSON spelling).
const char* cmpSpelling(CmpOp op);
/// Parses a spelling above; nullopt for anything else.
std::optional<CmpOp> parseCmpOp(std::string_view spelling);
/// The operator with its operands swapped: `a < b` is `b > a`.
CmpOp flipped(CmpOp op);
/// True for `=` and `<=>`.
bool isEquality(CmpOp op);

/// A set of comparison operators (engine profiles list which ones they handle).
class CmpOpSet {
 public:
  constexpr CmpOpSet() = default;
  constexpr CmpOpSet(std::initializer_list<CmpOp> ops) {
    for (CmpOp op : ops) bits_ |= bit(op);
  }
  constexpr bool contains(CmpOp op) const { return (bits_ & bit(op)) != 0; }

 private:
  static constexpr uint8_t bit(CmpOp op) {
    return static_cast<uint8_t>(1u << static_cast<int>(op));
  }
  uint8_t bits_ = 0;
};

}  // namespace rfguard
