// Dropping free joins from a slice. In a star join the producer of a filter
// on the fact table's key sits above the fact table's joins to every other
// dimension, and the filter's slice keeps all of them, each with a free table:
// eight tables at bound 1 are already millions of databases. Such a join J of
// a path node R with a free table T, under ancestors that each keep or drop
// R's rows one by one, does not change whether the slice returns the same rows
// with the filter as without:
//
// Every ancestor up to the producer P is a Filter, a Project or a join whose
// output rows on J's side come from one row of that side each (inner and cross
// joins on either side, the join-type table's innerJoinsCommuteOn side of the
// others: LEFT's left, a semi or anti join's probe side). The slice's output is
// then a bag union over R's rows r of x(r), whatever comes from r; with J it is
// the union of x(r) extended by each row t of T that J's condition c(r, t)
// accepts, provided no ancestor reads T's columns. When the columns c reads
// from R reach P's output unchanged, the matches of r are a function of each
// row of x(r): equal bags without J (with the filter and without) stay equal
// after each output row is repeated and extended by its matches. So the slice
// without J being safe for all inputs implies it with J.
//
// Counterexample for each condition left out: a FULL JOIN above J pads the
// rows of the other side that lose their only match when T holds nothing for
// it; a Project that drops c's columns before P lets two rows that differ only
// there (one filtered, one not) give the same x(r) but different matches; an
// Aggregate above J counts the matches.
#include <set>

#include "verifier/slices.h"

namespace rfguard {

namespace {

/// A free table the slice made for a child off every path, consuming nothing:
/// a Project over a scan of "sub<id>" (slices.cpp freeTable).
bool plainFreeTable(const PlanNode& n) {
  if (n.op != PlanOp::Project || n.children.size() != 1) return false;
  const PlanNode& scan = *n.children[0];
  return isFreeTableScan(scan) && scan.runtimeFilterTargets.empty() && scan.runtimeFilters.empty();
}

/// True when `n` keeps or drops the rows of child `side` one by one (see above).
bool rowBySide(const PlanNode& n, size_t side) {
  switch (n.op) {
    case PlanOp::Filter:
      return !n.predicate || isDeterministic(*n.predicate);
    case PlanOp::Project:
      for (const auto& ne : n.exprs)
        if (!isDeterministic(*ne.expr)) return false;
      return true;
    case PlanOp::Join: {
      const JoinTypeInfo& info = joinInfo(n.joinType);
      return (info.freelyReordered || info.innerJoinsCommuteOn == static_cast<int>(side)) &&
             info.outputs[side] && (!n.predicate || isDeterministic(*n.predicate));
    }
    default:
      return false;
  }
}

/// The columns a node's own expressions read, its filters' keys and targets included.
void readBy(const PlanNode& n, std::set<std::string>& out) {
  forEachExpr(n, [&](const ExprPtr& e) {
    for (const auto& c : columnsOf(*e)) out.insert(c);
  });
  for (const auto& rf : n.runtimeFilters)
    for (const auto* e : {&rf.probe, &rf.build})
      if (*e)
        for (const auto& c : columnsOf(**e)) out.insert(c);
  for (const auto& t : n.runtimeFilterTargets)
    for (const auto& c : columnsOf(*t.target)) out.insert(c);
}

struct Dropper {
  std::set<std::string> rootOutput;
  int dropped = 0;

  /// `above` holds what the ancestors read; `chain` the ancestors, nearest last.
  void visit(PlanPtr& slot, std::set<std::string> above, std::vector<const PlanNode*>& chain) {
    for (bool again = true; again;) {
      again = false;
      PlanNode& n = *slot;
      if (n.op != PlanOp::Join || n.children.size() != 2 || !rowBySide(n, 0) || !rowBySide(n, 1) ||
          !n.runtimeFilters.empty() || !n.runtimeFilterTargets.empty())
        break;
      for (size_t f = 0; f < 2 && !again; ++f) {
        const PlanNode& free = *n.children[f];
        const PlanPtr& path = n.children[1 - f];
        if (!plainFreeTable(free) || plainFreeTable(*path)) continue;
        bool read = false;
        for (const auto& c : free.output) read = read || above.count(c.id);
        bool carried = true;
        if (n.predicate)
          for (const auto& c : columnsOf(*n.predicate))
            if (!produces(free, c)) carried = carried && reachesOutput(c, chain);
        if (read || !carried) continue;
        slot = path;  // J goes; R takes its place
        ++dropped;
        again = true;
      }
    }
    PlanNode& n = *slot;
    std::set<std::string> mine = above;
    readBy(n, mine);
    chain.push_back(&n);
    for (size_t i = 0; i < n.children.size(); ++i)
      if (rowBySide(n, i)) visit(n.children[i], mine, chain);
    chain.pop_back();
  }

  /// True when column `c` of a node below `chain` reaches the slice's output as it is.
  bool reachesOutput(const std::string& c, const std::vector<const PlanNode*>& chain) const {
    if (!rootOutput.count(c)) return false;
    for (const PlanNode* a : chain)
      if (a->op == PlanOp::Project && !passesUnchanged(*a, c)) return false;
    return true;
  }
};

}  // namespace

int dropFreeJoins(PlanPtr& slice) {
  Dropper d;
  for (const auto& c : slice->output) d.rootOutput.insert(c.id);
  std::set<std::string> above;
  readBy(*slice, above);
  std::vector<const PlanNode*> chain{slice.get()};
  for (size_t i = 0; i < slice->children.size(); ++i)
    if (rowBySide(*slice, i)) d.visit(slice->children[i], above, chain);
  if (d.dropped) refreshOutputs(*slice);
  return d.dropped;
}

}  // namespace rfguard
