// The canonical form's blocks: inner joins and filters as a multiset of inputs
// and a set of conjuncts, with the joins attached along the inputs they keep
// (normal_form_canon.h).
#include <algorithm>
#include <functional>
#include <map>

#include "ir/comparison.h"
#include "ir/functions.h"
#include "ir/printers.h"
#include "verifier/normal_form_canon.h"

namespace rfguard::normal_form {

int Canon::attachedAlong(const PlanNode& n) const {
  if (!(ids_ & kAttach) || n.op != PlanOp::Join || n.children.size() != 2) return -1;
  if (n.predicate && !movable(*n.predicate)) return -1;
  int side = joinInfo(effective(n)).innerJoinsCommuteOn;
  return side == 0 || (side == 1 && (ids_ & kMirror)) ? side : -1;
}

std::optional<Canon::Attached> Canon::asExistsJoin(const ExprPtr& c, const PlanNode& outer) const {
  if (!(ids_ & kSubqueries) || !(ids_ & kAttach)) return std::nullopt;
  const Expr* e = c.get();
  const bool negated = e->kind == ExprKind::Call && e->name == "not" && e->args.size() == 1;
  if (negated) e = e->args[0].get();
  if (e->kind != ExprKind::Subquery || e->subquery != SubqueryKind::Exists || !e->plan)
    return std::nullopt;
  const PlanNode* body = e->plan.get();
  while (body->op == PlanOp::Project) {
    for (const auto& x : body->exprs)
      if (!movable(*x.expr)) return std::nullopt;
    body = body->children[0].get();
  }
  Attached a;
  a.type = negated ? JoinType::LeftAnti : JoinType::LeftSemi;
  a.input = body->op == PlanOp::Filter ? body->children[0].get() : body;
  if (!freeColumns(*a.input).empty() || !deterministicPlan(*a.input)) return std::nullopt;
  if (body->op == PlanOp::Filter)
    for (const auto& q : conjuncts(body->predicate)) {
      if (!movable(*q) || hasSubquery(*q)) return std::nullopt;
      bool inner = true;
      for (const auto& col : columnsOf(*q)) {
        if (produces(*a.input, col)) continue;
        if (!produces(outer, col)) return std::nullopt;
        inner = false;
      }
      (inner ? a.below : a.on).push_back(q);
    }
  if (ids_ & kSimplify) a.hint = a.on;
  return a;
}

void Canon::gather(const PlanNode& n, Gathered& g) const {
  if (int side = attachedAlong(n); side >= 0) {
    // As a LEFT (semi, anti) join with the block on the left.
    JoinType t = side == 0 ? effective(n) : joinInfo(effective(n)).mirror;
    std::optional<ExprPtr> in;
    if (ids_ & kSubqueries) in = asInConjunct(n, t, side);
    const PlanNode& kept = *n.children[static_cast<size_t>(side)];
    if (in) {
      g.conjuncts.push_back(*in);
    } else {
      // Into its other input go the ON conjuncts over that input alone (a row
      // there failing one matches nothing), except NOT IN's comparison.
      Attached a;
      a.join = &n;
      a.type = t;
      a.input = n.children[static_cast<size_t>(1 - side)].get();
      for (const auto& c : conjuncts(n.predicate)) {
        if (!joinInfo(t).nullAware && (ids_ & kSimplify)) a.hint.push_back(c);
        (!joinInfo(t).nullAware && within(*c, *a.input) ? a.below : a.on).push_back(c);
      }
      attach(std::move(a), kept, g);
    }
    member(kept, g);
    return;
  }
  if (n.predicate)
    for (const auto& c : rfguard::conjuncts(n.predicate)) {
      if (auto a = asExistsJoin(c, rowsOf(n))) {
        attach(std::move(*a), rowsOf(n), g);
        continue;
      }
      for (const auto& f : factored(c)) g.conjuncts.push_back(f);
    }
  for (const auto& c : n.children) member(*c, g);
}

void Canon::attach(Attached a, const PlanNode& kept, Gathered& g) const {
  if (joinInfo(a.type).keepsMatched && joinInfo(a.type).outputs[0]) {  // LEFT SEMI
    Conjuncts on;
    for (const auto& c : a.on) {
      (within(*c, kept) ? g.conjuncts : on).push_back(c);
      if (ids_ & kSimplify) g.hints.push_back(c);
    }
    a.on = on;
  }
  g.attached.push_back(std::move(a));
}

void Canon::member(const PlanNode& c, Gathered& g) const {
  if (pruning(c))
    member(*c.children[0], g);
  else if (inBlock(c) || simplifiedToInner(c) || attachedAlong(c) >= 0)
    gather(c, g);
  else
    g.inputs.push_back(&c);
}

std::string Canon::attachedForm(const Attached& a) const {
  return Json{{"join_type", joinInfo(a.type).name},
              {"condition", texts(a.on)},
              {"input", node(*a.input, a.below, a.hint)}}
      .dump();
}

Conjuncts Canon::closed(const Conjuncts& cs) const {
  // Every row of the block passes every conjunct: where `x = y` holds, x and
  // y are the same non-NULL value, so a deterministic conjunct over x alone
  // holds exactly when it does over y (and x = z with y = z), and adding it
  // keeps the same rows. Columns of one exact type (not floating point,
  // whose equal values 0 and -0 differ under division), at most 8 a class.
  if (!(ids_ & kTransitive)) return cs;
  const auto classes = equalityClasses(cs);
  if (classes.empty()) return cs;
  Conjuncts out = cs;
  std::map<std::string, const std::vector<ExprPtr>*> classOf;
  for (const auto& members : classes) {
    for (const auto& m : members) classOf[m->name] = &members;
    if (members.size() > 8) continue;
    for (size_t i = 0; i < members.size(); ++i)
      for (size_t j = i + 1; j < members.size(); ++j)
        out.push_back(makeCall("=", {members[i], members[j]}));
  }
  for (const auto& c : cs) {
    if (!movable(*c) || hasSubquery(*c)) continue;
    const std::set<std::string> reads = columnsOf(*c);
    if (reads.size() != 1 || !classOf.count(*reads.begin())) continue;
    const std::string& x = *reads.begin();
    const auto& members = *classOf[x];
    if (members.size() > 8) continue;
    for (const auto& y : members)
      if (y->name != x) out.push_back(substitute(c, {{x, y}}));
  }
  return out;
}

Conjuncts Canon::impliedBelow(const Attached& a, const Conjuncts& all,
                              const std::vector<const PlanNode*>& inputs) const {
  // A row of a LEFT, semi or anti join's other input matters only through the
  // block rows it matches. Where the ON condition has x = y (x of the block's
  // inputs, y of the other input, one exact type) and every block row that
  // reaches the result satisfies a conjunct p(x), a row with p(y) not TRUE
  // matches only block rows with p(x) not TRUE, which are dropped anyway: p(y)
  // may filter the other input. Not for NOT IN, whose other input's rows count
  // unmatched (a NULL makes NOT IN NULL). Counterexample without the equality:
  // a.k > 3 and ON a.v = b.k, a = {(5, 1)}, b = {(1)}: b's row matches.
  Conjuncts out;
  if (!(ids_ & kImplied)) return out;
  const JoinTypeInfo& info = joinInfo(a.type);
  if (info.preserves[1] || info.nullAware) return out;
  for (const auto& on : a.on) {
    if (!columnEquality(*on)) continue;
    for (int side = 0; side < 2; ++side) {
      const ExprPtr &x = on->args[static_cast<size_t>(side)],
                    &y = on->args[static_cast<size_t>(1 - side)];
      if (!within(*y, *a.input) ||
          std::none_of(inputs.begin(), inputs.end(),
                       [&](const PlanNode* in) { return within(*x, *in); }))
        continue;
      for (const auto& c : all) {
        if (!movable(*c) || hasSubquery(*c)) continue;
        const std::set<std::string> reads = columnsOf(*c);
        if (reads.size() == 1 && *reads.begin() == x->name)
          out.push_back(substitute(c, {{x->name, y}}));
      }
    }
  }
  return out;
}

Json Canon::block(const PlanNode& n, const Conjuncts& pending, const Conjuncts& hints) const {
  Gathered g;
  Conjuncts rest;
  for (bool more = true; more;) {
    g = Gathered{};
    g.conjuncts = pending;
    gather(n, g);
    more = false;
    const Conjuncts dropping = join2(join2(g.conjuncts, g.hints), hints);
    auto simplify = [&](const PlanNode* in) {
      if (in->op != PlanOp::Join || in->children.size() != 2) return;
      JoinType t = simplified(*in, dropping);
      if (t == effective(*in)) return;
      overrides_[in] = t;
      // An inner join joins the block; a FULL join made LEFT may attach to it.
      more = more || joinInfo(t).freelyReordered || (ids_ & kAttach);
    };
    for (const PlanNode* in : g.inputs) simplify(in);
    for (const auto& a : g.attached)
      if (a.join) simplify(a.join);
  }
  const auto& inputs = g.inputs;
  const Conjuncts all = closed(g.conjuncts);
  std::vector<Conjuncts> into(inputs.size()), hinted(inputs.size());
  for (const auto& c : all) {
    size_t i = 0;
    while (i < inputs.size() && !within(*c, *inputs[i])) ++i;
    (i < inputs.size() ? into[i] : rest).push_back(c);
  }
  // Hints only ever serve rejectsNulls: a conjunct or hint that is NULL on the
  // NULL columns of a row of an input (whatever the others hold) fails on every
  // block row made from it, so that row does not matter either.
  for (size_t i = 0; i < inputs.size(); ++i) hinted[i] = join2(join2(all, g.hints), hints);
  std::vector<std::string> forms;
  for (size_t i = 0; i < inputs.size(); ++i)
    forms.push_back(node(*inputs[i], into[i], hinted[i]).dump());
  std::sort(forms.begin(), forms.end());
  auto conjuncts = texts(rest);
  if (g.attached.empty() && forms.size() == 1) return filtered(rest, Json::parse(forms[0]));
  Json j{{"op", "block"}, {"inputs", forms}, {"conjuncts", conjuncts}};
  if (!g.attached.empty()) {
    // Joined in any order that reads what it needs: (A LEFT JOIN B ON p) LEFT
    // JOIN C ON q equals (A LEFT JOIN C ON q) LEFT JOIN B ON p when neither
    // condition reads the other's input (l-asscom), and an attached join's
    // condition names the columns of the attachments it needs.
    std::vector<std::string> attached;
    for (auto& a : g.attached) {
      const Conjuncts implied = impliedBelow(a, all, inputs);
      a.below.insert(a.below.end(), implied.begin(), implied.end());
      attached.push_back(attachedForm(a));
    }
    std::sort(attached.begin(), attached.end());
    j["attached"] = attached;
  }
  return j;
}

}  // namespace rfguard::normal_form
