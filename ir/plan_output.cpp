// Output columns of plan nodes: computing them from a node's fields and
// children, keeping them current across rewrites, and asking which column ids
// a node produces.
#include "ir/plan.h"

#include <atomic>
#include <cassert>
#include <functional>

#include "ir/functions.h"

namespace rfguard {

namespace {

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

/// Writes a node's output columns over its previous ones: refreshing an
/// unchanged plan (every normalisation round does) then neither allocates nor
/// drops the node's lazily built index of output ids.
class OutputWriter {
 public:
  explicit OutputWriter(PlanNode& n) : n_(n) {}
  /// At most `count` columns follow: one allocation for a fresh node's output.
  void expect(size_t count) { n_.output.reserve(count); }
  /// A column of an input: its id is shared, not copied.
  void add(const ColumnId& id, const Type& type, bool nullable) { put(id, type, nullable); }
  /// A column the node defines (a projection's or an aggregate's name).
  void add(const std::string& id, const Type& type, bool nullable) { put(id, type, nullable); }
  void add(const Column& c) { add(c.id, c.type, c.nullable); }
  /// Every column of an input, made nullable when `nullable`. Those the
  /// previous output has in place are kept; from the first that differs (all
  /// of them for a fresh node) they are copied in one go, and the previous
  /// output's rest goes (a pruned input changes most of what follows).
  void addAll(const std::vector<Column>& cs, bool nullable = false) {
    size_t k = 0;
    for (; k < cs.size() && i_ < n_.output.size(); ++k, ++i_) {
      const Column& c = n_.output[i_];
      if (c.id != cs[k].id || !(c.type == cs[k].type) || c.nullable != (cs[k].nullable || nullable))
        break;
    }
    if (k == cs.size()) return;
    n_.output.erase(n_.output.begin() + static_cast<std::ptrdiff_t>(i_), n_.output.end());
    n_.output.insert(n_.output.end(), cs.begin() + static_cast<std::ptrdiff_t>(k), cs.end());
    if (nullable)
      for (size_t j = i_; j < n_.output.size(); ++j) n_.output[j].nullable = true;
    i_ = n_.output.size();
    changed_ = true;
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
  template <typename Id>
  void put(const Id& id, const Type& type, bool nullable) {
    if (i_ == n_.output.size()) {
      n_.output.push_back({ColumnId(id), type, nullable});
      changed_ = true;
    } else if (Column& c = n_.output[i_];
               c.id != id || !(c.type == type) || c.nullable != nullable) {
      c.id = ColumnId(id), c.type = type, c.nullable = nullable;
      changed_ = true;
    }
    ++i_;
  }
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
      if (j == n.scanColumns.size() && j == n.tableColumns.size()) {
        out.addAll(n.tableColumns);  // every column (as bound, before pruning)
        break;
      }
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
      for (int s = 0; s < 2; ++s)
        if (info.outputs[s]) out.addAll(n.children[s]->output, info.generatesNulls[s]);
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

bool outputsFresh(const PlanNode& root) {
  PlanPtr copy = clonePlan(root);
  refreshOutputs(*copy);
  std::function<bool(const PlanNode&, const PlanNode&)> same = [&](const PlanNode& a,
                                                                   const PlanNode& b) {
    if (a.output.size() != b.output.size()) return false;
    for (size_t i = 0; i < a.output.size(); ++i)
      if (a.output[i].id != b.output[i].id || !(a.output[i].type == b.output[i].type) ||
          a.output[i].nullable != b.output[i].nullable)
        return false;
    for (size_t i = 0; i < a.children.size(); ++i)
      if (!same(*a.children[i], *b.children[i])) return false;
    return true;
  };
  return same(root, *copy);
}

namespace {
bool indexedHas(std::shared_ptr<const ColumnIndex>& index, const std::vector<Column>& cs,
                std::string_view id) {
  // Below a dozen columns a scan is cheaper than building the hash index
  // (most nodes of a plan are that narrow after column pruning).
  constexpr size_t kScanBelow = 12;
  if (cs.size() < kScanBelow) {
    for (const auto& c : cs)
      if (c.id == id) return true;
    return false;
  }
  if (!index || !index->indexes(cs)) {
    auto fresh = makePooled<ColumnIndex>();
    fresh->build(cs);
    index = std::move(fresh);
  }
  return index->has(id);
}
}  // namespace

void ColumnIndex::build(const std::vector<Column>& cs) {
  base = cs.data();
  size = cs.size();
  size_t n = 16;
  while (n < 2 * cs.size()) n *= 2;
  slots.assign(n, 0);
  for (size_t i = 0; i < cs.size(); ++i) {
    size_t at = cs[i].id.hash() & (n - 1);
    while (slots[at]) {
      if (base[slots[at] - 1].id == cs[i].id) break;  // a repeated id: the first is kept
      at = (at + 1) & (n - 1);
    }
    if (!slots[at]) slots[at] = static_cast<uint32_t>(i + 1);
  }
}

bool ColumnIndex::has(std::string_view id) const {
  const size_t mask = slots.size() - 1;
  for (size_t at = std::hash<std::string_view>{}(id)&mask; slots[at]; at = (at + 1) & mask)
    if (base[slots[at] - 1].id == id) return true;
  return false;
}

bool produces(const PlanNode& n, const std::string& id) {
  return indexedHas(n.outputIndex, n.output, id);
}

bool hasTableColumn(const PlanNode& n, const std::string& id) {
  // A scan outputs some of its table's columns: the narrower list, usually the
  // one asked about and often indexed already, first.
  if (n.op == PlanOp::Scan && produces(n, id)) return true;
  return indexedHas(n.tableIndex, n.tableColumns, id);
}

bool producedIn(const PlanNode& root, std::string_view id) {
  if (indexedHas(root.outputIndex, root.output, id) ||
      indexedHas(root.tableIndex, root.tableColumns, id))
    return true;
  for (const auto& c : root.children)
    if (producedIn(*c, id)) return true;
  return false;
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

bool isSetOperation(PlanOp op) {
  return op == PlanOp::Union || op == PlanOp::Intersect || op == PlanOp::Except;
}

namespace {
/// The one input of set operation `n` that outputs every column `e` reads, or -1.
int inputHolding(const PlanNode& n, const Expr& e) {
  if (!hasColumnRef(e)) return -1;
  for (size_t i = 0; i < n.children.size(); ++i)
    if (producesColumnsOf(*n.children[i], e)) return static_cast<int>(i);
  return -1;
}
}  // namespace

int filterBuildInput(const PlanNode& n, const RuntimeFilter& f) {
  if (n.op == PlanOp::Join) return 1;
  return isSetOperation(n.op) && f.build ? inputHolding(n, *f.build) : -1;
}

int filterProbeInput(const PlanNode& n, const RuntimeFilter& f) {
  if (n.op == PlanOp::Join || n.op == PlanOp::Limit) return 0;
  return isSetOperation(n.op) && f.probe ? inputHolding(n, *f.probe) : -1;
}

}  // namespace rfguard
