#pragma once
// Plan nodes of the IR. A plan is a tree; every node is owned by one parent.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "ir/column_id.h"
#include "ir/expr.h"
#include "ir/join_type.h"
#include "ir/runtime_filter.h"

namespace rfguard {

/// The operators a plan node can be.
enum class PlanOp {
  Scan,
  Filter,
  Project,
  Join,
  Aggregate,
  Window,
  Sort,
  Limit,
  Union,
  Intersect,
  Except,
  Values  // the last: kPlanOps counts them
};
/// How many kinds of node there are.
inline constexpr size_t kPlanOps = static_cast<size_t>(PlanOp::Values) + 1;

/// How a join's inputs meet across workers, where the plan says (an engine's
/// plan prints it; the planner records what it assumed). A local runtime filter
/// holds one worker's build rows only: sound where each worker's build rows
/// cover its probe rows (broadcast, colocated, bucket shuffle), not across a
/// shuffle.
enum class JoinDistribution { Unknown, Broadcast, Shuffle, Colocated, BucketShuffle };
/// "unknown", "broadcast", "shuffle", "colocated", "bucket_shuffle".
const char* joinDistributionName(JoinDistribution d);
/// Parses a distribution name (not "unknown": absent means that).
std::optional<JoinDistribution> parseJoinDistribution(std::string_view name);

/// One output column of a node.
struct Column {
  ColumnId id;  ///< unique in the plan: "alias.col"
  Type type;
  bool nullable = true;
};

/// The ids of a vector of columns, as views into it: valid while that vector
/// is the one it was built from (same storage, same size) and unchanged.
struct ColumnIndex {
  const Column* base = nullptr;
  size_t size = 0;
  /// Open addressing over a power of two, twice the columns: 1 + a column's
  /// position, 0 for an empty slot. One allocation per index (a hash set
  /// allocated a node per column, and wide joins are indexed often).
  std::vector<uint32_t> slots;
  bool indexes(const std::vector<Column>& cs) const {
    return base == cs.data() && size == cs.size();
  }
  /// Indexes `cs`, which must not move or change while the index is used.
  void build(const std::vector<Column>& cs);
  bool has(std::string_view id) const;
};

/// An expression with the output column id it defines.
struct NamedExpr {
  std::string name;
  ExprPtr expr;
};

/// One sort key.
struct SortKey {
  ExprPtr expr;
  bool ascending = true;
  bool nullsFirst = false;  ///< explicit or defaulted: NULLs sort last ascending, first descending
};

/// An aggregate call of an Aggregate node.
struct AggCall {
  std::string name;           ///< output column id
  std::string func;           ///< count, sum, avg, min, max
  std::vector<ExprPtr> args;  ///< empty for count(*)
  bool distinct = false;
  Type type;
};

/// One end of a window frame.
struct FrameBound {
  enum class Kind { UnboundedPreceding, Preceding, CurrentRow, Following, UnboundedFollowing };
  Kind kind = Kind::CurrentRow;
  int64_t offset =
      0;  ///< rows (ROWS) or ORDER BY value distance (RANGE), for Preceding / Following
};

/// The largest frame offset rfguard reads (SQL, plan JSON, engines' plans).
inline constexpr int64_t kMaxFrameOffset = 1000000000;
/// Digits as a frame offset, or nothing when they are no integer in 0..kMaxFrameOffset.
std::optional<int64_t> parseFrameOffset(const std::string& digits);

/// The rows of its partition a windowed aggregate sees from each row: ROWS
/// counts positions in the ORDER BY order, RANGE compares ORDER BY values
/// (CURRENT ROW: the row's peers).
struct WindowFrame {
  bool rows = false;  ///< ROWS, else RANGE
  FrameBound start{FrameBound::Kind::UnboundedPreceding, 0};
  FrameBound end{FrameBound::Kind::CurrentRow, 0};
};

/// The frame in SQL, as PostgreSQL, SQLite and DuckDB spell it:
/// "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW".
std::string frameSql(const WindowFrame& frame);
/// Why `frame` is not a valid frame over `orderBy` (PostgreSQL's rules), or
/// nothing when it is.
std::optional<std::string> frameProblem(const WindowFrame& frame,
                                        const std::vector<SortKey>& orderBy);
/// Names of frame bounds in plan JSON: "unbounded_preceding", "preceding",
/// "current_row", "following", "unbounded_following".
std::string frameBoundName(FrameBound::Kind kind);
std::optional<FrameBound::Kind> parseFrameBound(const std::string& name);

/// A window function of a Window node.
/// A scan's FOREIGN KEY: its `columns` (ids of the scan) reference
/// `refColumns` (bare names) of table `refTable` (catalog.h's ForeignKey).
struct ScanForeignKey {
  std::vector<ColumnId> columns;
  std::string refTable;
  std::vector<std::string> refColumns;
};

struct WindowCall {
  std::string name;  ///< output column id
  std::string func;  ///< rank, row_number, or an aggregate
  std::vector<ExprPtr> args;
  std::vector<ExprPtr> partitionBy;
  std::vector<SortKey> orderBy;
  Type type;
  /// An aggregate's frame; absent: SQL's default (the whole partition, or with
  /// ORDER BY, RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW).
  std::optional<WindowFrame> frame;
};

struct PlanNode;
/// Plans are trees of shared nodes; rules rewrite them in place.
using PlanPtr = std::shared_ptr<PlanNode>;

/// One plan node. Fields are used according to `op`.
struct PlanNode {
  PlanOp op = PlanOp::Values;
  int id = 0;  ///< unique in the plan, assigned by assignIds()
  std::vector<PlanPtr> children;
  SourceLoc loc;  ///< where the construct starts in the SQL text

  // Scan
  std::string table;                  ///< base table name
  std::string alias;                  ///< unique in the plan
  std::vector<Column> tableColumns;   ///< every column of the table, as "alias.col"
  std::vector<ColumnId> scanColumns;  ///< ids of the columns the query needs
  bool runtimeFilterAllowed = true;
  std::optional<long long> tableRows;  ///< the table's row-count statistic, if known
  std::string distributionKey;         ///< the table's hash distribution column, if any
  /// Column id -> distinct values, where known, in the table's column order
  /// (the ids shared with tableColumns); columnNdvOf looks one up.
  std::vector<std::pair<ColumnId, long long>> columnNdv;
  std::vector<ColumnId> primaryKey;               ///< ids of the table's primary-key columns
  std::vector<std::vector<ColumnId>> uniqueKeys;  ///< the table's UNIQUE column sets, as ids
  std::vector<ScanForeignKey> foreignKeys;        ///< the table's FOREIGN KEYs
  std::vector<ExprPtr> checks;  ///< the table's CHECK constraints, over tableColumns' ids

  std::vector<FilterTarget> runtimeFilterTargets;  ///< filters this scan applies

  // Filter (predicate) and Join (condition)
  ExprPtr predicate;
  JoinType joinType = JoinType::Inner;
  JoinDistribution distribution = JoinDistribution::Unknown;  ///< Join: how its inputs meet
  std::vector<RuntimeFilter> runtimeFilters;  ///< filters this join produces for its probe side

  // Project: output columns; Aggregate: group keys
  std::vector<NamedExpr> exprs;

  // Aggregate
  std::vector<AggCall> aggs;
  std::vector<std::vector<int>> groupingSets;  ///< indexes into exprs; empty: one set of all keys

  // Window
  std::vector<WindowCall> windows;

  // Sort
  std::vector<SortKey> sortKeys;

  // Limit
  std::optional<long long> limit;
  long long offset = 0;
  /// An engine's plan printed neither the count nor the offset (DuckDB's
  /// STREAMING_LIMIT): the node may cut any rows, though it carries no numbers.
  bool unprinted = false;

  // Union / Intersect / Except (distinct unless `all`) and Values
  bool all = false;
  std::vector<std::string> outNames;       ///< output column ids
  std::vector<std::vector<ExprPtr>> rows;  ///< Values rows

  /// Estimated output rows (rules/cardinality.h), set after normalisation where
  /// the schema gives row-count statistics; printed in text, JSON and DOT.
  std::optional<double> estimatedRows;

  /// The node's output columns, derived from its fields and children.
  std::vector<Column> output;
  /// What `output` was last computed from, so that computeOutput() can skip a
  /// node whose output depends only on its children (Filter, Sort, Limit, Join
  /// with its type) when none of them changed. Maintained by computeOutput();
  /// nothing else writes `output`.
  struct OutputStamp {
    uint64_t version = 0;         ///< changes with `output`; 0: never computed
    uint64_t inputs[2] = {0, 0};  ///< the children's versions it was computed from
    size_t children = 0;          ///< how many children it had then
    JoinType joinType{};          ///< and its join type
  } outputStamp;
  /// Lazily built index of `output` ids; computeOutput() resets it when the
  /// columns change, and a copied node (clonePlan) rebuilds its own.
  mutable std::shared_ptr<const ColumnIndex> outputIndex;
  /// Lazily built index of `tableColumns` ids.
  mutable std::shared_ptr<const ColumnIndex> tableIndex;
};

struct TableDef;
/// Fills a scan's table facts (name, columns as "alias.col", statistics, keys)
/// from its catalog entry; `scan.alias` must be set. Scan columns are left as they are.
void setScanTable(PlanNode& scan, const TableDef& table);
/// The same, with the columns' ids given ("alias.col" for scan.alias, in the
/// table's column order, as Catalog::ownColumnIds has them) instead of built.
void setScanTable(PlanNode& scan, const TableDef& table, const std::vector<ColumnId>& ids);
/// The distinct-value statistic of scan column `id`, if its table has one.
std::optional<long long> columnNdvOf(const PlanNode& scan, std::string_view id);
/// True when key `index` of an Aggregate is in every grouping set (so never NULL-filled by one).
bool keyInEverySet(const PlanNode& aggregate, size_t index);
/// The value of grouping(k1, ..., kn) in the rows of grouping set `set` (indexes
/// into the Aggregate's keys): bit i, from the left, is 1 where ki is not in the
/// set. Nothing when an argument is not one of the Aggregate's keys.
std::optional<int64_t> groupingBits(const PlanNode& aggregate, const AggCall& call,
                                    const std::vector<int>& set);
/// True when an aggregate's result is never NULL, even over no rows (count,
/// grouping): the function catalog's NULL policy.
bool aggregateNeverNull(const std::string& func);
/// The expression of an Aggregate's key `id` when that key is in every grouping
/// set (the last of that name), or null.
const ExprPtr* stableKeyAs(const PlanNode& aggregate, const std::string& id);
/// Recomputes `output` for every node in the tree, children first.
void refreshOutputs(PlanNode& root);
/// Recomputes `output` for this node only, from its children's outputs.
void computeOutput(PlanNode& node);
/// True when every node's output is what computeOutput makes of its inputs now
/// (a copy of the tree is refreshed and compared: for debug assertions).
bool outputsFresh(const PlanNode& root);
/// Numbers the nodes in pre-order from 1, including subquery plans inside expressions.
void assignIds(PlanNode& root);
/// Column ids referenced in the tree but not produced in it (correlated references).
std::set<std::string> freeColumns(const PlanNode& root);
/// The ids of a node's output columns.
std::set<std::string> outputIds(const PlanNode& node);
/// True when the node outputs column `id` (constant time after the first call).
bool produces(const PlanNode& node, const std::string& id);
/// True when scan `n`'s table has column `id` (listed or not; constant time after the first call).
bool hasTableColumn(const PlanNode& n, const std::string& id);
/// True when some node of the subtree (subquery plans aside) outputs column
/// `id` or, for a scan, has it in its table.
bool producedIn(const PlanNode& root, std::string_view id);
/// True when the node outputs every column in `ids`.
bool producesAll(const PlanNode& node, const std::set<std::string>& ids);
/// True when the node outputs every column the expression reads (columnsOf).
bool producesColumnsOf(const PlanNode& node, const Expr& e);
/// True for UNION, INTERSECT and EXCEPT.
bool isSetOperation(PlanOp op);
/// The input of producer `n` whose rows build filter `f`: a join's right
/// child (1); the input of a set operation whose output holds every column
/// `f.build` reads (an INTERSECT's or EXCEPT's filter of one input's values
/// into another, Doris's RuntimeFilterV2); -1 for a TopN filter, which reads
/// no input's rows, and where no single input holds them.
int filterBuildInput(const PlanNode& n, const RuntimeFilter& f);
/// The input of producer `n` below which filter `f` applies: a join's left
/// child and a LIMIT's input (0); the input of a set operation whose output
/// holds every column `f.probe` reads, -1 where none does.
int filterProbeInput(const PlanNode& n, const RuntimeFilter& f);
/// Calls f on every expression held directly by the node (not its children).
template <typename F>
void forEachExpr(const PlanNode& node, const F& f) {
  // A template (not a std::function): the plan walks call it at every node.
  if (node.predicate) f(node.predicate);
  for (const auto& e : node.exprs) f(e.expr);
  for (const auto& a : node.aggs)
    for (const auto& e : a.args) f(e);
  for (const auto& w : node.windows) {
    for (const auto& e : w.args) f(e);
    for (const auto& e : w.partitionBy) f(e);
    for (const auto& k : w.orderBy) f(k.expr);
  }
  for (const auto& k : node.sortKeys) f(k.expr);
  for (const auto& row : node.rows)
    for (const auto& e : row) f(e);
}
/// Rewrites every expression held directly by the node.
void mapExprs(PlanNode& node, const std::function<ExprPtr(const ExprPtr&)>& f);
/// A deep copy of the tree (expressions are shared, they are immutable).
PlanPtr clonePlan(const PlanNode& root);
/// Calls `f` on the plan of every subquery expression the node holds directly
/// (in its own expressions, not its children's).
void forEachSubqueryPlan(const PlanNode& node, const std::function<void(const PlanNode&)>& f);
/// Calls `f` on every node in pre-order, subquery plans inside expressions
/// included (after their node's children).
void forEachNode(const PlanNode& root, const std::function<void(const PlanNode&)>& f);
/// A copy that shares nothing with `root`: subquery plans inside expressions are
/// copied too (clonePlan shares them), so that numbering or rewriting the copy
/// never touches the original, and a subquery referenced twice becomes two.
PlanPtr deepClonePlan(const PlanNode& root);
/// A node for messages: "left join #2", "limit #5", "scan #3".
std::string nodeRef(const PlanNode& n);
/// The same from the node's operator, join type and id.
std::string nodeRef(PlanOp op, JoinType joinType, int id);
/// The lower-case name of an operator: "scan", "join"...
const char* opName(PlanOp op);
/// Parses an operator name.
std::optional<PlanOp> parseOp(std::string_view name);

/// A bound query: its name, its SQL text and where it came from, and its plan.
struct Query {
  std::string name;  ///< "q1", or the file stem plus a number
  std::string sql;   ///< the statement text, if it came from SQL
  std::string file;
  SourceLoc loc;
  PlanPtr plan;
  /// Finding codes not reported for this query (plan JSON "suppress"; docs/lint.md).
  std::vector<std::string> suppress;
  /// The name is "query<n>", its position in its file: the SQL gave it none.
  bool namedByPosition = false;
};

}  // namespace rfguard
