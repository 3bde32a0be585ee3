#pragma once
// One room per engine: everything rfguard knows about an engine sits in
// engines/<name>/ behind this interface, and engines/registry.cpp lists the
// adapters. Pipeline, verifier and CLI code reach an engine only through it:
// its plans (the importer), its SQL (the spelling of counterexample scripts and
// oracle queries, and of generated data), and, for an engine this build links,
// a live connection with its runtime-filter switch and resource limits
// (engines/engine.h). Adding an engine touches engines/<name>/ and one registry
// line (docs/engines.md). An engine's placement profile is a row of the rule
// engine's profile table (rules/rf_engines.cpp), which judges without any
// engine linked; the adapter names it.
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engines/engine.h"
#include "ir/catalog.h"
#include "ir/diagnostics.h"
#include "ir/plan.h"
#include "ir/sql_spelling.h"

namespace rfguard::engine {

/// Something an import could not carry over faithfully, at a JSON pointer (or
/// a line) of the engine's document.
struct ImportNote {
  std::string pointer;
  std::string message;
};

/// One runtime filter the engine reported at a consumer, and the join it came from.
struct ImportedFilter {
  std::string scanPointer;         ///< the consumer in the engine's document
  std::string column;              ///< the consumer's column id (t.k)
  std::vector<std::string> kinds;  ///< in, bloom, min_max
  std::vector<int> producers;      ///< rfguard node ids of the joins it is attributed to
  std::vector<int> candidates;     ///< every join it could have come from
};

/// One imported query.
struct ImportedQuery {
  std::string name;
  nlohmann::json plan;  ///< an rfguard plan node
  std::vector<ImportNote> losses;
  std::vector<ImportNote> ambiguities;
  std::vector<ImportedFilter> dynamicFilters;
  std::map<int, std::string>
      sourcePointer;  ///< rfguard node id -> pointer in the engine's document
  /// rfguard node id -> the rows the engine's operator produced (a profile's
  /// cardinality; absent in a plan that was not run).
  std::map<int, long long> cardinality;
  /// Nodes of copies the import made: a subplan the engine reads materialised
  /// (DuckDB's DELIM_SCAN input or CTE), which has no scan of its own to filter.
  std::set<int> copied;
  /// Joins the engine ran as another kind (DuckDB's MARK joins, imported as
  /// semi and NOT IN joins), where the engine builds no filter.
  std::set<int> markJoins;
};

/// Column pairs the query's own SQL compares with `=` or `<=>`, as
/// "table.column": engines print names unqualified (`k = k`), and when a name
/// matches two columns the pair the SQL compares is the one meant.
using EqualityHints = std::set<std::pair<std::string, std::string>>;

/// How a live engine's tables are filled (Adapter::populateSql).
struct FillSpec {
  long long rows = 0;
  uint64_t seed = 1;
  /// "column" -> values (as text) its hot values are drawn from.
  std::map<std::string, std::set<std::string>> hot;
  int nullPercent = 5;   ///< of a nullable column's values
  int skewPercent = 30;  ///< of values drawn from ten hot values
  /// "table.column" -> the domain of a join key (engine::joinKeyDomains).
  std::map<std::string, long long> joinKeys;
};

class Adapter {
 public:
  virtual ~Adapter() = default;

  /// "duckdb": the name of --from, --oracle and the engine's commands.
  virtual std::string name() const = 0;
  /// "DuckDB": how outputs name the engine.
  virtual std::string displayName() const = 0;
  /// The placement profile that emulates the engine (rules/rf_profiles.h names).
  virtual std::string profileName() const = 0;
  /// What --from's help says it reads ("DuckDB's JSON profile or EXPLAIN (FORMAT JSON)").
  virtual std::string documentKind() const = 0;

  // ------------------------------------------------------------ its plans
  /// True when `text` is one of the engine's plan documents (auto-detection by
  /// content). Must not claim rfguard's plan JSON or SQL.
  virtual bool recognizes(const std::string& text) const = 0;
  /// The SQL texts the document names its queries by, in order (empty when it
  /// names none): bound by rfguard, they give the importer EqualityHints.
  virtual std::vector<std::string> queryTexts(const std::string& /*text*/) const { return {}; }
  /// Imports every query of `text` into an rfguard plan document `doc`, every
  /// runtime filter as the engine placed it. Tables come from `schema` when it
  /// has them. False, with errors located in `text` (JSON pointers, or
  /// file:line:col), when it is not the engine's or cannot be imported; never
  /// throws and never crashes, whatever `text` holds.
  virtual bool importPlans(const std::string& text, const std::string& name, const Catalog& schema,
                           nlohmann::json& doc, std::vector<ImportedQuery>& queries,
                           Diagnostics& diags, const EqualityHints& hints) const = 0;

  // ------------------------------------------------------------ its SQL
  /// How the engine spells what the verifier writes (counterexample scripts,
  /// oracle queries); null when the engine takes SQLite's forms or has no SQL
  /// rfguard writes.
  virtual const SqlSpelling* spelling() const { return nullptr; }

  // ------------------------------------------------------------ live
  /// True when the engine can run in rfguard's process through its library:
  /// it has commands (`rfguard <name> run`); open() says when this build or
  /// machine cannot.
  virtual bool live() const { return false; }
  /// True when this build links the engine (open() can succeed).
  virtual bool linked() const { return false; }
  /// A fresh in-memory database of the engine; null with `error` when it
  /// cannot be opened (not linked, library missing).
  virtual std::unique_ptr<Engine> open(const Options& /*options*/, std::string& error) const {
    error = displayName() + " is not linked into this rfguard";
    return nullptr;
  }
  /// The statement that turns the engine's runtime filters on or off, as a
  /// script writes it.
  virtual std::string runtimeFiltersStatement(bool /*on*/) const { return ""; }
  /// The statement that sets the engine's threads in a script (empty: none).
  virtual std::string threadsStatement(int /*threads*/) const { return ""; }
  /// The engine's type name for rfguard's type, and rfguard's type (its name)
  /// for the engine's (empty when unknown).
  virtual std::string typeName(const Type& /*t*/) const { return ""; }
  virtual std::string typeFromEngine(const std::string& /*engineType*/) const { return ""; }
  /// CREATE TABLE and CREATE VIEW in the engine's SQL.
  virtual std::string createTableSql(const TableDef& /*t*/) const { return ""; }
  virtual std::string createViewSql(const ViewDef& /*v*/) const { return ""; }
  /// Statements filling table `t` with generated rows, computed by the engine
  /// (deterministic for a seed).
  virtual std::string populateSql(const TableDef& /*t*/, const FillSpec& /*fill*/) const {
    return "";
  }
  /// A query in rfguard's SQL as the engine parses it.
  virtual std::string querySql(const std::string& rfguardSql) const { return rfguardSql; }
  /// True when the engine runs the differential driver's random queries
  /// (`rfguard <engine> diff`, testgen/join_queries.h: rowid, SEMI
  /// JOIN, ORDER BY ALL are DuckDB's SQL).
  virtual bool differential() const { return false; }

  // ------------------------------------------------------------ compare
  /// Why the engine reported no filter from join `producer` at scan `scan` of
  /// its imported `plan` where its profile places one: the engine's reason, or
  /// empty when the difference is unexplained.
  virtual std::string unreportedReason(const PlanNode& /*plan*/, const ImportedQuery& /*imp*/,
                                       int /*producer*/, int /*scan*/) const {
    return "";
  }
  /// For an import loss that is a runtime filter the engine printed and the
  /// import could not read: the pointer of the consumer it was printed at;
  /// empty for any other loss.
  virtual std::string unreadFilterConsumer(const ImportNote& /*loss*/) const { return ""; }
};

/// Every engine rfguard knows, in the registry's order (engines/registry.cpp).
const std::vector<const Adapter*>& adapters();
/// The adapter named `name`; null when there is none.
const Adapter* findAdapter(const std::string& name);
/// The adapter whose plans `text` holds; null when none recognises it.
const Adapter* detectAdapter(const std::string& text);
/// The spellings of every engine that has one, for counterexample scripts.
std::vector<const SqlSpelling*> scriptSpellings();

}  // namespace rfguard::engine
