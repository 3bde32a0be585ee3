#pragma once
// The reference evaluator (docs/design.md section 6): executes a plan of the IR on an
// in-memory database with bag semantics and three-valued logic, every join
// type including NOT IN, aggregates with grouping sets, windows, ORDER BY /
// LIMIT (ties broken by a canonical row order; a root LIMIT also reports its
// ties, to accept any valid top-k, and evaluateAll() enumerates the answers
// that ties cut by LIMITs below the root and ties of row_number and ROWS frames
// allow), set operations, and
// runtime filters applied with a chosen admissible content. Producers are evaluated with their
// build side complete; a consumer whose producer is not ready is an error, never a hang.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "evaluation/values.h"
#include "ir/plan.h"

namespace rfguard::rt {

/// A table: its column names (bare) and rows.
struct Table {
  std::vector<std::string> columns;
  std::vector<Row> rows;
};
/// Tables by name.
using Database = std::map<std::string, Table>;

/// The most alternatives one tie cut offers (Relation::tieArities).
inline constexpr size_t kTieAlternatives = 64;

/// A root LIMIT's input in ORDER BY order with its ties: the query may return any
/// rows that agree with `ordered[from, to)` up to swapping rows of one tie group.
struct TopK {
  std::vector<Row> ordered;
  std::vector<size_t> group;  ///< per row: the first index of its tie group
  size_t from = 0, to = 0;    ///< the window the canonical tie-break returned
};

/// A result: rows (a bag) in the order of the node's output columns.
struct Relation {
  std::vector<Row> rows;
  uint64_t dropped = 0;        ///< rows the runtime-filter consumers removed
  std::shared_ptr<TopK> topK;  ///< set when the root is a LIMIT
  /// Per tie cut met, in order: a LIMIT below the root whose window cut a tie
  /// group (how many sub-bags it could take), or a window function whose values
  /// depend on the order of peers (row_number, an aggregate over a ROWS frame:
  /// how many distinct orders the peers have); at most kTieAlternatives each.
  /// Empty when the result is a function of the data.
  std::vector<size_t> tieArities;
  /// A cut had more alternatives than kTieAlternatives: evaluateAll() cannot
  /// list every answer.
  bool tiesCapped = false;
  /// Set when an ORDER BY fixes the result's order (the root is a Sort, under any
  /// projections and at most one LIMIT): per row, the first index of its tie group.
  /// Another answer must hold, at the positions of each group, rows of that group.
  std::shared_ptr<const std::vector<size_t>> order;
};

/// True when `rows` is a valid answer of the LIMIT: for each tie group the window
/// touches, as many of its rows as the window holds (any of them), and nothing else.
bool validTopK(const TopK& k, std::vector<Row> rows);

/// True when `rows`, in their order, are ordered as `original` fixes it
/// (Relation::order): at each tie group's positions, rows that group may hold.
/// Always true when `original` has no fixed order.
bool orderKept(const Relation& original, const std::vector<Row>& rows);
/// An order of `original`'s rows that its ORDER BY does not allow (two rows of
/// different tie groups swapped), or nullopt when every order is allowed or it
/// fixes none: what a plan that returns the same rows in no fixed order may give.
std::optional<std::vector<Row>> orderBreaking(const Relation& original);

/// Which admissible filter content to use (docs/design.md section 6).
enum class Content {
  Exact,          ///< K = D (without NULL for `=`)
  FalsePositive,  ///< K = D plus one value not in D
  MinMax,         ///< every value between min(D) and max(D)
  /// Exact, with each local filter of a join that does not keep a probe row
  /// with its build matches (shuffle, or a distribution the plan does not
  /// give) built per worker, as kWorkers workers would: a scan's i-th row (from
  /// 0) is read on worker i mod kWorkers, a build key k is shuffled to worker
  /// workerOfKey(k), and a row passes only its own worker's filter. Broadcast,
  /// colocated and bucket-shuffle joins hold every match on the probe row's
  /// worker: their local filters are exact.
  Workers,
};
const char* contentName(Content c);

/// The workers Content::Workers emulates.
inline constexpr size_t kWorkers = 2;
/// The worker a build key is shuffled to: an integer (or an integral double
/// below 2^53) k goes to k mod kWorkers, NULL to worker 0, other values by the
/// xxHash64 of their encoding. Counterexamples name this partitioning.
size_t workerOfKey(const Value& key);
/// True when a local filter of `join` is built per worker under Content::Workers.
bool localFilterPerWorker(const PlanNode& join, const RuntimeFilter& f);

struct EvalCache;
/// Lookup tables for one plan, to share across the databases of a search (optional).
std::shared_ptr<EvalCache> newEvalCache();

struct EvalOptions {
  bool applyFilters = false;  ///< false: the original query (filters ignored)
  Content content = Content::Exact;
  std::set<int> only;                ///< apply only these filter ids; empty: all of them
  std::vector<Value> extras;         ///< false-positive candidates, in order of preference
  std::shared_ptr<EvalCache> cache;  ///< from newEvalCache(), for one plan and one schema
  /// Which sub-bag each tie cut takes, in the order met (Relation::tieArities); missing
  /// entries take 0, the canonical one.
  std::vector<size_t> tieChoices;
};

/// Every result the query may return on `db` (one per way of resolving the ties of
/// LIMITs below the root and of order-dependent window functions, at most `cap`),
/// the canonical one first. `complete`, when given, says whether that is every one
/// (no cut capped, `cap` not reached).
bool evaluateAll(const PlanNode& root, const Database& db, const EvalOptions& options,
                 std::vector<Relation>& out, std::string& error, size_t cap = 256,
                 bool* complete = nullptr);

/// Errors the query itself meets on a database begin with this: a scalar
/// subquery or single_value() over several rows (engines raise an error),
/// any_value() over different values (engines choose). No verdict compares
/// plans on such a database.
inline const std::string kQueryFails = "the query has no one result on this database: ";

/// Evaluates `root` over `db`. Returns false with `error` on an unsupported
/// construct, a consumer without a ready producer, or where the query fails
/// (kQueryFails).
bool evaluate(const PlanNode& root, const Database& db, const EvalOptions& options, Relation& out,
              std::string& error);

/// The rows sorted canonically (bags compare equal iff their sorted rows do).
std::vector<Row> sortedBag(std::vector<Row> rows);

}  // namespace rfguard::rt
