#include "rules/rf_planner.h"

#include "ir/printers.h"
#include "ir/stack_arena.h"
#include "rules/cardinality.h"
#include "rules/rf_clear.h"
#include "rules/rf_merge.h"
#include "rules/rf_planner_sideways.h"
#include "rules/rf_stats.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <map>
#include <memory_resource>
#include <optional>
#include <set>

namespace rfguard {

namespace {

constexpr long long kMinProbeRows = 100000;  // Hologres: probe side at least this large
constexpr double kMaxBuildProbeRatio = 0.1;  // Hologres: build side at most this share of the probe
constexpr size_t kMaxConsumersPerFilter = 64;  // nearest scans first; keeps chains linear
constexpr long long kWorkers = 40;  // Hologres' degree of parallelism in docs/design.md section 8

/// A hash of an expression's structure (kind, name, value, arguments): equal
/// expressions (exprEquals) hash alike, so a walk remembers what it has seen
/// without printing it.
size_t shapeHash(const Expr& e) {
  size_t h = std::hash<std::string_view>{}(e.name) ^ (static_cast<size_t>(e.kind) << 1);
  if (!e.value.empty()) h ^= std::hash<std::string_view>{}(e.value) + 0x9e3779b97f4a7c15ULL;
  for (const auto& a : e.args) h = h * 31 + shapeHash(*a);
  return h;
}

struct Planner {
  RfReport& report;
  Profile profile;
  bool cost;
  bool composite;
  const LineageIndex* lineage = nullptr;  // which scan produces a column
  bool jumps = false;                 // lineage jumps: sound profile only (engines decide per node)
  const TableStats* stats = nullptr;  // row counts and distribution keys by table
  int nextId = 1;
  std::vector<const PlanNode*> withRows;  // nodes with a table row statistic below, sorted
  std::vector<PlanNode*> path;            // the node visited and its ancestors, root first
  WaitGraph* waits = nullptr;             // who waits on whom, for filters placed sideways
  std::set<std::pair<const PlanNode*, std::string>> besideOnlyDone;  // see SidewaysHost

  CardinalityEstimator estimator;

  /// A size by statistics: the estimated rows (rules/cardinality.h: filters and
  /// joins estimated) where some table below has a row statistic, else none.
  /// The plan's own estimate where it has one: normalisation wrote it with the
  /// same estimator (a plan read from JSON keeps the one it was given).
  /// Kept within [1, 1e15]: a plan may state any estimate, and a product of
  /// large tables may exceed what rows x workers x 10 can hold in a long long.
  std::optional<long long> sizeOf(const PlanNode& n) {
    if (!std::binary_search(withRows.begin(), withRows.end(), &n, std::less<>()))
      return std::nullopt;
    double rows = n.estimatedRows ? *n.estimatedRows : estimator.rows(n);
    constexpr double kMaxRows = 1e15;
    if (!(rows >= 1.0)) rows = 1.0;  // NaN too
    return std::llround(std::min(rows, kMaxRows));
  }
  /// Fills `withRows` under `n`.
  bool markRows(const PlanNode& n) {
    bool any = n.op == PlanOp::Scan && stats->rows(n.table);
    for (const auto& c : n.children) any = markRows(*c) || any;
    if (any) withRows.push_back(&n);
    return any;
  }

  /// The scan that produces column `id` (ids are unique in a plan), if any.
  const PlanNode* producer(const std::string& id) const { return lineage->scanOf(id); }

  /// The build keys' distinct count: the column's NDV statistic, else the row bound.
  std::optional<long long> buildKeys(const PlanNode& build, const EquiConjunct& s) {
    auto n = estimateRows(build, *stats);
    if (s.build->kind == ExprKind::Column)
      if (const PlanNode* scan = producer(s.build->name)) {
        auto ndv = columnNdvOf(*scan, s.build->name);
        if (ndv && (!n || *ndv < *n)) n = ndv;
      }
    return n;
  }

  std::vector<FilterKind> kindsFor(const PlanNode& build, const EquiConjunct& s) {
    std::vector<FilterKind> kinds;
    if (!isEquality(s.op)) return {FilterKind::MinMax};  // a scalar filter: one bound
    if (isComposite(*s.build)) {                         // a composite key: hashed
      auto n = estimateRows(build, *stats);
      return {n && *n <= static_cast<long long>(kMaxInFilterKeys) ? FilterKind::In
                                                                  : FilterKind::Bloom};
    }
    auto n = buildKeys(build, s);
    kinds.push_back(n && *n <= static_cast<long long>(kMaxInFilterKeys) ? FilterKind::In
                                                                        : FilterKind::Bloom);
    // Both keys' types: `double = int` builds int bounds the double probe cannot
    // be ordered by (NaN), and the verifier judges the probe's type.
    if (kindMisfit(FilterKind::MinMax, s.build->type).empty() &&
        kindMisfit(FilterKind::MinMax, s.probe->type).empty() && s.op == CmpOp::Eq)
      kinds.push_back(FilterKind::MinMax);
    return kinds;
  }

  // Local when each worker's build rows cover all of its probe rows: the build
  // side is broadcast (every worker holds all of it), or both keys are their
  // tables' distribution keys (colocated). Broadcast is modelled from statistics,
  // calibrated on docs/design.md section 8: a 1,000-row build joined with a 1,000,000-row probe
  // is broadcast (local filter), the same build with a 100,000-row probe is
  // shuffled (global). Broadcast when build rows x workers x 10 <= probe rows,
  // with Hologres' 40 workers of those samples.
  // The join's distribution, where the plan gives one, decides; otherwise the
  // one assumed here is recorded on the join (`assumed`), so that the plan
  // carries the fact the local scope rests on and the verifier can judge it.
  FilterScope scopeFor(const PlanNode& join, const EquiConjunct& s, JoinDistribution& assumed) {
    assumed = join.distribution;
    switch (join.distribution) {
      case JoinDistribution::Broadcast:
      case JoinDistribution::Colocated:
      case JoinDistribution::BucketShuffle:
        return FilterScope::Local;
      case JoinDistribution::Shuffle:
        return FilterScope::Global;
      case JoinDistribution::Unknown:
        break;
    }
    auto probe = sizeOf(*join.children[0]), build = sizeOf(*join.children[1]);
    if (probe && build && *build * kWorkers * 10 <= *probe) {
      assumed = JoinDistribution::Broadcast;
      return FilterScope::Local;
    }
    if (s.probe->kind != ExprKind::Column || s.build->kind != ExprKind::Column)
      return FilterScope::Global;
    const PlanNode* p = producer(s.probe->name);
    const PlanNode* b = producer(s.build->name);
    auto isKey = [&](const PlanNode* scan, const std::string& id) {
      if (!scan) return false;
      const std::string_view key = stats->distributionKey(scan->table);
      // id == scan->alias + "." + key, without building the string
      return !key.empty() && id.size() == scan->alias.size() + 1 + key.size() &&
             id.starts_with(scan->alias) && id[scan->alias.size()] == '.' && id.ends_with(key);
    };
    if (!isKey(p, s.probe->name) || !isKey(b, s.build->name)) return FilterScope::Global;
    assumed = JoinDistribution::Colocated;
    return FilterScope::Local;
  }

  // Sizes by statistics: estimated rows of each side. No statistics: the filter is built.
  Decision costDecision(const PlanNode& join) {
    auto probe = sizeOf(*join.children[0]), build = sizeOf(*join.children[1]);
    const RfRule rule = RfRule::CostThreshold;
    if (!probe) return Decision::yes(rule, "no statistics for the probe side");
    if (*probe < kMinProbeRows)
      return Decision::no(
          rule, "probe side has about " + std::to_string(*probe) + " rows, fewer than 100000");
    if (build && static_cast<double>(*build) > kMaxBuildProbeRatio * static_cast<double>(*probe))
      return Decision::no(rule, "build/probe is " + std::to_string(*build) + "/" +
                                    std::to_string(*probe) + ", more than 0.1");
    return Decision::yes(rule, "probe " + std::to_string(*probe) + " rows, build " +
                                   (build ? std::to_string(*build) : std::string("unknown")));
  }

  struct Item {
    PlanNode* node;
    ExprPtr expr;
    int step;  // last step taken to get here, -1 at the start
  };

  int addStep(int node, RfRule rule, const ExprPtr& before, const ExprPtr& after, int parent) {
    report.steps.push_back({node, rule, before, after, parent});
    return static_cast<int>(report.steps.size()) - 1;
  }

  /// Carries `f` from `start` (with its probe expression) to every scan that may apply it.
  /// A TopN threshold must reach the scan unchanged: its targets are plain columns.
  /// From elsewhere than the producer's probe side: `f` arrives at `start` as
  /// `from` by step `fromStep`.
  size_t propagate(PlanNode& start, RuntimeFilter& f, bool columnTargetsOnly = false,
                   const ExprPtr& from = nullptr, int fromStep = -1) {
    // The walk's lists live on the stack while they fit (most filters reach a
    // few nodes; a long chain spills to the heap).
    StackArena<4096> arena;
    std::pmr::vector<Item> work({{&start, from ? from : f.probe, fromStep}},
                                &arena.memory);  // breadth-first, from the front
    std::pmr::multimap<std::pair<int, size_t>, const Expr*> seen(
        &arena.memory);  // (node, shape) -> expr
    size_t placed = 0;
    for (size_t head = 0; head < work.size(); ++head) {
      Item it = std::move(work[head]);
      PlanNode& n = *it.node;
      const std::pair<int, size_t> key{n.id, shapeHash(*it.expr)};
      bool fresh = true;
      for (auto [at, end] = seen.equal_range(key); at != end && fresh; ++at)
        fresh = !exprEquals(*at->second, *it.expr);
      if (!fresh) continue;
      seen.emplace(key, it.expr.get());
      // A plain column with nothing on its way that could decide otherwise goes
      // straight to its scan: the sound hooks would pass it unchanged at every node.
      // A TopN threshold acts only while the scan runs: below a blocking
      // operator the input is read in full before the TopN sees a row, so the
      // threshold would filter nothing (and the jump below would skip them).
      if (columnTargetsOnly &&
          (n.op == PlanOp::Aggregate || n.op == PlanOp::Window || n.op == PlanOp::Sort)) {
        report.rejected.push_back(
            {f.id, n.id, it.expr,
             Decision::no(RfRule::TopNWhileScanning,
                          nodeRef(n) + " reads its whole input before the TopN sees a row")});
        continue;
      }
      if (n.op != PlanOp::Scan && jumps && it.expr->kind == ExprKind::Column && !columnTargetsOnly)
        if (PlanNode* scan = lineage->jumpTarget(n, it.expr->name)) {
          report.steps.push_back(
              {n.id, RfRule::PassThroughUnchanged, it.expr, it.expr, it.step, scan->id});
          work.push_back({scan, it.expr, static_cast<int>(report.steps.size()) - 1});
          continue;
        }
      if (n.op == PlanOp::Scan) {
        Decision d = consumeUnder(profile, n, it.expr, f);
        if (d.ok && columnTargetsOnly && it.expr->kind != ExprKind::Column)
          d = Decision::no(RfRule::ConsumeTopNThreshold,
                           "`" + exprToString(*it.expr) + "` is not the sort key unchanged");
        if (!d.ok) {
          report.rejected.push_back({f.id, n.id, it.expr, d});
          continue;
        }
        bool dup = false;
        for (const auto& t : n.runtimeFilterTargets)
          dup = dup || (t.id == f.id && exprEquals(t.target, it.expr));
        if (dup) continue;
        // Nearest scans first (breadth-first); a chain of n equi-joins would
        // otherwise place n(n-1)/2 consumers and make large generated queries
        // quadratic to plan, print and verify.
        if (placed == kMaxConsumersPerFilter) {
          report.rejected.push_back(
              {f.id, n.id, it.expr,
               Decision::no(RfRule::ConsumerCap,
                            "RF" + std::to_string(f.id) + " already has " +
                                std::to_string(kMaxConsumersPerFilter) +
                                " consumers nearer to its producer; the search stops here")});
          return placed;
        }
        ++placed;
        if (waits && !f.nonBlocking) waits->consumer(f.id, n);
        n.runtimeFilterTargets.push_back({f.id, it.expr});
        int last = addStep(n.id, d.rule, it.expr, it.expr, it.step);
        report.consumers.push_back({f.id, n.id, it.expr, last});
        continue;
      }
      if (n.op == PlanOp::Join) {
        for (const auto& m : joinMovesUnder(profile, n, it.expr, f)) {
          if (!m.decision.ok) {
            report.rejected.push_back({f.id, n.id, it.expr, m.decision});
            continue;
          }
          // Only an accept_null filter enters a NOT IN side, and the planner makes none:
          // its walk has no place for the stricter judgement below such a side (safety.cpp).
          assert(!m.intoNotIn);
          if (columnTargetsOnly && m.child == 1) {  // the hash table is built before probing
            report.rejected.push_back(
                {f.id, n.id, m.expr,
                 Decision::no(RfRule::TopNWhileScanning,
                              "the build side of " + nodeRef(n) +
                                  " is read in full before the TopN sees a row")});
            continue;
          }
          work.push_back({n.children[m.child].get(), m.expr,
                          addStep(n.id, m.decision.rule, it.expr, m.expr, it.step)});
        }
        continue;
      }
      for (size_t c = 0; c < n.children.size(); ++c) {
        ExprPtr down;
        Decision d = passUnder(profile, n, c, it.expr, f, &down);
        if (!d.ok) {
          report.rejected.push_back({f.id, n.id, it.expr, d});
          continue;
        }
        work.push_back({n.children[c].get(), down, addStep(n.id, d.rule, it.expr, down, it.step)});
      }
    }
    return placed;
  }

  // ORDER BY x LIMIT n keeps a moving threshold: once n (+ offset) rows are held,
  // a row whose x sorts after the worst of them can never enter the result, so
  // the scan may drop it. Ties pass (a later key may still order them in).
  // NULLs pass when they sort first. Only the first sort key, only a column.
  void visitTopN(PlanNode& limit) {
    PlanNode& sort = *limit.children[0];
    const SortKey& key = sort.sortKeys[0];
    if (key.expr->kind != ExprKind::Column || !isDeterministic(*key.expr)) {
      report.generation.push_back(
          {0, limit.id, key.expr,
           Decision::no(RfRule::GenerateTopNFilter, "the first sort key is not a column")});
      return;
    }
    // ORDER BY x LIMIT n over doubles: once the n held rows are NaN, `x <= NaN`
    // drops every number that should replace them.
    if (auto m = kindMisfit(FilterKind::MinMax, key.expr->type); !m.empty()) {
      report.generation.push_back(
          {0, limit.id, key,
           Decision::no(RfRule::GenerateTopNFilter, "the threshold would be a " + m)});
      return;
    }
    RuntimeFilter f;
    f.id = nextId++;
    f.build = f.probe = key.expr;
    f.op = key.ascending ? CmpOp::Le : CmpOp::Ge;
    f.nullAllowed = key.nullsFirst;
    f.kinds = {FilterKind::MinMax};
    report.generation.push_back(
        {f.id, limit.id, key,
         Decision::yes(RfRule::GenerateTopNFilter, "ORDER BY " + sortKeyToString(key) + " LIMIT " +
                                                       std::to_string(*limit.limit))});
    size_t before = report.consumers.size();
    propagate(*sort.children[0], f, true);
    if (report.consumers.size() == before)
      report.dropped.push_back(f.id);
    else
      limit.runtimeFilters.push_back(std::move(f));
  }

  /// Builds one filter from `s` (a conjunct, or a composite of several) and places it.
  void generate(PlanNode& n, const ExprPtr& what, const EquiConjunct& s, const Decision& d) {
    if (cost) {
      Decision c = costDecision(n);
      if (!c.ok) {
        report.skipped.push_back({0, n.id, what, c});
        return;
      }
    }
    RuntimeFilter f;
    f.id = nextId++;
    f.build = s.build;
    f.probe = s.probe;
    f.op = s.op;
    f.nullAllowed = s.op == CmpOp::NullSafeEq;
    f.kinds = kindsFor(*n.children[1], s);
    JoinDistribution assumed = JoinDistribution::Unknown;
    f.scope = scopeFor(n, s, assumed);
    report.generation.push_back({f.id, n.id, what, d});
    size_t before = report.consumers.size();
    propagate(*n.children[0], f);
    RuntimeFilter keys = f;  // the sideways filter's template, kept or not
    if (report.consumers.size() == before) {
      report.dropped.push_back(f.id);  // a producer without consumer is removed
    } else {
      if (f.scope == FilterScope::Local) n.distribution = assumed;
      waits->producer(f.id, n);
      n.runtimeFilters.push_back(std::move(f));
    }
    if (profile == Profile::Sound) {
      std::vector<PlanNode*> up(path.rbegin(), path.rend());
      SidewaysHost h = host();
      placeSideways(h, up, keys);
    }
  }

  /// INTERSECT and EXCEPT (Doris's RuntimeFilterV2): a row of another input
  /// whose value at a position no row of the first input has changes neither
  /// result, so the first input's values there filter each other input. One
  /// position, the first whose type a filter suits (as Doris picks the first
  /// that is not a metric type); null-allowing where both columns may be NULL,
  /// since the set operation matches a NULL with a NULL. Counterexample to a
  /// UNION's: a = {1}, b = {2} keeps 2, which the filter drops.
  void visitSetOp(PlanNode& n) {
    const auto& first = n.children[0]->output;
    size_t p = 0;
    while (p < first.size() && (!kindMisfit(FilterKind::Bloom, first[p].type).empty() ||
                                !compareMisfit(CmpOp::NullSafeEq, first[p].type).empty()))
      ++p;
    if (p == first.size()) {
      if (!first.empty())
        report.generation.push_back(
            {0, n.id, makeColumn(first[0].id, first[0].type, first[0].nullable, n.loc),
             Decision::no(RfRule::GenerateSetOpFilter, "no column of a type a filter suits")});
      return;
    }
    const Column& b = first[p];
    for (size_t k = 1; k < n.children.size(); ++k) {
      const Column& c = n.children[k]->output[p];
      RuntimeFilter f;
      f.id = nextId++;
      f.build = makeColumn(b.id, b.type, b.nullable, n.loc);
      f.probe = makeColumn(c.id, c.type, c.nullable, n.loc);
      f.op = CmpOp::Eq;
      f.nullAllowed = b.nullable && c.nullable;
      f.kinds = {FilterKind::Bloom};
      if (kindMisfit(FilterKind::MinMax, b.type).empty() && comparesExactly(b.type, c.type))
        f.kinds.push_back(FilterKind::MinMax);
      report.generation.push_back(
          {f.id, n.id, f.probe,
           Decision::yes(RfRule::GenerateSetOpFilter, std::string(opName(n.op)) + " input " +
                                                          std::to_string(k + 1) +
                                                          " by its first input's `" + b.id + "`")});
      size_t before = report.consumers.size();
      propagate(*n.children[k], f);
      if (report.consumers.size() == before) {
        report.dropped.push_back(f.id);
      } else {
        waits->producer(f.id, n, n.children[0].get());
        n.runtimeFilters.push_back(std::move(f));
      }
    }
  }

  /// What placements beside a producer borrow from the planner.
  SidewaysHost host() {
    return {report,
            profile,
            *waits,
            [this] { return nextId++; },
            [this](PlanNode& start, RuntimeFilter& f, const ExprPtr& e, int step) {
              return propagate(start, f, false, e, step);
            },
            [this](const PlanNode& side, const ExprPtr& e) -> std::optional<double> {
              if (e->kind != ExprKind::Column || !sizeOf(side)) return std::nullopt;
              return estimator.ndv(side, e->name);
            },
            [this](const PlanNode& build, const EquiConjunct& s) { return kindsFor(build, s); },
            besideOnlyDone};
  }

  // A composite filter over (k1, k2, ...) rejects a probe row when its key tuple
  // is not among the build tuples; each conjunct alone is implied by the tuple.
  bool compositeOf(PlanNode& n, const std::vector<std::pair<ExprPtr, EquiConjunct>>& eligible) {
    if (eligible.size() < 2) return false;
    std::vector<ExprPtr> probe, build, conjs;
    for (const auto& [conj, s] : eligible) {
      if (s.op != eligible[0].second.op || !isEquality(s.op)) return false;
      probe.push_back(s.probe);
      build.push_back(s.build);
      conjs.push_back(conj);
    }
    EquiConjunct tuple{makeComposite(probe), makeComposite(build), eligible[0].second.op};
    generate(
        n, makeAnd(conjs), tuple,
        Decision::yes(RfRule::GenerateCompositeFilter,
                      "one filter over " + std::to_string(conjs.size()) + " equality conjuncts"));
    return true;
  }

  void visit(PlanNode& n) {
    path.push_back(&n);
    const EngineProfile* engine = profileInfo(profile).engine;
    if ((!engine || engine->topN) && n.op == PlanOp::Limit && n.limit &&
        n.children[0]->op == PlanOp::Sort && !n.children[0]->sortKeys.empty())
      visitTopN(n);
    if ((!engine || engine->setOpFilters) &&
        (n.op == PlanOp::Intersect || n.op == PlanOp::Except) && n.children.size() >= 2)
      visitSetOp(n);
    if (n.op == PlanOp::Join && n.predicate) {
      std::vector<std::pair<ExprPtr, EquiConjunct>> eligible;
      std::vector<Decision> accepted;  // the hook's decision per eligible conjunct
      forEachConjunct(n.predicate, [&](const ExprPtr& conj) {
        EquiConjunct s;
        Decision d = generateUnder(profile, n, conj, &s);
        if (d.ok) {
          eligible.push_back({conj, s});
          accepted.push_back(std::move(d));
        } else {
          report.generation.push_back({0, n.id, conj, std::move(d)});
        }
        return true;
      });
      if (composite && profile == Profile::Sound && compositeOf(n, eligible)) eligible.clear();
      // Each filter keeps the rule that accepted it and its reason (a scalar
      // filter's, an engine profile's), for --explain and the API.
      for (size_t i = 0; i < eligible.size(); ++i)
        generate(n, eligible[i].first, eligible[i].second, accepted[i]);
      if (profile == Profile::Doris || profile == Profile::Sound) {
        SidewaysHost h = host();
        std::vector<PlanNode*> above(path.rbegin(), path.rend());
        placeDecoupled(h, above);
      }
    }
    for (auto& c : n.children) visit(*c);
    path.pop_back();
  }
};

}  // namespace

void planRuntimeFilters(PlanNode& root, RfReport& report, const RfOptions& options) {
  clearRuntimeFilters(root);
  auto lineage = std::make_shared<LineageIndex>(root);
  const bool sound = options.profile == Profile::Sound;
  const TableStats stats(root);
  WaitGraph waits(root);
  Planner p{report,
            options.profile,
            options.cost,
            options.composite,
            lineage.get(),
            sound,
            &stats,
            1,
            {},
            {},
            &waits,
            {},
            {}};
  if (sound) report.lineage = lineage;       // expands the jump steps in derivation()
  p.withRows.reserve(lineage->nodeCount());  // one allocation: at most every node
  p.markRows(root);
  std::sort(p.withRows.begin(), p.withRows.end(), std::less<>());
  p.visit(root);
  mergeDuplicateFilters(root, report);
}

}  // namespace rfguard
