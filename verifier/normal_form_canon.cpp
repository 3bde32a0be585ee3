// The canonical form's expressions, nodes and joins (normal_form_canon.h).
#include "verifier/normal_form_canon.h"

#include <algorithm>

#include "ir/comparison.h"
#include "ir/functions.h"
#include "ir/printers.h"
#include "rules/normalize.h"

namespace rfguard::normal_form {

Json stripped(Json j) {
  if (j.is_object()) {
    for (const char* k :
         {"id", "loc", "estimated_rows", "runtime_filters", "runtime_filter_targets"})
      j.erase(k);
    for (auto& [k, v] : j.items()) v = stripped(std::move(v));
  } else if (j.is_array()) {
    for (auto& v : j) v = stripped(std::move(v));
  }
  return j;
}

bool deterministicPlan(const PlanNode& n) {
  bool ok = true;
  forEachExpr(n, [&](const ExprPtr& e) { ok = ok && isDeterministic(*e) && plainSubqueries(*e); });
  for (const auto& c : n.children) ok = ok && deterministicPlan(*c);
  return ok;
}

bool plainSubqueries(const Expr& e) {
  if (e.kind == ExprKind::Subquery &&
      (e.subquery == SubqueryKind::Scalar || !e.plan || !freeColumns(*e.plan).empty() ||
       !deterministicPlan(*e.plan)))
    return false;
  for (const auto& a : e.args)
    if (!plainSubqueries(*a)) return false;
  return true;
}

bool movable(const Expr& e) {
  return isDeterministic(e) && plainSubqueries(e);
}

bool isTrue(const Expr& e) {
  return e.kind == ExprKind::Literal && !e.isNull && e.type.kind == TypeKind::Boolean &&
         e.value == "true";
}

bool within(const Expr& e, const PlanNode& n) {
  auto cols = columnsOf(e);
  if (cols.empty()) return false;
  for (const auto& c : cols)
    if (!produces(n, c)) return false;
  return true;
}

bool rejectsNulls(const Expr& e, const PlanNode& side) {
  std::set<std::string> cols;
  for (const auto& c : side.output) cols.insert(c.id);
  if (e.kind == ExprKind::Call && e.name == "is_not_null" && e.args.size() == 1)
    return isNullPropagating(*e.args[0], cols);
  return isNullPropagating(e, cols);
}

Json Canon::expr(const Expr& e) const {
  if (e.kind == ExprKind::Cast)
    return Json{{"cast", expr(*e.args[0])}, {"type", e.type.toString()}};
  if (e.kind == ExprKind::Subquery && e.plan) {
    // The subquery's plan in normal form too (its column order is its result).
    const char* kind = e.subquery == SubqueryKind::In       ? "in"
                       : e.subquery == SubqueryKind::Exists ? "exists"
                                                            : "scalar";
    Json j{{"subquery", kind}};
    if (!e.args.empty()) j["arg"] = expr(*e.args[0]);
    j["output"] = outputIds(*e.plan);
    j["plan"] = node(*e.plan);
    return j;
  }
  if (e.kind != ExprKind::Call) return stripped(exprToJson(e));
  std::string name = e.name;
  std::vector<Json> args;
  for (const auto& a : e.args) args.push_back(expr(*a));
  if (ids_ & kOperands) {
    // a > b is b < a; =, <>, <=>, IS DISTINCT FROM, AND, OR do not care
    // about operand order (AND / OR only without subqueries, which may fail).
    const ComparisonInfo* cmp = comparisonOf(e);
    if (cmp && (cmp->kind == Comparison::Gt || cmp->kind == Comparison::Ge)) {
      cmp = &comparisonInfo(cmp->flipped);
      name = cmp->name;
      std::swap(args[0], args[1]);
    }
    const bool symmetric = cmp && cmp->symmetric;
    bool logical = name == "and" || name == "or";
    if (logical)
      for (const auto& a : e.args) logical = logical && !hasSubquery(*a);
    if (symmetric || logical)
      std::sort(args.begin(), args.end(),
                [](const Json& x, const Json& y) { return x.dump() < y.dump(); });
  }
  Json j{{"call", name}, {"args", args}};
  if (e.distinct) j["distinct"] = true;
  return j;
}

Json Canon::node(const PlanNode& n, const Conjuncts& pending, const Conjuncts& hints) const {
  if (pruning(n)) return node(*n.children[0], pending, hints);
  if (n.op == PlanOp::Join && n.children.size() == 2 && !overrides_.count(&n)) {
    JoinType t = simplified(n, join2(pending, hints));
    if (t != n.joinType) overrides_[&n] = t;
  }
  if ((ids_ & kBlocks) && (inBlock(n) || simplifiedToInner(n) || attachedAlong(n) >= 0))
    return block(n, pending, hints);
  if (n.op == PlanOp::Join && n.children.size() == 2) return join(n, pending, hints);
  Json j = shallow(n);
  std::vector<Json> children;
  for (const auto& c : n.children) {
    Json cj = node(*c);
    if (n.op == PlanOp::Union || n.op == PlanOp::Intersect || n.op == PlanOp::Except)
      cj = Json{{"output", outputIds(*c)}, {"input", std::move(cj)}};
    children.push_back(std::move(cj));
  }
  // UNION and INTERSECT take their inputs in any order: their rows' counts
  // add up (take the least) whichever comes first, by position.
  if ((ids_ & kSetOps) && (n.op == PlanOp::Union || n.op == PlanOp::Intersect))
    std::sort(children.begin(), children.end(),
              [](const Json& x, const Json& y) { return x.dump() < y.dump(); });
  j["children"] = children;
  return filtered(pending, std::move(j));
}

bool Canon::pruning(const PlanNode& n) const {
  if (!(ids_ & kProjections) || n.op != PlanOp::Project || n.children.size() != 1) return false;
  for (const auto& ne : n.exprs)
    if (ne.expr->kind != ExprKind::Column || ne.expr->name != ne.name) return false;
  return true;
}

std::vector<std::string> Canon::outputIds(const PlanNode& n) {
  std::vector<std::string> out;
  for (const auto& c : n.output) out.push_back(c.id);
  return out;
}

std::set<std::string> Canon::texts(const Conjuncts& cs) const {
  std::set<std::string> out;
  for (const auto& c : cs)
    if (!isTrue(*c)) out.insert(expr(*c).dump());
  return out;
}

Json Canon::filtered(const Conjuncts& cs, Json form) const {
  auto conjuncts = texts(cs);
  if (conjuncts.empty()) return form;
  return Json{{"op", "block"}, {"inputs", Json::array({form.dump()})}, {"conjuncts", conjuncts}};
}

Json Canon::shallow(const PlanNode& n) const {
  PlanNode alone = n;
  alone.children.clear();
  Json j = stripped(planToJson(alone));
  j.erase("children");
  if (n.op == PlanOp::Scan && (ids_ & kScanColumns)) j.erase("columns");
  if (n.predicate) j[n.op == PlanOp::Join ? "condition" : "predicate"] = expr(*n.predicate);
  return j;
}

bool Canon::inBlock(const PlanNode& n) const {
  if (n.op == PlanOp::Join) {
    if (!joinInfo(n.joinType).freelyReordered) return false;
  } else if (n.op != PlanOp::Filter) {
    return false;
  }
  if (!n.predicate || movable(*n.predicate)) return true;
  for (const auto& c : conjuncts(n.predicate))
    if (!movable(*c) && !asExistsJoin(c, rowsOf(n))) return false;
  return true;
}

const PlanNode& Canon::rowsOf(const PlanNode& n) {
  return n.op == PlanOp::Filter ? *n.children[0] : n;
}

Conjuncts Canon::join2(const Conjuncts& a, const Conjuncts& b) {
  Conjuncts out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

JoinType Canon::simplified(const PlanNode& n, const Conjuncts& cs) const {
  const JoinType t = n.joinType;
  const auto& info = joinInfo(t);
  if (!(ids_ & kSimplify) || !(info.generatesNulls[0] || info.generatesNulls[1])) return t;
  if (n.predicate && !movable(*n.predicate)) return t;
  // A side whose NULL-extended rows a conjunct above drops.
  auto dropped = [&](int padded) {
    if (!info.generatesNulls[padded]) return false;
    for (const auto& c : cs)
      if (rejectsNulls(*c, *n.children[static_cast<size_t>(padded)])) return true;
    return false;
  };
  return withNullsRejected(t, dropped(0), dropped(1));
}

std::optional<ExprPtr> Canon::asInConjunct(const PlanNode& n, JoinType t, int probe) const {
  // IN's join (a semi join) or NOT IN's (the NULL-aware anti join), its
  // probe side the output.
  const auto& info = joinInfo(t);
  if (!info.outputs[0] || info.outputs[1] || info.keepsMatched == info.nullAware)
    return std::nullopt;
  const PlanPtr& build = n.children[1 - probe];
  const Expr* c = n.predicate.get();
  // The input a select list of one column, as IN's subquery is (a scan's one
  // column would depend on the columns it lists).
  const ComparisonInfo* cmp = c ? comparisonOf(*c) : nullptr;
  if (!cmp || cmp->kind != Comparison::Eq || build->op != PlanOp::Project ||
      build->exprs.size() != 1 || !freeColumns(*build).empty() || !deterministicPlan(*build))
    return std::nullopt;
  const std::string& o = build->output[0].id;
  for (int i = 0; i < 2; ++i) {
    const ExprPtr& key = c->args[i];
    const ExprPtr& lhs = c->args[1 - i];
    if (key->kind != ExprKind::Column || key->name != o || hasSubquery(*lhs)) continue;
    if (!within(*lhs, *n.children[probe])) continue;
    ExprPtr in = makeSubquery(SubqueryKind::In, build, lhs, Type::of(TypeKind::Boolean));
    return info.keepsMatched ? in : makeCall("not", {in});
  }
  return std::nullopt;
}

bool Canon::simplifiedToInner(const PlanNode& n) const {
  return n.op == PlanOp::Join && !joinInfo(n.joinType).freelyReordered &&
         joinInfo(effective(n)).freelyReordered;
}

JoinType Canon::effective(const PlanNode& n) const {
  auto it = overrides_.find(&n);
  return it == overrides_.end() ? n.joinType : it->second;
}

Conjuncts Canon::factored(const ExprPtr& e) const {
  if (!(ids_ & kFactor) || e->kind != ExprKind::Call || e->name != "or" || e->args.size() < 2 ||
      !movable(*e))
    return {e};
  std::vector<Conjuncts> parts;
  for (const auto& b : e->args) parts.push_back(conjuncts(b));
  auto text = [&](const ExprPtr& x) { return expr(*x).dump(); };
  std::set<std::string> common;
  for (const auto& c : parts[0]) common.insert(text(c));
  for (size_t i = 1; i < parts.size(); ++i) {
    std::set<std::string> here, both;
    for (const auto& c : parts[i]) here.insert(text(c));
    for (const auto& t : common)
      if (here.count(t)) both.insert(t);
    common = both;
  }
  if (common.empty()) return {e};
  Conjuncts out, rest;
  std::set<std::string> added;
  for (const auto& c : parts[0])
    if (common.count(text(c)) && added.insert(text(c)).second) out.push_back(c);
  for (const auto& p : parts) {
    Conjuncts left;
    for (const auto& c : p)
      if (!common.count(text(c))) left.push_back(c);
    if (left.empty()) return out;
    rest.push_back(makeAnd(left));
  }
  out.push_back(makeCall("or", rest));
  return out;
}

Json Canon::join(const PlanNode& n, const Conjuncts& pending, const Conjuncts& hints) const {
  JoinType t = effective(n);
  const PlanNode* in[2] = {n.children[0].get(), n.children[1].get()};
  int probe = 0;
  if ((ids_ & kMirror) && joinInfo(t).mirror < t) {
    t = joinInfo(t).mirror;
    std::swap(in[0], in[1]);
    probe = 1;
  }
  if (ids_ & kSubqueries)
    if (auto conjunct = asInConjunct(n, t, probe)) {
      // The filter it decorrelates: keep it alive while the form is built.
      auto f = makePooled<PlanNode>();
      f->op = PlanOp::Filter;
      f->predicate = *conjunct;
      f->children.push_back(n.children[probe]);
      computeOutput(*f);
      synthetic_.push_back(f);
      return node(*f, pending, hints);
    }
  const auto& info = joinInfo(t);
  // LEFT, semi, anti and NOT IN joins keep or drop their left rows whole.
  const bool sink = (ids_ & kSink) && info.innerJoinsCommuteOn == 0;
  Conjuncts below[2], above, on;
  for (const auto& c : pending)
    (sink && movable(*c) && within(*c, *in[0]) ? below[0] : above).push_back(c);
  Json j = shallow(n);
  j["join_type"] = joinInfo(t).name;
  if (sink && !info.nullAware && n.predicate && movable(*n.predicate)) {
    for (const auto& c : conjuncts(n.predicate)) {
      if (within(*c, *in[1]))
        below[1].push_back(c);
      else if (info.onIntoSide[0] && within(*c, *in[0]))  // a semi join's
        below[0].push_back(c);
      else
        on.push_back(c);
    }
    j["condition"] = texts(on);
  }
  // Hints below: a row of the preserved input of a LEFT, semi, anti or inner
  // join (either input of an inner one) on which a condition above is NULL makes
  // only output rows on which it is NULL; a row of either input of a semi or inner join, or of
  // the other input of a LEFT or anti join, failing an ON conjunct matches nothing it reads (not
  // under NOT IN, where a NULL on the other side still counts).
  Conjuncts hint[2];
  const bool inner = info.freelyReordered && info.hasCondition;
  const bool keepsLeftRows = info.innerJoinsCommuteOn == 0 || inner;
  // INNER and LEFT SEMI: rows only from matches, an ON conjunct filters either input.
  const bool matchOnly =
      info.hasCondition && info.outputs[0] && info.onIntoSide[0] && info.onIntoSide[1];
  if (ids_ & kSimplify) {
    // (Hints serve rejectsNulls only: one NULL on a row's NULL columns, whatever
    // the other input holds, fails on every output row made from that row.)
    if (keepsLeftRows) hint[0] = join2(pending, hints);
    if (inner) hint[1] = join2(pending, hints);
    // (LEFT and anti joins: their other input; not NOT IN's.)
    if (n.predicate && (matchOnly || (info.innerJoinsCommuteOn == 0 && !info.nullAware)))
      for (const auto& c : conjuncts(n.predicate)) {
        if (matchOnly) hint[0].push_back(c);
        hint[1].push_back(c);
      }
  }
  Json children = Json::array({node(*in[0], below[0], hint[0]), node(*in[1], below[1], hint[1])});
  if ((ids_ & kMirror) && joinInfo(t).mirror == t && children[1].dump() < children[0].dump())
    std::swap(children[0], children[1]);
  j["children"] = children;
  return filtered(above, std::move(j));
}

}  // namespace rfguard::normal_form
