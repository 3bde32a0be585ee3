#pragma once
// Runtime key values: one or several columns (composite keys), each NULL, an
// integer, a double or a string, with a canonical byte encoding for hashing
// and exact sets.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace rfguard::rt {

/// One column value; std::monostate is NULL.
using Datum = std::variant<std::monostate, int64_t, double, std::string>;
/// A key: one Datum per key column.
using Key = std::vector<Datum>;
/// A key's columns wherever they are stored (a Key converts to it).
using KeyView = std::span<const Datum>;

/// True when any column is NULL.
bool hasNull(KeyView k);
/// The canonical encoding: a type tag and the payload per column (-0.0 as 0.0).
std::string encode(KeyView k);
/// One column's encoding appended to `out` (encode() is these, column by column).
void appendEncoded(const Datum& d, std::string& out);
/// Three-way comparison of two non-NULL datums of the same alternative.
int compareDatum(const Datum& a, const Datum& b);
/// "NULL", "7", "1.5", "'x'"; composite keys as "(a, b)".
std::string keyToString(const Key& k);

/// A single integer key, or NULL.
inline Key intKey(std::optional<int64_t> v) {
  return {v ? Datum(*v) : Datum(std::monostate{})};
}

}  // namespace rfguard::rt
