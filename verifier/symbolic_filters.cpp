// Runtime filters in the encoding (verifier/symbolic_encode.h, Filters::Apply):
// `check` over every value. An equality filter's content K is an
// uninterpreted set (of keys, or of tuples for a composite key) that holds
// every key D of its producer's build rows: the exact content (K = D), a
// false-positive one (D and more), MinMax (every value between the least and
// the greatest key) and a Bloom filter (D and any false positives) are all
// such sets, so "no K ⊇ D changes the result" covers them at once. A NULL key
// (a composite one with a NULL part) passes as the runtime lets it: always
// with accept_null, through a null-allowing filter whose build side held NULL,
// and through TOP (MinMax on floating keys). A range filter `p < s` (`<=`, `>`,
// `>=`) keeps a probe key below the greatest build key (or above the least),
// as the runtime builds it: never a NULL one but with accept_null.
#include "evaluation/evaluator.h"
#include "verifier/symbolic_encode.h"

namespace rfguard::sym {

namespace {

/// The parts of a filter key: a composite key's columns, or the key itself.
std::vector<const Expr*> partsOf(const Expr& key) {
  std::vector<const Expr*> out;
  if (isComposite(key))
    for (const auto& a : key.args) out.push_back(a.get());
  else
    out.push_back(&key);
  return out;
}

}  // namespace

bool Encoder::setFilters(Filters mode, const PlanNode* root, const std::set<int>& only) {
  filters_ = mode;
  published_.clear();
  if (mode != Filters::Apply) return true;
  bool ok = true;
  forEachNode(*root, [&](const PlanNode& n) {
    for (const auto& f : n.runtimeFilters) {
      if (!ok || (!only.empty() && !only.count(f.id))) continue;
      if (n.op == PlanOp::Limit) {
        ok = topN(f, n);
        continue;
      }
      const std::string rf = "RF" + std::to_string(f.id);
      const auto probe = partsOf(*f.probe), build = partsOf(*f.build);
      if (n.op != PlanOp::Join && (!isSetOperation(n.op) || filterBuildInput(n, f) < 0))
        ok = fail("a filter produced at " + nodeRef(n) + " (" + rf + ")");
      else if (probe.size() != build.size() || (!isEquality(f.op) && probe.size() > 1))
        ok = fail("a filter whose probe and build keys differ in width (" + rf + ")");
      else if (rt::localFilterPerWorker(n, f))
        ok = fail("a local filter built per worker (" + rf + " at " + nodeRef(n) + ")");
      else if (published_.count(f.id))
        ok = fail(rf + " produced twice (which content a consumer reads is the run's order)");
      if (!ok) continue;
      Published p;
      p.filter = &f;
      z3::sort_vector domain(c_);
      bool real = false;
      for (size_t i = 0; ok && i < probe.size(); ++i) {
        const auto pk = kindOf(probe[i]->type), bk = kindOf(build[i]->type);
        if (!pk || !bk || (*pk == Kind::Text) != (*bk == Kind::Text)) {
          ok = fail("a filter whose keys are of types " + probe[i]->type.toString() + " and " +
                    build[i]->type.toString() + " (" + rf + ")");
          break;
        }
        const Kind k = *pk == Kind::Text                        ? Kind::Text
                       : *pk == Kind::Real || *bk == Kind::Real ? Kind::Real
                                                                : Kind::Int;
        p.kinds.push_back(k);
        real = real || k == Kind::Real;
        domain.push_back(k == Kind::Real ? c_.real_sort() : c_.int_sort());
      }
      if (!ok) continue;
      const std::string name = "rf" + std::to_string(f.id);
      if (isEquality(f.op)) {
        p.member = c_.function((name + ".K").c_str(), domain, c_.bool_sort());
      } else {  // the greatest (for < and <=) or least build key, when there is one
        p.extreme = p.kinds[0] == Kind::Real ? c_.real_const((name + ".bound").c_str())
                                             : c_.int_const((name + ".bound").c_str());
        p.nonEmpty = c_.bool_const((name + ".some").c_str());
      }
      // NULL passes with accept_null; else through a null-allowing filter when
      // the build side held NULL (publish() ties the flag to the rows), or
      // through TOP. (The evaluator's FilterBuilder is null-safe exactly when
      // nullAllowed.) MinMax has no order on floating point: TOP, which passes
      // NULL too; the evaluator may hold a DECIMAL as a double, so any real key
      // may go TOP. A range filter passes no NULL but with accept_null.
      z3::expr nullPasses = c_.bool_val(f.acceptNull);
      if (isEquality(f.op) && f.nullAllowed)
        nullPasses = nullPasses || c_.bool_const((name + ".null").c_str());
      if (isEquality(f.op) && real)
        nullPasses = nullPasses || c_.bool_const((name + ".top").c_str());
      p.nullPasses = nullPasses;
      published_.emplace(f.id, std::move(p));
    }
  });
  return ok;
}

bool Encoder::topN(const RuntimeFilter& f, const PlanNode& limit) {
  const std::string rf = "RF" + std::to_string(f.id);
  const PlanNode& sort = *limit.children[0];
  if (sort.op != PlanOp::Sort || sort.sortKeys.empty() || !limit.limit || limit.unprinted)
    return fail("a TopN filter without ORDER BY ... LIMIT (" + rf + " at " + nodeRef(limit) + ")");
  // The threshold is the LIMIT's last row's key, the same whatever order its
  // peers take when the key is the first ORDER BY key; the input is encoded
  // twice, so no order SQL leaves open may be inside it.
  if (!exprEquals(*f.probe, *sort.sortKeys[0].expr) || isComposite(*f.probe))
    return fail("a TopN filter on another key than its first ORDER BY key (" + rf + ")");
  bool ordered = false;
  forEachNode(sort, [&](const PlanNode& x) {
    ordered = ordered || x.op == PlanOp::Limit || x.op == PlanOp::Window;
  });
  if (ordered) return fail("a TopN filter over a LIMIT or a window (" + rf + ")");
  const auto kind = kindOf(f.probe->type);
  if (!kind) return fail("a TopN filter on a key of type " + f.probe->type.toString());
  Published p;
  p.filter = &f;
  p.kinds.push_back(*kind);
  const std::string name = "rf" + std::to_string(f.id);
  p.extreme = *kind == Kind::Real ? c_.real_const((name + ".bound").c_str())
                                  : c_.int_const((name + ".bound").c_str());
  p.thresholdNull = c_.bool_const((name + ".nullbound").c_str());
  p.keepAll = c_.bool_const((name + ".all").c_str());
  // As the runtime lets keys through: a NULL one with accept_null, when all
  // pass, when NULLs sort first (null-allowing) or the threshold is NULL.
  p.nullPasses = c_.bool_val(f.acceptNull || f.nullAllowed) || *p.keepAll || *p.thresholdNull;
  published_.emplace(f.id, std::move(p));
  return true;
}

bool Encoder::publishTopN(const PlanNode& limit) {
  for (const auto& f : limit.runtimeFilters) {
    Published* p = applied(f.id);
    if (!p || !p->keepAll) continue;
    const PlanNode& sort = *limit.children[0];
    // The input without this filter (the runtime's threshold comes from rows
    // it has not filtered yet; the tightest is the final input's k-th row).
    Published saved = std::move(*p);
    published_.erase(f.id);
    auto first = plan(*sort.children[0]);
    const Published& q = published_.emplace(f.id, std::move(saved)).first->second;
    if (!first) return false;
    std::vector<std::vector<Val>> values;
    const SortKey& key = sort.sortKeys[0];
    if (!sortValues({key}, *first, values)) return false;
    const int64_t need = limit.offset + *limit.limit;
    z3::expr_vector present(c_), before(c_), reached(c_);
    present.push_back(c_.int_val(0));
    before.push_back(c_.int_val(0));
    reached.push_back(c_.int_val(0));
    const z3::expr& b = *q.extreme;
    const z3::expr& tn = *q.thresholdNull;
    auto one = [&](const z3::expr& x) { return z3::ite(x, c_.int_val(1), c_.int_val(0)); };
    for (size_t i = 0; i < first->rows.size(); ++i) {
      const z3::expr& here = first->rows[i].present;
      const z3::expr n = values[i][0].null;
      const z3::expr v = q.kinds[0] == Kind::Real ? asReal(values[i][0].v) : values[i][0].v;
      // Strictly before the threshold in the ORDER BY's order, or equal to it.
      const z3::expr less = key.ascending ? v < b : v > b;
      const z3::expr ahead = (key.nullsFirst ? n && !tn : !n && tn) || (!n && !tn && less);
      const z3::expr same = (n && tn) || (!n && !tn && v == b);
      present.push_back(one(here));
      before.push_back(one(here && ahead));
      reached.push_back(one(here && (ahead || same)));
    }
    // The k-th row's key: fewer than k rows before it, at least k up to it.
    const z3::expr k = c_.int_val(need);
    constraints.push_back(*q.keepAll == (need == 0 ? c_.bool_val(true) : z3::sum(present) < k));
    constraints.push_back(z3::implies(!*q.keepAll, z3::sum(before) < k && z3::sum(reached) >= k));
  }
  return true;
}

Encoder::Published* Encoder::applied(int id) {
  auto it = published_.find(id);
  return it == published_.end() ? nullptr : &it->second;
}

bool Encoder::keyOf(const Published& p, const Expr& key, const Rel& rel, const Row& row,
                    std::vector<z3::expr>& parts, z3::expr& null) {
  const auto exprs = partsOf(key);
  if (exprs.size() != p.kinds.size()) return fail("a filter key of another width");
  null = c_.bool_val(false);
  for (size_t i = 0; i < exprs.size(); ++i) {
    Val v{c_.int_val(0), c_.bool_val(false)};
    Kind k = Kind::Int;
    if (!value(*exprs[i], rel, row, v, k)) return false;
    if ((k == Kind::Text) != (p.kinds[i] == Kind::Text))
      return fail("a filter key of another type than its build keys");
    parts.push_back(p.kinds[i] == Kind::Real ? asReal(v.v) : v.v);
    null = null || v.null;
  }
  return true;
}

bool Encoder::publish(const PlanNode& join, const Rel& build, size_t input) {
  for (const auto& f : join.runtimeFilters) {
    Published* p = applied(f.id);
    if (!p || filterBuildInput(join, f) != static_cast<int>(input)) continue;
    // Published once per encoding of the join: in a subquery that would be once
    // per row of the query around it, each with its own build rows.
    if (!outers_.empty())
      return fail("a filter produced inside a subquery (RF" + std::to_string(f.id) + ")");
    const bool upper = f.op == CmpOp::Lt || f.op == CmpOp::Le;
    z3::expr sawNull = c_.bool_val(false), some = c_.bool_val(false), attained = some;
    for (const Row& row : build.rows) {
      std::vector<z3::expr> key;
      z3::expr null = c_.bool_val(false);
      if (!keyOf(*p, *f.build, build, row, key, null)) return false;
      const z3::expr held = row.present && !null;
      if (p->member) {
        z3::expr_vector args(c_);
        for (const auto& k : key) args.push_back(k);
        constraints.push_back(z3::implies(held, (*p->member)(args)));
      } else {
        const z3::expr& b = *p->extreme;
        constraints.push_back(z3::implies(held, upper ? key[0] <= b : key[0] >= b));
        attained = attained || (held && key[0] == b);
        some = some || held;
      }
      sawNull = sawNull || (row.present && null);
    }
    if (p->member && f.nullAllowed)
      constraints.push_back(c_.bool_const(("rf" + std::to_string(f.id) + ".null").c_str()) ==
                            sawNull);
    if (!p->member) {
      constraints.push_back(*p->nonEmpty == some);
      constraints.push_back(z3::implies(some, attained));
    }
  }
  return true;
}

bool Encoder::consume(const PlanNode& n, const TableVars& t, Rel& out) {
  // The targets read the scan's own columns, listed or not.
  const Rel full = tableRel(n, t);
  for (const auto& target : n.runtimeFilterTargets) {
    Published* p = applied(target.id);
    if (!p) continue;
    for (size_t i = 0; i < full.rows.size(); ++i) {
      std::vector<z3::expr> key;
      z3::expr null = c_.bool_val(false);
      if (!keyOf(*p, *target.target, full, full.rows[i], key, null)) return false;
      z3::expr pass = c_.bool_val(true);
      if (p->member) {
        z3::expr_vector args(c_);
        for (const auto& k : key) args.push_back(k);
        pass = (*p->member)(args);
      } else if (p->keepAll) {  // TopN: up to the threshold; below a NULL one, by NULLs' end
        const z3::expr& b = *p->extreme;
        const bool upper = p->filter->op == CmpOp::Le;  // else >=, as the runtime compares
        pass = *p->keepAll || z3::ite(*p->thresholdNull, c_.bool_val(!p->filter->nullAllowed),
                                      upper ? key[0] <= b : key[0] >= b);
      } else {
        const z3::expr& b = *p->extreme;
        const CmpOp op = p->filter->op;
        pass = *p->nonEmpty && (op == CmpOp::Lt   ? key[0] < b
                                : op == CmpOp::Le ? key[0] <= b
                                : op == CmpOp::Gt ? key[0] > b
                                                  : key[0] >= b);
      }
      out.rows[i].present = out.rows[i].present && z3::ite(null, *p->nullPasses, pass);
    }
  }
  return true;
}

}  // namespace rfguard::sym
