#include "tools/cli/input_options.h"

#include <CLI/CLI.hpp>

#include "grammar/sql.h"

namespace rfguard {

void addInputOptions(CLI::App* cmd, InputArgs& args) {
  cmd->add_option("--from", args.from,
                  "what the files hold: auto (default), sql, json (rfguard's plan JSON), duckdb "
                  "(DuckDB's JSON profile or EXPLAIN (FORMAT JSON))")
      ->check(CLI::IsMember({"auto", "sql", "json", "duckdb"}));
  cmd->add_option("--schema", args.schema,
                  "a SQL file of CREATE TABLE statements: the tables of engine plans");
}

bool applyInputArgs(const InputArgs& args, SessionOptions& so, std::ostream& err) {
  so.from = *parseInputFormat(args.from);
  if (args.schema.empty()) return true;
  Diagnostics diags;
  std::string text;
  std::vector<Query> queries;
  if (!readInputFile(args.schema, text, diags) ||
      !loadSql(text, args.schema, so.schema, queries, diags)) {
    err << diags.render();
    return false;
  }
  return true;
}

void writeImportNotes(const QueryRun& q, std::ostream& err) {
  if (!q.imported) return;
  for (const auto& n : q.imported->losses)
    err << q.input << ": note" << (n.pointer.empty() ? "" : " at " + n.pointer) << ": "
        << q.query.name << ": not imported faithfully: " << n.message << "\n";
  for (const auto& n : q.imported->ambiguities)
    err << q.input << ": note" << (n.pointer.empty() ? "" : " at " + n.pointer) << ": "
        << q.query.name << ": ambiguous producer: " << n.message << "\n";
}

}  // namespace rfguard
