#include "ir/type_range.h"

#include <limits>

namespace rfguard {

std::pair<int64_t, int64_t> integerRange(const Type& t) {
  switch (t.kind) {
    case TypeKind::Boolean:
      return {0, 1};
    case TypeKind::TinyInt:
      return {-128, 127};
    case TypeKind::SmallInt:
      return {-32768, 32767};
    case TypeKind::Int:
    case TypeKind::Date:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

}  // namespace rfguard
