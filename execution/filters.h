#pragma once
// Runtime filters as an executor applies them: IN (exact), Bloom, MinMax and
// TOP, built from a build side's keys with resource limits, with the NULL
// semantics of `=` (NULL never matches) and `<=>` (NULL matches NULL).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "execution/bloom.h"
#include "execution/key.h"
#include "ir/runtime_filter.h"

namespace rfguard::rt {

/// What a published filter is.
enum class Kind { Top, In, Bloom, MinMax };
const char* kindName(Kind k);
/// The runtime kind that builds a planned kind (ir/runtime_filter.h): the one
/// place the two enums meet. A bitset is an exact set of integers: IN.
Kind runtimeKind(FilterKind planned);

/// A finished filter: accept() never rejects a key of the build side it summarises
/// (for `=`, non-NULL keys; for `<=>`, every key).
class Filter {
 public:
  /// TOP: accepts everything (fail-open).
  static Filter top();
  Kind kind() const { return kind_; }
  bool nullSafe() const { return nullSafe_; }
  /// May a probe row with this key match a build row?
  bool accept(KeyView key) const;
  /// The same for a one-column key, without building a Key.
  bool accept(const Datum& one) const;
  /// Bytes the filter holds.
  uint64_t bytes() const;
  std::string describe() const;

 private:
  friend class FilterBuilder;
  Kind kind_ = Kind::Top;
  bool nullSafe_ = false;  ///< `<=>`: NULL is a value
  /// IN: encoded keys, sorted and distinct: one allocation for at most
  /// kMaxInFilterKeys keys, looked up by binary search.
  std::vector<std::string> in_;
  /// IN whose keys are all one integer column (or NULL): the integers sorted and
  /// distinct, looked up without encoding the probe key; `in_` is then empty.
  std::vector<int64_t> ints_;
  bool intIn_ = false;
  HashConfig config_;
  Bitmap bits_;
  bool nullKey_ = false;          ///< a NULL build key (`<=>`): demo-linear Bloom and integer IN
  std::vector<Datum> min_, max_;  ///< per column; monostate when the column saw no value
  std::vector<bool> columnNull_;  ///< per column: a NULL was seen (`<=>`)
};

/// Resource limits: IN up to `maxInKeys` distinct keys, then Bloom up to
/// `maxBloomBytes`, then MinMax (ordered, non-floating columns), else TOP.
struct FilterLimits {
  size_t maxInKeys = kMaxInFilterKeys;
  uint64_t maxBloomBytes = 1 << 20;
  double fpp = 0.01;
  std::optional<HashConfig> bloom;  ///< a fixed mapping (demo-linear); else split-block by size
};

/// The states of docs/design.md section 1's resource model.
enum class BuildState { Collecting, Ready, TimedOut, Failed };
const char* buildStateName(BuildState s);

/// Collects build keys and finishes into a filter, degrading by the limits.
class FilterBuilder {
 public:
  FilterBuilder(Kind preferred, bool nullSafe, FilterLimits limits = {});
  /// Adds one build row's key (only while collecting).
  void add(KeyView key);
  /// Adds a one-column key. Every key of one build has the same number of columns.
  void add(const Datum& one);
  /// Room for `keys` more keys of `width` columns.
  void reserve(size_t keys, size_t width = 1) { columns_.reserve(columns_.size() + keys * width); }
  /// The build side is complete: READY with the preferred kind, or a degraded one.
  const Filter& finish();
  /// finish(), and the filter handed over (moved out) to a caller that keeps it
  /// and drops the builder; the builder holds TOP after it.
  Filter release();
  /// The build did not complete in time: TOP.
  const Filter& timeout();
  /// The build failed: TOP for readers that still run; the query fails.
  const Filter& fail();
  BuildState state() const { return state_; }
  const Filter& filter() const { return filter_; }
  /// "in", "in -> bloom (2000 keys > 1024)", ...: how the kind was chosen.
  const std::string& degradation() const { return why_; }

 private:
  Kind preferred_;
  bool nullSafe_;
  FilterLimits limits_;
  BuildState state_ = BuildState::Collecting;
  /// The keys' columns, key after key (`width_` each): no allocation per key.
  std::vector<Datum> columns_;
  size_t width_ = 0;
  size_t count_ = 0;  ///< keys added
  KeyView key(size_t i) const { return KeyView(columns_).subspan(i * width_, width_); }
  void clear();
  Filter build();  ///< the filter of the keys collected (state: collecting)
  Filter filter_;
  std::string why_;
};

}  // namespace rfguard::rt
