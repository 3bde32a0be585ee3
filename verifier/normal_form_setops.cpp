// The normal form's set-operation laws (normal_form_laws.h, kSetOps): filters
// into set operations and copied between their inputs, set operations
// flattened, an input repeated in a UNION dropped, UNION as DISTINCT over
// UNION ALL.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/comparison.h"
#include "ir/join_type.h"
#include "verifier/normal_form_laws.h"

namespace rfguard::normal_form {

namespace {

bool setOperation(const PlanNode& n) {
  return n.op == PlanOp::Union || n.op == PlanOp::Intersect || n.op == PlanOp::Except;
}

/// The conjuncts known of `input`'s rows over its columns by position
/// ("$pos.0"...), where they read only its columns.
Conjuncts positional(const PlanNode& input) {
  std::map<std::string, ExprPtr> as;
  for (size_t j = 0; j < input.output.size(); ++j) {
    const Column& c = input.output[j];
    as.emplace(c.id.str(), makeColumn("$pos." + std::to_string(j), c.type, c.nullable));
  }
  Conjuncts out;
  for (const auto& c : knownOf(input))
    if (movable(*c) && !hasSubquery(*c) && hasColumnRef(*c) &&
        allColumnRefs(*c, [&](const std::string& id) { return as.count(id) > 0; }))
      out.push_back(substitute(c, as));
  return out;
}

/// The same column types by position.
bool sameTypes(const PlanNode& a, const PlanNode& b) {
  if (a.output.size() != b.output.size()) return false;
  for (size_t j = 0; j < a.output.size(); ++j)
    if (a.output[j].type.toString() != b.output[j].type.toString()) return false;
  return true;
}

}  // namespace

/// A filter over a set operation filters each of its inputs, its condition
/// reading their columns in the same positions: a row of the result passes
/// exactly when its copies in the inputs do, so for UNION, INTERSECT and
/// EXCEPT, ALL or not, the counts of the rows that pass are unchanged and the
/// others are gone either way.
bool filterIntoSetOperation(PlanPtr& slot) {
  PlanNode& f = *slot;
  if (!plainFilter(f)) return false;
  const PlanNode& op = *f.children[0];
  if (!setOperation(op)) return false;
  auto copy = makePooled<PlanNode>(op);
  for (auto& child : copy->children) {
    auto as = byPosition(op, *child);
    if (!as) return false;
    auto filter = makePooled<PlanNode>();
    filter->op = PlanOp::Filter;
    filter->predicate = substitute(f.predicate, *as);
    filter->children = {child};
    computeOutput(*filter);
    child = filter;
  }
  computeOutput(*copy);
  slot = copy;
  return true;
}

bool filtersAcrossSetOperation(PlanNode& n, unsigned identities) {
  // A row of an INTERSECT [ALL] is counted min(m1, m2, ...) times, its counts
  // in the inputs; where one input's rows all satisfy p (by position), a row
  // that fails p has count 0 there and is not in the result, and a row that
  // satisfies it has the same count in every other input filtered by p, so
  // each input may be filtered by p. EXCEPT [ALL] counts max(m1 - m2 - ..., 0):
  // its first input's conjuncts filter the others likewise (A - B where A
  // satisfies p is A - (B where p)), not the other way round. Rows equal
  // under the set operation have the same values, so p (deterministic, no
  // subquery) is the same on their copies. Counterexample the other way, p =
  // k > 1 of EXCEPT's second input: A = {1}, B = {}: A - B = {1}, and A where
  // p minus B is {}.
  if ((n.op != PlanOp::Intersect && n.op != PlanOp::Except) || n.children.size() < 2) return false;
  const Canon canon(identities);
  std::vector<std::set<std::string>> have(n.children.size());
  std::vector<Conjuncts> known(n.children.size());
  for (size_t i = 0; i < n.children.size(); ++i) {
    known[i] = positional(*n.children[i]);
    for (const auto& c : known[i]) have[i].insert(canon.expr(*c).dump());
  }
  const size_t sources = n.op == PlanOp::Intersect ? n.children.size() : 1;
  bool changed = false;
  for (size_t t = 0; t < n.children.size(); ++t) {
    const PlanNode& target = *n.children[t];
    std::map<std::string, ExprPtr> back;
    for (size_t j = 0; j < target.output.size(); ++j) {
      const Column& c = target.output[j];
      back.emplace("$pos." + std::to_string(j), makeColumn(c.id.str(), c.type, c.nullable));
    }
    Conjuncts add;
    for (size_t s = 0; s < sources; ++s) {
      if (s == t || !sameTypes(*n.children[s], target)) continue;
      for (const auto& c : known[s])
        if (have[t].insert(canon.expr(*c).dump()).second) add.push_back(substitute(c, back));
    }
    if (add.empty()) continue;
    auto filter = makePooled<PlanNode>();
    filter->op = PlanOp::Filter;
    filter->predicate = makeAnd(add);
    filter->children = {n.children[t]};
    computeOutput(*filter);
    n.children[t] = filter;
    changed = true;
  }
  return changed;
}

/// A projection that only renames the columns of the set operation below it,
/// all of them in their order, is that set operation under the new names:
/// nothing but the projection reads the set operation's own names.
bool renamingOverSetOperation(PlanPtr& slot) {
  PlanNode& p = *slot;
  if (p.op != PlanOp::Project || p.children.size() != 1) return false;
  const PlanNode& op = *p.children[0];
  if (!setOperation(op) || p.exprs.size() != op.outNames.size()) return false;
  std::set<std::string> names;
  for (size_t j = 0; j < p.exprs.size(); ++j)
    if (p.exprs[j].expr->kind != ExprKind::Column || p.exprs[j].expr->name != op.outNames[j] ||
        !names.insert(p.exprs[j].name).second)
      return false;
  auto copy = makePooled<PlanNode>(op);
  for (size_t j = 0; j < p.exprs.size(); ++j) copy->outNames[j] = p.exprs[j].name;
  computeOutput(*copy);
  slot = copy;
  return true;
}

/// UNION (INTERSECT) of a UNION (INTERSECT) among its inputs is one set
/// operation over all their inputs: counts add up (take the least) either way
/// round, and DISTINCT of DISTINCT is DISTINCT, so an input of the same kind
/// flattens when both are ALL or the outer one is DISTINCT (the inner one's
/// duplicates go anyway). Counterexample: a DISTINCT input of an ALL, rows
/// (1), (1) in A: A UNION ALL (B UNION C) has one 1 from the inner union where
/// A UNION ALL B UNION ALL C... has two. EXCEPT is neither.
bool flattenSetOperation(PlanNode& n) {
  if (n.op != PlanOp::Union && n.op != PlanOp::Intersect) return false;
  std::vector<PlanPtr> inputs;
  bool changed = false;
  for (const auto& c : n.children) {
    if (c->op == n.op && (c->all == n.all || !n.all)) {
      inputs.insert(inputs.end(), c->children.begin(), c->children.end());
      changed = true;
    } else {
      inputs.push_back(c);
    }
  }
  if (changed) n.children = std::move(inputs);
  return changed;
}

/// UNION is DISTINCT over UNION ALL: both return each row of either input
/// once. The DISTINCT as an aggregate of its keys, under the union's names.
namespace {

/// The DISTINCT of `input` (an aggregate of its columns) under set operation
/// `op`'s names.
PlanPtr distinctAs(const PlanNode& op, const PlanPtr& input) {
  auto distinct = makePooled<PlanNode>();
  distinct->op = PlanOp::Aggregate;
  distinct->id = op.id;
  for (size_t j = 0; j < op.outNames.size(); ++j) {
    const Column& c = input->output[j];
    distinct->exprs.push_back(
        NamedExpr{op.outNames[j], makeColumn(c.id.str(), c.type, c.nullable)});
  }
  distinct->children = {input};
  computeOutput(*distinct);
  return distinct;
}

bool unionAsDistinct(PlanPtr& slot) {
  PlanNode& u = *slot;
  if (u.op != PlanOp::Union || u.all) return false;
  auto all = makePooled<PlanNode>(u);
  all->all = true;
  for (auto& name : all->outNames) name = "$union." + name;
  computeOutput(*all);
  slot = distinctAs(u, all);
  return true;
}

}  // namespace

bool unionsAsDistinct(PlanPtr& slot) {
  bool changed = false;
  for (auto& c : slot->children) changed = unionsAsDistinct(c) || changed;
  return unionAsDistinct(slot) || changed;
}

namespace {

/// The rows an EXISTS subquery reads, under the conjuncts it filters them by:
/// its plan without the projections on top (EXISTS reads no select list).
const PlanNode* existsInput(const PlanNode& plan, Conjuncts& where) {
  const PlanNode* n = &plan;
  while (n->op == PlanOp::Project && n->children.size() == 1 && substitutable(*n))
    n = n->children[0].get();
  if (n->op == PlanOp::Filter && plainFilter(*n)) {
    where = conjuncts(n->predicate);
    n = n->children[0].get();
  }
  return n;
}

}  // namespace

bool distinctSemiAsSetOperation(PlanPtr& slot) {
  // DISTINCT of the columns c of X's rows that have a match in Y (EXISTS
  // (SELECT ... FROM Y WHERE y = c AND q), or c IN (SELECT y FROM Y)) is X's
  // distinct c that are among Y's y: INTERSECT of c over X and y over Y where
  // q; those with none (NOT EXISTS) are X's EXCEPT Y's (Calcite's
  // INTERSECT_TO_SEMI_JOIN and MINUS_TO_ANTI_JOIN, read backwards). The set
  // operations match NULL with NULL, so each equality is NULL-safe or over
  // columns never NULL, of one type; every DISTINCT column is matched, once.
  // Counterexample over nullable columns: X = Y = {(NULL)}: the INTERSECT is
  // {NULL}, the semi join's `=` matches nothing.
  PlanNode& d = *slot;
  if (d.op != PlanOp::Aggregate || !d.aggs.empty() || d.exprs.empty() || !d.groupingSets.empty() ||
      d.children.size() != 1)
    return false;
  const PlanNode& f = *d.children[0];
  if (f.op != PlanOp::Filter || f.children.size() != 1 || !f.predicate) return false;
  const PlanNode& x = *f.children[0];
  std::vector<std::string> keys;
  for (const auto& ne : d.exprs) {
    if (ne.expr->kind != ExprKind::Column || !produces(x, ne.expr->name)) return false;
    keys.push_back(ne.expr->name);
  }
  const Conjuncts all = conjuncts(f.predicate);
  for (size_t at = 0; at < all.size(); ++at) {
    ExprPtr c = all[at];
    const bool negated = isCallOf(*c, "not") && c->args.size() == 1;
    if (negated) c = c->args[0];
    if (c->kind != ExprKind::Subquery || c->subquery != SubqueryKind::Exists || !c->plan) continue;
    Conjuncts where;
    const PlanNode* y = existsInput(*c->plan, where);
    if (!freeColumns(*y).empty()) continue;
    std::map<std::string, ExprPtr> matched;  // key -> Y's expression
    Conjuncts rest;
    bool ok = true;
    for (const auto& w : where) {
      bool correlated = false;
      for (const auto& col : columnsOf(*w)) correlated = correlated || !produces(*y, col);
      if (!correlated) {
        rest.push_back(w);
        continue;
      }
      // A correlated conjunct: key = expression over Y, either way round.
      const ComparisonInfo* cmp = comparisonOf(*w);
      if (!cmp || (cmp->kind != Comparison::Eq && cmp->kind != Comparison::NotDistinct)) {
        ok = false;
        break;
      }
      const bool first = w->args[0]->kind == ExprKind::Column && !produces(*y, w->args[0]->name);
      const ExprPtr& k = w->args[first ? 0 : 1];
      const ExprPtr& o = w->args[first ? 1 : 0];
      ok = k->kind == ExprKind::Column && within(*o, *y) &&
           std::find(keys.begin(), keys.end(), k->name) != keys.end() &&
           matched.emplace(k->name, o).second && k->type.toString() == o->type.toString() &&
           (cmp->nullSafe || (neverNull(*k, x) && neverNull(*o, *y)));
      if (!ok) break;
    }
    if (!ok || matched.size() != keys.size()) continue;
    // X where the other conjuncts, its keys; Y where q, the matched expressions.
    PlanPtr left = d.children[0];
    Conjuncts others;
    for (size_t i = 0; i < all.size(); ++i)
      if (i != at) others.push_back(all[i]);
    auto leftFilter = makePooled<PlanNode>(f);
    if (others.empty()) {
      left = f.children[0];
    } else {
      leftFilter->predicate = makeAnd(others);
      computeOutput(*leftFilter);
      left = leftFilter;
    }
    auto lp = makePooled<PlanNode>();
    lp->op = PlanOp::Project;
    auto rp = makePooled<PlanNode>();
    rp->op = PlanOp::Project;
    for (size_t j = 0; j < keys.size(); ++j) {
      const ExprPtr& k = d.exprs[j].expr;
      lp->exprs.push_back(NamedExpr{"$semi.l" + std::to_string(j), k});
      rp->exprs.push_back(NamedExpr{"$semi.r" + std::to_string(j), matched[keys[j]]});
    }
    lp->children = {left};
    computeOutput(*lp);
    PlanPtr right = c->plan;
    while (right.get() != y) right = right->children[0];
    if (!rest.empty()) {
      auto rf = makePooled<PlanNode>();
      rf->op = PlanOp::Filter;
      rf->predicate = makeAnd(rest);
      rf->children = {right};
      computeOutput(*rf);
      right = rf;
    }
    rp->children = {right};
    computeOutput(*rp);
    auto op = makePooled<PlanNode>();
    op->op = negated ? PlanOp::Except : PlanOp::Intersect;
    op->id = d.id;
    op->all = false;
    for (const auto& ne : d.exprs) op->outNames.push_back(ne.name);
    op->children = {lp, rp};
    computeOutput(*op);
    slot = op;
    return true;
  }
  return false;
}

bool repeatedInputs(PlanPtr& slot, unsigned identities) {
  // A UNION or INTERSECT (DISTINCT) returns each row found in any (every)
  // input once: an input whose rows are another's on every database (the
  // same form) adds nothing, and over one input left it is that input's
  // DISTINCT. Not UNION ALL, which counts both copies (a = {1}: a UNION ALL a
  // is {1, 1}). Inputs that read no column from outside themselves.
  bool changed = false;
  for (auto& c : slot->children) changed = repeatedInputs(c, identities) || changed;
  PlanNode& n = *slot;
  if ((n.op != PlanOp::Union && n.op != PlanOp::Intersect) || n.all || n.children.size() < 2)
    return changed;
  std::set<std::string> seen;
  std::vector<PlanPtr> kept;
  for (const auto& c : n.children)
    if (!freeColumns(*c).empty() || seen.insert(formOf(*c, identities)).second) kept.push_back(c);
  if (kept.size() == n.children.size()) return changed;
  if (kept.size() == 1) {
    slot = distinctAs(n, kept[0]);
  } else {
    n.children = std::move(kept);
    computeOutput(n);
  }
  return true;
}

}  // namespace rfguard::normal_form
