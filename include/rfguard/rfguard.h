#pragma once
// rfguard's public C++ API, for optimizers that call it in-process.
//
//   auto loaded = rfguard::api::Plans::loadSql(text, "q.sql");
//   if (!loaded.plans) for (const auto& e : loaded.errors) ...  // file, line, column, code
//   Plans& plans = *loaded.plans;
//   plans.normalize();
//   plans.placeRuntimeFilters({rfguard::api::Profile::Sound});
//   for (const auto& f : plans.verify()) ...
//   for (const auto& d : plans.explain(0)) ...   // every decision, with rule and reason
//   for (const auto& v : plans.check(0)) ...     // bounded verdicts, counterexamples as SQL
//   auto e = Plans::equivalent(plans, 0, rewritten, 0);  // is a rewrite sound? (docs/equiv.md)
//   std::string json = plans.render(rfguard::api::Format::Json);
//
// Only standard-library types cross this boundary, and nothing here throws:
// bad input gives std::nullopt and located errors as data. Plans has value
// semantics: a copy is independent of the original.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#if defined(RFGUARD_BUILDING_LIBRARY)
#define RFGUARD_API __attribute__((visibility("default")))
#else
#define RFGUARD_API
#endif

namespace rfguard::api {

/// The placement policy: the sound rules, or what an engine does (gaps included).
enum class Profile { Sound, Doris, StarRocks, Trino, DuckDb };

/// Output formats of Plans::render.
enum class Format { Text, Json, Dot };

/// One error about the caller's input or calls, as data.
struct Error {
  std::string file;  ///< the input's name as given
  int line = 0;      ///< SQL position (1-based); 0 for plan JSON or when none applies
  int column = 0;
  std::string pointer;  ///< JSON pointer into a plan JSON input, e.g. "/queries/0/plan/op"
  std::string code;     ///< "sql-error", "plan-json-error", "unknown-rule", "unknown-dialect"
                        ///< or "call-order"
  std::string message;  ///< what is wrong, in words
  std::string text;     ///< the same as one line, as the CLI prints it
};

/// Switches for normalisation.
struct NormalizeSettings {
  std::vector<std::string> disabledRules;  ///< names as `rfguard plan --list-rules` prints them
};

/// How to place runtime filters.
struct PlaceSettings {
  Profile profile = Profile::Sound;
  bool composite = false;  ///< one composite filter over all equality conjuncts of a join
  bool cost = false;       ///< build only filters that pass the trigger thresholds (docs/rules.md)
};

/// One decision the filter planner took (rules: docs/rules.md).
struct Decision {
  std::string kind;    ///< "generated", "not-generated", "skipped", "step", "consumer", "rejected"
  int filter = 0;      ///< the filter's id, 0 when none was made
  int node = 0;        ///< the plan node where it was taken
  std::string rule;    ///< e.g. "PassThroughJoinNullGeneratingSide"
  std::string what;    ///< the conjunct or expression considered
  std::string reason;  ///< why, in words
};

/// What one profile places on a query.
struct ProfilePlacement {
  Profile profile = Profile::Sound;
  std::string name;                  ///< "sound", "doris", ...
  std::vector<std::string> targets;  ///< "RF1 a.k", one per consumer
};

/// Limits of a bounded check (docs/check.md).
struct CheckSettings {
  int bound = 2;                    ///< most rows per table
  double seconds = 10;              ///< time budget per search
  uint64_t maxDatabases = 2000000;  ///< database budget per search
  bool oracle = false;              ///< cross-check every database in SQLite
  /// Plans::equivalent: plans with the same normal form are equivalent on every
  /// database without a search (docs/equiv.md); false: always search.
  bool proofs = true;
};

/// The bounded verdict for a set of filters (all of a query's, or one alone).
struct CheckVerdict {
  std::vector<int> filters;
  /// "safe" (up to `bound` = CheckSettings::bound, over every value), "unsafe",
  /// "inconclusive" (no counterexample, but the search stopped below the bound
  /// asked for, or the solver did not cover every value: `valuesOpen` says
  /// why) or "error".
  std::string verdict;
  int bound = 0;                  ///< safe for every database of up to this many rows per table
  bool complete = true;           ///< false when the budget ran out before bound + 1
  uint64_t databases = 0;         ///< databases evaluated
  std::string counterexampleSql;  ///< when unsafe: a script sqlite3 runs as is
  std::string error;              ///< when the plan could not be evaluated
  /// LIMIT / OFFSET windows a bound-sized table cannot pass: how the search went
  /// past them (one row repeated), or which it could not (docs/check.md).
  std::string constants;
  bool constantsReached = true;  ///< false: the verdict holds only for inputs that fit a window
  /// The solver found no content of the filters that changes the result, for
  /// any values, on databases of up to `bound` rows per table.
  bool everyValue = false;
  std::string domain;      ///< the values the search drew from: "{NULL, 0, 1, 'a'}"
  std::string valuesOpen;  ///< why not every value is covered, when it is not
};

/// Whether one plan is equal to another on every database up to a bound (docs/equiv.md).
struct EquivVerdict {
  /// "equivalent", "different", "inconclusive" (the search stopped below the
  /// bound asked for: `limit` says why; or the solver did not cover every
  /// value: `valuesOpen` says why) or "error" (`reason` says why).
  std::string verdict;
  int bound = 0;                  ///< reached; when different, the counterexample's rows per table
  int requestedBound = 0;         ///< CheckSettings::bound
  uint64_t databases = 0;         ///< databases evaluated
  std::string reason;             ///< why, when no search told it (column counts differ, an error)
  std::string limit;              ///< why the search stopped below the requested bound
  bool ordered = false;           ///< the counterexample's results compare in ORDER BY order
  std::string counterexampleSql;  ///< when different: a script sqlite3 runs as is
  std::string constants;          ///< as CheckVerdict::constants
  bool constantsReached = true;   ///< false: the verdict is "inconclusive" for that reason
  /// When not empty: equal on every database, proved by the plans' normal forms
  /// (what made them equal); no search ran and `databases` is 0.
  std::string proof;
  /// When not empty: the plans differ only in these subtrees ("inner join #4"),
  /// each searched alone and found equivalent up to `bound` (equal subtrees make
  /// equal plans). A counterexample, though, is always one for the whole plans.
  std::string subtree;
  /// When not empty: the counterexample came from the search around the changed
  /// subtrees (docs/equiv.md), and this says from which.
  std::string around;
  /// The solver showed that no values tell the plans apart up to `bound`
  /// (docs/equiv.md, "Every value"): what "equivalent" after a search needs.
  bool everyValue = false;
  std::string domain;      ///< the values the search drew from: "{NULL, 0, 1, 'a'}"
  std::string valuesOpen;  ///< why not every value is covered, when it is not
};

/// One verifier finding (codes: docs/findings.md).
struct VerifierFinding {
  std::string query;     ///< the query's name
  std::string code;      ///< stable, kebab-case, e.g. "unsafe-null-generating-side"
  std::string severity;  ///< "error" or "warning"
  std::string message;
  int filter = 0;          ///< the runtime filter's id
  std::vector<int> nodes;  ///< plan node ids: producer, consumer, culprit
  int line = 0;            ///< SQL position of the node, 0 when unknown
  int column = 0;
  std::string file;     ///< the file `line` refers to, or the plan JSON `pointer` is in
  std::string pointer;  ///< for plan JSON inputs: the JSON pointer of the node concerned
  /// Which judge spoke: "rules"; with Judges::RulesThenBoundedCheck also
  /// "refuted" (an error the bounded check backs with a database, named in the
  /// message) or "not-proven" (neither decided: a warning).
  std::string judge = "rules";
};

/// Which judges Plans::verify consults.
enum class Judges {
  Rules,  ///< the derivation rules alone (fast; what verify() has always done)
  /// the rules, then the bounded check for each consumer they cannot justify
  RulesThenBoundedCheck,
};

class Plans;

/// What loading gave: the plans, or (when the input had errors) the errors.
struct Loaded;

/// Tables and views bound once, for planning many queries against them: an
/// optimizer that calls rfguard on every plan binds its catalog once instead of
/// with every query (the TPC-H schema costs more to bind than a query).
/// Copies share the immutable catalog.
class RFGUARD_API Schema {
 public:
  /// Loads CREATE TABLE and CREATE VIEW statements. A query in `text` is an
  /// error (code "sql-error"), as is any other; nothing on error.
  static std::optional<Schema> fromSql(const std::string& text, const std::string& file,
                                       std::vector<Error>* errors = nullptr);
  /// The tables' names, in name order.
  std::vector<std::string> tables() const;

 private:
  friend class Plans;
  struct Impl;
  explicit Schema(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

/// A catalog and its bound queries, loaded from SQL or plan JSON. A copy is
/// independent of the original (as clone() is).
class RFGUARD_API Plans {
 public:
  Plans(const Plans& other);
  Plans& operator=(const Plans& other);
  Plans(Plans&& other) noexcept;
  Plans& operator=(Plans&& other) noexcept;
  ~Plans();

  /// Loads a SQL script; errors as data.
  static Loaded loadSql(const std::string& text, const std::string& file);
  /// Loads a plan JSON document; errors as data.
  static Loaded loadJson(const std::string& text, const std::string& file);
  /// Loads a SQL script over a schema loaded once: its queries see the
  /// schema's tables and views, and any the script declares itself.
  static Loaded loadSql(const std::string& text, const std::string& file, const Schema& schema);
  /// The same, with the SQL read as engine `dialect` reads it where engines
  /// differ: "default", "postgres", "duckdb", "calcite" or "sqlite"
  /// (docs/dialects.md). An unknown name is an error (code "unknown-dialect").
  static Loaded loadSql(const std::string& text, const std::string& file, const Schema& schema,
                        const std::string& dialect);

  /// Loads a SQL script (CREATE TABLE / VIEW and queries). On bad input returns
  /// nullopt and appends "file:line:col: error: ..." lines to `errors` (if given).
  static std::optional<Plans> fromSql(const std::string& text, const std::string& file,
                                      std::vector<std::string>* errors = nullptr);
  /// Loads a plan JSON document (docs/plan-json.md), with any placement it carries.
  /// On bad input returns nullopt and appends "file: error at /pointer: ..." lines.
  static std::optional<Plans> fromJson(const std::string& text, const std::string& file,
                                       std::vector<std::string>* errors = nullptr);

  /// An independent deep copy (to compare placements of several profiles).
  Plans clone() const;
  /// Number of queries.
  size_t size() const;
  /// The name of query `i`.
  std::string name(size_t i) const;

  /// Normalises every plan (decorrelation, predicate pushdown, outer-join
  /// simplification...). Plans from SQL need this before planning filters.
  void normalize();
  /// The same with rules switched off. An unknown rule name is an error
  /// (code "unknown-rule") and nothing is normalised.
  bool normalize(const NormalizeSettings& settings, std::vector<Error>* errors = nullptr);
  /// Replaces every plan's runtime filters with the profile's placement; returns
  /// the number of consumers placed over all queries. A plan from SQL that was
  /// not normalised is refused (left without filters): see placeRuntimeFilters.
  size_t planRuntimeFilters(Profile profile = Profile::Sound, bool composite = false);
  /// Replaces every plan's runtime filters with a placement; returns the number
  /// of consumers placed. A plan from SQL that was not normalised is refused
  /// with an error of code "call-order" per query.
  size_t placeRuntimeFilters(const PlaceSettings& settings, std::vector<Error>* errors = nullptr);
  /// Every decision the last placement took on query `i`, in the order of
  /// `rfguard plan --explain`.
  std::vector<Decision> explain(size_t i) const;
  /// The same as the text `rfguard plan --explain` prints.
  std::string explainText(size_t i) const;
  /// What each profile would place on query `i` (its plan is left as it is).
  std::vector<ProfilePlacement> compareProfiles(size_t i) const;
  /// Searches small databases for one on which query `i`'s runtime filters
  /// change its result: the verdict for all filters, then (when unsafe) each alone.
  std::vector<CheckVerdict> check(size_t i, const CheckSettings& settings = {}) const;
  /// Searches small databases for one on which query `j` of `rewritten` returns
  /// another result than query `i` of `original` (bags; the order a root ORDER BY
  /// fixes; any valid answer where a LIMIT cuts ties). Both over one schema; the
  /// plans as they stand now (normalised or not); runtime filters not applied.
  static EquivVerdict equivalent(const Plans& original, size_t i, const Plans& rewritten, size_t j,
                                 const CheckSettings& settings = {});
  /// Verifies every plan's placement: closure and safety. Empty when all is safe.
  std::vector<VerifierFinding> verify() const;
  /// The same with a choice of judges: with RulesThenBoundedCheck a consumer no
  /// rule justifies is searched (up to 2 rows per table, 50,000 databases); a
  /// counterexample keeps it an error, none makes it a "not proven safe" warning.
  std::vector<VerifierFinding> verify(Judges judges) const;
  /// Every plan as text, one plan JSON document, or Graphviz DOT.
  std::string render(Format format = Format::Text) const;

 private:
  struct Impl;
  explicit Plans(std::shared_ptr<Impl> impl);
  static Loaded load(const std::string& text, const std::string& file, bool json);
  std::shared_ptr<Impl> impl_;
};

struct Loaded {
  std::optional<Plans> plans;  ///< set when the input had no error
  std::vector<Error> errors;
};

/// The library's version, e.g. "0.1.0".
RFGUARD_API const char* version();

}  // namespace rfguard::api
