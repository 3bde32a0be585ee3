// Closure (docs/design.md section 5, after Trino's DynamicFiltersChecker): every filter
// has one producer that may generate it and consumers in its probe subtree, at
// scans that can apply it; nothing waits on itself.
#include <algorithm>
#include <climits>
#include <functional>

#include "rules/rf_hooks.h"
#include "rules/rule_util.h"
#include "verifier/plan_facts.h"

namespace rfguard {

namespace {

std::string rf(int id) {
  return "RF" + std::to_string(id);
}

std::string str(const ExprPtr& e) {
  return exprToString(*e);
}

}  // namespace

Finding producerFinding(const Producer& p, const char* code, const std::string& msg) {
  const PlanNode& n = *p.node;
  const int id = p.filter->id;
  return makeFinding(code, rf(id) + " at " + nodeRef(n) + ": " + msg, id, {n.id}, n.loc);
}

namespace {

/// True when `e` (inside an OR somewhere) compares `probe` with `build` by `op`.
bool mentions(const PlanNode& join, const ExprPtr& e, const RuntimeFilter& f) {
  if (auto s = splitConjunct(join, e))
    if (s->op == f.op && exprEquals(s->probe, f.probe) && exprEquals(s->build, f.build))
      return true;
  for (const auto& a : e->args)
    if (mentions(join, a, f)) return true;
  return false;
}

/// Calls `each(probe, build)` for the producer's pairs: one for a plain filter,
/// one per part of a composite `row(...)`.
template <class F>
void forEachKeyPair(const RuntimeFilter& f, const F& each) {
  bool tuple = isComposite(*f.probe) && isComposite(*f.build) &&
               f.probe->args.size() == f.build->args.size();
  if (!tuple) return each(f.probe, f.build);
  for (size_t i = 0; i < f.probe->args.size(); ++i) each(f.probe->args[i], f.build->args[i]);
}

/// A join producer: each key pair is a top-level conjunct that canGenerate accepts.
void checkJoinProducer(const Producer& p, std::vector<Finding>& out) {
  const PlanNode& j = *p.node;
  const RuntimeFilter& f = *p.filter;
  auto finding = [&](const char* code, const std::string& msg) {
    out.push_back(producerFinding(p, code, msg));
  };
  const bool nullSafe = f.op == CmpOp::NullSafeEq;
  // Accepting every NULL is never less safe than accepting the build side's.
  if (f.nullAllowed != nullSafe && !(nullSafe && f.acceptNull))
    finding("null-flag-mismatch", std::string("a `") + cmpSpelling(f.op) + "` filter must " +
                                      (nullSafe ? "" : "not ") + "be null-allowing");
  // Beside its join only: its keys are the values `build` takes on the build
  // side, which the join's output carries up; no conjunct of its own.
  if (f.besideOnly) {
    if (f.op != CmpOp::Eq || isComposite(*f.build))
      finding("producer-ineligible", "a filter beside its join only holds one `=` key");
    else if (!joinInfo(j.joinType).outputs[1])
      finding("producer-ineligible",
              nodeRef(j) + " outputs no column of its build side: no row above carries `" +
                  str(f.build) + "`");
    return;
  }
  forEachKeyPair(f, [&](const ExprPtr& probe, const ExprPtr& build) {
    ExprPtr source;
    if (j.predicate)
      forEachConjunct(j.predicate, [&](const ExprPtr& c) {
        if (!hasOperand(*c, probe) || !hasOperand(*c, build)) return true;
        auto s = splitConjunct(j, c);
        if (s && s->op == f.op && exprEquals(s->probe, probe) && exprEquals(s->build, build))
          source = c;
        return true;
      });
    if (!source) {
      RuntimeFilter part = f;
      part.probe = probe;
      part.build = build;
      std::string pair = "`" + str(probe) + " " + cmpSpelling(f.op) + " " + str(build) + "`";
      bool underOr = false;
      if (j.predicate)
        forEachConjunct(j.predicate, [&](const ExprPtr& c) {
          underOr = underOr || mentions(j, c, part);
          return true;
        });
      if (underOr)
        finding("producer-under-or", pair + " is part of an OR in the join condition");
      else
        finding("producer-not-conjunct", pair + " is not a conjunct of the join condition");
      return;
    }
    // A range filter is a min/max bound of the build side (the evaluator's
    // content for it), sound over any number of build rows.
    Decision d = canGenerate(j, source, nullptr, RangeBuild::AnyRows);
    if (d.ok) return;
    const auto& info = joinInfo(j.joinType);
    const bool byType =
        !info.hasCondition || !info.probeRowsOnlyIfMatched || (info.nullAware && !info.outputs[0]);
    finding(byType ? "producer-join-type" : "producer-ineligible", d.reason.text());
  });
}

/// A TopN producer: LIMIT over ORDER BY, the first key, its direction and NULL order.
void checkTopNProducer(const Producer& p, std::vector<Finding>& out) {
  const PlanNode& l = *p.node;
  const RuntimeFilter& f = *p.filter;
  auto finding = [&](const char* code, const std::string& msg) {
    out.push_back(producerFinding(p, code, msg));
  };
  const PlanNode& sort = *l.children[0];
  if (!l.limit || sort.op != PlanOp::Sort || sort.sortKeys.empty())
    return finding("topn-producer-mismatch", "a TopN filter needs LIMIT n over ORDER BY");
  const SortKey& k = sort.sortKeys[0];
  const CmpOp want = k.ascending ? CmpOp::Le : CmpOp::Ge;
  if (!exprEquals(f.probe, k.expr) || f.op != want)
    return finding("topn-producer-mismatch", "the threshold must be `" + str(k.expr) + " " +
                                                 cmpSpelling(want) + "`, not `" + str(f.probe) +
                                                 " " + cmpSpelling(f.op) + "`");
  if (f.nullAllowed != k.nullsFirst)
    finding("null-flag-mismatch", std::string("NULLs sort ") + (k.nullsFirst ? "first" : "last") +
                                      ", so the threshold must " + (k.nullsFirst ? "" : "not ") +
                                      "pass NULL");
}

/// A MinMax range built from keys of one type bounds probes of another only
/// where the two compare exactly: int keys [9, 10] against a VARCHAR column
/// compared as text would reject '5', which equals 5 numerically, while
/// '10' < '5' < '9' fails the range (and the opposite where text compares).
std::string rangeAcrossTypes(const RuntimeFilter& f, const Type& probe) {
  const bool range = !isEquality(f.op) ||
                     std::find(f.kinds.begin(), f.kinds.end(), FilterKind::MinMax) != f.kinds.end();
  if (!range || isComposite(*f.build) || comparesExactly(f.build->type, probe)) return "";
  return "a min_max range of " + f.build->type.toString() + " keys on " + probe.toString() +
         ", which do not compare exactly";
}

/// The scan under `n` (subquery plans aside) whose table has column `id`.
const PlanNode* scanOf(const PlanNode& n, const std::string& id) {
  if (n.op == PlanOp::Scan) return hasTableColumn(n, id) ? &n : nullptr;
  for (const auto& c : n.children)
    if (const PlanNode* s = scanOf(*c, id)) return s;
  return nullptr;
}

/// A key that is its scan's distribution key: the column `alias.key`.
bool distributionKeyOf(const PlanNode& side, const ExprPtr& e) {
  if (e->kind != ExprKind::Column) return false;
  const PlanNode* s = scanOf(side, e->name);
  return s && !s->distributionKey.empty() && e->name == s->alias + "." + s->distributionKey;
}

/// A local filter holds the build rows of one worker. Each worker's probe rows
/// meet only its own build rows when the build side is broadcast, or when both
/// sides sit on their workers by the join key (colocated, bucket shuffle). Across
/// a shuffle a probe row is scanned on one worker and joined on another, so the
/// filter built from the scanning worker's build rows drops rows another
/// worker's build rows match: with two workers, a = {1} scanned on worker 0 and
/// b = {1} on worker 1, worker 0's local filter is empty and the joined row is lost.
void checkScope(const Producer& p, std::vector<Finding>& out) {
  const PlanNode& j = *p.node;
  const RuntimeFilter& f = *p.filter;
  if (f.scope != FilterScope::Local || j.op != PlanOp::Join) return;
  auto finding = [&](const char* code, Severity sev, const std::string& msg) {
    Finding x = makeFinding(code, rf(f.id) + " at " + nodeRef(j) + ": " + msg, f.id, {j.id}, j.loc);
    x.severity = sev;
    out.push_back(std::move(x));
  };
  switch (j.distribution) {
    case JoinDistribution::Broadcast:
    case JoinDistribution::Colocated:
    case JoinDistribution::BucketShuffle:
      return;
    case JoinDistribution::Shuffle:
      return finding("local-filter-partial-build", Severity::Error,
                     "a local filter on a shuffle join: each worker's filter holds only its "
                     "part of the build side, and its probe rows are joined on other workers");
    case JoinDistribution::Unknown:
      break;
  }
  // No distribution in the plan: colocated when both keys are their tables'
  // distribution keys; else nothing says the scope is sound.
  if (distributionKeyOf(*j.children[0], f.probe) && distributionKeyOf(*j.children[1], f.build))
    return;
  finding("local-filter-partial-build", Severity::Warning,
          "a local filter, but the plan does not say the join is broadcast or colocated, and "
          "the keys are not both their tables' distribution keys: not proven that each "
          "worker's build rows cover its probe rows");
}

/// The kinds suit the key type: MinMax ordered and not floating, bitset integer.
std::string kindProblem(const RuntimeFilter& f, const Type& t) {
  if (f.kinds.empty()) return "the filter has no kind";
  return kindMisfit(f, t);
}

}  // namespace

void checkClosure(const PlanFacts& facts, std::vector<Finding>& out, std::vector<bool>& ok) {
  // Producers with findings, ascending: their consumers are judged by position only.
  std::vector<int> broken;
  for (size_t first = 0; first < facts.producers.size();) {
    const int id = facts.producers[first].filter->id;
    const std::span<const Producer> ps = facts.producersOf(id);
    first += ps.size();
    for (size_t i = 1; i < ps.size(); ++i)
      out.push_back(makeFinding(
          "duplicate-filter-id",
          rf(id) + " is produced by " + nodeRef(*ps[0].node) + " and by " + nodeRef(*ps[i].node),
          id, {ps[0].node->id, ps[i].node->id}, ps[i].node->loc));
    const Producer& p = ps[0];
    const size_t before = out.size();
    if (p.node->op == PlanOp::Join)
      checkJoinProducer(p, out);
    else if (isSetOperation(p.node->op))
      checkSetOpProducer(p, out);
    else
      checkTopNProducer(p, out);
    std::string kp = kindProblem(*p.filter, p.filter->probe->type);
    if (kp.empty()) kp = rangeAcrossTypes(*p.filter, p.filter->probe->type);
    if (!kp.empty())
      out.push_back(makeFinding("kind-unsuitable", rf(id) + " at " + nodeRef(*p.node) + ": " + kp,
                                id, {p.node->id}, p.node->loc));
    if (out.size() > before) broken.push_back(id);  // producers come by id
    checkScope(p, out);
    if (facts.consumersOf(id).empty())
      out.push_back(makeFinding("producer-without-consumer",
                                rf(id) + " at " + nodeRef(*p.node) + " has no consumer", id,
                                {p.node->id}, p.node->loc));
  }
  // Waits: filter g waits on filter f when a consumer of f sits in g's build subtree.
  std::vector<std::pair<int, int>> waits;  // (g, f), sorted and unique below
  ok.assign(facts.consumers.size(), false);
  for (size_t i = 0; i < facts.consumers.size(); ++i) {
    const Consumer& c = facts.consumers[i];
    const int id = c.target->id;
    const PlanNode& n = *c.node;
    const ExprPtr& t = c.target->target;
    // Names the consumer's node, after the producer's when given.
    auto finding = [&](const char* code, const std::string& msg,
                       const PlanNode* producer = nullptr) {
      std::vector<int> nodes;
      if (producer) nodes.push_back(producer->id);
      nodes.push_back(n.id);
      out.push_back(makeFinding(code, rf(id) + " -> " + str(t) + " at " + nodeRef(n) + ": " + msg,
                                id, std::move(nodes), n.loc));
    };
    const std::span<const Producer> ps = facts.producersOf(id);
    if (ps.empty()) {
      finding("unknown-filter", "no producer has this id");
      continue;
    }
    const Producer& p = ps[0];
    // A consumer of a non-blocking filter starts without it: it waits on nothing.
    if (!p.filter->nonBlocking)
      for (int gid : facts.waitingOn(i)) waits.emplace_back(gid, id);
    const RuntimeFilter& f = *p.filter;
    if (facts.within(facts.buildRoot(p), &n)) {
      finding("consumer-in-build-side",
              "in the build subtree of " + nodeRef(*p.node) + ", which waits for this filter",
              p.node);
      continue;
    }
    // Beside a join producer (in the other side of a join above it) the filter may
    // arrive sideways (rules/rf_sideways.cpp): safety judges that derivation.
    const bool beside = p.node->op == PlanOp::Join && !facts.within(p.node, &n);
    if (!facts.within(facts.probeRoot(p), &n) && !beside) {
      finding("consumer-outside-probe-side", "not in the probe subtree of " + nodeRef(*p.node),
              p.node);
      continue;
    }
    if (std::binary_search(broken.begin(), broken.end(), id)) continue;
    if (n.op != PlanOp::Scan) {
      finding("consumer-not-at-scan", "consumers sit at scans", p.node);
      continue;
    }
    bool own = allColumnRefs(*t, [&](const std::string& col) { return hasTableColumn(n, col); });
    if (!own || hasSubquery(*t)) {
      finding("target-not-computable", "not computable from " + n.alias + "'s columns", p.node);
      continue;
    }
    if (!n.runtimeFilterAllowed) {
      finding("scan-rejects-filters", "table " + n.table + " does not accept runtime filters",
              p.node);
      continue;
    }
    // The producer's key type was judged above; a target of another type is judged here.
    std::string kp = t->type == f.probe->type ? "" : kindProblem(f, t->type);
    if (kp.empty()) kp = rangeAcrossTypes(f, t->type);
    if (kp.empty() && compareMisfit(f.op, f.probe->type).empty())
      if (auto m = compareMisfit(f.op, t->type); !m.empty()) kp = "a " + m;
    if (!kp.empty()) {
      finding("kind-unsuitable", kp, p.node);
      continue;
    }
    Decision d = canConsume(n, t, f);
    if (!d.ok) {
      finding("unsuitable-target", d.reason.text(), p.node);
      continue;
    }
    ok[i] = ps.size() == 1;
  }
  // A cycle of two or more filters (a self-wait is consumer-in-build-side).
  if (waits.empty()) return;
  std::sort(waits.begin(), waits.end());
  waits.erase(std::unique(waits.begin(), waits.end()), waits.end());
  std::vector<int> ids;  // every filter in a wait, sorted: the index of `states`
  for (const auto& [g, f] : waits) ids.insert(ids.end(), {g, f});
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<char> states(ids.size(), 0);  // 0 new, 1 on the stack, 2 done
  auto state = [&](int g) -> char& {
    return states[std::lower_bound(ids.begin(), ids.end(), g) - ids.begin()];
  };
  std::vector<int> stack;
  std::function<void(int)> dfs = [&](int g) {
    state(g) = 1;
    stack.push_back(g);
    auto from = std::lower_bound(waits.begin(), waits.end(), std::make_pair(g, INT_MIN));
    for (auto w = from; w != waits.end() && w->first == g; ++w) {
      const int f = w->second;
      if (f == g) continue;
      if (state(f) == 1) {
        std::string cycle;
        std::vector<int> ids;
        for (auto s = std::find(stack.begin(), stack.end(), f); s != stack.end(); ++s) {
          cycle += rf(*s) + " waits on ";
          ids.push_back(facts.producersOf(*s)[0].node->id);
        }
        const PlanNode& at = *facts.producersOf(f)[0].node;
        out.push_back(makeFinding("filter-wait-cycle", cycle + rf(f), f, ids, at.loc));
      } else if (!state(f) && !facts.producersOf(f).empty()) {
        dfs(f);
      }
    }
    stack.pop_back();
    state(g) = 2;
  };
  for (const auto& [g, f] : waits)
    if (!state(g)) dfs(g);
}

}  // namespace rfguard
