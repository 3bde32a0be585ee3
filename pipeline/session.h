#pragma once
// The pipeline: load -> normalise -> place runtime filters -> verify, in one
// object with its options. The CLI, the C++ API, the corpus runner and the
// benchmarks all go through it, so that every front door runs the same steps
// in the same order and judges the same inputs the same way.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engines/adapter.h"
#include "ir/catalog.h"
#include "ir/diagnostics.h"
#include "ir/dialect.h"
#include "ir/plan.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"
#include "verifier/findings.h"

namespace rfguard {

/// Which loaded plans are judged as given: never normalised, never re-planned.
enum class GivenPlans {
  Json,             ///< every plan JSON query: someone else's plan (lint, check)
  JsonWithFilters,  ///< plan JSON that carries runtime filters, and every engine's plan
                    ///< (plan: rfguard's bare JSON is planned)
  None,             ///< nothing: every step applies to every query (the C++ API)
};

/// What an input file holds.
enum class InputFormat {
  Auto,      ///< plan JSON, an engine's plans or SQL, told apart by name and content
  Sql,       ///< a SQL script
  PlanJson,  ///< rfguard's plan JSON (docs/plan-json.md)
  Engine,    ///< an engine's plans, imported by its adapter (engines/adapter.h)
};
/// "auto", "sql", "json", or an engine's name ("duckdb": InputFormat::Engine,
/// with its adapter in `engine`); nullopt for anything else.
std::optional<InputFormat> parseInputFormat(const std::string& name,
                                            const engine::Adapter** engine = nullptr);

/// How a session treats what it loads.
struct SessionOptions {
  InputFormat from = InputFormat::Auto;
  /// The engine whose plans InputFormat::Engine reads; null: told by content.
  const engine::Adapter* engine = nullptr;
  /// Tables for engine plans (their types), and for SQL files that declare none.
  Catalog schema;
  NormalizeOptions normalize;  ///< rules switched off, invariant checks
  RfOptions filters;           ///< profile, cost thresholds, composite keys
  bool placeFilters = true;    ///< false: normalise only (--no-runtime-filters)
  GivenPlans given = GivenPlans::Json;
  /// Keep a copy of each plan as bound, before normalisation (QueryRun::bound),
  /// to check the rewrite from one to the other.
  bool keepBound = false;
  /// How SQL is read where engines differ (ir/dialect.h); plan JSON and engine
  /// plans carry their own meaning.
  Dialect dialect = Dialect::Default;
  /// Findings the rules cannot decide go to the bounded search (verifier/judge.h):
  /// refuted ones stay errors, the rest become "not proven safe" warnings.
  bool semanticJudge = true;
};

/// Where a query stands. Filters are placed on normalised plans only: a query
/// from SQL starts Loaded (as bound) and must be normalised first; a query from
/// plan JSON starts Normalized (an optimizer's plan may be used as it is).
enum class Stage { Loaded, Normalized, Placed };

/// One query's trip through the pipeline.
struct QueryRun {
  Query query;
  std::string input;        ///< the file (or name) it was loaded from
  size_t indexInInput = 0;  ///< its position in that file: /queries/<i> in plan JSON
  bool fromJson = false;    ///< loaded from a plan JSON document
  bool given = false;       ///< its plan and placement are judged as given, never redone
  Stage stage = Stage::Loaded;
  bool normalized = false;  ///< normalisation ran on it (once is enough: it runs to a fixpoint)
  PlanPtr bound;            ///< the plan as bound, when SessionOptions::keepBound
  /// An engine's plan: what its import could not carry over, and where each
  /// node came from in the engine's document.
  std::shared_ptr<const engine::ImportedQuery> imported;
  const engine::Adapter* engine = nullptr;  ///< whose plan it is, for an engine's plan
  NormalizeReport normalization;
  RfReport placement;
};

/// One loaded input and what it held.
struct SessionInput {
  std::string path;
  Catalog catalog;
  bool ok = true;  ///< false: it had input errors (queries before the error may remain)
  bool json = false;
  InputFormat format = InputFormat::Sql;
  const engine::Adapter* engine = nullptr;  ///< for InputFormat::Engine: whose plans
  std::vector<size_t> queries;              ///< indexes into Session::queries()
};

/// Where a finding points: a SQL position or a JSON pointer in an input file.
struct FindingSite {
  std::string file;      ///< as given on the command line, or the SQL file a plan came from
  SourceLoc loc;         ///< line 0 when the plan came from JSON without positions
  std::string planFile;  ///< the plan JSON file `pointer` is in, for plan JSON inputs
  std::string pointer;   ///< the plan node's JSON pointer there
};

/// Reads a file ("-" for stdin) into text; false with a diagnostic when it cannot.
bool readInputFile(const std::string& path, std::string& text, Diagnostics& diags);
/// True when `text` named `name` is a plan JSON document (by extension or content).
bool looksLikePlanJson(const std::string& name, const std::string& text);
/// What `text` named `name` holds, by its extension and content; for an
/// engine's plans, the engine in `engine` when given.
InputFormat detectFormat(const std::string& name, const std::string& text,
                         const engine::Adapter** engine = nullptr);

/// The consumers one profile places on a plan.
struct ProfileConsumers {
  Profile profile;
  std::vector<RfDerivation> consumers;  ///< in filter id order
};
/// What every profile places on `plan` (normalised), each on a copy with
/// `options` otherwise: `plan` itself is left as it is.
std::vector<ProfileConsumers> consumersByProfile(const PlanNode& plan, RfOptions options);

/// The pipeline over any number of inputs.
class Session {
 public:
  explicit Session(SessionOptions options = {});

  /// Loads a SQL script or a plan JSON document from a file ("-": stdin).
  /// Errors go to `diags`; false when the input had any.
  bool load(const std::string& path, Diagnostics& diags);
  /// The same for text already in memory.
  bool loadText(const std::string& text, const std::string& name, Diagnostics& diags);
  /// A file's text as load() reads it: one input, or one per line of JSON Lines
  /// (named `name:LINE`).
  bool loadContent(const std::string& text, const std::string& name, Diagnostics& diags);
  /// The same with the format given: plan JSON when `json`, else SQL. SQL is
  /// bound over `base` (tables and views declared earlier) plus its own DDL.
  bool loadAs(const std::string& text, const std::string& name, bool json, Diagnostics& diags,
              const Catalog& base = {});
  /// The same for any format (Auto detects it). Engine plans are imported over
  /// `base` or, when it is empty, SessionOptions::schema.
  bool loadFormat(const std::string& text, const std::string& name, InputFormat format,
                  Diagnostics& diags, const Catalog& base = {});
  /// An engine's plans, imported by its adapter.
  bool loadEngine(const std::string& text, const std::string& name, const engine::Adapter& engine,
                  Diagnostics& diags, const Catalog& base = {});
  /// Adds queries bound elsewhere (tests, benchmarks), under input name `name`.
  void add(std::vector<Query> queries, const Catalog& catalog, const std::string& name);

  /// Normalises every query that is not given, not yet normalised and has no
  /// filters placed.
  /// Returns the number of queries whose plan invariants broke
  /// (NormalizeOptions::verify).
  size_t normalize();
  /// Places runtime filters (replacing any) on every query that is not given
  /// (a no-op with placeFilters off); with `replace` false, only on queries
  /// that have none placed yet. A query from SQL not yet normalised is
  /// refused: returns false and leaves it as it is.
  bool placeFilters(bool replace = true);
  /// Normalises and places filters on the queries loaded since the last run:
  /// what every front door does by default. Returns normalize()'s count.
  size_t run();

  /// An independent copy: every plan cloned, so that changing one session never
  /// changes the other.
  Session clone() const;

  /// Closure and safety findings of one query's placement (docs/findings.md).
  std::vector<Finding> verify(const QueryRun& q) const;
  /// The same with the second judge on or off, whatever the options say.
  std::vector<Finding> verify(const QueryRun& q, bool semanticJudge) const;
  /// Where finding `f` of query `q` points: its SQL position when the plan has
  /// one (from SQL, or plan JSON written from SQL), and for plan JSON the JSON
  /// pointer of the consumer (or the producer) it concerns.
  FindingSite siteOf(const QueryRun& q, const Finding& f) const;

  std::vector<QueryRun>& queries() { return queries_; }
  const std::vector<QueryRun>& queries() const { return queries_; }
  const std::vector<SessionInput>& inputs() const { return inputs_; }
  const SessionOptions& options() const { return options_; }
  SessionOptions& options() { return options_; }

 private:
  bool loadWith(const std::string& text, const std::string& name, InputFormat format,
                const engine::Adapter* engine, Diagnostics& diags, const Catalog& base);
  SessionOptions options_;
  std::vector<SessionInput> inputs_;
  std::vector<QueryRun> queries_;
};

}  // namespace rfguard
