#include "ir/cmp_op.h"

#include "ir/comparison.h"

namespace rfguard {

// The spellings and flips are the comparison facts' (ir/comparison.cpp).

const char* cmpSpelling(CmpOp op) {
  return comparisonInfo(op).name;
}

std::optional<CmpOp> parseCmpOp(std::string_view spelling) {
  const ComparisonInfo* c = comparisonNamed(spelling);
  return c ? c->filterOp : std::nullopt;
}

bool isEquality(CmpOp op) {
  return comparisonInfo(op).equality;
}

CmpOp flipped(CmpOp op) {
  return *comparisonInfo(comparisonInfo(op).flipped).filterOp;
}

}  // namespace rfguard
