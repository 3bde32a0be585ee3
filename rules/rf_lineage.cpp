#include "rules/rf_lineage.h"

#include "ir/movement.h"

namespace rfguard {

namespace {
/// Nodes that pass a filter on a column of one side unchanged (joins: where the
/// column is not a key and not on a NULL-generating side, checked separately).
bool passesUnchanged(PlanOp op) {
  Passage p = movementOf(op).passage;
  return p == Passage::Unchanged || p == Passage::JoinSides;
}
}  // namespace

LineageIndex::LineageIndex(PlanNode& root) {
  info_.reserve(64);  // a TPC-H plan has a few dozen nodes: no rehash on the way
  owner_.reserve(64);
  int clock = 0;
  visit(root, -1, 0, 0, clock);
}

void LineageIndex::visit(PlanNode& n, int parent, int nullEdges, int barriers, int& clock) {
  Info& in = info_[n.id];
  in.tin = clock++;
  in.parent = parent;
  in.nullEdges = nullEdges;
  in.barrier = !passesUnchanged(n.op);
  in.barriers = barriers + (in.barrier ? 1 : 0);
  in.node = &n;
  in.op = n.op;
  if (n.op == PlanOp::Scan)
    for (const auto& c : n.output) owner_[c.id.view()] = &n;
  if (n.op == PlanOp::Join && n.predicate)
    for (const auto& c : conjuncts(n.predicate))
      if (c->kind == ExprKind::Call && c->args.size() == 2)
        for (const auto& a : c->args)
          if (a->kind == ExprKind::Column) keys_[a->name].push_back(n.id);
  const int barriersHere = in.barriers;  // `in` may move when children are inserted
  for (size_t i = 0; i < n.children.size(); ++i) {
    bool nullSide = n.op == PlanOp::Join && joinInfo(n.joinType).generatesNulls[i];
    visit(*n.children[i], n.id, nullEdges + (nullSide ? 1 : 0), barriersHere, clock);
  }
  info_[n.id].tout = clock - 1;
}

bool LineageIndex::within(int outer, int inner) const {
  const Info& o = info_.at(outer);
  int t = info_.at(inner).tin;
  return o.tin <= t && t <= o.tout;
}

PlanNode* LineageIndex::scanOf(std::string_view col) const {
  auto own = owner_.find(col);
  return own == owner_.end() ? nullptr : own->second;
}

PlanNode* LineageIndex::jumpTarget(const PlanNode& from, const std::string& col) const {
  PlanNode* scan = scanOf(col);
  if (!scan || !info_.count(from.id)) return nullptr;
  if (scan->id == from.id || !within(from.id, scan->id)) return nullptr;
  const Info& f = info_.at(from.id);
  const Info& s = info_.at(scan->id);
  const Info& p = info_.at(s.parent);
  if (s.nullEdges != f.nullEdges) return nullptr;  // a NULL-generating side on the way
  if (p.barriers - f.barriers + (f.barrier ? 1 : 0) != 0) return nullptr;  // lineage changes
  auto keys = keys_.find(col);
  if (keys != keys_.end())
    for (int j : keys->second)
      if (within(from.id, j) && within(j, s.parent)) return nullptr;  // a join where col is a key
  return scan;
}

std::vector<std::pair<int, RfRule>> LineageIndex::path(int from, int scan) const {
  std::vector<std::pair<int, RfRule>> out;
  for (int id = info_.at(scan).parent; id != -1; id = info_.at(id).parent) {
    PlanOp op = info_.at(id).op;
    out.push_back({id, op == PlanOp::Join ? RfRule::PassThroughJoinPreservedSide
                                          : RfRule::PassThroughRowPreserving});
    if (id == from) break;
  }
  return {out.rbegin(), out.rend()};
}

}  // namespace rfguard
