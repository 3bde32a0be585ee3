#pragma once
// Runtime filters as the plan carries them: descriptors on producing joins,
// targets on consuming scans.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/cmp_op.h"
#include "ir/expr.h"

namespace rfguard {

/// How a filter summarises the build domain.
enum class FilterKind { Bloom, In, MinMax, Bitset };

/// IN filters hold up to this many distinct build keys; beyond it the planner
/// chooses Bloom and the runtime's FilterBuilder degrades to Bloom (one number
/// for both, so that what is planned is what would be built).
inline constexpr size_t kMaxInFilterKeys = 1024;

/// Where the filter is merged: within one worker, or across workers.
enum class FilterScope { Local, Global };

/// A runtime filter produced by a join for its probe side.
struct RuntimeFilter {
  int id = 0;                ///< unique in the plan
  ExprPtr build;             ///< over the build (right) child's columns
  ExprPtr probe;             ///< over the probe (left) child's columns
  CmpOp op = CmpOp::Eq;      ///< `=`, `<=>`, or a range operator for scalar / TopN filters
  bool nullAllowed = false;  ///< the filter accepts NULL when the build side has NULL (<=>)
  /// Every NULL probe key passes, whatever the build side holds: the `OR key IS
  /// NULL` fix engines apply where NULL rows must survive (plan JSON "accept_null").
  bool acceptNull = false;
  std::vector<FilterKind> kinds;
  FilterScope scope = FilterScope::Global;
  /// Its consumers do not wait for it: a scan starts at once and applies the
  /// filter only if it has arrived (Doris' non-blocking decoupled filters,
  /// plan JSON "non_blocking"). Rows are the same either way; only the wait
  /// graph differs: a consumer of a non-blocking filter waits on nothing.
  bool nonBlocking = false;
  /// No probe key: a filter of the values `build` takes on the build side, for
  /// the other side of joins above only (CopySideways), never the producer's
  /// probe side: Doris' decoupled filter from a build column its join does not
  /// compare (TPC-H q18's `o_custkey -> c_custkey`). `probe` is `build` then;
  /// plan JSON leaves "probe" out.
  bool besideOnly = false;
};

/// True when a NULL probe key can match through this filter's producer: a
/// `<=>` filter (whatever its flags say), one marked null-allowing, or a TopN
/// threshold that lets NULLs sort first. Every hook that asks "may a row whose
/// key became NULL (a lost outer-join match) still match?" asks here, so that a
/// `<=>` filter marked only `accept_null` cannot slip past the NULL rules.
/// `accept_null` on an `=` filter does not count: the producer's `=` still
/// rejects the NULL key, so a NULL-extended row it lets through is dropped there.
bool matchesNullKeys(const RuntimeFilter& f);

/// A consumer of a runtime filter at a scan.
struct FilterTarget {
  int id = 0;      ///< the filter's id
  ExprPtr target;  ///< over the scan's own columns
};

/// Why a filter of kind `k` cannot apply to keys of type `t`, "" when it can:
/// MinMax needs an ordered type and never applies to DOUBLE/REAL (NaN has no
/// place in an order), a bitset needs integers. The planner, the hooks and the
/// verifier all ask here.
std::string kindMisfit(FilterKind k, const Type& t);
/// The first kind of `f` that cannot apply to keys of type `t`, "" when all can
/// (a composite key's MinMax compares tuples, so only its other kinds are asked).
std::string kindMisfit(const RuntimeFilter& f, const Type& t);
/// Why comparison `op` cannot be filtered on keys of type `t`, "" when it can:
/// `<=>` on DOUBLE/REAL, where NaN and -0.0 make null-safe hashing unreliable.
std::string compareMisfit(CmpOp op, const Type& t);

/// "bloom", "in", "min_max", "bitset".
const char* kindName(FilterKind k);
/// Parses a kind name.
std::optional<FilterKind> parseKind(std::string_view name);
/// "local" or "global".
const char* scopeName(FilterScope s);
/// One line: "RF1 <- b.k (=, bloom+min_max, global)".
std::string filterToString(const RuntimeFilter& f);
/// One line: "RF1 -> a.k".
std::string targetToString(const FilterTarget& t);

}  // namespace rfguard
