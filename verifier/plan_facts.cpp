#include <cassert>

#include "verifier/plan_facts.h"

namespace rfguard {

PlanFacts::PlanFacts(const PlanNode& root) {
  span_.reserve(64);  // a TPC-H plan has a few dozen nodes: no rehash on the way
  int clock = 0;
  visit(root, nullptr, clock);
}

void PlanFacts::visit(const PlanNode& n, const PlanNode* parent, int& clock) {
  Span& s = span_[&n];
  s.tin = clock++;
  s.parent = parent;
  for (const auto& f : n.runtimeFilters) producers[f.id].push_back({&n, &f});
  for (const auto& t : n.runtimeFilterTargets) {
    consumersOf[t.id].push_back(consumers.size());
    consumers.push_back({&n, &t});
  }
  for (const auto& c : n.children) visit(*c, &n, clock);
  span_[&n].tout = clock;
}

bool PlanFacts::within(const PlanNode* outer, const PlanNode* inner) const {
  if (!outer || !inner) return false;
  const Span& o = span_.at(outer);
  const Span& i = span_.at(inner);
  return o.tin <= i.tin && i.tin < o.tout;
}

std::vector<int> PlanFacts::waitingOn(const PlanNode* n) const {
  std::vector<int> ids;
  for (const PlanNode* cur = n; cur;) {
    const PlanNode* parent = span_.at(cur).parent;
    if (parent && parent->op == PlanOp::Join && parent->children.size() > 1 &&
        parent->children[1].get() == cur)
      for (const auto& f : parent->runtimeFilters) ids.push_back(f.id);
    cur = parent;
  }
  return ids;
}

const PlanNode* PlanFacts::probeRoot(const Producer& p) const {
  const PlanNode& n = *p.node;
  if (n.op == PlanOp::Join) return n.children[0].get();
  // A TopN filter applies below its sort: Limit -> Sort -> input.
  const PlanNode* c = n.children[0].get();
  return c->op == PlanOp::Sort ? c->children[0].get() : c;
}

const PlanNode* PlanFacts::buildRoot(const Producer& p) const {
  return p.node->op == PlanOp::Join ? p.node->children[1].get() : nullptr;
}

std::vector<const PlanNode*> PlanFacts::path(const PlanNode* from, const PlanNode* to) const {
  assert(within(from, to));
  std::vector<const PlanNode*> out;
  for (const PlanNode* n = to; n != from; n = span_.at(n).parent) out.push_back(n);
  out.push_back(from);
  return {out.rbegin(), out.rend()};
}

}  // namespace rfguard
