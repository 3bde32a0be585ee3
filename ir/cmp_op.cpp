#include "ir/cmp_op.h"

namespace rfguard {

namespace {

struct OpInfo {
  CmpOp op;
  const char* spelling;
  CmpOp flipped;
};

// One row per operator, in enum order.
constexpr OpInfo kOps[] = {
    {CmpOp::Eq, "=", CmpOp::Eq}, {CmpOp::NullSafeEq, "<=>", CmpOp::NullSafeEq},
    {CmpOp::Lt, "<", CmpOp::Gt}, {CmpOp::Le, "<=", CmpOp::Ge},
    {CmpOp::Gt, ">", CmpOp::Lt}, {CmpOp::Ge, ">=", CmpOp::Le},
};

}  // namespace

const char* cmpSpelling(CmpOp op) {
  return kOps[static_cast<size_t>(op)].spelling;
}

std::optional<CmpOp> parseCmpOp(std::string_view spelling) {
  for (const auto& o : kOps)
    if (spelling == o.spelling) return o.op;
  return std::nullopt;
}

CmpOp flipped(CmpOp op) {
  return kOps[static_cast<size_t>(op)].flipped;
}

}  // namespace rfguard
