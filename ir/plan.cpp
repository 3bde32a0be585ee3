#include "ir/plan.h"

#include <algorithm>
#include <cassert>
#include <charconv>

#include "ir/catalog.h"
#include "ir/functions.h"

namespace rfguard {

namespace {

constexpr const char* kOpNames[] = {"scan",      "filter",    "project", "join",
                                    "aggregate", "window",    "sort",    "limit",
                                    "union",     "intersect", "except",  "values"};

}  // namespace

namespace {
/// setScanTable's work, with column i's id from id(i).
template <typename IdOf>
void setScanColumns(PlanNode& scan, const TableDef& table, const IdOf& id) {
  scan.table = table.name;
  scan.runtimeFilterAllowed = table.runtimeFilter;
  scan.tableRows = table.rows;
  scan.distributionKey = table.distributionKey;
  scan.tableColumns.clear();
  scan.columnNdv.clear();
  scan.primaryKey.clear();
  scan.tableColumns.reserve(table.columns.size());
  size_t ndvs = 0, keys = 0;  // one allocation per list, not a growth per column
  for (const ColumnDef& c : table.columns) ndvs += c.ndv.has_value(), keys += c.primaryKey;
  scan.columnNdv.reserve(ndvs);
  scan.primaryKey.reserve(keys);
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const ColumnDef& c = table.columns[i];
    ColumnId cid = id(i);
    if (c.ndv) scan.columnNdv.emplace_back(cid, *c.ndv);
    if (c.primaryKey) scan.primaryKey.push_back(cid);
    scan.tableColumns.push_back({std::move(cid), c.type, c.nullable});
  }
  scan.uniqueKeys.clear();
  for (const auto& key : table.uniqueKeys) {
    std::vector<ColumnId> ids;
    for (const auto& name : key) ids.push_back(id(static_cast<size_t>(table.columnIndex(name))));
    scan.uniqueKeys.push_back(std::move(ids));
  }
  scan.foreignKeys.clear();
  for (const auto& fk : table.foreignKeys) {
    ScanForeignKey k{{}, fk.refTable, fk.refColumns};
    for (const auto& name : fk.columns)
      k.columns.push_back(id(static_cast<size_t>(table.columnIndex(name))));
    scan.foreignKeys.push_back(std::move(k));
  }
  scan.checks.clear();
  if (!table.checks.empty()) {
    std::map<std::string, ExprPtr> columns;  // bare name -> the scan's column
    for (size_t i = 0; i < table.columns.size(); ++i) {
      const Column& c = scan.tableColumns[i];
      columns[table.columns[i].name] = makeColumn(c.id, c.type, c.nullable);
    }
    for (const auto& check : table.checks) scan.checks.push_back(substitute(check, columns));
  }
  scan.tableIndex.reset();
}
}  // namespace

void setScanTable(PlanNode& scan, const TableDef& table) {
  setScanColumns(scan, table, [&](size_t i) {
    std::string id;
    id.reserve(scan.alias.size() + 1 + table.columns[i].name.size());
    id.append(scan.alias).append(1, '.').append(table.columns[i].name);
    return ColumnId(std::move(id));
  });
}

void setScanTable(PlanNode& scan, const TableDef& table, const std::vector<ColumnId>& ids) {
  assert(ids.size() == table.columns.size());
  setScanColumns(scan, table, [&](size_t i) { return ids[i]; });
}

std::optional<long long> columnNdvOf(const PlanNode& scan, std::string_view id) {
  for (const auto& [column, ndv] : scan.columnNdv)
    if (column == id) return ndv;
  return std::nullopt;
}

std::string frameSql(const WindowFrame& frame) {
  auto bound = [](const FrameBound& b) -> std::string {
    switch (b.kind) {
      case FrameBound::Kind::UnboundedPreceding:
        return "UNBOUNDED PRECEDING";
      case FrameBound::Kind::Preceding:
        return std::to_string(b.offset) + " PRECEDING";
      case FrameBound::Kind::CurrentRow:
        return "CURRENT ROW";
      case FrameBound::Kind::Following:
        return std::to_string(b.offset) + " FOLLOWING";
      case FrameBound::Kind::UnboundedFollowing:
        return "UNBOUNDED FOLLOWING";
    }
    return "";
  };
  return std::string(frame.rows ? "ROWS" : "RANGE") + " BETWEEN " + bound(frame.start) + " AND " +
         bound(frame.end);
}

std::optional<int64_t> parseFrameOffset(const std::string& digits) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size() || v < 0 || v > kMaxFrameOffset)
    return std::nullopt;
  return v;
}

std::optional<std::string> frameProblem(const WindowFrame& frame,
                                        const std::vector<SortKey>& orderBy) {
  using K = FrameBound::Kind;
  // UNBOUNDED PRECEDING < n PRECEDING < CURRENT ROW < n FOLLOWING < UNBOUNDED FOLLOWING
  if (frame.start.kind == K::UnboundedFollowing || frame.end.kind == K::UnboundedPreceding ||
      frame.start.kind > frame.end.kind)
    return "the window frame " + frameSql(frame) + " starts after it ends";
  for (const FrameBound* b : {&frame.start, &frame.end})
    if ((b->kind == K::Preceding || b->kind == K::Following) && b->offset < 0)
      return "a frame offset cannot be negative";
  const bool offsets = frame.start.kind == K::Preceding || frame.start.kind == K::Following ||
                       frame.end.kind == K::Preceding || frame.end.kind == K::Following;
  if (!frame.rows && offsets && (orderBy.size() != 1 || !orderBy[0].expr->type.isNumeric()))
    return "RANGE with an offset needs exactly one numeric ORDER BY key";
  return std::nullopt;
}

namespace {
constexpr std::pair<FrameBound::Kind, const char*> kFrameBoundNames[] = {
    {FrameBound::Kind::UnboundedPreceding, "unbounded_preceding"},
    {FrameBound::Kind::Preceding, "preceding"},
    {FrameBound::Kind::CurrentRow, "current_row"},
    {FrameBound::Kind::Following, "following"},
    {FrameBound::Kind::UnboundedFollowing, "unbounded_following"}};
}  // namespace

std::string frameBoundName(FrameBound::Kind kind) {
  for (const auto& [k, name] : kFrameBoundNames)
    if (k == kind) return name;
  return "";
}

std::optional<FrameBound::Kind> parseFrameBound(const std::string& name) {
  for (const auto& [k, n] : kFrameBoundNames)
    if (name == n) return k;
  return std::nullopt;
}

bool keyInEverySet(const PlanNode& n, size_t index) {
  for (const auto& set : n.groupingSets) {
    bool found = false;
    for (int k : set) found = found || k == static_cast<int>(index);
    if (!found) return false;
  }
  return true;
}

std::optional<int64_t> groupingBits(const PlanNode& n, const AggCall& call,
                                    const std::vector<int>& set) {
  int64_t bits = 0;
  for (const auto& arg : call.args) {
    size_t i = 0;
    while (i < n.exprs.size() && !exprEquals(n.exprs[i].expr, arg)) ++i;
    if (i == n.exprs.size()) return std::nullopt;
    bool in = std::find(set.begin(), set.end(), static_cast<int>(i)) != set.end();
    bits = bits * 2 + (in ? 0 : 1);
  }
  return bits;
}

bool aggregateNeverNull(const std::string& func) {
  const FunctionInfo* fn = lookupFunction(func);
  return fn && fn->policy == NullPolicy::NeverNull;
}

const ExprPtr* stableKeyAs(const PlanNode& n, const std::string& id) {
  for (size_t i = n.exprs.size(); i-- > 0;)
    if (n.exprs[i].name == id && keyInEverySet(n, i)) return &n.exprs[i].expr;
  return nullptr;
}

const char* opName(PlanOp op) {
  return kOpNames[static_cast<size_t>(op)];
}

std::optional<PlanOp> parseOp(std::string_view name) {
  for (size_t i = 0; i < std::size(kOpNames); ++i)
    if (name == kOpNames[i]) return static_cast<PlanOp>(i);
  return std::nullopt;
}

void mapExprs(PlanNode& n, const std::function<ExprPtr(const ExprPtr&)>& f) {
  if (n.predicate) n.predicate = f(n.predicate);
  for (auto& e : n.exprs) e.expr = f(e.expr);
  for (auto& a : n.aggs)
    for (auto& e : a.args) e = f(e);
  for (auto& w : n.windows) {
    for (auto& e : w.args) e = f(e);
    for (auto& e : w.partitionBy) e = f(e);
    for (auto& k : w.orderBy) k.expr = f(k.expr);
  }
  for (auto& k : n.sortKeys) k.expr = f(k.expr);
  for (auto& row : n.rows)
    for (auto& e : row) e = f(e);
}

namespace {
void numberNodes(PlanNode& n, int& next);

/// Numbers the plans of the subqueries in `x`, in pre-order.
void numberSubqueries(const Expr& x, int& next) {
  if (x.kind == ExprKind::Subquery && x.plan) numberNodes(*x.plan, next);
  for (const auto& a : x.args) numberSubqueries(*a, next);
}

void numberNodes(PlanNode& n, int& next) {
  n.id = next++;
  forEachExpr(n, [&](const ExprPtr& e) { numberSubqueries(*e, next); });
  for (auto& c : n.children) numberNodes(*c, next);
}

void freeViews(const PlanNode& root, std::vector<std::string_view>& out);

/// The column names `e` reads, and the free columns of its subqueries' plans,
/// as views of the plan's own strings (repeats included).
void usedViews(const Expr& e, std::vector<std::string_view>& used) {
  if (e.kind == ExprKind::Column) used.push_back(e.name);
  for (const auto& a : e.args) usedViews(*a, used);
  if (e.kind == ExprKind::Subquery && e.plan) freeViews(*e.plan, used);
}

void usedViews(const PlanNode& n, std::vector<std::string_view>& used) {
  forEachExpr(n, [&](const ExprPtr& e) { usedViews(*e, used); });
  for (const auto& c : n.children) usedViews(*c, used);
}

/// Appends the columns read in `root` that no node of it produces, once each.
void freeViews(const PlanNode& root, std::vector<std::string_view>& out) {
  std::vector<std::string_view> used;
  usedViews(root, used);
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (const auto& u : used)
    if (!producedIn(root, u)) out.push_back(u);
}
}  // namespace

void assignIds(PlanNode& root) {
  int next = 1;
  numberNodes(root, next);
}

std::set<std::string> freeColumns(const PlanNode& root) {
  // The few columns read, each looked up in the nodes' indexes, rather than a
  // set of every column produced; views until the answer, which is short.
  std::vector<std::string_view> free;
  freeViews(root, free);
  return std::set<std::string>(free.begin(), free.end());
}

PlanPtr clonePlan(const PlanNode& root) {
  auto copy = makePooled<PlanNode>(root);
  for (auto& c : copy->children) c = clonePlan(*c);
  return copy;
}

namespace {
ExprPtr deepCloneExpr(const ExprPtr& e) {
  if (!e) return e;
  auto copy = mapArgs(*e, deepCloneExpr);
  if (copy->plan) copy->plan = deepClonePlan(*copy->plan);
  return copy;
}
}  // namespace

void forEachSubqueryPlan(const PlanNode& n, const std::function<void(const PlanNode&)>& f) {
  forEachExpr(n, [&](const ExprPtr& e) {
    std::function<void(const Expr&)> sub = [&](const Expr& x) {
      if (x.plan) f(*x.plan);
      for (const auto& a : x.args) sub(*a);
    };
    sub(*e);
  });
}

void forEachNode(const PlanNode& n, const std::function<void(const PlanNode&)>& f) {
  f(n);
  for (const auto& c : n.children) forEachNode(*c, f);
  forEachSubqueryPlan(n, [&](const PlanNode& sub) { forEachNode(sub, f); });
}

PlanPtr deepClonePlan(const PlanNode& root) {
  auto copy = makePooled<PlanNode>(root);
  for (auto& c : copy->children) c = deepClonePlan(*c);
  mapExprs(*copy, [](const ExprPtr& e) { return deepCloneExpr(e); });
  return copy;
}

namespace {
constexpr const char* kDistributions[] = {"unknown", "broadcast", "shuffle", "colocated",
                                          "bucket_shuffle"};
}  // namespace

const char* joinDistributionName(JoinDistribution d) {
  return kDistributions[static_cast<size_t>(d)];
}

std::optional<JoinDistribution> parseJoinDistribution(std::string_view name) {
  for (size_t i = 1; i < std::size(kDistributions); ++i)
    if (name == kDistributions[i]) return static_cast<JoinDistribution>(i);
  return std::nullopt;
}

std::string nodeRef(const PlanNode& n) {
  return nodeRef(n.op, n.joinType, n.id);
}

std::string nodeRef(PlanOp kind, JoinType joinType, int id) {
  std::string op = opName(kind);
  if (kind == PlanOp::Join) {
    op = joinInfo(joinType).name;
    for (auto& ch : op) ch = ch == '_' ? ' ' : ch;
    op += " join";
  }
  return op + " #" + std::to_string(id);
}

}  // namespace rfguard
