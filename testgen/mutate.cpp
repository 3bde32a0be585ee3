#include "testgen/mutate.h"

#include <functional>
#include <map>

#include "rules/rf_hooks.h"

namespace rfguard {

namespace {

void preorder(PlanNode& n, std::vector<PlanNode*>& out) {
  out.push_back(&n);
  for (auto& c : n.children) preorder(*c, out);
}

PlanNode* byId(PlanNode& root, int id) {
  std::vector<PlanNode*> all;
  preorder(root, all);
  for (PlanNode* n : all)
    if (n->id == id) return n;
  return nullptr;
}

std::vector<PlanNode*> scansUnder(PlanNode& n) {
  std::vector<PlanNode*> all, out;
  preorder(n, all);
  for (PlanNode* x : all)
    if (x->op == PlanOp::Scan) out.push_back(x);
  return out;
}

int maxId(PlanNode& root) {
  std::vector<PlanNode*> all;
  preorder(root, all);
  int m = 0;
  for (PlanNode* n : all) m = std::max(m, n->id);
  for (PlanNode* n : all)
    for (const auto& f : n->runtimeFilters) m = std::max(m, f.id);
  return m;
}

/// A column of `scan` of the type of `like`: `like` itself if the scan has it.
ExprPtr columnLike(const PlanNode& scan, const ExprPtr& like) {
  for (const auto& c : scan.tableColumns)
    if (like->kind == ExprKind::Column && c.id == like->name)
      return makeColumn(c.id, c.type, c.nullable);
  for (const auto& c : scan.tableColumns)
    if (c.type.toString() == like->type.toString()) return makeColumn(c.id, c.type, c.nullable);
  return nullptr;
}

bool consumes(const PlanNode& scan, int id) {
  for (const auto& t : scan.runtimeFilterTargets)
    if (t.id == id) return true;
  return false;
}

/// The codes that name each kind of edit.
std::vector<std::string> expected(const std::string& kind) {
  static const std::map<std::string, std::vector<std::string>> kExpect = {
      {"drop-null-allowed", {"null-flag-mismatch"}},
      {"outer-producer", {"producer-join-type"}},
      {"anti-probe", {"producer-join-type"}},
      {"into-build", {"consumer-in-build-side"}},
      {"rename-producer", {"duplicate-filter-id"}},
      {"rename-consumer", {"unknown-filter"}},
      {"below-limit", {"crossed-limit"}},
      {"null-side",
       {"unsafe-null-generating-side", "unsafe-equality-copy", "target-not-derivable"}},
  };
  return kExpect.at(kind);
}

struct Mutator {
  const PlanNode& source;
  std::vector<Mutant> out;

  /// Clones the source, applies `edit` to the clone; keeps it when the edit applied.
  void make(const std::string& kind, const std::string& what,
            const std::function<bool(PlanNode&)>& edit) {
    PlanPtr copy = clonePlan(source);
    if (edit(*copy)) out.push_back({kind, what, copy, expected(kind)});
  }

  void run() {
    PlanPtr view = clonePlan(source);  // read-only walk for ids
    std::vector<PlanNode*> all;
    preorder(*view, all);
    for (PlanNode* n : all) {
      for (const auto& f : n->runtimeFilters) producerEdits(*n, f);
      for (size_t i = 0; i < n->runtimeFilterTargets.size(); ++i) consumerEdits(*view, *n, i);
      if (n->op == PlanOp::Join && joinInfo(n->joinType).outputs[1] == false &&
          !joinInfo(n->joinType).probeRowsOnlyIfMatched)
        antiProbe(*n);
    }
  }

  void producerEdits(PlanNode& p, const RuntimeFilter& f) {
    const int pid = p.id, fid = f.id;
    if (f.nullAllowed && p.op == PlanOp::Join)
      make("drop-null-allowed", "RF" + std::to_string(fid) + " loses null_allowed",
           [&](PlanNode& r) {
             for (auto& g : byId(r, pid)->runtimeFilters)
               if (g.id == fid) g.nullAllowed = false;
             return true;
           });
    // A filter beside its join only stays safe at a LEFT join: the rows it
    // pads carry NULL up, which no `=` above matches (rules/rf_sideways.cpp).
    if (p.op == PlanOp::Join && !isLeftOuter(p.joinType) && !f.besideOnly)
      make("outer-producer", nodeRef(p) + " becomes a LEFT join", [&](PlanNode& r) {
        byId(r, pid)->joinType = JoinType::Left;
        refreshOutputs(r);
        return true;
      });
    if (p.op == PlanOp::Join)
      for (PlanNode* s : scansUnder(*p.children[1])) {
        ExprPtr t = columnLike(*s, f.build);
        if (!t) continue;
        const int sid = s->id;
        make("into-build",
             "RF" + std::to_string(fid) + " consumed in its build side at " + nodeRef(*s) + " as " +
                 exprToString(*t),
             [&](PlanNode& r) {
               byId(r, sid)->runtimeFilterTargets.push_back({fid, t});
               return true;
             });
      }
    // Another producer takes this id: two producers of one filter.
    make("rename-producer", "RF" + std::to_string(fid) + " produced twice", [&](PlanNode& r) {
      std::vector<PlanNode*> nodes;
      preorder(r, nodes);
      for (PlanNode* n : nodes)
        for (auto& g : n->runtimeFilters)
          if (g.id != fid) {
            g.id = fid;
            return true;
          }
      return false;
    });
  }

  void consumerEdits(PlanNode& root, PlanNode& scan, size_t i) {
    const FilterTarget t = scan.runtimeFilterTargets[i];
    const int sid = scan.id;
    const std::string rf = "RF" + std::to_string(t.id);
    // An ORDER BY under the limit: without one, any 10 rows are an answer the
    // query allows, and a filter below is sound under that nondeterminism
    // (crossed-unordered-limit, a warning), not the error this mutant plants.
    make("below-limit", rf + " at " + nodeRef(scan) + " below a new ORDER BY ... LIMIT 10",
         [&](PlanNode& r) {
           std::vector<PlanNode*> nodes;
           preorder(r, nodes);
           const int fresh = maxId(r) + 1;
           for (PlanNode* n : nodes)
             for (auto& c : n->children)
               if (c->id == sid && !c->output.empty()) {
                 auto sort = makePooled<PlanNode>();
                 sort->op = PlanOp::Sort;
                 sort->id = fresh + 1;
                 const Column& first = c->output[0];
                 sort->sortKeys.push_back({makeColumn(first.id.str(), first.type, first.nullable)});
                 sort->children.push_back(c);
                 computeOutput(*sort);
                 auto lim = makePooled<PlanNode>();
                 lim->op = PlanOp::Limit;
                 lim->id = fresh;
                 lim->limit = 10;
                 lim->children.push_back(sort);
                 computeOutput(*lim);
                 c = lim;
                 return true;
               }
           return false;
         });
    make("rename-consumer", rf + " at " + nodeRef(scan) + " renamed", [&](PlanNode& r) {
      auto& g = byId(r, sid)->runtimeFilterTargets[i];
      g.id = maxId(r) + 1;
      return true;
    });
    // Into a NULL-generating side below the producer, where this filter is not consumed.
    std::vector<PlanNode*> nodes;
    preorder(root, nodes);
    PlanNode* producer = nullptr;
    for (PlanNode* n : nodes)
      for (const auto& f : n->runtimeFilters)
        if (f.id == t.id) producer = n;
    if (!producer) return;
    std::vector<PlanNode*> below;
    preorder(*producer->children[0], below);
    for (PlanNode* j : below) {
      if (j->op != PlanOp::Join) continue;
      for (size_t side = 0; side < 2; ++side) {
        if (!joinInfo(j->joinType).generatesNulls[side]) continue;
        for (PlanNode* s : scansUnder(*j->children[side])) {
          // The planner would have placed a derivable target here, unless the table refuses.
          if (s->id == sid || consumes(*s, t.id) || !s->runtimeFilterAllowed) continue;
          ExprPtr moved = columnLike(*s, t.target);
          if (!moved) continue;
          const int to = s->id;
          make("null-side",
               rf + " moved from " + nodeRef(scan) + " into the NULL-generating side of " +
                   nodeRef(*j) + " at " + nodeRef(*s) + " as " + exprToString(*moved),
               [&](PlanNode& r) {
                 auto& ts = byId(r, sid)->runtimeFilterTargets;
                 ts.erase(ts.begin() + static_cast<long>(i));
                 byId(r, to)->runtimeFilterTargets.push_back({t.id, moved});
                 return true;
               });
        }
      }
    }
  }

  /// A filter from an anti join's own condition onto its probe side.
  void antiProbe(PlanNode& j) {
    if (!j.predicate) return;
    const int jid = j.id;
    for (const auto& conj : conjuncts(j.predicate)) {
      auto s = splitConjunct(j, conj);
      if (!s || !isEquality(s->op)) continue;
      for (PlanNode* scan : scansUnder(*j.children[0])) {
        ExprPtr t = columnLike(*scan, s->probe);
        if (!t || !exprEquals(t, s->probe)) continue;
        const int sid = scan->id;
        make("anti-probe", nodeRef(j) + " filters its probe side at " + nodeRef(*scan),
             [&](PlanNode& r) {
               RuntimeFilter f;
               f.id = maxId(r) + 1;
               f.probe = s->probe;
               f.build = s->build;
               f.op = s->op;
               f.nullAllowed = s->op == CmpOp::NullSafeEq;
               f.kinds = {FilterKind::Bloom};
               byId(r, jid)->runtimeFilters.push_back(f);
               byId(r, sid)->runtimeFilterTargets.push_back({f.id, t});
               return true;
             });
      }
    }
  }
};

}  // namespace

std::vector<Mutant> mutatePlacement(const PlanNode& root) {
  Mutator m{root, {}};
  m.run();
  return std::move(m.out);
}

}  // namespace rfguard
