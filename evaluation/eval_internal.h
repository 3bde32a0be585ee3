#pragma once
// Internal to evaluation/: the evaluator's state, shared by evaluator.cpp (plan
// nodes) and eval_expr.cpp (expressions and filter contents).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>

#include "evaluation/evaluator.h"
#include "execution/filters.h"

namespace rfguard::rt {

/// Where column ids are looked up: a row with its column index, then the enclosing query's.
struct Ctx {
  const std::unordered_map<std::string, size_t>* index = nullptr;
  const Row* row = nullptr;
  const Ctx* outer = nullptr;
  const Row* row2 = nullptr;  ///< a join's right row: index positions from `split` on
  size_t split = SIZE_MAX;
  const Value& at(size_t i) const { return i < split ? (*row)[i] : (*row2)[i - split]; }
};

using Index = std::unordered_map<std::string, size_t>;

/// Lookup tables of one plan, kept across the databases of a search.
/// The calls the evaluator handles itself (the rest go to applyFunction).
enum class Form : uint8_t {
  Other,
  And,
  Or,
  Case,
  Coalesce,
  NullSafe,  ///< <=> and is_distinct_from
  IsNull,
  IsNotNull,
  Nullif,
  In,
  Concat,
  Row,
  Eq,  ///< the comparisons, strict (NULL when either side is); last: `form >= Eq`
  Ne,
  Lt,
  Le,
  Gt,
  Ge
};
Form formOf(const std::string& function);

/// (pointer, pointer) -> number, by open addressing over a power-of-two table:
/// the evaluator looks one up for every column a row reads and every call it
/// makes (a plan has tens of keys; std::unordered_map's prime modulo and node
/// chase were 3% of a bounded search).
class PointerPairMap {
 public:
  /// The slot for the pair; `fresh` when it was not there (its number is then to be set).
  size_t& at(const void* expr, const void* index, bool& fresh) {
    if ((used_ + 1) * 2 > slots_.size()) grow();
    for (size_t i = slot(expr, index);; i = (i + 1) & (slots_.size() - 1)) {
      Slot& s = slots_[i];
      if (s.expr == expr && s.index == index) return fresh = false, s.position;
      if (!s.expr) {
        ++used_;
        s.expr = expr;
        s.index = index;
        return fresh = true, s.position;
      }
    }
  }

 private:
  struct Slot {
    const void* expr = nullptr;
    const void* index = nullptr;
    size_t position = SIZE_MAX;
  };
  size_t slot(const void* expr, const void* index) const {
    uint64_t h = reinterpret_cast<uintptr_t>(expr) * 0x9E3779B97F4A7C15ull ^
                 reinterpret_cast<uintptr_t>(index) * 0xC2B2AE3D27D4EB4Full;
    return (h >> 32) & (slots_.size() - 1);
  }
  void grow() {
    std::vector<Slot> old(std::max<size_t>(64, slots_.size() * 2));
    old.swap(slots_);
    used_ = 0;
    bool fresh;
    for (const Slot& s : old)
      if (s.expr) at(s.expr, s.index, fresh) = s.position;
  }
  std::vector<Slot> slots_;
  size_t used_ = 0;
};

struct EvalCache {
  std::unordered_map<const PlanNode*, Index> output;  ///< a node's output ids
  std::unordered_map<const PlanNode*, Index> joined;  ///< a join's left + right ids
  std::unordered_map<const PlanNode*, std::pair<Index, std::vector<size_t>>>
      scans;  ///< all columns, pick
  /// A column reference resolved against an index: its position, or SIZE_MAX when absent.
  PointerPairMap resolved;
  std::unordered_map<const Expr*, Value> literals;  ///< parsed literal values
  PointerPairMap forms;  ///< calls, classified once: (call, nullptr) -> its Form
  /// Projections that output their child's columns in its order.
  std::unordered_map<const PlanNode*, bool> identity;
  /// A join whose whole condition is `column = column`, one column of each side:
  /// the left's position in the left row and the right's in the right row
  /// (SIZE_MAX, SIZE_MAX for any other condition).
  std::unordered_map<const PlanNode*, std::pair<size_t, size_t>> columnEq;
  /// A join's `=` conjuncts as (left key, right key) pairs the hash join looks up by.
  std::unordered_map<const PlanNode*, std::vector<std::pair<const Expr*, const Expr*>>> equiKeys;
  /// Per join: the joins of its probe side whose filters are consumed in its
  /// build side (sideways), innermost first: published before the build side runs.
  /// With whether any of those filters blocks.
  std::unordered_map<const PlanNode*, std::vector<std::pair<const PlanNode*, bool>>> sideways;
  /// The ids of the plan's non-blocking filters, found at the first scan that asks.
  std::optional<std::set<int>> nonBlocking;
};

/// 2^53: every integer of smaller magnitude is a double exactly.
inline constexpr double kExactDoubles = 9007199254740992.0;

/// A producer's published content for one filter. An equality filter is the
/// runtime's own filter (execution/filters.h), built by its FilterBuilder from the
/// evaluated build side: the bounded checker judges the filters users would ship.
struct FilterState {
  const RuntimeFilter* filter = nullptr;
  /// The value as a key: an integral double below 2^53 as the integer (1.0 and 1
  /// are one key). Below 2^53 that is exact: compare() finds an integer and a
  /// double equal exactly when the integer is the double's value.
  static Value keyOf(const Value& v);
  std::optional<Filter> built;  ///< `=` / `<=>` filters: IN (exact content) or MinMax
  /// IN content: the numeric keys of magnitude 2^53 or more, as doubles, sorted,
  /// those that were integers and those that were doubles apart. compare() holds
  /// an integer and a double equal when the integer rounds to the double, which
  /// at that magnitude is more than one integer: the key look-up alone would drop
  /// a probe that the join matches (an integer 10^16 + 1 against a double 1e16).
  std::vector<double> bigFromInts, bigFromDoubles;
  /// Records an IN key for the look-ups past 2^53 (publish sorts the lists).
  void noteBigKey(const Value& key);
  std::optional<Value> min, max;  ///< scalar filters' bounds
  bool empty = true;              ///< D had no non-NULL value
  bool topN = false;
  /// Content::Workers: built per worker (localFilterPerWorker); a key passes on
  /// the worker it is shuffled to only.
  bool perWorker = false;
  bool topNAll = true;             ///< TopN: fewer rows than the limit, keep everything
  std::optional<Value> threshold;  ///< TopN: the last kept key (NULL when it is NULL)
  bool accept(const Value& v) const;
};

class Evaluator {
 public:
  Evaluator(const Database& db, const EvalOptions& o) : db_(db), opt_(o), cache_(o.cache.get()) {
    if (!cache_) {  // no shared tables: this evaluation's own
      own_ = std::make_unique<EvalCache>();
      cache_ = own_.get();
    }
  }
  std::optional<Relation> node(const PlanNode& n, const Ctx* outer);
  std::optional<Value> expr(const Expr& e, const Ctx& ctx);
  /// A column's value in its row; nullptr (with `error`) when it is not in scope.
  const Value* column(const Expr& e, const Ctx& ctx);
  /// The value of `e` without copying a column's: in its row, or computed into
  /// `held`; nullptr on an error.
  const Value* operand(const Expr& e, const Ctx& ctx, std::optional<Value>& held);
  std::optional<Relation> aggregateOrWindow(const PlanNode& n, const Ctx* outer);
  // One operator each (eval_operators.cpp).
  std::optional<Relation> scan(const PlanNode& n, const Ctx* outer);
  std::optional<Relation> filter(const PlanNode& n, const Ctx* outer);
  std::optional<Relation> project(const PlanNode& n, const Ctx* outer);
  std::optional<Relation> sort(const PlanNode& n, const Ctx* outer);
  std::optional<Relation> limit(const PlanNode& n, const Ctx* outer);
  std::optional<Relation> setOperation(const PlanNode& n, const Ctx* outer);
  std::optional<Relation> values(const PlanNode& n, const Ctx* outer);
  std::optional<Relation> join(const PlanNode& n, const Ctx* outer);  ///< eval_join.cpp
  /// EvalCache::sideways of `join`, found once.
  const std::vector<std::pair<const PlanNode*, bool>>& sidewaysProducers(const PlanNode& join);
  /// Whether `sub` can run now: every filter it waits for is published or made inside it.
  bool readyToRun(const PlanNode& sub);
  bool truth(const Expr& e, const Ctx& ctx, bool* isTrue);  ///< false on error
  std::string error;

  /// Publishes the contents of the filters `producer` builds from its input
  /// `input` (a join's build side, 1; a set operation's input) from its rows.
  void publish(const PlanNode& producer, size_t input, const Relation& build, const Ctx* outer);
  /// Publishes a TopN filter's threshold from the evaluated, sorted input.
  void publishTopN(const RuntimeFilter& f, const PlanNode& limit, const Relation& sorted);
  /// The rows a LIMIT below the root returns: its window, where the window cuts a
  /// tie group, the group's sub-bag the next tie choice names (eval_ties.cpp).
  bool window(const PlanNode& limit, const std::vector<Row>& sorted, size_t from, size_t to,
              std::vector<Row>& out);
  /// Orders the peers at positions [a, b) of a window partition's order `pos`
  /// (canonically sorted: copies of a row adjacent) as the next tie choice names:
  /// one of their distinct orders, for a function whose values depend on it.
  void orderPeers(std::vector<size_t>& pos, size_t a, size_t b,
                  const std::function<const Row&(size_t)>& rowAt);
  /// A tie cut with `alternatives` answers (at most kTieAlternatives, `more` when
  /// there were more): the one the next choice names, 0 (canonical) by default.
  size_t chooseTie(size_t alternatives, bool more);
  /// Tie groups of a LIMIT's sorted input (TopK::group); false on an evaluation error.
  bool ties(const PlanNode& limit, const std::vector<Row>& sorted, std::vector<size_t>& group);
  /// Tie groups of a Sort's output (rows equal on every sort key); false on an error.
  bool sortGroups(const PlanNode& sort, const std::vector<Row>& sorted, std::vector<size_t>& group);
  const Index& indexFor(const PlanNode& n);
  const Index& joinIndexFor(const PlanNode& join);
  /// True when `project` outputs its child's columns (`index`), in their order.
  bool identityProject(const PlanNode& project, const Index& index);
  /// A non-blocking filter's consumer does not wait for it (RuntimeFilter::nonBlocking).
  bool nonBlocking(int id);
  bool applies(int id) const {
    return opt_.applyFilters && (opt_.only.empty() || opt_.only.count(id));
  }

  const Database& db_;
  const EvalOptions& opt_;
  /// Published filters by id, in the order they were published (a plan has a few).
  std::vector<std::pair<int, FilterState>> filters_;
  /// Where filter `id` is in filters_, or SIZE_MAX while it is not published.
  size_t published(int id) const {
    for (size_t i = 0; i < filters_.size(); ++i)
      if (filters_[i].first == id) return i;
    return SIZE_MAX;
  }
  /// A fresh state for `f` among the published filters (replacing what it published
  /// before), to be filled in place: called once its content is evaluated.
  FilterState& publishing(const RuntimeFilter& f) {
    size_t i = published(f.id);
    if (i != SIZE_MAX) {
      filters_[i].second = FilterState{};
    } else {
      if (filters_.empty()) filters_.reserve(4);  // moving states as it grows cost more
      i = filters_.size();
      filters_.emplace_back(f.id, FilterState{});
    }
    filters_[i].second.filter = &f;
    return filters_[i].second;
  }
  std::set<int> disabled_;  ///< TopN filters being computed
  EvalCache* cache_ = nullptr;
  uint64_t dropped_ = 0;
  const PlanNode* root_ = nullptr;  ///< the plan's root, whose LIMIT reports its ties
  const PlanNode* orderSort_ =
      nullptr;  ///< the Sort that fixes the result's order (Relation::order)
  const std::vector<size_t>* choices_ = nullptr;  ///< tie choices to follow, in order met
  std::vector<size_t> arities_;                   ///< alternatives at each tie cut met
  bool tiesCapped_ = false;                       ///< a cut had more alternatives than it offers
  std::unique_ptr<EvalCache> own_;
};

}  // namespace rfguard::rt
