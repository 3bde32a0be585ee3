// Two plans' results compared by bounded search (verifier/bounded.h): over every
// small database, and around the subtrees a rewrite changed.
#include <algorithm>
#include <chrono>
#include <functional>
#include <set>

#include "verifier/answers.h"
#include "verifier/bounded.h"
#include "verifier/oracle_run.h"
#include "verifier/search_space.h"
#include "verifier/symbolic.h"

namespace rfguard {

namespace {

using Clock = std::chrono::steady_clock;

/// Evaluates both plans on one database; a database on which the rewritten plan's
/// answer is none the original allows is a counterexample, recorded in the verdict.
/// With the oracle asked for, each plan's rows are also checked against it.
class EquivalenceProbe {
 public:
  EquivalenceProbe(const PlanNode& original, const PlanNode& rewritten, const BoundedOptions& o)
      : original_(original), rewritten_(rewritten), o_(o) {
    plain_.cache = rt::newEvalCache();
  }

  bool operator()(const rt::Database& db, BoundedVerdict& out) {
    if (o_.oracle && !written_) {
      written_ = true;
      if (oracle_.open(o_, {&original_, &rewritten_}, out)) {
        sqlA_ = planToSqlite(original_, oracle_.dialect(), &why);
        sqlB_ = planToSqlite(rewritten_, oracle_.dialect(), &why);
      }
    }
    rt::Relation a, b;
    oracle_.active = oracle_.engine && (!o_.oracleDatabases || out.databases <= o_.oracleDatabases);
    oracle_.loaded = false;
    if (!rt::evaluate(original_, db, plain_, a, out.error) ||
        !rt::evaluate(rewritten_, db, plain_, b, out.error))
      return skipWhereQueryFails(db, out);
    std::vector<rt::Relation> origins, answers;
    bool listed = true;
    if (!answersOf(original_, db, plain_, std::move(a), origins, out.error, &listed) ||
        !answersOf(rewritten_, db, plain_, std::move(b), answers, out.error))
      return skipWhereQueryFails(db, out);
    consult(oracle_, sqlA_, db, origins, "original", out);
    consult(oracle_, sqlB_, db, answers, "rewritten", out);
    for (size_t k = 0; k < answers.size(); ++k)
      if (const rt::Relation& x = answers[k]; !allowedIn(origins, x)) {
        if (!listed) {  // an answer of the original may be among those not listed
          noteUndecided(db, out);
          return false;
        }
        // Rows in their order where the original fixes one, else as sorted bags.
        const bool ordered = origins[0].order != nullptr;
        std::vector<rt::Row> theirs = ordered ? x.rows : rt::sortedBag(x.rows);
        // No fixed order: show an order the rewritten plan may return and the original not.
        if (ordered && !x.order && sameBag(origins[0].rows, x.rows))
          if (auto breaking = rt::orderBreaking(origins[0])) theirs = std::move(*breaking);
        out.counterexample =
            Counterexample{db,
                           ordered ? origins[0].rows : rt::sortedBag(origins[0].rows),
                           std::move(theirs),
                           rt::Content::Exact,
                           {},
                           {},
                           ordered};
        out.counterexample->tieAnswer = k > 0;
        return true;
      }
    return false;
  }

  std::string why;  ///< why a plan has no SQL form for the oracle

 private:
  const PlanNode& original_;
  const PlanNode& rewritten_;
  const BoundedOptions& o_;
  rt::EvalOptions plain_;
  Oracle oracle_;
  std::optional<std::string> sqlA_, sqlB_;
  bool written_ = false;
};

/// The tables a plan scans, its subquery plans' included.
std::set<std::string> scanned(const PlanNode& n, std::set<std::string> into = {}) {
  forEachNode(n, [&](const PlanNode& x) {
    if (x.op == PlanOp::Scan) into.insert(x.table);
  });
  return into;
}

}  // namespace

BoundedVerdict checkEquivalent(const PlanNode& original, const PlanNode& rewritten,
                               const BoundedOptions& o) {
  SearchSpace space({&original, &rewritten}, o.fresh, o.bound);
  EquivalenceProbe probe(original, rewritten, o);
  BoundedVerdict v = searchDatabases(
      space, o, [&](const rt::Database& db, BoundedVerdict& out) { return probe(db, out); });
  v.domain = space.domainText();
  if (o.oracle && !probe.why.empty() && v.oracleSkipped.empty()) v.oracleSkipped = probe.why;
  return v;
}

std::string everyValueGap(const PlanNode& original, const PlanNode& rewritten) {
  std::string gap = symbolicGap(original);
  return gap.empty() ? symbolicGap(rewritten) : gap;
}

void checkEveryValue(const PlanNode& original, const PlanNode& rewritten, const BoundedOptions& o,
                     BoundedVerdict& v) {
  const SymbolicVerdict s = symbolicCompare(original, rewritten, o.bound,
                                            o.solverSeconds > 0 ? o.solverSeconds : o.seconds);
  v.solverMs = s.ms;
  if (!recordSolverWord(s, v)) return;
  // The model, confirmed by the evaluator (and the oracle, when asked for).
  BoundedVerdict confirmed = checkOneDatabase(original, rewritten, s.db, o);
  addOracleAccount(confirmed, v);
  if (!confirmed.counterexample && !s.uninterpreted.empty()) {
    v.valuesOpen = "the solver reads " + s.uninterpreted +
                   " as any function, and told the plans apart only under a reading that is "
                   "not SQL's";
    return;
  }
  if (!confirmed.counterexample && s.ties && confirmed.error.empty()) {
    v.valuesOpen =
        "the solver told the plans apart under one order of tied rows, and the "
        "evaluator finds the original allows that answer under another";
    return;
  }
  if (!confirmed.counterexample) {
    v.valuesOpen = "the solver's database does not tell the plans apart in the evaluator" +
                   (confirmed.error.empty() ? std::string() : " (" + confirmed.error + ")") +
                   ": an encoding or evaluator defect";
    return;
  }
  // Fewest rows: drop each row the difference does not need.
  BoundedOptions plain = o;
  plain.oracle = false;
  EquivalenceProbe probe(original, rewritten, plain);
  const TableConstraints constraints({&original, &rewritten});
  rt::Database db = s.db;
  for (auto& [name, table] : db)
    for (size_t i = table.rows.size(); i-- > 0;) {
      rt::Row row = table.rows[i];
      table.rows.erase(table.rows.begin() + static_cast<long>(i));
      BoundedVerdict trial;
      // A referenced row stays while a row references it.
      if (constraints.admissible(db) && probe(db, trial)) continue;
      table.rows.insert(table.rows.begin() + static_cast<long>(i), std::move(row));
    }
  BoundedVerdict last = checkOneDatabase(original, rewritten, db, o);
  addOracleAccount(last, v);
  v.safe = false;
  v.counterexample = std::move(last.counterexample);
  size_t rows = 0;
  for (const auto& [name, table] : db) rows = std::max(rows, table.rows.size());
  v.bound = std::min(v.bound, static_cast<int>(rows) - 1);
}

BoundedVerdict checkOneDatabase(const PlanNode& original, const PlanNode& rewritten,
                                const rt::Database& db, const BoundedOptions& o) {
  BoundedVerdict v;
  EquivalenceProbe probe(original, rewritten, o);
  v.databases = 1;
  if (probe(db, v)) v.safe = false;
  if (o.oracle && !probe.why.empty() && v.oracleSkipped.empty()) v.oracleSkipped = probe.why;
  return v;
}

BoundedVerdict searchAround(const PlanNode& original, const PlanNode& rewritten,
                            const std::vector<std::pair<const PlanNode*, const PlanNode*>>& changed,
                            const BoundedOptions& o) {
  // Databases on which the changed subtrees differ, kept per pair: the first
  // few dozen, smallest first (what the rest of the plan needs of them is not
  // known, so variety helps more than a long list).
  constexpr size_t kSeeds = 32;
  BoundedVerdict v;
  v.complete = false;
  const auto start = Clock::now();
  auto left = [&] {
    return o.seconds - std::chrono::duration<double>(Clock::now() - start).count();
  };
  SearchSpace whole({&original, &rewritten}, o.fresh, o.bound);
  if (!whole.error.empty()) {
    v.limit = whole.error;
    return v;
  }
  EquivalenceProbe probe(original, rewritten, o);
  std::string where;  // the pairs searched around
  for (const auto& [x, y] : changed) {
    if (x->output.size() != y->output.size() || !freeColumns(*x).empty() ||
        !freeColumns(*y).empty())
      continue;  // the subtrees cannot be compared alone
    const std::set<std::string> inside = scanned(*y, scanned(*x));
    SearchSpace local = whole, rest = whole;
    local.keepTables([&](const std::string& t) { return inside.count(t) > 0; });
    rest.keepTables([&](const std::string& t) { return inside.count(t) == 0; });
    if (local.tables.empty() || rest.tables.empty()) continue;  // the whole search's space
    where += (where.empty() ? "" : ", ") + nodeRef(*y);
    BoundedOptions lo = o;
    lo.oracle = false;
    lo.progress = nullptr;
    lo.maxDatabases = std::max<uint64_t>(o.maxDatabases / 4, 1);
    lo.seconds = left() / 4;
    EquivalenceProbe sub(*x, *y, lo);
    std::vector<rt::Database> seeds;
    BoundedVerdict lv =
        searchDatabases(local, lo, [&](const rt::Database& db, BoundedVerdict& out) {
          BoundedVerdict scratch;
          if (sub(db, scratch)) {
            seeds.push_back(db);
            return seeds.size() >= kSeeds;
          }
          out.error = scratch.error;
          return false;
        });
    v.databases += lv.databases;
    // Each seed with the rest of the database around it, bound by bound.
    rt::Database merged;
    for (int n = 1; n <= o.bound; ++n)
      for (const rt::Database& seed : seeds) {
        if (v.databases >= o.maxDatabases || left() <= 0) {
          v.limit = "around " + where + ": the budget ran out after " +
                    std::to_string(v.databases) + " databases";
          return v;
        }
        BoundedOptions eo = o;
        eo.bound = n;
        eo.maxDatabases = o.maxDatabases - v.databases;
        eo.seconds = left();
        rest.pinnedFresh = local.freshUsedBy(seed);
        BoundedVerdict ev =
            searchDatabases(rest, eo, [&](const rt::Database& db, BoundedVerdict& out) {
              merged = seed;
              for (const auto& [name, table] : db) merged[name] = table;
              // A foreign key across the two parts: only databases the schema allows.
              return whole.admissible(merged) && probe(merged, out);
            });
        v.databases += ev.databases;
        addOracleAccount(ev, v);
        if (!ev.error.empty()) {
          v.error = ev.error;
          return v;
        }
        if (ev.counterexample) {
          v.safe = false;
          v.counterexample = std::move(ev.counterexample);
          v.around = "a database on which " + nodeRef(*x) + " and " + nodeRef(*y) +
                     " differ, with the rest of the database searched around it";
          return v;
        }
      }
  }
  if (!where.empty())
    v.limit =
        "around " + where + ": no counterexample in " + std::to_string(v.databases) + " databases";
  if (o.oracle && !probe.why.empty() && v.oracleSkipped.empty()) v.oracleSkipped = probe.why;
  return v;
}

}  // namespace rfguard
