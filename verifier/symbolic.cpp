// Two plans' bags compared over every value by Z3 (verifier/symbolic.h).
#include "verifier/symbolic.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

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
  for (const auto& row : r.rows) {
    z3::expr eq = row.present;
    for (size_t k = 0; k < t.cols.size(); ++k) eq = eq && enc.same(row.cols[k], t.cols[k]);
    terms.push_back(z3::ite(eq, c.int_val(1), c.int_val(0)));
  }
  return z3::sum(terms);
}

/// A short string strictly between `lo` and `hi` in byte order (either may be
/// absent: no bound), preferring printable characters; nullopt when there is none.
std::optional<std::string> between(const std::optional<std::string>& lo,
                                   const std::optional<std::string>& hi) {
  const std::string base = lo ? *lo : "";
  static const std::string kChars = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (char c : kChars)
    if (!hi || base + c < *hi) return base + c;
  for (int c = 1; c < 256; ++c)
    if (!hi || base + static_cast<char>(c) < *hi) return base + static_cast<char>(c);
  return std::nullopt;
}

/// The model's database: every table the plans read, its present rows. A text
/// code becomes its constant, or a string in its place among them; nullopt when
/// no string fits (the encoding's dense order has no such gap in byte order).
std::optional<rt::Database> decode(const sym::Encoder& enc, const z3::model& m) {
  auto num = [&](const z3::expr& e) { return m.eval(e, true).get_numeral_int64(); };
  // Every code in the model, with the constant it is, if any.
  std::map<int64_t, std::optional<std::string>> codes;
  for (const auto& [s, code] : enc.textCodes) codes[num(code)] = s;
  for (const auto& [name, t] : enc.tables)
    for (const auto& row : t.rows)
      for (size_t j = 0; j < t.columns.size(); ++j)
        if (t.kinds[j] == sym::Kind::Text) codes.try_emplace(num(row.cols[j].v));
  std::map<int64_t, std::string> text;
  std::optional<std::string> last;  // the string of the code before
  for (auto it = codes.begin(); it != codes.end(); ++it) {
    if (it->second) {
      text[it->first] = *it->second;
      last = it->second;
      continue;
    }
    std::optional<std::string> next;  // the next constant above
    for (auto up = std::next(it); up != codes.end() && !next; ++up) next = up->second;
    auto s = between(last, next);
    if (!s) return std::nullopt;
    text[it->first] = *s;
    last = s;
  }
  rt::Database db;
  for (const auto& [name, t] : enc.tables) {
    rt::Table& out = db[name];
    out.columns = t.columns;
    for (const auto& row : t.rows) {
      if (!m.eval(row.present, true).is_true()) continue;
      rt::Row r;
      for (size_t j = 0; j < t.columns.size(); ++j) {
        if (m.eval(row.cols[j].null, true).is_true()) {
          r.push_back(rt::null());
          continue;
        }
        if (t.kinds[j] == sym::Kind::Real) {  // the evaluator's double
          std::string d = m.eval(row.cols[j].v, true).get_decimal_string(20);
          if (!d.empty() && d.back() == '?') d.pop_back();
          r.push_back(rt::Value(std::stod(d)));
          continue;
        }
        const int64_t v = num(row.cols[j].v);
        r.push_back(t.kinds[j] == sym::Kind::Text ? rt::Value(text[v]) : rt::Value(v));
      }
      out.rows.push_back(std::move(r));
    }
  }
  return db;
}

/// The rows of a plan whose ORDER BY fixes its result's order, each with its
/// sort keys' values after its own columns: the projections above the Sort
/// carry them (the first `used` keys). When these bags are equal, the second
/// plan's ordered answers are ones the first allows (refinesOrdering).
std::optional<sym::Rel> withSortKeys(sym::Encoder& enc, const PlanNode& root, size_t used) {
  std::vector<const PlanNode*> projects;  // row by row, so a LIMIT among them is skipped
  const PlanNode* n = &root;
  for (; n->op == PlanOp::Project || n->op == PlanOp::Limit; n = n->children[0].get())
    if (n->op == PlanOp::Project) projects.push_back(n);
  auto rel = enc.plan(*n->children[0]);
  if (!rel) return std::nullopt;
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
  for (size_t p = projects.size(); p-- > 0;) {
    sym::Rel next;
    for (const auto& c : projects[p]->output) next.ids.push_back(c.id);
    for (const auto& row : rel->rows) {
      sym::Row r{row.present, {}};
      next.kinds.clear();
      for (const auto& ne : projects[p]->exprs) {
        sym::Val v{enc.constraints.ctx().int_val(0), enc.constraints.ctx().bool_val(false)};
        sym::Kind kind;
        if (!enc.value(*ne.expr, *rel, row, v, kind)) return std::nullopt;
        r.cols.push_back(v);
        next.kinds.push_back(kind);
      }
      next.rows.push_back(std::move(r));
    }
    if (rel->rows.empty()) return std::nullopt;  // bound >= 1 always gives rows
    rel = std::move(next);
  }
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

/// Interrupts the solver when twice its budget in seconds has passed: the
/// resource count leaves out some of Z3's preprocessing, which took half a
/// minute on a TPC-H step. Joined before the context dies.
class Watchdog {
 public:
  Watchdog(z3::context& c, double seconds)
      : thread_([this, &c, seconds] {
          std::unique_lock<std::mutex> lock(m_);
          if (!cv_.wait_for(lock, std::chrono::duration<double>(2 * seconds),
                            [this] { return done_; })) {
            fired = true;
            c.interrupt();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(m_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  std::atomic<bool> fired{false};

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

/// The solver's budget for `seconds`, in Z3's resource units (about a second
/// per kResourcePerSecond on this project's reference machine): a count, not a
/// clock, so a verdict is the same on any machine. (Z3 4.8's wall-clock
/// timeout runs a timer thread that deadlocked here.)
constexpr double kResourcePerSecond = 6e6;
unsigned budget(double seconds) {
  return static_cast<unsigned>(std::clamp(seconds * kResourcePerSecond, 1e4, 4e9));
}

/// Fixes the encoding's tables to `db`'s rows: a row of `db` per symbolic row,
/// the rest absent. False when a table has more rows than the encoding.
bool fix(z3::context& c, sym::Encoder& enc, z3::solver& s, const rt::Database& db) {
  for (auto& [name, t] : enc.tables) {
    auto it = db.find(name);
    const size_t n = it == db.end() ? 0 : it->second.rows.size();
    if (n > t.rows.size()) return false;
    for (size_t i = 0; i < t.rows.size(); ++i) {
      const sym::Row& row = t.rows[i];
      if (i >= n) {
        s.add(!row.present);
        continue;
      }
      s.add(row.present);
      const rt::Table& table = it->second;
      for (size_t j = 0; j < t.columns.size(); ++j) {
        size_t at = 0;
        while (at < table.columns.size() && table.columns[at] != t.columns[j]) ++at;
        if (at == table.columns.size()) return false;
        const rt::Value& v = table.rows[i][at];
        if (rt::isNull(v)) {
          s.add(row.cols[j].null);
        } else if (auto x = std::get_if<int64_t>(&v)) {
          s.add(!row.cols[j].null &&
                sym::asReal(row.cols[j].v) == c.real_val(std::to_string(*x).c_str()));
        } else if (auto d = std::get_if<double>(&v)) {
          // A decimal column's value to its scale; a double's as printed.
          char buf[64];
          const Type& type = t.types[j];
          if (type.kind == TypeKind::Decimal)
            std::snprintf(buf, sizeof buf, "%.*f", type.scale, *d);
          else
            std::snprintf(buf, sizeof buf, "%.17g", *d);
          if (std::string(buf).find_first_of("eEn") != std::string::npos) return false;
          s.add(!row.cols[j].null && sym::asReal(row.cols[j].v) == c.real_val(buf));
        } else if (auto str = std::get_if<std::string>(&v)) {
          s.add(!row.cols[j].null && row.cols[j].v == enc.textCode(*str));
        } else {
          return false;
        }
      }
    }
  }
  return true;
}

SymbolicVerdict compare(const PlanNode& a, const PlanNode& b, int bound, double seconds,
                        const rt::Database* fixed) {
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
  // A LIMIT over the ORDER BY: the same window over the same rows (with their
  // keys) gives the same answers; which rows it cuts is not encoded.
  const PlanNode* la = rootLimit(a);
  const PlanNode* lb = rootLimit(b);
  if ((la || lb) && (!la || !lb || la->limit != lb->limit || la->offset != lb->offset ||
                     la->unprinted || lb->unprinted)) {
    out.why = "LIMIT / OFFSET but the same window over an ORDER BY at both roots";
    return done();
  }
  try {
    z3::context c;
    Watchdog watchdog(c, seconds);
    sym::Encoder enc(c, bound);
    auto gaveUp = [&](z3::solver& s) {
      return watchdog.fired
                 ? "time ran out after " + std::to_string(static_cast<int>(2 * seconds)) + " s"
                 : s.reason_unknown();
    };
    // Ordered plans: their rows with the sort keys' values (the order follows),
    // and the plain bags, for a model when the keys alone differ.
    std::optional<sym::Rel> ka, kb;
    if (ordered) {
      const size_t used = sortOf(a).sortKeys.size();
      ka = withSortKeys(enc, a, used);
      kb = ka ? withSortKeys(enc, b, used) : std::nullopt;
      if (!ka || !kb) {
        out.why = enc.gap.empty() ? "an ORDER BY over no rows" : enc.gap;
        return done();
      }
    }
    // The plain bags (not under a root LIMIT: its rows are the keyed ones).
    auto ra = la ? ka : enc.plan(a);
    auto rb = la ? kb : ra ? enc.plan(b) : std::nullopt;
    if (!ra || !rb) {
      out.why = enc.gap;
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
    s.set(p);
    if (fixed && !fix(c, enc, s, *fixed)) {
      out.why = "a database of more rows, or of other columns, than the encoding";
      return done();
    }
    enc.orderTextCodes();
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
      if (la) {
        out.kind = SymbolicVerdict::Kind::Unknown;
        out.why = keyed == z3::sat
                      ? "the rows under the LIMIT differ, and which it cuts is not encoded"
                      : gaveUp(s);
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
    auto db = decode(enc, m);
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

SymbolicVerdict symbolicOn(const PlanNode& a, const PlanNode& b, const rt::Database& db,
                           double seconds) {
  size_t rows = 1;
  for (const auto& [name, t] : db) rows = std::max(rows, t.rows.size());
  return compare(a, b, static_cast<int>(rows), seconds, &db);
}

}  // namespace rfguard
