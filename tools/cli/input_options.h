#pragma once
// --from and --schema: what the input files hold, shared by plan, lint and check.
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "pipeline/session.h"

namespace CLI {
class App;
}

namespace rfguard {

struct InputArgs {
  std::string from = "auto";        ///< auto, sql, json, duckdb
  std::string schema;               ///< a SQL file of CREATE TABLEs, for engine plans
  std::string joinOrder = "cost";   ///< cost (ReorderJoins, ChooseBuildSides) or from
  std::string dialect = "default";  ///< how SQL is read where engines differ (ir/dialect.h)
};

/// Adds --from, --schema, --join-order and --dialect to `cmd`.
void addInputOptions(CLI::App* cmd, InputArgs& args);
/// Sets the session's input format, schema and join order; false (after a located error on
/// `err`) when the schema cannot be read.
bool applyInputArgs(const InputArgs& args, SessionOptions& so, std::ostream& err);
/// Placement flags (`--profile starrocks`, `--explain`...) act only on plans
/// rfguard places. When every loaded query is given (plan JSON or an engine
/// plan carrying its own filters) they would do nothing: an error naming them
/// (false). When some are given, a note per such input says the flags pass it by.
bool checkPlacementFlags(const Session& session, const std::vector<std::string>& flags,
                         const std::string& command, std::ostream& err);
/// Whether an input's queries carry their own filters (given) or get rfguard's.
struct InputPlacement {
  std::string path;
  bool given = false;   ///< some query is given
  bool placed = false;  ///< some query is placed by rfguard
};
/// The same over inputs loaded by several sessions.
bool checkPlacementFlags(const std::vector<InputPlacement>& inputs,
                         const std::vector<std::string>& flags, const std::string& command,
                         std::ostream& err);
/// The placement of each input of `session`.
std::vector<InputPlacement> inputPlacements(const Session& session);
/// The text of input `file`: from `sources` (text read from stdin, by its name),
/// else from disk; "" when it cannot be read. `cache` keeps what was read.
const std::string& sourceText(const std::string& file,
                              const std::map<std::string, std::string>& sources,
                              std::map<std::string, std::string>& cache);

/// Creates `dir` (and its parents) for output files; false after saying why on `err`.
bool makeOutputDirectory(const std::string& dir, std::ostream& err);

/// Input errors as a terminal shows them: each with its SQL source line and a
/// caret under the column (text from `sources` by file name, else read from
/// disk), at most kMaxErrorsShown per file and then how many more there were.
inline constexpr size_t kMaxErrorsShown = 50;
std::string renderErrors(const Diagnostics& diags,
                         const std::map<std::string, std::string>& sources = {});

/// Writes what importing an engine's plan lost, per query of `q`, as notes.
void writeImportNotes(const QueryRun& q, std::ostream& err);

/// The kind of an import note: its text with names, numbers, quoted text and
/// parenthesised detail replaced by "…", which notes of one cause share.
std::string importNoteKind(const std::string& text);

/// A run's import notes: with `verbose` every one as it comes; else one line
/// per kind, the first note of that kind in full and how many more there were
/// (a clean TPC-H run prints a few lines, not 76).
class ImportNoteLog {
 public:
  explicit ImportNoteLog(bool verbose = false) : verbose_(verbose) {}
  /// The notes of `q`'s import: written to `err` now when verbose.
  void add(const QueryRun& q, std::ostream& err);
  /// Another log's notes, after this one's (lint's inputs in their order).
  void merge(const ImportNoteLog& other);
  /// Writes one line per kind (nothing when verbose: they were written).
  void summarise(std::ostream& err) const;

 private:
  struct Kind {
    std::string first;  ///< the first note of the kind, as --verbose prints it
    size_t count = 0;
  };
  bool verbose_;
  std::vector<std::string> order_;
  std::map<std::string, Kind> kinds_;
  void note(const std::string& line, const std::string& kind, std::ostream& err);
};

}  // namespace rfguard
