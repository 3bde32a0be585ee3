#pragma once
// Internal to engines/starrocks/: the plan text StarRocks's planner tests print
// (fe/fe-core/src/test/resources/sql/**: `[sql]` then `[fragment statistics]`
// or `[fragment]`, up to `[end]`). A plan is a list of fragments, each a tree
// of numbered operators: `13:HASH JOIN` with its properties on `|  ` lines,
// its inputs below it: every input but the last on a `|----` branch, the last
// at the operator's own indentation. Fragments meet at exchanges: a fragment's
// `OutPut Exchange Id: 12` feeds the operator `12:EXCHANGE` of another.
#include <memory>
#include <string>
#include <vector>

#include "ir/diagnostics.h"

namespace rfguard::starrocks_import {

/// One property line of an operator (`join op: INNER JOIN (BROADCAST)`).
struct Prop {
  int line = 0;
  std::string text;  ///< without the tree's prefix
};

/// One operator.
struct PlanOp {
  int id = 0;        ///< StarRocks's node id (`13` of `13:HASH JOIN`)
  std::string kind;  ///< `HASH JOIN`, `OlapScanNode`, `AGGREGATE (merge finalize)`
  int line = 0, col = 0;
  std::vector<Prop> props;
  /// Its inputs in StarRocks's order: the probe side of a join first.
  std::vector<std::unique_ptr<PlanOp>> inputs;

  /// The text after `key` on the first property line that starts with it
  /// (`join op: ` -> `INNER JOIN (BROADCAST)`); "" when there is none.
  std::string value(const std::string& key) const;
  /// The lines after a property line `key` that start with `- ` or `N <-> `
  /// (a list property: runtime filters, a projection's columns).
  std::vector<Prop> list(const std::string& key) const;
};

/// One fragment.
struct Fragment {
  int id = 0;  ///< `PLAN FRAGMENT 2(F07)` -> 2
  int line = 0;
  int outExchange = -1;  ///< the exchange it feeds (`OutPut Exchange Id: 12`), -1 for none
  std::unique_ptr<PlanOp> root;
};

/// One case of a test file: the query's text and its plan.
struct PlanCase {
  std::string name;  ///< the file stem, with its index when the file holds several
  std::string sql;   ///< the `[sql]` section, when there is one
  int line = 0;      ///< where its plan section starts
  std::vector<Fragment> fragments;
};

/// `s` without its leading and trailing blanks.
std::string trim(const std::string& s);

/// The deepest operator tree read; deeper is an error, not a stack overflow.
inline constexpr int kMaxPlanDepth = 1000;

/// True when `text` reads as a StarRocks plan: a `PLAN FRAGMENT n` line.
bool looksLikeStarRocksPlan(const std::string& text);

/// Reads every case of `text`. False, with errors at file:line:col, when a
/// plan does not fit the shape above.
bool readPlanDocument(const std::string& text, const std::string& file, std::vector<PlanCase>& out,
                      Diagnostics& diags);

}  // namespace rfguard::starrocks_import
