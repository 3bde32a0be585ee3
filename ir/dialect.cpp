#include "ir/dialect.h"

#include <iterator>

#include "ir/ascii.h"

namespace rfguard {

namespace {

using DZ = DivisionByZero;
using IA = IntegerAverage;
using NO = NullOrder;

// The rows of docs/dialects.md, checked by tests/unit/dialect_test.cpp on the
// linked DuckDB and SQLite. Order: Dialect's.
const DialectRules kRules[] = {
    {"default", true, DZ::Null, DZ::Null, IA::Double, true, NO::Largest, false, true},
    {"postgres", true, DZ::Fails, DZ::Fails, IA::Double, true, NO::Largest, false, true},
    {"duckdb", false, DZ::Fails, DZ::Null, IA::Double, true, NO::Last, false, true},
    {"calcite", true, DZ::Fails, DZ::Fails, IA::Truncated, false, NO::Largest, false, false},
    {"sqlite", true, DZ::Null, DZ::Null, IA::Double, true, NO::Smallest, true, true},
};

}  // namespace

const DialectRules& dialectRules(Dialect d) {
  return kRules[static_cast<int>(d)];
}

const char* dialectName(Dialect d) {
  return dialectRules(d).name;
}

std::optional<Dialect> dialectNamed(std::string_view name) {
  std::string n(name);
  asciiLowerInPlace(n);
  if (n == "postgresql") return Dialect::Postgres;
  for (int i = 0; i < static_cast<int>(std::size(kRules)); ++i)
    if (n == kRules[i].name) return static_cast<Dialect>(i);
  return std::nullopt;
}

std::vector<std::string> dialectNames() {
  std::vector<std::string> out;
  for (const auto& r : kRules) out.push_back(r.name);
  return out;
}

}  // namespace rfguard
