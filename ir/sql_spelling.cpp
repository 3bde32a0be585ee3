// Interval literals as the SQL printers shift dates by them.
#include "ir/sql_spelling.h"

namespace rfguard {

IntervalShift parseIntervalShift(const std::string& interval, int sign) {
  const long long count = std::stoll(interval) * sign;
  const size_t at = interval.find_first_not_of("-+0123456789 ");
  std::string unit = at == std::string::npos ? "day" : interval.substr(at);
  if (!unit.empty() && unit.back() == 's') unit.pop_back();
  if (unit == "day" || unit == "week") return {unit == "week" ? 7 * count : count, 0, true};
  return {0, unit == "month" ? count : unit == "quarter" ? 3 * count : 12 * count, false};
}

}  // namespace rfguard
