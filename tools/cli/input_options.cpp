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

bool checkPlacementFlags(const Session& session, const std::vector<std::string>& flags,
                         const std::string& command, std::ostream& err) {
  if (flags.empty()) return true;
  std::string names;
  for (const auto& f : flags) names += (names.empty() ? "" : ", ") + f;
  bool placed = false, given = false;
  for (const auto& q : session.queries()) (q.given ? given : placed) = true;
  if (given && !placed) {
    err << "rfguard " << command << ": " << names << (flags.size() == 1 ? " applies" : " apply")
        << " to plans rfguard places; every input carries its own runtime filters, judged as "
           "given\n";
    return false;
  }
  if (given)
    for (const auto& in : session.inputs()) {
      bool inputGiven = false;
      for (size_t i : in.queries) inputGiven = inputGiven || session.queries()[i].given;
      if (inputGiven)
        err << in.path << ": note: " << names
            << " passed by: its runtime filters are judged as given\n";
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
