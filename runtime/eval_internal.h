#pragma once
// Internal to runtime/: the evaluator's state, shared by evaluator.cpp (plan
// nodes) and eval_expr.cpp (expressions and filter contents).
#include <optional>
#include <unordered_map>

#include "runtime/evaluator.h"

namespace rfguard::rt {

/// Where column ids are looked up: a row with its column index, then the enclosing query's.
struct Ctx {
  const std::unordered_map<std::string, size_t>* index = nullptr;
  const Row* row = nullptr;
  const Ctx* outer = nullptr;
};

/// A producer's published content for one filter.
struct FilterState {
  const RuntimeFilter* filter = nullptr;
  std::set<std::string> keys;  ///< valueKey of the accepted non-NULL values
  bool acceptNull = false;
  std::optional<Value> min, max;  ///< MinMax content, scalar and TopN thresholds
  bool empty = true;              ///< D had no non-NULL value
  bool topN = false;
  bool topNAll = true;             ///< TopN: fewer rows than the limit, keep everything
  std::optional<Value> threshold;  ///< TopN: the last kept key (NULL when it is NULL)
  bool accept(const Value& v) const;
};

class Evaluator {
 public:
  Evaluator(const Database& db, const EvalOptions& o) : db_(db), opt_(o) {}
  std::optional<Relation> node(const PlanNode& n, const Ctx* outer);
  std::optional<Value> expr(const Expr& e, const Ctx& ctx);
  std::optional<Relation> aggregateOrWindow(const PlanNode& n, const Ctx* outer);
  bool truth(const Expr& e, const Ctx& ctx, bool* isTrue);  ///< false on error
  std::string error;

  /// Publishes the contents of `join`'s filters from its evaluated build side.
  void publish(const PlanNode& join, const Relation& build, const Ctx* outer);
  /// Publishes a TopN filter's threshold from the evaluated, sorted input.
  void publishTopN(const RuntimeFilter& f, const PlanNode& limit, const Relation& sorted);
  bool applies(int id) const {
    return opt_.applyFilters && (opt_.only.empty() || opt_.only.count(id));
  }

  const Database& db_;
  const EvalOptions& opt_;
  std::map<int, FilterState> filters_;
  std::set<int> disabled_;  ///< TopN filters being computed
};

std::unordered_map<std::string, size_t> indexOf(const std::vector<std::string>& cols);

}  // namespace rfguard::rt
