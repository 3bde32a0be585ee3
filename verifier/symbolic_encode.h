#pragma once
// Internal to verifier/symbolic*.cpp: plans as lists of symbolic rows over Z3.
#include <z3++.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "evaluation/evaluator.h"
#include "ir/plan.h"

namespace rfguard::sym {

/// How a value is held: every value is a Z3 integer. A boolean is 0 or 1 (as
/// the evaluator holds it); a text value is a code whose order is the strings'
/// order: each string constant's code is a variable, ordered as the constants
/// are (orderTextCodes), and a decoded model gives each other code a string in
/// its place. The encoding assumes a string between any two (there is none
/// between 'a' and 'a' || chr(0)): more databases than exist, so a proof still
/// holds and a model is confirmed by the evaluator before it counts.
/// DECIMAL, REAL and DOUBLE are Z3 reals (a DECIMAL(p, s) column an integer
/// over 10^s): exact arithmetic, where the evaluator rounds doubles; a model is
/// confirmed by the evaluator before it counts.
enum class Kind { Int, Bool, Text, Real };

/// `e` as a real.
inline z3::expr asReal(const z3::expr& e) {
  return e.is_real() ? e : z3::to_real(e);
}
/// Two operands in one sort: reals when either is.
inline void unify(z3::expr& x, z3::expr& y) {
  if (x.is_real() != y.is_real()) {
    x = asReal(x);
    y = asReal(y);
  }
}

/// One value: `v` means nothing when `null` holds.
struct Val {
  z3::expr v, null;
};

/// One symbolic row: it exists in the bag when `present` holds.
struct Row {
  z3::expr present;
  std::vector<Val> cols;
};

/// A plan node's result: at most rows.size() rows, columns as the node's output.
struct Rel {
  std::vector<Row> rows;
  std::vector<ColumnId> ids;
  std::vector<Kind> kinds;
};

/// One table's symbolic rows, shared by every scan of it in either plan.
struct TableVars {
  std::vector<std::string> columns;  ///< bare names, in table order
  std::vector<Type> types;
  std::vector<Kind> kinds;
  std::vector<Row> rows;
  /// Its foreign keys: column indexes, the referenced table and its bare columns.
  struct Reference {
    std::vector<size_t> columns;
    std::string table;
    std::vector<std::string> refColumns;
  };
  std::vector<Reference> references;
};

/// What an encoding does with the runtime filters of a plan.
enum class Filters {
  Ignore,  ///< the original query (and rewrites compared, as the evaluator does): none applied
  /// Applied, each with any content that holds every build key: K is an
  /// uninterpreted set with D in it, which covers the exact, false-positive,
  /// MinMax and Bloom contents (and TOP).
  Apply,
};

/// The most row pairs a join is encoded with, and the most subquery
/// encodings (one per row of the query around it): beyond them the plans are
/// outside the fragment, not a formula too large to decide.
inline constexpr size_t kMaxPairs = 4096;
inline constexpr int kMaxSubqueries = 256;

/// Encodes plans over one context; a table's rows are made the first time a
/// scan reads it. `gap` names the first construct outside the fragment.
class Encoder {
 public:
  Encoder(z3::context& c, int bound) : constraints(c), c_(c), bound_(bound) {}

  /// The plan's rows; nullopt with `gap` set when it is outside the fragment.
  std::optional<Rel> plan(const PlanNode& n);
  /// How runtime filters are encoded from now on (ignored at first); with Apply, the filters of
  /// `root` with ids in `only` (every one when empty). False with `gap` set
  /// when one of them is outside the fragment: a TopN filter, a local filter
  /// built per worker, an id produced twice.
  bool setFilters(Filters mode, const PlanNode* root = nullptr, const std::set<int>& only = {});

  std::string gap;
  z3::expr_vector constraints;  ///< keys, NOT NULL, type ranges, rows in order
  std::map<std::string, TableVars> tables;
  std::map<std::string, z3::expr> textCodes;  ///< string constants' codes
  std::set<std::string> uninterpretedUsed;    ///< functions read as any function

  /// True when the two values are the same row value (NULL equals NULL).
  z3::expr same(const Val& a, const Val& b) const;
  /// a.v = b.v, in one sort (for non-NULL values).
  z3::expr equal(const Val& a, const Val& b) const;
  /// True when the two rows hold the same values column by column (`same`).
  z3::expr sameRow(const Row& a, const Row& b) const;
  /// The rows of `in` through Project node `n`'s expressions.
  std::optional<Rel> project(const PlanNode& n, const Rel& in);
  /// The code of string `s`, a constant of the encoding from now on.
  z3::expr textCode(const std::string& s);
  /// Orders the string constants' codes as the strings (call after encoding).
  void orderTextCodes();
  /// Each foreign key's rows present in the referenced table, when a plan
  /// reads that table too (call after encoding).
  void linkForeignKeys();
  /// Numbers the tie-breaks from the start: call before encoding each plan.
  /// A node whose rows depend on an order SQL leaves open (a LIMIT's cut,
  /// row_number's peers, a ROWS frame) breaks its ties by priorities: free in
  /// the `rewritten` plan, and in the original the ranks of the same rows in
  /// the rewritten plan's order at its node of the same number (by value, or
  /// by slot where the rows' columns differ; symbolic_order.cpp). Encode the
  /// original first. `ties` counts the nodes that broke ties.
  void startPlan(bool rewritten) {
    tieNodes_ = 0;
    rewritten_ = rewritten;
  }
  int ties = 0;
  /// Keeps the rows of `rel` (the input of LIMIT node `n`, in its ORDER BY's
  /// columns) whose place in the order, ties broken by free priorities, falls
  /// in the node's window; false with `gap` set.
  bool cut(const PlanNode& n, Rel& rel);
  /// Publishes the TopN filters of LIMIT node `n` that apply (symbolic_filters.cpp):
  /// each one's threshold from the rows of the ORDER BY's input encoded once
  /// more without that filter. Call before encoding the input.
  bool publishTopN(const PlanNode& n);
  /// The value of `e` over one row of `rel`; false with `gap` set.
  bool value(const Expr& e, const Rel& rel, const Row& row, Val& out, Kind& kind) {
    return expr(e, Env{&rel, &row, nullptr}, out, kind);
  }

 private:
  struct Env {
    const Rel* rel;
    const Row* row;
    const Env* next;
  };
  std::optional<Rel> scan(const PlanNode& n);
  /// Every column of table `t` under scan `n`'s ids (CHECK constraints and
  /// filter targets read columns the scan may not list).
  static Rel tableRel(const PlanNode& n, const TableVars& t);
  /// The keys and CHECK constraints of the table `n` scans, made as `t`, and
  /// its foreign keys recorded; false with `gap` set.
  bool tableConstraints(const PlanNode& n, TableVars& t);
  std::optional<Rel> join(const PlanNode& n);
  std::optional<Rel> aggregate(const PlanNode& n);
  std::optional<Rel> setOp(const PlanNode& n);
  /// One step of an INTERSECT or EXCEPT (ALL or not): the rows of `a` that
  /// `b` keeps, into `out` (its DISTINCT is the caller's).
  void stepSetOp(const PlanNode& n, const Rel& a, const Rel& b, Rel& out);
  std::optional<Rel> values(const PlanNode& n);
  /// LIMIT / OFFSET anywhere (symbolic_order.cpp): the rows whose place in the
  /// order, ties broken by free priorities, falls in the window.
  std::optional<Rel> limit(const PlanNode& n);
  /// Window functions (symbolic_order.cpp): ranks and aggregates over frames.
  std::optional<Rel> window(const PlanNode& n);
  /// The values of `keys` over each row of `rel`; false with `gap` set.
  bool sortValues(const std::vector<SortKey>& keys, const Rel& rel,
                  std::vector<std::vector<Val>>& out);
  /// Values `x` sort strictly before values `y` under `keys`.
  z3::expr sortsBefore(const std::vector<SortKey>& keys, const std::vector<Val>& x,
                       const std::vector<Val>& y) const;
  /// Every value of `x` is the same as `y`'s (NULL as NULL): peers.
  z3::expr peers(const std::vector<Val>& x, const std::vector<Val>& y) const;
  /// The priorities that break ties among the rows of `rel` whose sort values
  /// are `values` (under `keys`), for the next node whose rows depend on the
  /// order of ties (startPlan).
  std::vector<z3::expr> tieBreaks(const std::vector<SortKey>& keys,
                                  const std::vector<std::vector<Val>>& values, const Rel& rel);
  /// Each row's place in the order of `keys` (sort values `values`), peers by
  /// priority `p`, then by slot: how many rows j that `counts(j, i)` holds
  /// come before row i.
  std::vector<z3::expr> places(const std::vector<SortKey>& keys,
                               const std::vector<std::vector<Val>>& values,
                               const std::vector<z3::expr>& p,
                               const std::function<z3::expr(size_t, size_t)>& counts);
  /// Row j comes before row i among peers: by priority, then by slot.
  static z3::expr firstOf(const std::vector<z3::expr>& p, size_t j, size_t i) {
    return j < i ? p[j] <= p[i] : p[j] < p[i];
  }
  /// An aggregate over the rows `member` holds (count, sum, avg, min, max;
  /// `star`: count(*)), their arguments `args`.
  Val fold(const std::string& func, bool star, bool distinct, const std::vector<z3::expr>& member,
           const std::vector<Val>& args);
  bool expr(const Expr& e, const Env& env, Val& out, Kind& kind);
  bool call(const Expr& e, const Env& env, Val& out, Kind& kind);
  bool literal(const Expr& e, Val& out, Kind& kind);
  /// `x LIKE 'p%'`, `x LIKE 'p'` and starts_with(x, 'p') as comparisons of
  /// text in byte order; false when `e` is none of them.
  bool prefixMatch(const Expr& e, const std::vector<Val>& a, Val& out, Kind& kind);
  /// A deterministic NULL-strict function outside the fragment as an
  /// uninterpreted function of its argument values.
  bool uninterpreted(const Expr& e, const std::vector<Val>& a, Val& out, Kind& kind);
  /// SQL's truth of a condition: true, not NULL.
  z3::expr truth(const Val& b) const { return !b.null && b.v != 0; }
  z3::expr falsity(const Val& b) const { return !b.null && b.v == 0; }
  Val boolVal(const z3::expr& t, const z3::expr& null) const;
  /// Rows with the first occurrence of each row value kept (DISTINCT).
  void distinct(Rel& r) const;
  bool fail(std::string what);
  bool subquery(const Expr& e, const Env& env, Val& out, Kind& kind);
  /// True when a plan returns at most one row on every database (an
  /// aggregate without keys, under projections and filters).
  static bool oneRow(const PlanNode& n);

  /// One applied filter: its membership function K (over integers, or reals
  /// for DECIMAL / floating keys) and whether a NULL key passes.
  struct Published {
    const RuntimeFilter* filter = nullptr;
    std::vector<Kind> kinds;              ///< of its key's parts: Int (also booleans), Real or Text
    std::optional<z3::func_decl> member;  ///< an equality filter's content K
    /// A range filter's greatest (`<`, `<=`) or least build key, and whether
    /// the build side held a key at all.
    std::optional<z3::expr> extreme, nonEmpty;
    std::optional<z3::expr> nullPasses;
    /// A TopN filter: its threshold (in `extreme`) is NULL; it keeps every
    /// row (its input holds fewer rows than the LIMIT reaches).
    std::optional<z3::expr> thresholdNull, keepAll;
  };
  /// The filter `id` when it applies now, else nullptr.
  Published* applied(int id);
  /// The values of filter key `key` (its parts, for a composite one) over one
  /// row of `rel`, and whether one of them is NULL.
  bool keyOf(const Published& p, const Expr& key, const Rel& rel, const Row& row,
             std::vector<z3::expr>& parts, z3::expr& null);
  /// Constrains K to hold every key of the rows (`build`) of the producer's
  /// input `input` that builds its filters: a join's right side, a set
  /// operation's input.
  bool publish(const PlanNode& join, const Rel& build, size_t input = 1);
  /// A TopN filter of LIMIT `limit` as applied: its threshold and flags are
  /// free here, tied to the rows by publishTopN.
  bool topN(const RuntimeFilter& f, const PlanNode& limit);
  /// Keeps only the rows of `out` (scan `n` over table `t`) whose keys pass the
  /// filters the scan applies.
  bool consume(const PlanNode& n, const TableVars& t, Rel& out);
  Filters filters_ = Filters::Ignore;
  std::map<int, Published> published_;

  /// The rows of the queries a subquery expression is inside, innermost last:
  /// where a column not in the current rows is looked up.
  std::vector<const Env*> outers_;
  int subqueries_ = 0;
  int tieNodes_ = 0;  ///< nodes of this plan whose ties were broken so far
  bool rewritten_ = false;
  std::map<int, Rel> originalTies_;  ///< the original's tie nodes' rows, by number

  z3::context& c_;
  int bound_;
  int names_ = 0;
};

/// The model's database: every table the plans read, its present rows. A text
/// code becomes its constant, or a string in its place among them, in byte
/// order; nullopt when no string fits (verifier/symbolic_db.cpp).
std::optional<rt::Database> decode(const Encoder& enc, const z3::model& m);
/// Pins the encoding's tables to `db`'s rows on `s`: a row of `db` per symbolic
/// row, the rest absent. False when a table has more rows, or other columns,
/// than the encoding.
bool fix(z3::context& c, Encoder& enc, z3::solver& s, const rt::Database& db);

/// True when `type` is held by the encoding, and how.
std::optional<Kind> kindOf(const Type& type);

}  // namespace rfguard::sym
