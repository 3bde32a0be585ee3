// Plan nodes of the reference evaluator.
#include "evaluation/evaluator.h"

#include <xxhash.h>

#include <algorithm>
#include <functional>

#include "evaluation/eval_internal.h"

namespace rfguard::rt {

const char* contentName(Content c) {
  switch (c) {
    case Content::Exact:
      return "exact";
    case Content::FalsePositive:
      return "false-positive";
    case Content::MinMax:
      return "min-max";
    case Content::Workers:
      return "per-worker local";
  }
  return "exact";
}

size_t workerOfKey(const Value& key) {
  if (isNull(key)) return 0;
  const Value k = FilterState::keyOf(key);
  if (const auto* i = std::get_if<int64_t>(&k))
    return static_cast<size_t>(((*i % static_cast<int64_t>(kWorkers)) + kWorkers) % kWorkers);
  const std::string e = encode(KeyView(&k, 1));
  return static_cast<size_t>(XXH64(e.data(), e.size(), 0) % kWorkers);
}

bool localFilterPerWorker(const PlanNode& join, const RuntimeFilter& f) {
  return join.op == PlanOp::Join && f.scope == FilterScope::Local && isEquality(f.op) &&
         (join.distribution == JoinDistribution::Shuffle ||
          join.distribution == JoinDistribution::Unknown);
}

std::vector<Row> sortedBag(std::vector<Row> rows) {
  std::sort(rows.begin(), rows.end(), rowLess);
  return rows;
}

std::optional<Relation> Evaluator::node(const PlanNode& n, const Ctx* outer) {
  switch (n.op) {
    case PlanOp::Scan:
      return scan(n, outer);
    case PlanOp::Filter:
      return filter(n, outer);
    case PlanOp::Project:
      return project(n, outer);
    case PlanOp::Join:
      return join(n, outer);
    case PlanOp::Aggregate:
    case PlanOp::Window:
      return aggregateOrWindow(n, outer);
    case PlanOp::Sort:
      return sort(n, outer);
    case PlanOp::Limit:
      return limit(n, outer);
    case PlanOp::Union:
    case PlanOp::Intersect:
    case PlanOp::Except:
      return setOperation(n, outer);
    case PlanOp::Values:
      return values(n, outer);
  }
  return std::nullopt;
}

bool evaluate(const PlanNode& root, const Database& db, const EvalOptions& options, Relation& out,
              std::string& error) {
  Evaluator e(db, options);
  e.root_ = &root;
  // The Sort whose order the result keeps: below projections and at most one LIMIT.
  const PlanNode* spine = &root;
  while (spine->op == PlanOp::Project) spine = spine->children[0].get();
  if (spine->op == PlanOp::Limit) spine = spine->children[0].get();
  if (spine->op == PlanOp::Sort) e.orderSort_ = spine;
  e.choices_ = &options.tieChoices;
  auto r = e.node(root, nullptr);
  if (!r) {
    error = e.error.empty() ? "evaluation failed" : e.error;
    return false;
  }
  out = std::move(*r);
  out.dropped = e.dropped_;
  out.tieArities = std::move(e.arities_);
  out.tiesCapped = e.tiesCapped_;
  return true;
}

}  // namespace rfguard::rt
