#include "tools/cli/input_options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "engines/adapter.h"
#include "grammar/sql.h"

namespace rfguard {

void addInputOptions(CLI::App* cmd, InputArgs& args) {
  // Every engine of the registry is a --from of its own (engines/adapter.h).
  std::vector<std::string> formats = {"auto", "sql", "json"};
  std::string help = "what the files hold: auto (default), sql, json (rfguard's plan JSON)";
  for (const engine::Adapter* a : engine::adapters()) {
    formats.push_back(a->name());
    help += ", " + a->name() + " (" + a->documentKind() + ")";
  }
  cmd->add_option("--from", args.from, help)->check(CLI::IsMember(formats));
  cmd->add_option("--schema", args.schema,
                  "a SQL file of CREATE TABLE statements: the tables of engine plans");
  cmd->add_option("--join-order", args.joinOrder,
                  "SQL queries' joins: cost (default: reordered by estimated rows where the "
                  "schema has statistics, smaller inputs build) or from (as written)")
      ->check(CLI::IsMember({"cost", "from"}));
}

bool applyInputArgs(const InputArgs& args, SessionOptions& so, std::ostream& err) {
  so.from = *parseInputFormat(args.from, &so.engine);
  if (args.joinOrder == "from") keepJoinsAsWritten(so.normalize);
  if (args.schema.empty()) return true;
  Diagnostics diags;
  std::string text;
  std::vector<Query> queries;
  if (!readInputFile(args.schema, text, diags) ||
      !loadSql(text, args.schema, so.schema, queries, diags)) {
    err << renderErrors(diags);
    return false;
  }
  return true;
}

std::vector<InputPlacement> inputPlacements(const Session& session) {
  std::vector<InputPlacement> out;
  for (const auto& in : session.inputs()) {
    InputPlacement p{in.path};
    for (size_t i : in.queries) (session.queries()[i].given ? p.given : p.placed) = true;
    out.push_back(p);
  }
  return out;
}

bool checkPlacementFlags(const Session& session, const std::vector<std::string>& flags,
                         const std::string& command, std::ostream& err) {
  return checkPlacementFlags(inputPlacements(session), flags, command, err);
}

bool checkPlacementFlags(const std::vector<InputPlacement>& inputs,
                         const std::vector<std::string>& flags, const std::string& command,
                         std::ostream& err) {
  if (flags.empty()) return true;
  std::string names;
  for (const auto& f : flags) names += (names.empty() ? "" : ", ") + f;
  bool placed = false, given = false;
  for (const auto& in : inputs) given = given || in.given, placed = placed || in.placed;
  if (given && !placed) {
    err << "rfguard " << command << ": " << names << (flags.size() == 1 ? " applies" : " apply")
        << " to plans rfguard places; every input carries its own runtime filters, judged as "
           "given\n";
    return false;
  }
  if (given)
    for (const auto& in : inputs)
      if (in.given)
        err << in.path << ": note: " << names
            << " passed by: its runtime filters are judged as given\n";
  return true;
}

namespace {

/// Line `line` (1-based) of `text`, or nullopt.
std::optional<std::string> lineOf(const std::string& text, int line) {
  size_t start = 0;
  for (int i = 1; i < line; ++i) {
    start = text.find('\n', start);
    if (start == std::string::npos) return std::nullopt;
    ++start;
  }
  size_t end = text.find('\n', start);
  std::string out = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!out.empty() && out.back() == '\r') out.pop_back();
  return out;
}

/// The source line and a caret under column `col` (code points, 1-based): tabs
/// as spaces, long lines cut to a window around the column.
std::string caret(std::string line, int col) {
  for (char& c : line)
    if (c == '\t') c = ' ';
  std::vector<size_t> starts;  // byte offset of each code point
  for (size_t i = 0; i < line.size(); ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) starts.push_back(i);
  size_t at = col > 0 ? static_cast<size_t>(col - 1) : 0;
  size_t from = at > 60 ? at - 60 : 0;
  size_t to = std::min(starts.size(), from + 120);
  if (at > starts.size()) at = starts.size();
  auto byte = [&](size_t cp) { return cp < starts.size() ? starts[cp] : line.size(); };
  std::string shown = (from ? "..." : "") + line.substr(byte(from), byte(to) - byte(from)) +
                      (to < starts.size() ? "..." : "");
  return "  " + shown + "\n  " + std::string((from ? 3 : 0) + (at - from), ' ') + "^\n";
}

}  // namespace

const std::string& sourceText(const std::string& file,
                              const std::map<std::string, std::string>& sources,
                              std::map<std::string, std::string>& cache) {
  auto it = cache.find(file);
  if (it != cache.end()) return it->second;
  std::string text;
  if (auto s = sources.find(file); s != sources.end()) {
    text = s->second;
  } else if (file != "-") {
    std::ifstream in(file, std::ios::binary);
    std::stringstream buf;
    if (in) buf << in.rdbuf();
    text = buf.str();
  }
  return cache[file] = std::move(text);
}

bool makeOutputDirectory(const std::string& dir, std::ostream& err) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) err << dir << ": error: cannot create the directory: " << ec.message() << "\n";
  return !ec;
}

std::string renderErrors(const Diagnostics& diags,
                         const std::map<std::string, std::string>& sources) {
  std::map<std::string, std::string> cache;
  std::map<std::string, size_t> shown, hidden;
  std::vector<std::string> order;
  std::string out;
  for (const auto& d : diags.items()) {
    if (!shown.count(d.file) && !hidden.count(d.file)) order.push_back(d.file);
    if (shown[d.file] >= kMaxErrorsShown) {
      ++hidden[d.file];
      continue;
    }
    ++shown[d.file];
    out += d.render() + "\n";
    if (d.loc.line <= 0 || !d.pointer.empty()) continue;
    auto line = lineOf(sourceText(d.file, sources, cache), d.loc.line);
    if (line && line->find_first_not_of(" \t") != std::string::npos) out += caret(*line, d.loc.col);
  }
  for (const auto& f : order)
    if (hidden[f])
      out += f + ": " + std::to_string(hidden[f]) + " more error" + (hidden[f] == 1 ? "" : "s") +
             " not shown (the first " + std::to_string(kMaxErrorsShown) + " are)\n";
  return out;
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
