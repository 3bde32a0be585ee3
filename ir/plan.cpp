#include "ir/plan.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <charconv>

#include "ir/catalog.h"
#include "ir/functions.h"

namespace rfguard {

namespace {

constexpr const char* kOpNames[] = {"scan",      "filter",    "project", "join",
                                    "aggregate", "window",    "sort",    "limit",
                                    "union",     "intersect", "except",  "values"};

std::vector<Column> setOpOutput(const PlanNode& n) {
  std::vector<Column> out;
  for (size_t i = 0; i < n.outNames.size(); ++i) {
    Column c{n.outNames[i], Type{}, false};
    for (const auto& child : n.children) {
      if (i >= child->output.size()) continue;
      auto t = commonType(c.type, child->output[i].type);
      if (t) c.type = *t;
      c.nullable = c.nullable || child->output[i].nullable;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

void setScanTable(PlanNode& scan, const TableDef& table) {
  scan.table = table.name;
  scan.runtimeFilterAllowed = table.runtimeFilter;
  scan.tableRows = table.rows;
  scan.distributionKey = table.distributionKey;
  scan.tableColumns.clear();
  scan.columnNdv.clear();
  scan.primaryKey.clear();
  for (const auto& c : table.columns) {
    std::string id = scan.alias + "." + c.name;
    scan.tableColumns.push_back({id, c.type, c.nullable});
    if (c.ndv) scan.columnNdv[id] = *c.ndv;
    if (c.primaryKey) scan.primaryKey.push_back(id);
  }
  scan.tableIndex.reset();
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

std::map<std::string, ExprPtr> stableKeys(const PlanNode& n) {
  std::map<std::string, ExprPtr> keys;
  for (size_t i = 0; i < n.exprs.size(); ++i)
    if (keyInEverySet(n, i)) keys[n.exprs[i].name] = n.exprs[i].expr;
  return keys;
}

const char* opName(PlanOp op) {
  return kOpNames[static_cast<size_t>(op)];
}

std::optional<PlanOp> parseOp(std::string_view name) {
  for (size_t i = 0; i < std::size(kOpNames); ++i)
    if (name == kOpNames[i]) return static_cast<PlanOp>(i);
  return std::nullopt;
}

namespace {

/// Writes a node's output columns over its previous ones: refreshing an
/// unchanged plan (every normalisation round does) then neither allocates nor
/// drops the node's lazily built index of output ids.
uint64_t nextVersion() {
  static std::atomic<uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

/// True when `n`'s output is a function of its children's outputs (and its
/// join type) alone, and none of them changed since it was computed.
bool outputCurrent(const PlanNode& n) {
  switch (n.op) {
    case PlanOp::Filter:
    case PlanOp::Sort:
    case PlanOp::Limit:
    case PlanOp::Join:
      break;
    default:
      return false;
  }
  const auto& stamp = n.outputStamp;
  if (stamp.version == 0 || stamp.children != n.children.size() || n.children.size() > 2 ||
      stamp.joinType != n.joinType)
    return false;
  for (size_t i = 0; i < n.children.size(); ++i)
    if (n.children[i]->outputStamp.version != stamp.inputs[i]) return false;
  return true;
}

class OutputWriter {
 public:
  explicit OutputWriter(PlanNode& n) : n_(n) {}
  /// At most `count` columns follow: one allocation for a fresh node's output.
  void expect(size_t count) { n_.output.reserve(count); }
  void add(const std::string& id, const Type& type, bool nullable) {
    if (i_ == n_.output.size()) {
      n_.output.push_back({id, type, nullable});
      changed_ = true;
    } else if (Column& c = n_.output[i_];
               c.id != id || !(c.type == type) || c.nullable != nullable) {
      c.id = id, c.type = type, c.nullable = nullable;
      changed_ = true;
    }
    ++i_;
  }
  void add(const Column& c) { add(c.id, c.type, c.nullable); }
  void addAll(const std::vector<Column>& cs) {
    for (const auto& c : cs) add(c);
  }
  ~OutputWriter() {
    if (i_ != n_.output.size()) n_.output.resize(i_), changed_ = true;
    if (changed_) n_.outputIndex.reset();
    auto& stamp = n_.outputStamp;
    if (changed_ || stamp.version == 0) stamp.version = nextVersion();
    stamp.children = n_.children.size();
    for (size_t i = 0; i < 2; ++i)
      stamp.inputs[i] = i < n_.children.size() ? n_.children[i]->outputStamp.version : 0;
    stamp.joinType = n_.joinType;
  }

 private:
  PlanNode& n_;
  size_t i_ = 0;
  bool changed_ = false;
};

}  // namespace

void computeOutput(PlanNode& n) {
  if (outputCurrent(n)) return;
  OutputWriter out(n);
  switch (n.op) {
    case PlanOp::Scan: {
      out.expect(n.scanColumns.size());
      // Scan columns are usually listed in the table's order: one merge walk.
      size_t j = 0;
      for (const auto& c : n.tableColumns)
        if (j < n.scanColumns.size() && n.scanColumns[j] == c.id) ++j;
      if (j == n.scanColumns.size()) {
        j = 0;
        for (const auto& c : n.tableColumns)
          if (j < n.scanColumns.size() && n.scanColumns[j] == c.id) out.add(c), ++j;
        break;
      }
      for (const auto& c : n.tableColumns)
        for (const auto& want : n.scanColumns)
          if (want == c.id) out.add(c);
      break;
    }
    case PlanOp::Filter:
    case PlanOp::Sort:
    case PlanOp::Limit:
      assert(n.children.size() == 1);
      out.expect(n.children[0]->output.size());
      out.addAll(n.children[0]->output);
      break;
    case PlanOp::Project:
      out.expect(n.exprs.size());
      for (const auto& ne : n.exprs) out.add(ne.name, ne.expr->type, ne.expr->nullable);
      break;
    case PlanOp::Join: {
      const auto& info = joinInfo(n.joinType);
      out.expect(n.children[0]->output.size() + n.children[1]->output.size());
      for (int s = 0; s < 2; ++s) {
        if (!info.outputs[s]) continue;
        for (const Column& c : n.children[s]->output)
          out.add(c.id, c.type, c.nullable || info.generatesNulls[s]);
      }
      break;
    }
    case PlanOp::Aggregate:
      out.expect(n.exprs.size() + n.aggs.size());
      for (size_t i = 0; i < n.exprs.size(); ++i) {
        const auto& k = n.exprs[i];
        out.add(k.name, k.expr->type, k.expr->nullable || !keyInEverySet(n, i));
      }
      for (const auto& a : n.aggs) out.add(a.name, a.type, !aggregateNeverNull(a.func));
      break;
    case PlanOp::Window:
      out.addAll(n.children[0]->output);
      for (const auto& w : n.windows) out.add(w.name, w.type, !aggregateNeverNull(w.func));
      break;
    case PlanOp::Union:
    case PlanOp::Intersect:
    case PlanOp::Except:
      out.addAll(setOpOutput(n));
      break;
    case PlanOp::Values:
      for (size_t i = 0; i < n.outNames.size(); ++i) {
        Column c{n.outNames[i], Type{}, false};
        for (const auto& row : n.rows) {
          if (i >= row.size()) continue;
          auto t = commonType(c.type, row[i]->type);
          if (t) c.type = *t;
          c.nullable = c.nullable || row[i]->nullable;
        }
        out.add(c);
      }
      break;
  }
}

namespace {
void refreshSubqueries(const Expr& x) {
  if (x.kind == ExprKind::Subquery && x.plan) refreshOutputs(*x.plan);
  for (const auto& a : x.args) refreshSubqueries(*a);
}
}  // namespace

void refreshOutputs(PlanNode& root) {
  for (auto& c : root.children) refreshOutputs(*c);
  forEachExpr(root, [](const ExprPtr& e) { refreshSubqueries(*e); });
  computeOutput(root);
}

void forEachExpr(const PlanNode& n, const std::function<void(const ExprPtr&)>& f) {
  if (n.predicate) f(n.predicate);
  for (const auto& e : n.exprs) f(e.expr);
  for (const auto& a : n.aggs)
    for (const auto& e : a.args) f(e);
  for (const auto& w : n.windows) {
    for (const auto& e : w.args) f(e);
    for (const auto& e : w.partitionBy) f(e);
    for (const auto& k : w.orderBy) f(k.expr);
  }
  for (const auto& k : n.sortKeys) f(k.expr);
  for (const auto& row : n.rows)
    for (const auto& e : row) f(e);
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
void numberNodes(PlanNode& n, int& next) {
  n.id = next++;
  forEachExpr(n, [&](const ExprPtr& e) {
    std::function<void(const Expr&)> visit = [&](const Expr& x) {
      if (x.kind == ExprKind::Subquery && x.plan) numberNodes(*x.plan, next);
      for (const auto& a : x.args) visit(*a);
    };
    visit(*e);
  });
  for (auto& c : n.children) numberNodes(*c, next);
}

void collectFree(const PlanNode& n, std::set<std::string>& produced, std::set<std::string>& used) {
  for (const auto& c : n.tableColumns) produced.insert(c.id);
  for (const auto& c : n.output) produced.insert(c.id);
  forEachExpr(n, [&](const ExprPtr& e) {
    auto cols = freeColumnsOf(*e);
    used.insert(cols.begin(), cols.end());
  });
  for (const auto& c : n.children) collectFree(*c, produced, used);
}
}  // namespace

void assignIds(PlanNode& root) {
  int next = 1;
  numberNodes(root, next);
}

std::set<std::string> freeColumns(const PlanNode& root) {
  std::set<std::string> produced, used, out;
  collectFree(root, produced, used);
  for (const auto& u : used)
    if (!produced.count(u)) out.insert(u);
  return out;
}

namespace {
bool indexedHas(std::shared_ptr<const ColumnIndex>& index, const std::vector<Column>& cs,
                const std::string& id) {
  // Below a dozen columns a scan is cheaper than building the hash index
  // (most nodes of a plan are that narrow after column pruning).
  constexpr size_t kScanBelow = 12;
  if (cs.size() < kScanBelow) {
    for (const auto& c : cs)
      if (c.id == id) return true;
    return false;
  }
  if (!index || !index->indexes(cs)) {
    auto fresh = std::make_shared<ColumnIndex>();
    fresh->base = cs.data();
    fresh->size = cs.size();
    fresh->ids.reserve(cs.size());
    for (const auto& c : cs) fresh->ids.insert(c.id);
    index = std::move(fresh);
  }
  return index->ids.count(id) > 0;
}
}  // namespace

bool produces(const PlanNode& n, const std::string& id) {
  return indexedHas(n.outputIndex, n.output, id);
}

bool hasTableColumn(const PlanNode& n, const std::string& id) {
  return indexedHas(n.tableIndex, n.tableColumns, id);
}

bool producesAll(const PlanNode& n, const std::set<std::string>& ids) {
  for (const auto& id : ids)
    if (!produces(n, id)) return false;
  return true;
}

bool producesColumnsOf(const PlanNode& n, const Expr& e) {
  return allColumnRefs(e, [&](const std::string& id) { return produces(n, id); });
}

std::set<std::string> outputIds(const PlanNode& n) {
  std::set<std::string> out;
  for (const auto& c : n.output) out.insert(c.id);
  return out;
}

PlanPtr clonePlan(const PlanNode& root) {
  auto copy = std::make_shared<PlanNode>(root);
  for (auto& c : copy->children) c = clonePlan(*c);
  return copy;
}

namespace {
ExprPtr deepCloneExpr(const ExprPtr& e) {
  if (!e) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (auto& a : copy->args) a = deepCloneExpr(a);
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
  auto copy = std::make_shared<PlanNode>(root);
  for (auto& c : copy->children) c = deepClonePlan(*c);
  mapExprs(*copy, [](const ExprPtr& e) { return deepCloneExpr(e); });
  return copy;
}

std::string nodeRef(const PlanNode& n) {
  std::string op = opName(n.op);
  if (n.op == PlanOp::Join) {
    op = joinInfo(n.joinType).name;
    for (auto& ch : op) ch = ch == '_' ? ' ' : ch;
    op += " join";
  }
  return op + " #" + std::to_string(n.id);
}

}  // namespace rfguard
