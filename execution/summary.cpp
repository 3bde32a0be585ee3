#include "execution/summary.h"

#include <cassert>

#include "execution/filters.h"

namespace rfguard::rt {

namespace {

bool isNull(const Datum& d) {
  return std::holds_alternative<std::monostate>(d);
}

/// Three-way order of two datums of any alternatives: NULL, then by type, then by value.
int order(const Datum& a, const Datum& b) {
  if (a.index() != b.index()) return a.index() < b.index() ? -1 : 1;
  return isNull(a) ? 0 : compareDatum(a, b);
}

}  // namespace

bool KeyLess::operator()(const Key& a, const Key& b) const {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (int c = order(a[i], b[i])) return c < 0;
  return a.size() < b.size();
}

void Summary::add(Kind kind, const Key& key) {
  if (hasNull(key)) {
    null = true;
    return;
  }
  if (kind == Kind::In) {
    keys.insert(key);
  } else if (kind == Kind::MinMax) {
    if (min.empty()) {
      min = max = key;
      return;
    }
    assert(key.size() == min.size());
    for (size_t i = 0; i < key.size(); ++i) {
      if (order(key[i], min[i]) < 0) min[i] = key[i];
      if (order(key[i], max[i]) > 0) max[i] = key[i];
    }
  }
}

void Summary::orWith(Kind kind, const Summary& o) {
  null = null || o.null;
  if (kind == Kind::In) keys.insert(o.keys.begin(), o.keys.end());
  if (kind == Kind::MinMax && !o.min.empty()) {
    add(kind, o.min);
    add(kind, o.max);
  }
}

void Summary::andWith(Kind kind, const Summary& o) {
  null = null && o.null;
  if (kind == Kind::In) {
    std::set<Key, KeyLess> both;
    for (const auto& k : keys)
      if (o.keys.count(k)) both.insert(k);
    keys = std::move(both);
  }
  if (kind == Kind::MinMax) {
    if (o.min.empty()) min.clear(), max.clear();
    for (size_t i = 0; i < min.size(); ++i) {
      if (order(o.min[i], min[i]) > 0) min[i] = o.min[i];
      if (order(o.max[i], max[i]) < 0) max[i] = o.max[i];
      if (order(min[i], max[i]) > 0) {  // disjoint ranges: nothing is in both
        min.clear(), max.clear();
        break;
      }
    }
  }
}

bool Summary::mayContain(Kind kind, const Key& key) const {
  if (kind == Kind::In) return keys.count(key) > 0;
  if (kind != Kind::MinMax) return true;
  if (min.empty() || key.size() != min.size()) return false;
  for (size_t i = 0; i < key.size(); ++i)
    if (order(key[i], min[i]) < 0 || order(key[i], max[i]) > 0) return false;
  return true;
}

uint64_t Summary::bytes(Kind kind) const {
  if (kind != Kind::In && kind != Kind::MinMax) return 0;  // a Bloom digest is its bitmap
  uint64_t n = 1;                                          // the NULL flag
  if (kind == Kind::In)
    for (const auto& k : keys) n += encode(k).size();
  if (kind == Kind::MinMax) n += encode(min).size() + encode(max).size();
  return n;
}

std::string Summary::describe(Kind kind) const {
  std::string out;
  if (kind == Kind::In) {
    for (const auto& k : keys) out += (out.empty() ? "" : ", ") + keyToString(k);
    out = "{" + out + "}";
  } else if (kind == Kind::MinMax) {
    out = min.empty() ? "empty" : "[" + keyToString(min) + ", " + keyToString(max) + "]";
  }
  return null ? out + " + NULL" : out;
}

}  // namespace rfguard::rt
