#pragma once
// The exact content an IN or MinMax digest carries, and the NULL flag every
// digest kind carries under `<=>`: what a build shard sends when its filter is
// not a Bloom bitmap (docs/replay.md). Shards' summaries merge by union (IN),
// by widening (MinMax) and by OR of the NULL flag.
#include <cstdint>
#include <set>
#include <string>

#include "execution/key.h"

namespace rfguard::rt {

enum class Kind;

/// A total order on keys: column by column, NULL first, then by type, then by value.
struct KeyLess {
  bool operator()(const Key& a, const Key& b) const;
};

struct Summary {
  std::set<Key, KeyLess> keys;  ///< IN: the distinct keys without a NULL
  Key min, max;                 ///< MinMax: per column; empty when no key without a NULL was seen
  bool null = false;            ///< `<=>`: a key with a NULL was seen (it matches a NULL probe key)

  /// Records one build key. A key with a NULL only sets `null`; callers drop it under `=`.
  void add(Kind kind, const Key& key);
  /// The union of two shards' content (the correct merge).
  void orWith(Kind kind, const Summary& o);
  /// The intersection (only the wrong strategy `and` uses it).
  void andWith(Kind kind, const Summary& o);
  /// May a probe key without a NULL match a build key summarised here?
  bool mayContain(Kind kind, const Key& key) const;
  /// Bytes a collector keeps for it: the keys' encodings (IN) or both bounds' (MinMax) and
  /// one for the flag; 0 for Bloom, whose digest is its bitmap.
  uint64_t bytes(Kind kind) const;
  /// "{1, 5}", "[0, 7]" or "empty", with " + NULL" when the flag is set.
  std::string describe(Kind kind) const;
  bool operator==(const Summary& o) const {
    return keys == o.keys && min == o.min && max == o.max && null == o.null;
  }
};

}  // namespace rfguard::rt
