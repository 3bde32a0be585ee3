#pragma once
// A live SQL engine in the loop: the connection an engine's adapter opens
// (engines/adapter.h), so that the run, compare, diff and oracle commands are
// written once. An engine owns one in-memory database and one connection.
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rfguard::engine {

/// One result cell as the engine prints it; nullopt is SQL NULL.
using Cell = std::optional<std::string>;

/// A query's result, in the engine's row order.
struct Result {
  std::vector<std::string> columns;
  std::vector<std::string> types;  ///< the engine's type name per column
  std::vector<std::vector<Cell>> rows;
};

/// One column of a table as the engine declares it.
struct EngineColumn {
  std::string name;
  std::string type;  ///< the engine's spelling (INTEGER, DECIMAL(15,2), VARCHAR)
  bool nullable = true;
};
struct EngineTable {
  std::string name;
  std::vector<EngineColumn> columns;
};

/// How an engine is opened, and the resources each statement may take.
struct Options {
  int threads = 2;
  /// Memory the engine may use, in MiB; 0 is the engine's own default (for
  /// DuckDB 80% of the machine, which a multi-way join on skewed keys fills).
  long long memoryLimitMb = 0;
  /// Seconds a statement may run before it is interrupted and fails; 0: no limit.
  double timeoutSeconds = 0;
};

class Engine {
 public:
  virtual ~Engine() = default;
  /// "duckdb".
  virtual std::string name() const = 0;
  /// The library's own version string ("v1.5.6").
  virtual std::string version() const = 0;
  /// Runs one or more statements; the last one's rows go to `out` (when given).
  /// False with `error` set when the engine refused them.
  virtual bool execute(const std::string& sql, Result* out, std::string& error) = 0;
  /// Runs one query with profiling on: its rows, and the executed plan as the
  /// engine reports it (for DuckDB, its JSON profile).
  virtual bool profile(const std::string& sql, Result& out, std::string& planJson,
                       std::string& error) = 0;
  /// The plan the engine would run, without running it (EXPLAIN, as JSON).
  virtual bool explain(const std::string& sql, std::string& planJson, std::string& error) = 0;
  /// The base tables of the database.
  virtual bool tables(std::vector<EngineTable>& out, std::string& error) = 0;
  /// Turns the engine's runtime filters on (its default) or off for the
  /// statements that follow, every other optimisation unchanged
  /// (Adapter::runtimeFiltersStatement).
  virtual bool setRuntimeFilters(bool on, std::string& error) = 0;
};

/// The engines this build links, by name.
std::vector<std::string> linkedEngines();
/// Opens engine `name` on a fresh in-memory database; null with `error` when
/// it is unknown or this build does not link it.
std::unique_ptr<Engine> open(const std::string& name, const Options& options, std::string& error);

}  // namespace rfguard::engine
