#include "rules/rf_lineage.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <functional>

#include "ir/movement.h"

namespace rfguard {

namespace {
/// Nodes that pass a filter on a column of one side unchanged (joins: where the
/// column is not a key and not on a NULL-generating side, checked separately).
bool passesUnchanged(PlanOp op) {
  Passage p = movementOf(op).passage;
  return p == Passage::Unchanged || p == Passage::JoinSides;
}

size_t hashId(int id) {
  return static_cast<size_t>(id) * 0x9E3779B97F4A7C15ull >> 20;
}

/// Open addressing: a power of two at least twice the entries.
size_t tableSize(size_t entries) {
  return std::bit_ceil(std::max<size_t>(16, 2 * entries));
}

bool isJoinKey(const Expr& a) {
  return a.kind == ExprKind::Column;
}
}  // namespace

LineageIndex::LineageIndex(PlanNode& root) {
  size_t nodes = 0, columns = 0;
  count(root, nodes, columns);
  info_.reserve(nodes);
  idSlots_.assign(tableSize(nodes), {0, 0});
  columnSlots_.assign(tableSize(columns), {});
  visit(root, -1, 0, 0);
}

void LineageIndex::count(const PlanNode& n, size_t& nodes, size_t& columns) const {
  ++nodes;
  if (n.op == PlanOp::Scan) columns += n.output.size();
  if (n.op == PlanOp::Join && n.predicate)
    forEachConjunct(n.predicate, [&](const ExprPtr& c) {
      if (c->kind == ExprKind::Call && c->args.size() == 2)
        for (const auto& a : c->args) columns += isJoinKey(*a);
      return true;
    });
  for (const auto& c : n.children) count(*c, nodes, columns);
}

void LineageIndex::addColumn(std::string_view col, size_t hash, int at) {
  if (col.empty()) return;  // an empty id names nothing (and would read as a free slot)
  const size_t mask = columnSlots_.size() - 1;
  size_t slot = hash & mask;
  for (; !columnSlots_[slot].free(); slot = (slot + 1) & mask)
    if (at >= 0 && columnSlots_[slot].at >= 0 && columnSlots_[slot].col() == col)
      break;  // a later scan
  columnSlots_[slot] = {col.data(), static_cast<uint32_t>(col.size()), at};
}

void LineageIndex::visit(PlanNode& n, int parent, int nullEdges, int barriers) {
  const int at = static_cast<int>(info_.size());
  const size_t idMask = idSlots_.size() - 1;
  size_t slot = hashId(n.id) & idMask;
  while (idSlots_[slot].second) slot = (slot + 1) & idMask;  // ids are unique
  idSlots_[slot] = {n.id, at + 1};
  Info in;
  in.id = n.id;
  in.parent = parent;
  in.nullEdges = nullEdges;
  in.barrier = !passesUnchanged(n.op);
  in.barriers = barriers + (in.barrier ? 1 : 0);
  in.node = &n;
  in.op = n.op;
  info_.push_back(in);
  if (n.op == PlanOp::Scan)
    for (const auto& c : n.output) addColumn(c.id.view(), c.id.hash(), at);
  if (n.op == PlanOp::Join && n.predicate)
    forEachConjunct(n.predicate, [&](const ExprPtr& c) {
      if (c->kind == ExprKind::Call && c->args.size() == 2)
        for (const auto& a : c->args)
          if (isJoinKey(*a)) addColumn(a->name, std::hash<std::string_view>{}(a->name), -1 - at);
      return true;
    });
  for (size_t i = 0; i < n.children.size(); ++i) {
    bool nullSide = n.op == PlanOp::Join && joinInfo(n.joinType).generatesNulls[i];
    visit(*n.children[i], at, nullEdges + (nullSide ? 1 : 0), in.barriers);
  }
  info_[static_cast<size_t>(at)].tout = static_cast<int>(info_.size()) - 1;
}

int LineageIndex::positionOf(int id) const {
  const size_t mask = idSlots_.size() - 1;
  for (size_t slot = hashId(id) & mask; idSlots_[slot].second; slot = (slot + 1) & mask)
    if (idSlots_[slot].first == id) return idSlots_[slot].second - 1;
  return -1;
}

bool LineageIndex::within(int outer, int inner) const {
  return outer <= inner && inner <= info_[static_cast<size_t>(outer)].tout;
}

PlanNode* LineageIndex::scanOf(std::string_view col, size_t hash) const {
  const size_t mask = columnSlots_.size() - 1;
  for (size_t slot = hash & mask; !columnSlots_[slot].free(); slot = (slot + 1) & mask) {
    const ColumnSlot& k = columnSlots_[slot];
    if (k.at >= 0 && k.col() == col) return info_[static_cast<size_t>(k.at)].node;
  }
  return nullptr;
}

PlanNode* LineageIndex::scanOf(std::string_view col) const {
  return scanOf(col, std::hash<std::string_view>{}(col));
}

PlanNode* LineageIndex::jumpTarget(const PlanNode& from, const std::string& col) const {
  const size_t hash = std::hash<std::string_view>{}(col);
  PlanNode* scan = scanOf(col, hash);
  if (!scan) return nullptr;
  const int fp = positionOf(from.id), sp = positionOf(scan->id);
  if (fp < 0 || sp < 0 || sp == fp || !within(fp, sp)) return nullptr;
  const Info& f = info_[static_cast<size_t>(fp)];
  const Info& s = info_[static_cast<size_t>(sp)];
  const Info& p = info_[static_cast<size_t>(s.parent)];
  if (s.nullEdges != f.nullEdges) return nullptr;  // a NULL-generating side on the way
  if (p.barriers - f.barriers + (f.barrier ? 1 : 0) != 0) return nullptr;  // lineage changes
  const size_t mask = columnSlots_.size() - 1;
  for (size_t slot = hash & mask; !columnSlots_[slot].free(); slot = (slot + 1) & mask) {
    const ColumnSlot& k = columnSlots_[slot];
    const int join = -1 - k.at;
    if (k.at < 0 && k.col() == col && within(fp, join) && within(join, s.parent))
      return nullptr;  // a join where col is a key
  }
  return scan;
}

std::vector<std::pair<int, RfRule>> LineageIndex::path(int from, int scan) const {
  std::vector<std::pair<int, RfRule>> out;
  const int sp = positionOf(scan);
  assert(sp >= 0);
  for (int at = info_[static_cast<size_t>(sp)].parent; at != -1;
       at = info_[static_cast<size_t>(at)].parent) {
    const Info& in = info_[static_cast<size_t>(at)];
    out.push_back({in.id, in.op == PlanOp::Join ? RfRule::PassThroughJoinPreservedSide
                                                : RfRule::PassThroughRowPreserving});
    if (in.id == from) break;
  }
  return {out.rbegin(), out.rend()};
}

}  // namespace rfguard
