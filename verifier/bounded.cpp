// The bounded search: iterative deepening on rows per table; at each bound,
// every database (up to renaming of fresh values) with at least one table of
// exactly that many rows; for each, the original query against the filtered
// one under every admissible content.
#include "verifier/bounded.h"

#include <algorithm>

#include <malloc.h>

#include <chrono>
#include <functional>
#include <memory>

#include "verifier/answers.h"
#include "verifier/oracle_run.h"
#include "verifier/plan_sql.h"
#include "verifier/search_space.h"
#include "verifier/slices.h"
#include "verifier/sqlite_oracle.h"

namespace rfguard {

namespace {

using Clock = std::chrono::steady_clock;

/// Multisets of option indexes of size 0..n, smallest first (as non-decreasing index lists).
std::vector<std::vector<int>> multisets(int options, int n) {
  std::vector<std::vector<int>> out{{}};
  std::vector<std::vector<int>> level{{}};
  for (int size = 1; size <= n; ++size) {
    std::vector<std::vector<int>> next;
    for (const auto& m : level)
      for (int o = m.empty() ? 0 : m.back(); o < options; ++o) {
        auto x = m;
        x.push_back(o);
        next.push_back(x);
      }
    out.insert(out.end(), next.begin(), next.end());
    level = std::move(next);
  }
  return out;
}

/// How many multisets of exactly `size` rows `options` possible rows make: C(options + size - 1,
/// size).
double multisetCount(int options, int size) {
  double c = 1;
  for (int i = 1; i <= size; ++i) c = c * (options + i - 1) / i;
  return c;
}

/// Every filter the plan produces, in subquery plans too (a mark join's build
/// input imported as a subquery holds the filters built there).
std::set<int> filterIds(const PlanNode& n) {
  std::set<int> ids;
  forEachNode(n, [&](const PlanNode& x) {
    for (const auto& f : x.runtimeFilters) ids.insert(f.id);
  });
  return ids;
}

}  // namespace

BoundedVerdict searchDatabases(
    const SearchSpace& space, const BoundedOptions& o,
    const std::function<bool(const rt::Database&, BoundedVerdict&)>& differs) {
  BoundedVerdict v;
  if (!space.error.empty()) {
    v.complete = false;
    v.limit = space.error;
    return v;
  }
  const auto start = Clock::now();
  const size_t T = space.tables.size();
  rt::Database db;  // refilled for every choice
  // LIMIT / OFFSET windows a bound-sized input may not pass: after the plain
  // search, each database again with one of its rows repeated to fill the window.
  std::vector<long long> repeats;
  std::string reached, unreached;
  std::set<std::string> seen;  // both plans of an equivalence check may hold the same node
  for (const auto& l : space.limits) {
    if (l.rows < o.bound || !seen.insert(l.text).second) continue;
    if (l.rows > kMaxRepeat) {
      unreached += (unreached.empty() ? "" : ", ") + l.text;
      continue;
    }
    reached += (reached.empty() ? "" : ", ") + l.text;
    if (std::find(repeats.begin(), repeats.end(), l.rows) == repeats.end())
      repeats.push_back(l.rows);
  }
  if (!reached.empty())
    v.constants =
        "past " + reached + ": every database also with one row repeated to fill the window";
  if (!unreached.empty()) {
    v.constantsReached = false;
    v.constants += std::string(v.constants.empty() ? "" : "; ") + "not past " + unreached +
                   ": more than " + std::to_string(kMaxRepeat) +
                   " rows, the verdict holds only for inputs that fit the window";
  }
  // The budget: the search's own, a quarter of it for the corner below.
  uint64_t maxDatabases = o.maxDatabases;
  double seconds = o.seconds;
  // One database, and it again with each row repeated to fill a window: 1 when
  // one of them is a counterexample (v.bound is then n - 1), -1 when the search
  // must stop (an error, or the budget), 0 to go on.
  auto test = [&](const std::vector<std::vector<int>>& choice, int n) {
    auto found = [&](long long copies) {
      v.safe = false;
      v.bound = n - 1;
      if (copies > 1 && v.counterexample) v.counterexample->repeated = copies;
      return 1;
    };
    auto count = [&] {
      ++v.databases;
      if (v.databasesPerBound.size() < static_cast<size_t>(n))
        v.databasesPerBound.resize(static_cast<size_t>(n), 0);
      ++v.databasesPerBound[static_cast<size_t>(n) - 1];
    };
    space.fill(choice, db);
    if (!space.admissible(db)) return 0;  // the schema forbids it: not a database to search
    count();
    if (differs(db, v)) return found(1);
    if (!v.error.empty()) return -1;
    for (long long copies : repeats)
      for (auto& [name, table] : db)
        for (size_t r = 0; r < table.rows.size(); ++r) {
          rt::Database more = db;
          auto& rows = more[name].rows;
          rows.insert(rows.begin() + static_cast<long>(r), static_cast<size_t>(copies - 1),
                      rows[r]);
          if (!space.admissible(more)) continue;  // a repeated key row
          count();
          if (differs(more, v)) return found(copies);
          if (!v.error.empty()) return -1;
        }
    if ((v.databases & 255) == 0 && o.progress)
      o.progress(n, v.databases, std::chrono::duration<double>(Clock::now() - start).count());
    if ((v.databases & 255) == 0 &&
        (v.databases >= maxDatabases ||
         std::chrono::duration<double>(Clock::now() - start).count() > seconds)) {
      v.complete = false;
      v.limit = "the budget ran out inside bound " + std::to_string(n);
      return -1;
    }
    return 0;
  };
  // Every combination of one choice per table (`per`), those `keep` accepts.
  auto each = [&](const std::vector<std::vector<std::vector<int>>>& per, int n,
                  const std::function<bool(const std::vector<std::vector<int>>&)>& keep) {
    std::vector<size_t> at(T, 0);
    std::vector<std::vector<int>> choice(T);
    for (bool more = T > 0; more;) {
      for (size_t t = 0; t < T; ++t) choice[t] = per[t][at[t]];
      if (keep(choice) && space.canonical(choice))
        if (int r = test(choice, n)) return r;
      more = false;
      for (size_t t = T; t-- > 0;) {  // odometer, last table fastest
        if (++at[t] < per[t].size()) {
          more = true;
          break;
        }
        at[t] = 0;
      }
    }
    return 0;
  };
  auto options = [&](size_t t) { return static_cast<int>(space.tables[t].options.size()); };
  for (int n = 1; n <= o.bound; ++n) {
    // Databases at this bound (before symmetry): past the budget, stop here rather
    // than check an arbitrary corner of the space.
    double count = 1;
    for (size_t t = 0; t < T; ++t) {
      double m = 0;  // multisets of size <= n over k options: C(k + n, n)
      for (int i = 0; i <= n; ++i) m += multisetCount(options(t), i);
      count *= m;
    }
    if (count > static_cast<double>(o.maxDatabases) * 4) {
      v.complete = false;
      const std::string over = "bound " + std::to_string(n) + " has about " +
                               std::to_string(static_cast<long long>(count)) +
                               " databases, over the budget";
      v.limit = over;
      if (n < 2 || T < 2) return v;
      // The corner's size: per grown table, its multisets of n rows times at
      // most one row of every other. Far past the budget too, it is left
      // alone; else it gets a quarter of the budget (tables below a LIMIT,
      // where such counterexamples are, come first).
      double corner = 0;
      for (size_t t = 0; t < T; ++t) {
        double c = multisetCount(options(t), n);
        for (size_t u = 0; u < T; ++u)
          if (u != t) c *= multisetCount(options(u), 0) + multisetCount(options(u), 1);
        corner += c;
      }
      if (corner > static_cast<double>(o.maxDatabases) * 4) return v;
      maxDatabases = std::min(o.maxDatabases, v.databases + o.maxDatabases / 4);
      seconds = std::min(
          o.seconds, std::chrono::duration<double>(Clock::now() - start).count() + o.seconds / 4);
      // Its corner where one table has n rows and every other at most one: a
      // LIMIT 1 that a filter moved below needs two rows of its input only.
      // The verdict stays at bound n - 1 unless a counterexample turns up.
      // Tables below a LIMIT first: its window is what more rows change.
      std::vector<size_t> order;
      for (const auto& l : space.limits)
        for (const auto& name : l.tables)
          for (size_t t = 0; t < T; ++t)
            if (space.tables[t].name == name &&
                std::find(order.begin(), order.end(), t) == order.end())
              order.push_back(t);
      for (size_t t = 0; t < T; ++t)
        if (std::find(order.begin(), order.end(), t) == order.end()) order.push_back(t);
      const uint64_t before = v.databases;
      for (size_t t : order) {
        std::vector<std::vector<std::vector<int>>> per(T);
        for (size_t u = 0; u < T; ++u) per[u] = multisets(options(u), u == t ? n : 1);
        const size_t table = t;
        int r = each(per, n, [&](const std::vector<std::vector<int>>& choice) {
          return choice[table].size() == static_cast<size_t>(n);
        });
        if (r == 1 || !v.error.empty()) return v;
        if (r == -1) {
          v.limit = over + "; the budget ran out in its corner of one table with " +
                    std::to_string(n) + " rows";
          return v;
        }
      }
      v.limit = over + "; its " + std::to_string(v.databases - before) +
                " databases with one table of " + std::to_string(n) +
                " rows and the others of at most one agree";
      return v;
    }
    std::vector<std::vector<std::vector<int>>> per(T);
    for (size_t t = 0; t < T; ++t) per[t] = multisets(options(t), n);
    int r = each(per, n, [&](const std::vector<std::vector<int>>& choice) {
      size_t biggest = 0;
      for (const auto& c : choice) biggest = std::max(biggest, c.size());
      return biggest == static_cast<size_t>(n);
    });
    if (r != 0) return v;
    v.bound = n;
  }
  return v;
}

namespace {

/// True when one of `filters` (all when empty) is a local filter that
/// Content::Workers builds per worker.
bool hasPerWorkerFilter(const PlanNode& root, const std::set<int>& filters) {
  bool any = false;
  forEachNode(root, [&](const PlanNode& n) {
    for (const auto& f : n.runtimeFilters)
      any = any || ((filters.empty() || filters.count(f.id)) && rt::localFilterPerWorker(n, f));
  });
  return any;
}

/// Evaluates the plan on one database without its filters and with `filters`
/// under every content; a content's answer none of the original's allows is a
/// counterexample, recorded in the verdict. With the oracle asked for, the
/// original and each rewritten plan are also checked against it.
class FilterProbe {
 public:
  FilterProbe(const PlanNode& root, const std::set<int>& filters,
              const std::vector<rt::Value>& extras, const BoundedOptions& o)
      : root_(root),
        filters_(filters),
        extras_(extras),
        o_(o),
        // The per-worker content last, and only where a local filter is built per
        // worker: elsewhere it is the exact content again.
        nContents_(hasPerWorkerFilter(root, filters) ? 4 : 3) {
    auto cache = rt::newEvalCache();
    // The options of the four evaluations, made once: they do not depend on the database.
    for (int i = 0; i < 4; ++i) {
      contents_[i].applyFilters = true;
      contents_[i].content = kContents[i];
      contents_[i].only = filters;
      contents_[i].extras = extras;
      contents_[i].cache = cache;
    }
    plain_.cache = cache;
  }

  bool operator()(const rt::Database& db, BoundedVerdict& out) {
    if (o_.oracle && !written_) writeSql(out);  // when the first database is checked
    // The oracle sees the first oracleDatabases databases of the search (all when 0).
    oracle_.active = oracle_.engine && (!o_.oracleDatabases || out.databases <= o_.oracleDatabases);
    oracle_.loaded = false;
    auto rewrite = [&](int i, rt::Relation& r) {
      return rt::evaluate(root_, db, contents_[i], r, out.error);
    };
    // Exact content first: the next two contents accept supersets of it at every consumer,
    // so when it removes no row neither do they, and every result is the original
    // (unless a LIMIT below the root cut a tie, whose other choices may differ). The
    // per-worker content accepts a subset: it is evaluated whatever the exact one did.
    rt::Relation exact, workers;
    if (!rewrite(0, exact) || (nContents_ == 4 && !rewrite(3, workers)))
      return skipWhereQueryFails(db, out);
    if (exact.dropped == 0 && workers.dropped == 0 && exact.tieArities.empty() &&
        workers.tieArities.empty() && !oracle_.active)
      return false;
    rt::Relation original;
    std::vector<rt::Relation> origins, answers;
    bool listed = true;
    if (!rt::evaluate(root_, db, plain_, original, out.error) ||
        !answersOf(root_, db, plain_, std::move(original), origins, out.error, &listed))
      return skipWhereQueryFails(db, out);
    consult(oracle_, sqlOriginal_, db, origins, "original", out);
    for (int i = 0; i < nContents_; ++i) {
      const rt::Content c = kContents[i];
      rt::Relation canonical;
      if (i == 0)
        canonical = std::move(exact);
      else if (i == 3)
        canonical = std::move(workers);
      else if (!rewrite(i, canonical))
        return skipWhereQueryFails(db, out);
      if (!answersOf(root_, db, contents_[i], std::move(canonical), answers, out.error))
        return skipWhereQueryFails(db, out);
      consult(oracle_, sqlRewritten_[i], db, answers,
              std::string("rewritten (") + rt::contentName(c) + ")", out);
      // An answer whose consumers dropped no row is the original's under the same choices.
      for (const auto& a : answers)
        if (a.dropped && !allowedIn(origins, a)) {
          if (!listed) {  // an answer of the original may be among those not listed
            noteUndecided(db, out);
            return false;
          }
          out.counterexample = Counterexample{
              db, rt::sortedBag(origins[0].rows), rt::sortedBag(a.rows), c, filters_, extras_};
          out.counterexample->tieAnswer = &a != &answers[0];
          return true;
        }
    }
    return false;
  }

  std::string why;  ///< why the plan has no SQL form for the oracle

 private:
  static constexpr rt::Content kContents[] = {rt::Content::Exact, rt::Content::FalsePositive,
                                              rt::Content::MinMax, rt::Content::Workers};

  void writeSql(BoundedVerdict& out) {
    written_ = true;
    if (!oracle_.open(o_, {&root_}, out)) return;
    sqlOriginal_ = planToSqlite(root_, oracle_.dialect(), &why);
    for (int i = 0; i < nContents_; ++i) {
      SqlFilters f{true, kContents[i], extras_, filters_, oracle_.engine->spelling()};
      sqlRewritten_[i] = planToSqlite(root_, f, &why);
    }
  }

  const PlanNode& root_;
  const std::set<int> filters_;
  const std::vector<rt::Value> extras_;
  const BoundedOptions& o_;
  const int nContents_;
  rt::EvalOptions contents_[4];
  rt::EvalOptions plain_;
  Oracle oracle_;
  std::optional<std::string> sqlOriginal_, sqlRewritten_[4];
  bool written_ = false;
};

BoundedVerdict checkSet(const PlanNode& root, const SearchSpace& space, const BoundedOptions& o,
                        const std::set<int>& filters) {
  FilterProbe probe(root, filters, space.extras, o);
  BoundedVerdict v = searchDatabases(
      space, o, [&](const rt::Database& db, BoundedVerdict& out) { return probe(db, out); });
  v.filters = filters;
  if (o.oracle && !probe.why.empty() && v.oracleSkipped.empty()) v.oracleSkipped = probe.why;
  return v;
}

/// The compositional check (slices.h): each filter on its own slice.
void checkSlices(const PlanNode& root, const BoundedOptions& o, BoundedVerdict& v) {
  std::string why;
  std::vector<Slice> slices = filterSlices(root, why);
  if (slices.empty()) {
    v.sliceLimit = "the plan does not decompose: " + why;
    return;
  }
  v.sliceBound = o.bound;
  BoundedOptions so = o;
  if (o.sliceMaxDatabases) so.maxDatabases = o.sliceMaxDatabases;
  v.sliceEveryValue = o.everyValue;
  for (const Slice& s : slices) {
    SearchSpace space({s.plan.get()}, o.fresh, o.bound);
    BoundedVerdict sv = checkSet(*s.plan, space, so, {s.filter});
    // A slice reads free inputs, a superset of what the plan gives it: its
    // proof over every value holds for the plan.
    if (o.everyValue && sv.safe && sv.error.empty())
      checkFiltersEveryValue(*s.plan, {s.filter}, space.extras, so, sv);
    v.solverMs += sv.solverMs;
    if (sv.safe && sv.everyValue) sv.bound = o.bound;
    if (!sv.everyValue && v.sliceEveryValue) {
      v.sliceEveryValue = false;  // a slice that differs says so in sliceLimit
      if (sv.safe && sv.error.empty())
        v.sliceValuesOpen = "RF" + std::to_string(s.filter) + "'s slice: " + sv.valuesOpen;
    }
    const std::string rf = "RF" + std::to_string(s.filter) + "'s slice: ";
    ++v.slices;
    v.sliceDatabases += sv.databases;
    v.oracleRuns += sv.oracleRuns;
    if (v.oracleName.empty()) v.oracleName = sv.oracleName;
    if (v.oracleSkipped.empty()) v.oracleSkipped = sv.oracleSkipped;
    for (const auto& d : sv.oracleDisagreements) v.oracleDisagreements.push_back(rf + d);
    v.sliceBound = std::min(v.sliceBound, sv.bound);
    if (!sv.error.empty() && v.sliceLimit.empty()) v.sliceLimit = rf + sv.error;
    if (!sv.safe && v.sliceLimit.empty()) {
      const Counterexample& c = *sv.counterexample;
      std::string tables;
      for (const auto& [name, t] : c.db) tables += " " + name + "=" + bagText(t.rows);
      v.sliceLimit = rf + "differs at bound " + std::to_string(sv.bound + 1) +
                     " on free inputs, which the plan may never produce (" +
                     rt::contentName(c.content) + " content:" + tables + "; original " +
                     bagText(c.original) + ", rewritten " + bagText(c.rewritten) + ")";
    }
    if (!sv.complete && v.sliceLimit.empty()) v.sliceLimit = rf + sv.limit;
  }
}

}  // namespace

BoundedVerdict checkFiltersOnDatabase(const PlanNode& root, const std::set<int>& filters,
                                      const std::vector<rt::Value>& extras, const rt::Database& db,
                                      const BoundedOptions& o) {
  BoundedVerdict v;
  FilterProbe probe(root, filters, extras, o);
  probe(db, v);
  v.filters = filters;
  if (o.oracle && !probe.why.empty() && v.oracleSkipped.empty()) v.oracleSkipped = probe.why;
  return v;
}

std::optional<BoundedOptions::Method> parseMethod(std::string_view name) {
  using M = BoundedOptions::Method;
  if (name == "auto") return M::Auto;
  if (name == "whole") return M::Whole;
  if (name == "slices") return M::Slices;
  return std::nullopt;
}

void tuneHeapForSearch() {
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 64 << 20);
  mallopt(M_MMAP_THRESHOLD, 256 << 20);  // large blocks from the heap, not fresh mappings
}

std::vector<BoundedVerdict> checkFilters(const PlanNode& root, const BoundedOptions& o) {
  SearchSpace space({&root}, o.fresh, o.bound);
  std::set<int> ids = filterIds(root);
  if (ids.empty()) {  // nothing to check: the plan is its own rewrite, on every value
    BoundedVerdict v;
    v.bound = o.bound;
    v.everyValue = true;
    return {v};
  }
  using M = BoundedOptions::Method;
  if (o.method == M::Slices) {
    BoundedVerdict v;
    v.filters = ids;
    v.complete = false;
    v.limit = "the whole plan was not searched (slices only)";
    checkSlices(root, o, v);
    return {v};
  }
  // The search, then the solver over every value where the search found nothing.
  auto check = [&](const std::set<int>& filters) {
    BoundedVerdict v = checkSet(root, space, o, filters);
    v.domain = space.domainText();
    if (o.everyValue && v.safe && v.error.empty()) {
      checkFiltersEveryValue(root, filters, space.extras, o, v);
      if (v.everyValue && (!v.complete || v.bound < o.bound)) {
        // The solver decided the bound the search did not reach (`limit` says
        // where the search stopped).
        v.bound = o.bound;
        v.complete = true;
      }
    }
    return v;
  };
  std::vector<BoundedVerdict> out{check(ids)};
  BoundedVerdict& all = out[0];
  if (o.method == M::Auto && all.safe && all.error.empty() && !all.everyValue &&
      (!all.complete || all.bound < o.bound))
    checkSlices(root, o, all);
  if (!out[0].safe && ids.size() > 1)
    for (int id : ids) out.push_back(check({id}));
  return out;
}

}  // namespace rfguard
