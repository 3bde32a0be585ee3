#pragma once
// Join trees compared: an engine's, as its plan prints it, against the one
// rfguard's planner chooses for the same query (`rfguard compare --queries`,
// docs/join-order.md). A join tree is the plan's joins over its scans, every
// other operator left out; leaves are table names.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "ir/plan.h"

namespace rfguard {

/// `plan`'s join tree: `(probe JOIN build)`, a join type other than inner
/// named (`(a LEFT b)`), tables by name, a set operation `UNION(a, b)`, a
/// VALUES `values`.
std::string joinTreeText(const PlanNode& plan);

struct JoinTreeComparison {
  std::string engine, rfguard;  ///< the trees, as joinTreeText prints them
  int joins = 0;                ///< the engine's joins
  bool sameTree = false;        ///< the same joins of the same inputs, sides aside
  bool sameSides = false;       ///< ... and each join's build side the same too
  int sidesDiffer = 0;          ///< joins of the same tree whose sides are swapped
};

/// Compares the engine's join tree with rfguard's. A join and its mirror
/// with the inputs swapped (LEFT with RIGHT) are the same join; INNER and
/// CROSS differ only in a condition, which the tree leaves out.
JoinTreeComparison compareJoinTrees(const PlanNode& engine, const PlanNode& rfguard);

/// What `compare` prints of one comparison, `who` naming the engine: a line
/// (two spaces in) and, for another tree, both trees.
std::string joinTreeLines(const std::string& who, const JoinTreeComparison& t);
/// The comparison as `compare --format json` writes it.
nlohmann::ordered_json joinTreeJson(const JoinTreeComparison& t);

/// Comparisons counted over a run.
struct JoinTreeTally {
  size_t compared = 0, same = 0, sameSides = 0;
  void add(const JoinTreeComparison& t);
  /// `-- join trees: N compared with rfguard's, M the same (K with the same build sides)`.
  std::string summary() const;
  nlohmann::ordered_json json() const;
};

}  // namespace rfguard
