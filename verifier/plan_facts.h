#pragma once
// Internal to verifier/: an index of one plan's producers, consumers and subtrees.
#include <memory_resource>
#include <span>
#include <unordered_map>
#include <vector>

#include "ir/plan.h"
#include "verifier/findings.h"

namespace rfguard {

/// A filter as its producer (a join, a LIMIT for TopN filters, an INTERSECT or
/// EXCEPT for a filter of one input's values into another) declares it.
struct Producer {
  const PlanNode* node = nullptr;
  const RuntimeFilter* filter = nullptr;
};

/// A filter as one node applies it.
struct Consumer {
  const PlanNode* node = nullptr;
  const FilterTarget* target = nullptr;
};

/// Subtree intervals and the producers and consumers of one plan, the plans of
/// its subquery expressions included: a subquery plan is walked after its
/// holder's children, as a subtree of the holder.
class PlanFacts {
 public:
  explicit PlanFacts(const PlanNode& root);

  /// Every producer, by filter id, those of one id in plan order.
  std::vector<Producer> producers;
  std::vector<Consumer> consumers;  ///< in plan order

  /// The producers of filter `id` (more than one is a finding), in plan order.
  std::span<const Producer> producersOf(int id) const;
  /// The indexes in `consumers` of filter `id`'s consumers, in plan order.
  std::span<const size_t> consumersOf(int id) const;

  /// True when `inner` is `outer` or below it.
  bool within(const PlanNode* outer, const PlanNode* inner) const;
  /// The subtree the filter may be consumed in: a join's left child, a TopN's
  /// sort input, the input of a set operation its probe key reads (null: none).
  const PlanNode* probeRoot(const Producer& p) const;
  /// The subtree the filter waits for: a join's right child, the input of a
  /// set operation its build key reads; none for TopN filters.
  const PlanNode* buildRoot(const Producer& p) const;
  /// True when `n` is the root of a subquery plan held in an expression of its
  /// parent (parent() is then that node, not a node `n` is a child of).
  bool isSubqueryRoot(const PlanNode* n) const;
  /// The parent of `n`; null at the root.
  const PlanNode* parent(const PlanNode* n) const { return span(n).parent; }
  /// The ids of the filters whose producers' build subtrees hold consumer `i`
  /// (those filters wait for what it consumes), nearest producer first.
  std::span<const int> waitingOn(size_t i) const {
    return {waitIds_.data() + waitRanges_[i].first, waitRanges_[i].second};
  }
  /// The nodes from `from` down to `to` (inclusive both); `to` must be within `from`.
  std::pmr::vector<const PlanNode*> path(
      const PlanNode* from, const PlanNode* to,
      std::pmr::memory_resource* mem = std::pmr::get_default_resource()) const;

 private:
  void visit(const PlanNode& n, const PlanNode* parent, int depth, int& clock);
  struct Span {
    const PlanNode* node = nullptr;
    int tin = 0, tout = 0;
    int depth = 0;  ///< edges from the root
    const PlanNode* parent = nullptr;
    bool subqueryRoot = false;  ///< the root of a subquery plan held by `parent`
  };
  /// The span of a node of the plan.
  const Span& span(const PlanNode* n) const;
  std::vector<Span> spans_;       ///< one per node, sorted by node address once built
  std::vector<size_t> byFilter_;  ///< indexes in `consumers`, by filter id, then plan order
  std::vector<int> building_;     ///< while visiting: the filters whose build side holds the node
  std::vector<int> waitIds_;      ///< waitingOn() of every consumer, one after another
  std::vector<std::pair<size_t, size_t>> waitRanges_;  ///< per consumer: offset, count
};

/// A closure finding about producer `p`: "RF<id> at <node>: <msg>".
Finding producerFinding(const Producer& p, const char* code, const std::string& msg);
/// The closure check of an INTERSECT's, EXCEPT's or UNION's own filter
/// (closure_setop.cpp): the inputs, positions and NULLs it may be built over.
void checkSetOpProducer(const Producer& p, std::vector<Finding>& out);

/// Closure findings: ids, positions, producer sources, kinds, scans (docs/design.md section 5).
/// Sets ok[i] for each consumer i whose filter, position and target are sound
/// enough for the safety search.
void checkClosure(const PlanFacts& facts, std::vector<Finding>& out, std::vector<bool>& ok);

/// The expressions one producer's filter may arrive as at each node of its probe
/// subtree, every step justified by the sound hooks (built once per producer).
class Derivations {
 public:
  Derivations(const PlanFacts& facts, const Producer& p);
  /// The derived expression equal to `target` at `node`, or null.
  const Expr* arrivesAs(const PlanNode* node, const ExprPtr& target) const;
  /// Every expression the filter arrives at `node` as (none: null).
  const std::vector<ExprPtr>* reached(const PlanNode* node) const {
    auto it = reached_.find(node);
    return it == reached_.end() ? nullptr : &it->second;
  }

 private:
  std::unordered_map<const PlanNode*, std::vector<ExprPtr>> reached_;
};

/// Safety findings: a consumer without a derivation that every step justifies.
/// `known` (the producer's Derivations) answers the safe cases at once; the
/// search along the consumer's path runs only to explain a finding.
void checkSafety(const PlanFacts& facts, const Consumer& c, std::vector<Finding>& out,
                 const Derivations* known = nullptr);

}  // namespace rfguard
