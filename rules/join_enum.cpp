#include "rules/join_enum.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <limits>
#include <map>
#include <utility>

namespace rfguard {

namespace {

int lowest(RelSet s) {
  return __builtin_ctzll(s);
}

RelSet bit(int i) {
  return RelSet{1} << i;
}

/// Neighbours of each relation through binary predicates (the edges of DPccp's graph).
std::vector<RelSet> adjacency(const JoinGraph& g) {
  std::vector<RelSet> adj(g.rows.size(), 0);
  for (const auto& p : g.predicates) {
    if (__builtin_popcountll(p.rels) != 2) continue;
    int a = lowest(p.rels), b = lowest(p.rels & (p.rels - 1));
    adj[static_cast<size_t>(a)] |= bit(b);
    adj[static_cast<size_t>(b)] |= bit(a);
  }
  return adj;
}

/// Adds a join node over two existing nodes of `t`.
int addJoin(JoinTree& t, const JoinGraph& g, int a, int b) {
  JoinTree::Node n;
  n.set = t.nodes[static_cast<size_t>(a)].set | t.nodes[static_cast<size_t>(b)].set;
  n.left = a;
  n.right = b;
  n.rows = g.cardinality(n.set);
  t.nodes.push_back(n);
  t.cost += n.rows;
  return static_cast<int>(t.nodes.size()) - 1;
}

int addLeaf(JoinTree& t, const JoinGraph& g, int relation) {
  JoinTree::Node n;
  n.set = bit(relation);
  n.relation = relation;
  n.rows = g.rows[static_cast<size_t>(relation)];
  t.nodes.push_back(n);
  return static_cast<int>(t.nodes.size()) - 1;
}

/// Greedy operator ordering over existing subtrees `roots` of `t`: each round
/// joins the connected pair with the smallest result, or the two smallest trees
/// when no predicate connects any pair. One pass over the predicates per round
/// finds the connected pairs and their selectivities, so a block of n
/// relations and m predicates costs O(n m), not O(n^3) cardinality calls.
int greedyOver(JoinTree& t, const JoinGraph& g, std::vector<int> roots) {
  if (roots.size() == 1) return roots[0];  // one tree, nothing to join
  std::vector<int> owner(g.rows.size(), -1);
  while (roots.size() > 1) {
    for (size_t i = 0; i < roots.size(); ++i)
      for (RelSet r = t.nodes[static_cast<size_t>(roots[i])].set; r; r &= r - 1)
        owner[static_cast<size_t>(lowest(r))] = static_cast<int>(i);
    std::map<std::pair<int, int>, double> pairs;  // connected pair -> product of selectivities
    for (const auto& p : g.predicates) {
      int a = -1, b = -1;
      bool more = false;
      for (RelSet r = p.rels; r; r &= r - 1) {
        int o = owner[static_cast<size_t>(lowest(r))];
        if (a < 0 || o == a) {
          a = o;
        } else if (b < 0 || o == b) {
          b = o;
        } else {
          more = true;
        }
      }
      if (b < 0 || more) continue;
      auto key = std::minmax(a, b);
      auto it = pairs.emplace(key, 1.0).first;
      it->second *= p.selectivity;
    }
    auto rowsOf = [&](size_t i) { return t.nodes[static_cast<size_t>(roots[i])].rows; };
    size_t bi = 0, bj = 1;
    double best = std::numeric_limits<double>::infinity();
    if (!pairs.empty()) {
      for (const auto& [key, sel] : pairs) {
        double rows =
            rowsOf(static_cast<size_t>(key.first)) * rowsOf(static_cast<size_t>(key.second)) * sel;
        if (rows < best)
          best = rows, bi = static_cast<size_t>(key.first), bj = static_cast<size_t>(key.second);
      }
    } else {
      for (size_t i = 0; i < roots.size(); ++i)
        for (size_t j = i + 1; j < roots.size(); ++j)
          if (rowsOf(i) * rowsOf(j) < best) best = rowsOf(i) * rowsOf(j), bi = i, bj = j;
    }
    int joined = addJoin(t, g, roots[bi], roots[bj]);
    roots.erase(roots.begin() + static_cast<long>(bj));
    roots[bi] = joined;
  }
  return roots[0];
}

/// DPccp on one component (connected through binary predicates), relations
/// renumbered breadth-first as the algorithm requires.
class Dpccp {
 public:
  Dpccp(const JoinGraph& g, const std::vector<RelSet>& adj, RelSet component, long long budget)
      : g_(g), budget_(budget) {
    // Breadth-first numbering from the component's lowest relation.
    std::vector<int> queue;
    queue.reserve(static_cast<size_t>(__builtin_popcountll(component)));
    queue.push_back(lowest(component));
    RelSet seen = bit(queue[0]);
    for (size_t i = 0; i < queue.size(); ++i) {
      RelSet next = adj[static_cast<size_t>(queue[i])] & component & ~seen;
      for (; next; next &= next - 1) {
        queue.push_back(lowest(next));
        seen |= bit(lowest(next));
      }
    }
    order_ = std::move(queue);
    std::vector<int> local(g.rows.size(), -1);
    for (size_t k = 0; k < order_.size(); ++k)
      local[static_cast<size_t>(order_[k])] = static_cast<int>(k);
    adj_.assign(order_.size(), 0);
    for (size_t k = 0; k < order_.size(); ++k)
      for (RelSet n = adj[static_cast<size_t>(order_[k])] & component; n; n &= n - 1)
        adj_[k] |= bit(local[static_cast<size_t>(lowest(n))]);
  }

  /// Runs the DP; false when the pair budget ran out.
  bool run() {
    int n = static_cast<int>(order_.size());
    assert(n <= 24 && "the DP's tables are indexed by subsets");
    best_.assign(size_t{1} << n, Entry{});
    rows_.assign(size_t{1} << n, -1);
    for (int k = 0; k < n; ++k) best_[bit(k)] = {0, 0, 0};
    for (int i = n - 1; i >= 0; --i) {
      if (!emitCsg(bit(i))) return false;
      if (!enumerateCsgRec(bit(i), below(i))) return false;
    }
    return true;
  }

  /// Builds the best tree for the whole component into `t`; returns its root.
  int build(JoinTree& t) const { return build(t, (RelSet{1} << order_.size()) - 1); }
  long long pairs() const { return pairs_; }

 private:
  struct Entry {
    double cost = -1;            // -1: no plan yet
    RelSet left = 0, right = 0;  // local sets; 0 for a relation
  };

  static RelSet below(int i) { return (RelSet{1} << (i + 1)) - 1; }  // B_i = {v_j | j <= i}

  RelSet neighbours(RelSet s) const {
    RelSet n = 0;
    for (RelSet r = s; r; r &= r - 1) n |= adj_[static_cast<size_t>(lowest(r))];
    return n & ~s;
  }

  RelSet global(RelSet local) const {
    RelSet out = 0;
    for (; local; local &= local - 1) out |= bit(order_[static_cast<size_t>(lowest(local))]);
    return out;
  }

  double rows(RelSet local) {
    double& r = rows_[local];
    if (r < 0) r = g_.cardinality(global(local));
    return r;
  }

  // Subsets of a neighbourhood in increasing order ("subsets first"): together
  // with the breadth-first numbering this emits every pair after both halves.
  bool enumerateCsgRec(RelSet s, RelSet x) {
    RelSet n = neighbours(s) & ~x;
    if (!n) return true;
    for (RelSet sub = (RelSet{0} - n) & n; sub; sub = (sub - n) & n)
      if (!emitCsg(s | sub)) return false;
    for (RelSet sub = (RelSet{0} - n) & n; sub; sub = (sub - n) & n)
      if (!enumerateCsgRec(s | sub, x | n)) return false;
    return true;
  }

  bool emitCsg(RelSet s1) {
    RelSet x = s1 | below(lowest(s1));
    RelSet n = neighbours(s1) & ~x;
    for (int i = 63 - __builtin_clzll(n | 1); n && i >= 0; --i) {
      if (!(n & bit(i))) continue;
      if (!emitPair(s1, bit(i))) return false;
      if (!enumerateCmpRec(s1, bit(i), x | (below(i) & n))) return false;
    }
    return true;
  }

  bool enumerateCmpRec(RelSet s1, RelSet s2, RelSet x) {
    RelSet n = neighbours(s2) & ~x;
    if (!n) return true;
    for (RelSet sub = (RelSet{0} - n) & n; sub; sub = (sub - n) & n)
      if (!emitPair(s1, s2 | sub)) return false;
    for (RelSet sub = (RelSet{0} - n) & n; sub; sub = (sub - n) & n)
      if (!enumerateCmpRec(s1, s2 | sub, x | n)) return false;
    return true;
  }

  bool emitPair(RelSet s1, RelSet s2) {
    if (++pairs_ > budget_) return false;
    const Entry &a = best_[s1], &b = best_[s2];
    assert(a.cost >= 0 && b.cost >= 0 && "DPccp emits a pair after both halves");
    RelSet s = s1 | s2;
    double cost = a.cost + b.cost + rows(s);
    Entry& e = best_[s];
    if (e.cost < 0 || cost < e.cost) e = {cost, s1, s2};
    return true;
  }

  int build(JoinTree& t, RelSet local) const {
    const Entry& e = best_[local];
    if (!e.left) return addLeaf(t, g_, order_[static_cast<size_t>(lowest(local))]);
    int a = build(t, e.left);
    int b = build(t, e.right);
    return addJoin(t, g_, a, b);
  }

  const JoinGraph& g_;
  long long budget_;
  std::vector<int> order_;    // local index -> relation
  std::vector<RelSet> adj_;   // local adjacency
  std::vector<Entry> best_;   // by local set
  std::vector<double> rows_;  // by local set, -1 until computed
  long long pairs_ = 0;
};

/// The components of the graph's binary predicates, in order of their lowest relation.
std::vector<RelSet> components(const std::vector<RelSet>& adj) {
  std::vector<RelSet> out;
  RelSet seen = 0;
  for (size_t i = 0; i < adj.size(); ++i) {
    if (seen & bit(static_cast<int>(i))) continue;
    RelSet comp = bit(static_cast<int>(i)), frontier = comp;
    while (frontier) {
      RelSet next = 0;
      for (RelSet f = frontier; f; f &= f - 1) next |= adj[static_cast<size_t>(lowest(f))];
      frontier = next & ~comp;
      comp |= next;
    }
    seen |= comp;
    out.push_back(comp);
  }
  return out;
}

}  // namespace

RelSet lowBits(size_t n) {
  return n >= 64 ? ~RelSet{0} : (RelSet{1} << n) - 1;
}

double JoinGraph::cardinality(RelSet set) const {
  double r = 1;
  for (RelSet s = set; s; s &= s - 1) r *= rows[static_cast<size_t>(lowest(s))];
  for (const auto& p : predicates)
    if (p.rels && (p.rels & ~set) == 0) r *= p.selectivity;
  return r;
}

bool JoinGraph::connects(RelSet a, RelSet b) const {
  for (const auto& p : predicates)
    if ((p.rels & a) && (p.rels & b) && (p.rels & ~(a | b)) == 0) return true;
  return false;
}

std::string JoinTree::text() const {
  std::function<std::string(int)> rec = [&](int i) -> std::string {
    const Node& n = nodes[static_cast<size_t>(i)];
    if (n.relation >= 0) return std::to_string(n.relation);
    return "(" + rec(n.left) + " " + rec(n.right) + ")";
  };
  return root < 0 ? "" : rec(root);
}

JoinTree greedyJoins(const JoinGraph& g) {
  assert(!g.rows.empty() && g.rows.size() <= 64);
  JoinTree t;
  std::vector<int> roots;
  for (size_t i = 0; i < g.rows.size(); ++i) roots.push_back(addLeaf(t, g, static_cast<int>(i)));
  t.root = greedyOver(t, g, std::move(roots));
  t.method = "greedy";
  return t;
}

JoinTree enumerateJoins(const JoinGraph& g, const EnumerateOptions& options) {
  assert(!g.rows.empty() && g.rows.size() <= 64);
  auto adj = adjacency(g);
  auto comps = components(adj);
  JoinTree t;
  t.nodes.reserve(2 * g.rows.size());  // n leaves and n - 1 joins
  std::vector<int> roots;
  roots.reserve(comps.size());
  bool dp = false, greedy = comps.size() > 1;
  for (RelSet comp : comps) {
    int size = __builtin_popcountll(comp);
    if (size <= options.dpLimit) {
      Dpccp d(g, adj, comp, options.pairBudget);
      if (d.run()) {
        roots.push_back(d.build(t));
        t.pairs += d.pairs();
        dp = true;
        continue;
      }
      t.pairs += d.pairs();
    }
    std::vector<int> leaves;
    for (RelSet r = comp; r; r &= r - 1) leaves.push_back(addLeaf(t, g, lowest(r)));
    roots.push_back(greedyOver(t, g, std::move(leaves)));
    greedy = true;
  }
  t.root = greedyOver(t, g, std::move(roots));
  t.method = dp && greedy ? "dpccp+greedy" : dp ? "dpccp" : "greedy";
  return t;
}

JoinTree exhaustiveJoins(const JoinGraph& g) {
  size_t n = g.rows.size();
  assert(n >= 1 && n <= 20);
  auto adj = adjacency(g);
  struct Entry {
    double cost = -1;  // -1: not a connected set
    RelSet left = 0;
  };
  std::vector<Entry> best(size_t{1} << n);
  for (size_t i = 0; i < n; ++i) best[bit(static_cast<int>(i))].cost = 0;
  for (RelSet s = 1; s < (RelSet{1} << n); ++s) {
    if (__builtin_popcountll(s) < 2) continue;
    double rows = g.cardinality(s);
    for (RelSet s1 = (s - 1) & s; s1; s1 = (s1 - 1) & s) {
      RelSet s2 = s & ~s1;
      const Entry &a = best[s1], &b = best[s2];
      if (a.cost < 0 || b.cost < 0) continue;
      bool edge = false;
      for (RelSet r = s1; r && !edge; r &= r - 1)
        edge = (adj[static_cast<size_t>(lowest(r))] & s2) != 0;
      if (!edge) continue;
      double cost = a.cost + b.cost + rows;
      if (best[s].cost < 0 || cost < best[s].cost) best[s] = {cost, s1};
    }
  }
  JoinTree t;
  std::function<int(RelSet)> build = [&](RelSet s) {
    if (__builtin_popcountll(s) == 1) return addLeaf(t, g, lowest(s));
    int a = build(best[s].left);
    int b = build(s & ~best[s].left);
    return addJoin(t, g, a, b);
  };
  RelSet all = (RelSet{1} << n) - 1;
  assert(best[all].cost >= 0 && "exhaustiveJoins needs a connected graph");
  t.root = build(all);
  t.method = "exhaustive";
  return t;
}

}  // namespace rfguard
