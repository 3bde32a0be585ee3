#include "ir/runtime_filter.h"

namespace rfguard {

namespace {
constexpr const char* kKinds[] = {"bloom", "in", "min_max", "bitset"};
}

const char* kindName(FilterKind k) {
  return kKinds[static_cast<size_t>(k)];
}

std::optional<FilterKind> parseKind(std::string_view name) {
  for (size_t i = 0; i < std::size(kKinds); ++i)
    if (name == kKinds[i]) return static_cast<FilterKind>(i);
  return std::nullopt;
}

std::string kindMisfit(FilterKind k, const Type& t) {
  if (k == FilterKind::MinMax && (!t.isOrdered() || t.isFloating()))
    return "min_max on " + t.toString();
  if (k == FilterKind::Bitset && !t.isInteger()) return "bitset on " + t.toString();
  return "";
}

std::string kindMisfit(const RuntimeFilter& f, const Type& t) {
  for (FilterKind k : f.kinds) {
    if (k == FilterKind::MinMax && isComposite(*f.probe)) continue;
    if (auto m = kindMisfit(k, t); !m.empty()) return m;
  }
  return "";
}

std::string compareMisfit(CmpOp op, const Type& t) {
  if (op == CmpOp::NullSafeEq && t.isFloating()) return "<=> filter on " + t.toString();
  return "";
}

bool matchesNullKeys(const RuntimeFilter& f) {
  return f.nullAllowed || f.op == CmpOp::NullSafeEq;
}

const char* scopeName(FilterScope s) {
  return s == FilterScope::Local ? "local" : "global";
}

std::string filterToString(const RuntimeFilter& f) {
  std::string kinds;
  for (auto k : f.kinds) kinds += (kinds.empty() ? "" : "+") + std::string(kindName(k));
  return "RF" + std::to_string(f.id) + " <- " + exprToString(*f.build) + " (" +
         (f.besideOnly ? std::string("beside its join only")
                       : exprToString(*f.probe) + " " + cmpSpelling(f.op)) +
         ", " + kinds + ", " + scopeName(f.scope) + (f.nullAllowed ? ", null allowed" : "") +
         (f.acceptNull ? ", accepts NULL" : "") + (f.nonBlocking ? ", non-blocking" : "") + ")";
}

std::string targetToString(const FilterTarget& t) {
  return "RF" + std::to_string(t.id) + " -> " + exprToString(*t.target);
}

}  // namespace rfguard
