// Two plans' bags compared over every value by Z3 (verifier/symbolic.h).
#include "verifier/symbolic.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

#include "ir/watchdog.h"
#include "verifier/symbolic_encode.h"

namespace rfguard {

namespace {

/// The node under the root's projections and at most one LIMIT among them.
const PlanNode& underRoot(const PlanNode& root, const PlanNode** limit = nullptr) {
  const PlanNode* n = &root;
  while (n->op == PlanOp::Project || (n->op == PlanOp::Limit && limit && !*limit)) {
    if (n->op == PlanOp::Limit) *limit = n;
    n = n->children[0].get();
  }
  return *n;
}

/// The LIMIT at the root (under projections, over an ORDER BY), or nullptr.
const PlanNode* rootLimit(const PlanNode& root) {
  const PlanNode* limit = nullptr;
  return underRoot(root, &limit).op == PlanOp::Sort ? limit : nullptr;
}

/// True when the result's order is part of its meaning: an ORDER BY at the root,
/// under projections and at most one LIMIT.
bool fixedOrder(const PlanNode& root) {
  const PlanNode* limit = nullptr;
  return underRoot(root, &limit).op == PlanOp::Sort;
}

/// How many rows of `r` equal `t` (present ones; NULL equals NULL).
z3::expr copies(z3::context& c, const sym::Encoder& enc, const sym::Rel& r, const sym::Row& t) {
  z3::expr_vector terms(c);
  terms.push_back(c.int_val(0));
  for (const auto& row : r.rows)
    terms.push_back(z3::ite(row.present && enc.sameRow(row, t), c.int_val(1), c.int_val(0)));
  return z3::sum(terms);
}

/// The rows of a plan whose ORDER BY fixes its result's order, each with its
/// sort keys' values after its own columns: the projections above the Sort
/// carry them (the first `used` keys). When these bags are equal, the second
/// plan's ordered answers are ones the first allows (refinesOrdering).
std::optional<sym::Rel> withSortKeys(sym::Encoder& enc, const PlanNode& root, size_t used) {
  const PlanNode* limit = nullptr;
  const PlanNode* n = &underRoot(root, &limit);
  std::vector<const PlanNode*> projects;  // row by row, so the LIMIT among them is skipped
  for (const PlanNode* p = &root; p != n; p = p->children[0].get())
    if (p->op == PlanOp::Project) projects.push_back(p);
  if (limit && !enc.publishTopN(*limit)) return std::nullopt;
  auto rel = enc.plan(*n->children[0]);
  if (!rel || (limit && !enc.cut(*limit, *rel))) return std::nullopt;
  std::vector<std::vector<sym::Val>> keys(rel->rows.size());
  std::vector<sym::Kind> keyKinds;
  for (size_t i = 0; i < rel->rows.size(); ++i)
    for (size_t j = 0; j < used; ++j) {
      const SortKey& k = n->sortKeys[j];
      sym::Val v{enc.constraints.ctx().int_val(0), enc.constraints.ctx().bool_val(false)};
      sym::Kind kind;
      if (!enc.value(*k.expr, *rel, rel->rows[i], v, kind)) return std::nullopt;
      keys[i].push_back(v);
      if (i == 0) keyKinds.push_back(kind);
    }
  for (size_t p = projects.size(); p-- > 0 && rel;) rel = enc.project(*projects[p], *rel);
  if (!rel) return std::nullopt;
  for (size_t i = 0; i < rel->rows.size(); ++i)
    rel->rows[i].cols.insert(rel->rows[i].cols.end(), keys[i].begin(), keys[i].end());
  rel->kinds.insert(rel->kinds.end(), keyKinds.begin(), keyKinds.end());
  return rel;
}

/// The sort node under a root's projections.
const PlanNode& sortOf(const PlanNode& root) {
  const PlanNode* limit = nullptr;
  return underRoot(root, &limit);
}

/// True when every order `b`'s ORDER BY allows is one `a`'s allows, given equal
/// values of `a`'s keys: `b`'s keys start with as many as `a` has, each in the
/// same direction with NULLs on the same end (it may break more ties).
bool refinesOrdering(const PlanNode& a, const PlanNode& b) {
  const auto& x = sortOf(a).sortKeys;
  const auto& y = sortOf(b).sortKeys;
  if (x.size() > y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i].ascending != y[i].ascending || x[i].nullsFirst != y[i].nullsFirst) return false;
  return true;
}

/// One row value held a different number of times by the two bags.
z3::expr bagsDiffer(z3::context& c, const sym::Encoder& enc, const sym::Rel& a, const sym::Rel& b) {
  z3::expr_vector differs(c);
  for (const auto* r : {&a, &b})
    for (const auto& row : r->rows)
      differs.push_back(row.present && copies(c, enc, a, row) != copies(c, enc, b, row));
  return differs.empty() ? c.bool_val(false) : z3::mk_or(differs);
}

/// The most result rows of the two plans together that are compared.
constexpr size_t kMaxCompared = 256;

/// The solver's budget for `seconds`, in Z3's resource units (about a second
/// per kResourcePerSecond on this project's reference machine): a count, not a
/// clock, so a verdict is the same on any machine. (Z3 4.8's wall-clock
/// timeout runs a timer thread that deadlocked here.)
constexpr double kResourcePerSecond = 6e6;
unsigned budget(double seconds) {
  return static_cast<unsigned>(std::clamp(seconds * kResourcePerSecond, 1e4, 4e9));
}

/// The most conflicts the solver may reach in `seconds`: a second count, for
/// searches whose resource count grows slowly (many conflicts over few terms:
/// the orders of a window's ties took 35,000 in ten seconds and would have run
/// on, cut only by the wall clock, a verdict that depended on the machine).
constexpr double kConflictsPerSecond = 2500;
unsigned conflicts(double seconds) {
  return static_cast<unsigned>(std::clamp(seconds * kConflictsPerSecond, 1e3, 4e9));
}

/// Compares the bags of `a` and `b`; with `filters`, `a` without its runtime
/// filters and `b` with those (every one when empty) applied.
SymbolicVerdict compare(const PlanNode& a, const PlanNode& b, int bound, double seconds,
                        const rt::Database* fixed, const std::set<int>* filters = nullptr) {
  const auto t0 = std::chrono::steady_clock::now();
  SymbolicVerdict out;
  auto done = [&] {
    out.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
  };
  // Without an ORDER BY on the original any order is an answer: bags compare.
  const bool ordered = fixedOrder(a);
  if (ordered && (!fixedOrder(b) || !refinesOrdering(a, b))) {
    out.why = "an ORDER BY the rewritten plan does not keep key for key";
    return done();
  }
  // A LIMIT over the ORDER BY: the rows it keeps, with their keys (withSortKeys).
  const PlanNode* la = rootLimit(a);
  try {
    z3::context c;
    // The resource count leaves out some of Z3's preprocessing, which took half
    // a minute on a TPC-H step: the solver is interrupted after twice its
    // budget in seconds, and the watchdog joined before the context dies.
    Watchdog watchdog(2 * seconds, [&c] { c.interrupt(); });
    sym::Encoder enc(c, bound);
    auto gaveUp = [&](z3::solver& s) {
      return watchdog.fired()
                 ? "time ran out after " + std::to_string(static_cast<int>(2 * seconds)) + " s"
                 : s.reason_unknown();
    };
    // Ordered plans: their rows with the sort keys' values (the order follows),
    // and the plain bags, for a model when the keys alone differ.
    // The first side without filters; the second with `filters` applied (a
    // filter check compares a plan with itself: sides, not nodes, tell them apart).
    auto side = [&](bool second) {
      enc.startPlan(second);
      if (!filters || !second) return enc.setFilters(sym::Filters::Ignore);
      return enc.setFilters(sym::Filters::Apply, &b, *filters);
    };
    auto plain = [&](bool second) {
      return side(second) ? enc.plan(second ? b : a) : std::optional<sym::Rel>();
    };
    std::optional<sym::Rel> ka, kb;
    if (ordered) {
      const size_t used = sortOf(a).sortKeys.size();
      ka = side(false) ? withSortKeys(enc, a, used) : std::nullopt;
      kb = ka && side(true) ? withSortKeys(enc, b, used) : std::nullopt;
      if (!ka || !kb) {
        out.why = enc.gap.empty() ? "an ORDER BY over no rows" : enc.gap;
        return done();
      }
    }
    // The plain bags (not under a root LIMIT: its rows are the keyed ones).
    auto ra = la ? ka : plain(false);
    auto rb = la ? kb : ra ? plain(true) : std::nullopt;
    if (!ra || !rb) {
      out.why = enc.gap;
      return done();
    }
    // Bags compare row by row (copies per row value): past kMaxCompared rows
    // the formula, not the question, is what is too large.
    if (ra->rows.size() + rb->rows.size() > kMaxCompared) {
      out.why = "results of " + std::to_string(ra->rows.size() + rb->rows.size()) +
                " symbolic rows, more than the solver compares (" + std::to_string(kMaxCompared) +
                ")";
      return done();
    }
    if (ra->kinds.size() != rb->kinds.size()) {
      out.why = "results of other widths";
      return done();
    }
    for (size_t k = 0; k < ra->kinds.size(); ++k)
      if ((ra->kinds[k] == sym::Kind::Text) != (rb->kinds[k] == sym::Kind::Text)) {
        out.why = "a result column that is text in one plan and a number in the other";
        return done();
      }
    z3::solver s(c);
    z3::params p(c);
    p.set("rlimit", budget(seconds));
    p.set("max_conflicts", conflicts(seconds));
    s.set(p);
    if (fixed && !sym::fix(c, enc, s, *fixed)) {
      out.why = "a database of more rows, or of other columns, than the encoding";
      return done();
    }
    enc.orderTextCodes();
    enc.linkForeignKeys();
    s.add(enc.constraints);
    if (ordered) {
      s.push();
      s.add(bagsDiffer(c, enc, *ka, *kb));
      const z3::check_result keyed = s.check();
      s.pop();
      if (keyed == z3::unsat) {
        out.kind = SymbolicVerdict::Kind::Equal;
        return done();
      }
      // Given up: rows that differ in their bags differ with their keys too, so
      // the bags' question is no easier; a second budget would only double the
      // time and end at the watchdog's clock.
      if (keyed != z3::sat) {
        out.kind = SymbolicVerdict::Kind::Unknown;
        out.why = gaveUp(s);
        return done();
      }
    }
    s.add(bagsDiffer(c, enc, *ra, *rb));
    const z3::check_result first = s.check();
    if (first == z3::unsat && !ordered) {
      out.kind = SymbolicVerdict::Kind::Equal;
      return done();
    }
    if (first != z3::sat) {
      out.kind = SymbolicVerdict::Kind::Unknown;
      out.why = first == z3::unsat ? "equal bags, but their ORDER BY keys may differ" : gaveUp(s);
      return done();
    }
    for (const auto& f : enc.uninterpretedUsed)
      out.uninterpreted += (out.uninterpreted.empty() ? "" : ", ") + f;
    out.ties = enc.ties > 0;
    out.kind = SymbolicVerdict::Kind::Differs;
    if (fixed) {
      out.db = *fixed;
      return done();
    }
    z3::model m = s.get_model();
    // Fewest rows: the smallest bound with a model (for at most a second each);
    // then small values read better: every value within 16 of zero, then 1000,
    // then a million.
    z3::params quick(c);
    quick.set("rlimit", budget(std::min(1.0, seconds)));
    quick.set("max_conflicts", conflicts(std::min(1.0, seconds)));
    s.set(quick);
    for (int k = 1; k < bound; ++k) {
      s.push();
      for (const auto& [name, t] : enc.tables) s.add(!t.rows[static_cast<size_t>(k)].present);
      if (s.check() == z3::sat) {
        m = s.get_model();
        break;  // the scope stays: the values below keep this bound
      }
      s.pop();
    }
    const int64_t codes = static_cast<int64_t>(enc.textCodes.size());
    for (int64_t limit : {int64_t{16}, int64_t{1000}, int64_t{1000000}}) {
      s.push();
      auto within = [&](const z3::expr& v) {
        const z3::expr x = sym::asReal(v);
        s.add(x >= c.real_val(std::to_string(-limit - codes).c_str()) &&
              x <= c.real_val(std::to_string(limit + codes).c_str()));
      };
      for (const auto& [name, t] : enc.tables)
        for (const auto& row : t.rows)
          for (const auto& v : row.cols) within(v.v);
      for (const auto& [text, code] : enc.textCodes) within(code);
      const bool small = s.check() == z3::sat;
      if (small) m = s.get_model();
      s.pop();
      if (small) break;
    }
    auto db = sym::decode(enc, m);
    if (!db) {
      out.kind = SymbolicVerdict::Kind::Unknown;
      out.why = "no strings in byte order fit the solver's model";
      return done();
    }
    out.kind = SymbolicVerdict::Kind::Differs;
    out.db = std::move(*db);
  } catch (const z3::exception& e) {
    out.kind = SymbolicVerdict::Kind::Unknown;
    out.why = std::string("the solver failed: ") + e.msg();
  }
  return done();
}

}  // namespace

std::string symbolicGap(const PlanNode& plan) {
  z3::context c;
  sym::Encoder enc(c, 1);
  // A root ORDER BY and LIMIT are compared apart (withSortKeys): the rows under them.
  const PlanNode* limit = nullptr;
  const PlanNode& under = underRoot(plan, &limit);
  enc.plan(under.op == PlanOp::Sort ? *under.children[0] : plan);
  return enc.gap;
}

SymbolicVerdict symbolicCompare(const PlanNode& a, const PlanNode& b, int bound, double seconds) {
  return compare(a, b, bound, seconds, nullptr);
}

SymbolicVerdict symbolicFilters(const PlanNode& plan, const std::set<int>& filters, int bound,
                                double seconds) {
  return compare(plan, plan, bound, seconds, nullptr, &filters);
}

/// The bound a database fits: its largest table's rows (at least 1).
static int boundOf(const rt::Database& db) {
  size_t rows = 1;
  for (const auto& [name, t] : db) rows = std::max(rows, t.rows.size());
  return static_cast<int>(rows);
}

SymbolicVerdict symbolicFiltersOn(const PlanNode& plan, const std::set<int>& filters,
                                  const rt::Database& db, double seconds) {
  return compare(plan, plan, boundOf(db), seconds, &db, &filters);
}

bool recordSolverWord(const SymbolicVerdict& s, BoundedVerdict& v) {
  switch (s.kind) {
    case SymbolicVerdict::Kind::Unsupported:
      v.valuesOpen = "the solver does not encode " + s.why;
      return false;
    case SymbolicVerdict::Kind::Unknown:
      v.valuesOpen = "the solver gave up (" + s.why + ")";
      return false;
    case SymbolicVerdict::Kind::Equal:
      v.everyValue = true;
      v.valuesOpen.clear();
      return false;
    case SymbolicVerdict::Kind::Differs:
      break;
  }
  return true;
}

SymbolicVerdict symbolicOn(const PlanNode& a, const PlanNode& b, const rt::Database& db,
                           double seconds) {
  return compare(a, b, boundOf(db), seconds, &db);
}

}  // namespace rfguard
