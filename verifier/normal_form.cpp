#include "verifier/normal_form.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/functions.h"
#include "ir/printers.h"
#include "rules/normalize.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

/// The identities the normal form applies, as bits (a proof names those it needed).
enum Identity : unsigned {
  kBlocks = 1,       ///< inner-join blocks as inputs and conjuncts
  kMirror = 2,       ///< a join as its mirror with the children swapped
  kScanColumns = 4,  ///< the columns a scan lists
  kOperands = 8,     ///< operand order of symmetric operators
  kSink = 16,        ///< conjuncts into the inputs of outer, semi and anti joins
  kSimplify = 32,    ///< outer joins whose padded rows a conjunct rejects as inner
  kSubqueries = 64,  ///< IN / NOT IN, [NOT] EXISTS as semi / anti joins
  kFactor = 128,     ///< what every branch of an OR shares, out of it
  kAttach = 256,     ///< LEFT, semi and anti joins past inner joins on the side they keep
  kAll = 511,
};

/// Removes what no database sees: node ids, source positions, estimates, and
/// runtime filters (they are judged by `check`, not part of a comparison).
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

bool plainSubqueries(const Expr& e);

/// Every expression of the plan deterministic, its subqueries plain.
bool deterministicPlan(const PlanNode& n) {
  bool ok = true;
  forEachExpr(n, [&](const ExprPtr& e) { ok = ok && isDeterministic(*e) && plainSubqueries(*e); });
  for (const auto& c : n.children) ok = ok && deterministicPlan(*c);
  return ok;
}

/// True when every subquery in `e` is an uncorrelated IN or EXISTS over a
/// deterministic plan: a value of the database, the same wherever it is read.
bool plainSubqueries(const Expr& e) {
  if (e.kind == ExprKind::Subquery &&
      (e.subquery == SubqueryKind::Scalar || !e.plan || !freeColumns(*e.plan).empty() ||
       !deterministicPlan(*e.plan)))
    return false;
  for (const auto& a : e.args)
    if (!plainSubqueries(*a)) return false;
  return true;
}

/// A conjunct that may be evaluated elsewhere: deterministic, and no subquery
/// but uncorrelated IN / EXISTS (a scalar subquery evaluated on more rows may
/// fail; a correlated one reads the row it is evaluated on).
bool movable(const Expr& e) {
  return isDeterministic(e) && plainSubqueries(e);
}

bool isTrue(const Expr& e) {
  return e.kind == ExprKind::Literal && !e.isNull && e.type.kind == TypeKind::Boolean &&
         e.value == "true";
}

/// True when `e` reads columns and all of them are outputs of `n`.
bool within(const Expr& e, const PlanNode& n) {
  auto cols = columnsOf(e);
  if (cols.empty()) return false;
  for (const auto& c : cols)
    if (!produces(n, c)) return false;
  return true;
}

/// True when `e` is never TRUE on a row whose columns from `side` are all NULL
/// (by the catalog's null policies: NULL, or IS NOT NULL of such a NULL).
bool rejectsNulls(const Expr& e, const PlanNode& side) {
  std::set<std::string> cols;
  for (const auto& c : side.output) cols.insert(c.id);
  if (e.kind == ExprKind::Call && e.name == "is_not_null" && e.args.size() == 1)
    return isNullPropagating(*e.args[0], cols);
  return isNullPropagating(e, cols);
}

using Conjuncts = std::vector<ExprPtr>;

class Canon {
 public:
  explicit Canon(unsigned identities) : ids_(identities) {}

  Json expr(const Expr& e) const {
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
      if ((name == ">" || name == ">=") && args.size() == 2) {
        name = name == ">" ? "<" : "<=";
        std::swap(args[0], args[1]);
      }
      bool symmetric = name == "=" || name == "<>" || name == "<=>" || name == "is_distinct_from";
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

  /// The plan below `n` under the conjuncts `pending` (a filter above it).
  /// `hints`: conditions a row of `n` that fails them cannot change the result
  /// with (it is dropped above), which may make an outer join below inner.
  Json node(const PlanNode& n, const Conjuncts& pending = {}, const Conjuncts& hints = {}) const {
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
    j["children"] = children;
    return filtered(pending, std::move(j));
  }

 private:
  static std::vector<std::string> outputIds(const PlanNode& n) {
    std::vector<std::string> out;
    for (const auto& c : n.output) out.push_back(c.id);
    return out;
  }

  std::set<std::string> texts(const Conjuncts& cs) const {
    std::set<std::string> out;
    for (const auto& c : cs)
      if (!isTrue(*c)) out.insert(expr(*c).dump());
    return out;
  }

  /// `form` under the conjuncts `cs`: a block of one input.
  Json filtered(const Conjuncts& cs, Json form) const {
    auto conjuncts = texts(cs);
    if (conjuncts.empty()) return form;
    return Json{{"op", "block"}, {"inputs", Json::array({form.dump()})}, {"conjuncts", conjuncts}};
  }

  /// The node itself, without its children, with its predicate canonical.
  Json shallow(const PlanNode& n) const {
    PlanNode alone = n;
    alone.children.clear();
    Json j = stripped(planToJson(alone));
    j.erase("children");
    if (n.op == PlanOp::Scan && (ids_ & kScanColumns)) j.erase("columns");
    if (n.predicate) j[n.op == PlanOp::Join ? "condition" : "predicate"] = expr(*n.predicate);
    return j;
  }

  /// An inner join or filter whose conjuncts may be evaluated anywhere in a
  /// block (movable), or are [NOT] EXISTS the block attaches as a join.
  bool inBlock(const PlanNode& n) const {
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

  /// The rows a filter's or join's conjuncts are evaluated on.
  static const PlanNode& rowsOf(const PlanNode& n) {
    return n.op == PlanOp::Filter ? *n.children[0] : n;
  }

  static Conjuncts join2(const Conjuncts& a, const Conjuncts& b) {
    Conjuncts out = a;
    out.insert(out.end(), b.begin(), b.end());
    return out;
  }

  /// The type of join `n` with what the conjuncts `cs` above it drop removed: a
  /// LEFT join whose padded rows one of them rejects returns the rows of the
  /// inner join there (its padded rows are its only other rows); a FULL join
  /// likewise becomes LEFT, RIGHT or INNER.
  JoinType simplified(const PlanNode& n, const Conjuncts& cs) const {
    JoinType t = n.joinType;
    if (!(ids_ & kSimplify) || (t != JoinType::Left && t != JoinType::Right && t != JoinType::Full))
      return t;
    if (n.predicate && !movable(*n.predicate)) return t;
    auto dropped = [&](int padded) {
      for (const auto& c : cs)
        if (rejectsNulls(*c, *n.children[padded])) return true;
      return false;
    };
    // Rows padded on the right (unmatched left rows) and on the left.
    const bool right = t != JoinType::Right && dropped(1), left = t != JoinType::Left && dropped(0);
    if (t == JoinType::Left) return right ? JoinType::Inner : t;
    if (t == JoinType::Right) return left ? JoinType::Inner : t;
    if (right && left) return JoinType::Inner;
    return right ? JoinType::Right : left ? JoinType::Left : t;
  }

  /// A LEFT SEMI (NULL-aware LEFT ANTI) join of `x = o` with an uncorrelated
  /// deterministic projection of one column o: the filter `x IN (input)` (`NOT
  /// (x IN (input))`) it decorrelates, which keeps the same rows: IN is TRUE
  /// exactly when some o equals x; NOT IN exactly when the input is empty, or
  /// x and every o are not NULL and none equals x.
  std::optional<ExprPtr> asInConjunct(const PlanNode& n, JoinType t, int probe) const {
    if (t != JoinType::LeftSemi && t != JoinType::NullAwareLeftAnti) return std::nullopt;
    const PlanPtr& build = n.children[1 - probe];
    const Expr* c = n.predicate.get();
    // The input a select list of one column, as IN's subquery is (a scan's one
    // column would depend on the columns it lists).
    if (!c || c->kind != ExprKind::Call || c->name != "=" || c->args.size() != 2 ||
        build->op != PlanOp::Project || build->exprs.size() != 1 || !freeColumns(*build).empty() ||
        !deterministicPlan(*build))
      return std::nullopt;
    const std::string& o = build->output[0].id;
    for (int i = 0; i < 2; ++i) {
      const ExprPtr& key = c->args[i];
      const ExprPtr& lhs = c->args[1 - i];
      if (key->kind != ExprKind::Column || key->name != o || hasSubquery(*lhs)) continue;
      if (!within(*lhs, *n.children[probe])) continue;
      ExprPtr in = makeSubquery(SubqueryKind::In, build, lhs, Type::of(TypeKind::Boolean));
      return t == JoinType::LeftSemi ? in : makeCall("not", {in});
    }
    return std::nullopt;
  }

  /// An outer join that the conjuncts above made inner (its condition is
  /// movable then). An inner join whose condition is not movable stays out of blocks.
  bool simplifiedToInner(const PlanNode& n) const {
    return n.op == PlanOp::Join && !joinInfo(n.joinType).freelyReordered &&
           effective(n) == JoinType::Inner;
  }

  JoinType effective(const PlanNode& n) const {
    auto it = overrides_.find(&n);
    return it == overrides_.end() ? n.joinType : it->second;
  }

  /// `e` as conjuncts, with what every branch of an OR shares taken out of it:
  /// (a AND x) OR (a AND y) is a AND (x OR y) (AND and OR distribute in SQL's
  /// three-valued logic too); when a branch is only the shared part, the OR
  /// holds whenever the shared part does (absorption) and goes.
  Conjuncts factored(const ExprPtr& e) const {
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

  /// The input of join `n` along which inner joins commute with it (l-asscom,
  /// the join-type table's innerJoinsCommuteOn) when it joins a block that way:
  /// its other input is then attached to the block. -1 otherwise.
  int attachedAlong(const PlanNode& n) const {
    if (!(ids_ & kAttach) || n.op != PlanOp::Join || n.children.size() != 2) return -1;
    if (n.predicate && !movable(*n.predicate)) return -1;
    int side = joinInfo(effective(n)).innerJoinsCommuteOn;
    return side == 0 || (side == 1 && (ids_ & kMirror)) ? side : -1;
  }

  /// A join attached to a block, as a join with the block on the left.
  struct Attached {
    const PlanNode* join = nullptr;  ///< the join; none for [NOT] EXISTS
    JoinType type = JoinType::LeftSemi;
    Conjuncts on;                     ///< its condition's conjuncts that read the block
    const PlanNode* input = nullptr;  ///< its other input
    Conjuncts below;                  ///< conjuncts over that input alone, evaluated in it
    Conjuncts hint;                   ///< conditions a row of that input failing matches nothing
  };

  /// `c` as the semi (anti) join that [NOT] EXISTS is over the rows of `outer`
  /// (decorrelation): EXISTS (SELECT ... FROM x WHERE p AND q), with p over x's
  /// columns and q also over `outer`'s, keeps exactly the rows the semi join on
  /// q with the rows of x satisfying p keeps; NOT EXISTS those of the anti join.
  /// A deterministic select list does not matter. Nothing else may read `outer`.
  std::optional<Attached> asExistsJoin(const ExprPtr& c, const PlanNode& outer) const {
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

  /// A block's inputs, conjuncts and attached joins.
  struct Gathered {
    std::vector<const PlanNode*> inputs;
    Conjuncts conjuncts;
    std::vector<Attached> attached;
    /// A semi join's ON conjuncts: a block row on which one is NULL
    /// whatever the other input holds matches nothing and is dropped.
    Conjuncts hints;
  };

  void gather(const PlanNode& n, Gathered& g) const {
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
          if (t != JoinType::NullAwareLeftAnti && (ids_ & kSimplify)) a.hint.push_back(c);
          (t != JoinType::NullAwareLeftAnti && within(*c, *a.input) ? a.below : a.on).push_back(c);
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

  /// Adds `a` to the block whose rows `kept` holds: a semi join's ON conjunct
  /// over the block alone filters the block, and its ON conjuncts are hints.
  void attach(Attached a, const PlanNode& kept, Gathered& g) const {
    if (a.type == JoinType::LeftSemi) {
      Conjuncts on;
      for (const auto& c : a.on) {
        (within(*c, kept) ? g.conjuncts : on).push_back(c);
        if (ids_ & kSimplify) g.hints.push_back(c);
      }
      a.on = on;
    }
    g.attached.push_back(std::move(a));
  }

  void member(const PlanNode& c, Gathered& g) const {
    if (inBlock(c) || simplifiedToInner(c) || attachedAlong(c) >= 0)
      gather(c, g);
    else
      g.inputs.push_back(&c);
  }

  /// An attached join as part of its block's form: its type as a join with the
  /// block on the left, the ON conjuncts that read the block, its other input.
  std::string attachedForm(const Attached& a) const {
    return Json{{"join_type", joinInfo(a.type).name},
                {"condition", texts(a.on)},
                {"input", node(*a.input, a.below, a.hint)}}
        .dump();
  }

  /// A block of inner joins and filters: the multiset of its inputs and the set
  /// of its conjuncts, a conjunct over one input's columns in that input
  /// (sigma_p(A x B) = sigma_p(A) x B); one input under no conjunct is that input.
  /// An outer join among the inputs whose padded rows a conjunct rejects is an
  /// inner join of the block.
  /// A LEFT, semi or anti join along the input it keeps is part of the block
  /// too (kAttach): its other input and condition are attached to the block,
  /// which stands for its inputs' product with the attached joins applied in
  /// any order their conditions allow, then the conjuncts; every such order
  /// returns the same rows (l-asscom), and the conjuncts may be evaluated first
  /// where they read no attached input's columns (sigma_q(A) LEFT JOIN B ON p
  /// equals sigma_q(A LEFT JOIN B ON p) when q reads only A).
  Json block(const PlanNode& n, const Conjuncts& pending, const Conjuncts& hints) const {
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
        more = more || t == JoinType::Inner || (ids_ & kAttach);
      };
      for (const PlanNode* in : g.inputs) simplify(in);
      for (const auto& a : g.attached)
        if (a.join) simplify(a.join);
    }
    const auto& inputs = g.inputs;
    const Conjuncts& all = g.conjuncts;
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
      for (const auto& a : g.attached) attached.push_back(attachedForm(a));
      std::sort(attached.begin(), attached.end());
      j["attached"] = attached;
    }
    return j;
  }

  /// A join that is not part of a block. Its mirror with the inputs swapped is
  /// the same join (the form keeps the type that comes first in the join-type
  /// table). Into the preserved input of a LEFT, semi or anti join go the
  /// conjuncts above over that input's columns alone (its rows reach the output
  /// whole or not at all); into the other input, the ON conjuncts over its
  /// columns alone (a row there that fails them matches nothing), except for a
  /// NULL-aware anti join, whose condition is NOT IN's comparison; into the
  /// preserved input of a semi join, also ON conjuncts over its columns alone.
  Json join(const PlanNode& n, const Conjuncts& pending, const Conjuncts& hints) const {
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
        auto f = std::make_shared<PlanNode>();
        f->op = PlanOp::Filter;
        f->predicate = *conjunct;
        f->children.push_back(n.children[probe]);
        computeOutput(*f);
        synthetic_.push_back(f);
        return node(*f, pending, hints);
      }
    const bool sink =
        (ids_ & kSink) && (t == JoinType::Left || t == JoinType::LeftSemi ||
                           t == JoinType::LeftAnti || t == JoinType::NullAwareLeftAnti);
    Conjuncts below[2], above, on;
    for (const auto& c : pending)
      (sink && movable(*c) && within(*c, *in[0]) ? below[0] : above).push_back(c);
    Json j = shallow(n);
    j["join_type"] = joinInfo(t).name;
    if (sink && t != JoinType::NullAwareLeftAnti && n.predicate && movable(*n.predicate)) {
      for (const auto& c : conjuncts(n.predicate)) {
        if (within(*c, *in[1]))
          below[1].push_back(c);
        else if (t == JoinType::LeftSemi && within(*c, *in[0]))
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
    const bool keepsLeftRows = t == JoinType::Left || t == JoinType::LeftSemi ||
                               t == JoinType::LeftAnti || t == JoinType::NullAwareLeftAnti ||
                               t == JoinType::Inner;
    const bool matchOnly = t == JoinType::Inner || t == JoinType::LeftSemi;
    if (ids_ & kSimplify) {
      // (Hints serve rejectsNulls only: one NULL on a row's NULL columns, whatever
      // the other input holds, fails on every output row made from that row.)
      if (keepsLeftRows) hint[0] = join2(pending, hints);
      if (t == JoinType::Inner) hint[1] = join2(pending, hints);
      if (n.predicate && (matchOnly || t == JoinType::Left || t == JoinType::LeftAnti))
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

  unsigned ids_;
  /// Joins of the plan whose type the conjuncts above them simplified.
  mutable std::map<const PlanNode*, JoinType> overrides_;
  /// The filters standing for decorrelated joins.
  mutable std::vector<PlanPtr> synthetic_;
};

std::string formOf(const PlanNode& root, unsigned identities) {
  std::vector<std::string> output;
  for (const auto& c : root.output) output.push_back(c.id);
  return Json{{"output", output}, {"plan", Canon(identities).node(root)}}.dump();
}

}  // namespace

std::string normalForm(const PlanNode& root) {
  return formOf(root, kAll);
}

std::optional<std::string> provedEqual(const PlanNode& a, const PlanNode& b) {
  if (formOf(a, kAll) != formOf(b, kAll)) return std::nullopt;
  if (!verifyPlan(a).empty() || !verifyPlan(b).empty()) return std::nullopt;
  // Name the fewest identities that make the forms equal.
  static const std::pair<unsigned, const char*> names[] = {
      {kBlocks, "inner joins reordered or their conjuncts moved"},
      {kMirror, "join inputs swapped with the mirrored join type"},
      {kScanColumns, "scans list other columns"},
      {kOperands, "operands of symmetric comparisons swapped"},
      {kSink, "conjuncts moved into an input of an outer, semi or anti join"},
      {kSimplify, "outer joins simplified where a conjunct rejects their padded rows"},
      {kSubqueries,
       "uncorrelated IN / NOT IN as semi / NULL-aware anti joins, [NOT] EXISTS as semi / anti "
       "joins"},
      {kFactor, "conjuncts common to every branch of an OR taken out of it"},
      {kAttach, "LEFT, semi or anti joins moved past inner joins on the side they keep"},
  };
  unsigned best = kAll;
  for (int bits = 0; best == kAll && bits < __builtin_popcount(kAll); ++bits)
    for (unsigned mask = 0; mask < kAll && best == kAll; ++mask)
      if (__builtin_popcount(mask) == bits && formOf(a, mask) == formOf(b, mask)) best = mask;
  std::string why;
  for (const auto& [bit, text] : names)
    if (best & bit) why += (why.empty() ? "" : "; ") + std::string(text);
  return why.empty() ? "the same plan but for estimates and runtime filters" : why;
}

}  // namespace rfguard
