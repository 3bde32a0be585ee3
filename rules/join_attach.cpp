#include "rules/join_attach.h"

#include <algorithm>
#include <cassert>

namespace rfguard {

AttachedFlow attachedFlow(const JoinTree& t, const std::vector<AttachedJoin>& atts,
                          size_t leafCount) {
  size_t nodes = t.nodes.size();
  AttachedFlow f;
  f.rows.assign(nodes, 0);
  f.attached.assign(nodes, 0);
  std::vector<double> share(nodes, 1);  // the attachments' factors at or below
  for (size_t v = 0; v < nodes; ++v) {
    const auto& node = t.nodes[v];
    double rows = node.rows;
    if (node.relation < 0) {
      auto l = static_cast<size_t>(node.left), r = static_cast<size_t>(node.right);
      assert(l < v && r < v && "join trees list inputs before their joins");
      share[v] = share[l] * share[r];
      f.attached[v] = f.attached[l] | f.attached[r];
      rows *= share[v];
      f.cost += rows;
    }
    for (size_t k = 0; k < atts.size(); ++k) {
      if (atts[k].at != static_cast<int>(v)) continue;
      rows *= atts[k].factor;
      share[v] *= atts[k].factor;
      f.cost += rows;
      f.attached[v] |= RelSet{1} << (leafCount + k);
    }
    f.rows[v] = rows;
  }
  return f;
}

void placeAttachedJoins(const JoinTree& t, std::vector<AttachedJoin>& atts, size_t leafCount) {
  const RelSet leafMask = lowBits(leafCount);
  const size_t nodes = t.nodes.size();
  std::vector<int> parent(nodes, -1);
  for (size_t v = 0; v < nodes; ++v)
    if (t.nodes[v].relation < 0)
      parent[static_cast<size_t>(t.nodes[v].left)] = parent[static_cast<size_t>(t.nodes[v].right)] =
          static_cast<int>(v);
  auto strictlyBelow = [&](int v, int u) {
    for (v = parent[static_cast<size_t>(v)]; v >= 0; v = parent[static_cast<size_t>(v)])
      if (v == u) return true;
    return false;
  };
  // The join of the tree that first sees all of `set`: the covering node with the fewest leaves.
  auto lowestCovering = [&](RelSet set) {
    int best = t.root;
    for (size_t v = 0; v < nodes; ++v)
      if ((set & ~t.nodes[v].set) == 0 &&
          __builtin_popcountll(t.nodes[v].set) <
              __builtin_popcountll(t.nodes[static_cast<size_t>(best)].set))
        best = static_cast<int>(v);
    return best;
  };
  for (auto& a : atts) {
    AttachedFlow before = attachedFlow(t, atts, leafCount);
    std::vector<int> joins;
    for (RelSet s : a.under) joins.push_back(lowestCovering(s));
    int best = -1;
    for (bool restricted : {true, false}) {
      double bestCost = 0;
      for (size_t v = 0; v < nodes; ++v) {
        if ((a.reads & leafMask & ~t.nodes[v].set) || (a.reads & ~leafMask & ~before.attached[v]))
          continue;
        if (restricted && std::any_of(joins.begin(), joins.end(), [&](int u) {
              return !strictlyBelow(static_cast<int>(v), u);
            }))
          continue;
        a.at = static_cast<int>(v);
        double cost = attachedFlow(t, atts, leafCount).cost;
        if (best < 0 || cost < bestCost) best = a.at, bestCost = cost;
      }
      if (best >= 0) break;
    }
    assert(best >= 0 && "the root produces every column of the block");
    a.at = best;
  }
}

}  // namespace rfguard
