#include "tools/cli/input_options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
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
  // Names as dialectNamed() reads them (aliases and case included).
  const CLI::Validator dialect(
      [](std::string& name) -> std::string {
        if (dialectNamed(name)) return "";
        std::string names;
        for (const auto& n : dialectNames()) names += (names.empty() ? "" : ", ") + n;
        return "unknown dialect " + name + " (one of " + names + ")";
      },
      "DIALECT");
  cmd->add_option("--dialect", args.dialect,
                  "how SQL is read where engines differ (integer division, division by zero, "
                  "integer AVG, GROUP BY 2, NULLs' order, LIKE's case, concat): default (rfguard's "
                  "own), postgres, duckdb, calcite or sqlite (docs/dialects.md)")
      ->check(dialect);
}

bool applyInputArgs(const InputArgs& args, SessionOptions& so, std::ostream& err) {
  so.from = *parseInputFormat(args.from, &so.engine);
  if (args.joinOrder == "from") keepJoinsAsWritten(so.normalize);
  so.dialect = dialectNamed(args.dialect).value_or(Dialect::Default);
  if (args.schema.empty()) return true;
  Diagnostics diags;
  std::string text;
  std::vector<Query> queries;
  if (!readInputFile(args.schema, text, diags) ||
      !loadSql(text, args.schema, so.schema, queries, diags, {}, so.dialect)) {
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
/// as spaces, what a terminal would act on or cannot show (control bytes such
/// as ESC, C1 controls, bytes of no UTF-8 character) as \xNN, long lines cut
/// to a window around the column.
std::string caret(const std::string& line, int col) {
  static const char* hex = "0123456789abcdef";
  std::vector<std::string> shown;  // per code point: its text as printed
  for (size_t i = 0; i < line.size();) {
    const unsigned char u = static_cast<unsigned char>(line[i]);
    const size_t n = utf8Length(line, i);
    const bool c1 = n == 2 && u == 0xC2 && static_cast<unsigned char>(line[i + 1]) < 0xA0;
    if (line[i] == '\t') {
      shown.push_back(" ");
    } else if (n == 0 || u < 0x20 || u == 0x7F || c1) {
      std::string esc;
      for (size_t k = 0; k < std::max<size_t>(n, 1); ++k) {
        const unsigned char b = static_cast<unsigned char>(line[i + k]);
        esc += std::string("\\x") + hex[b >> 4] + hex[b & 15];
      }
      shown.push_back(esc);
    } else {
      shown.push_back(line.substr(i, n));
    }
    i += std::max<size_t>(n, 1);
  }
  size_t at = col > 0 ? static_cast<size_t>(col - 1) : 0;
  size_t from = at > 60 ? at - 60 : 0;
  size_t to = std::min(shown.size(), from + 120);
  if (at > shown.size()) at = shown.size();
  std::string text = from ? "..." : "";
  size_t indent = from ? 3 : 0;
  for (size_t k = from; k < to; ++k) {
    text += shown[k];
    // A code point takes one column; an escape as many as it has characters.
    if (k < at) indent += shown[k].size() == 1 || shown[k][0] != '\\' ? 1 : shown[k].size();
  }
  if (to < shown.size()) text += "...";
  return "  " + text + "\n  " + std::string(indent, ' ') + "^\n";
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
  ImportNoteLog all(true);
  all.add(q, err);
}

std::string importNoteKind(const std::string& text) {
  std::string out;
  auto elide = [&out] {
    if (out.size() < 3 || out.compare(out.size() - 3, 3, "\u2026") != 0) out += "\u2026";
  };
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {  // quoted text
      const size_t end = text.find('"', i + 1);
      out += "\"";
      elide();
      out += "\"";
      i = end == std::string::npos ? text.size() : end + 1;
    } else if (c == '(') {  // parenthesised detail, nested
      int depth = 0;
      for (; i < text.size(); ++i) {
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
        if (depth == 0) break;
      }
      ++i;
      while (!out.empty() && out.back() == ' ') out.pop_back();
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '#' || c == '.') {
      // A word: kept when made of letters only, else a name or number.
      size_t end = i;
      bool plain = true;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                   text[end] == '_' || text[end] == '#' || text[end] == '.')) {
        plain = plain && std::isalpha(static_cast<unsigned char>(text[end]));
        ++end;
      }
      // A sentence's full stop is no part of a name.
      if (end > i + 1 && text[end - 1] == '.' && !plain) plain = false;
      if (plain)
        out.append(text, i, end - i);
      else
        elide();
      i = end;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

void ImportNoteLog::note(const std::string& line, const std::string& kind, std::ostream& err) {
  if (verbose_) {
    err << line << "\n";
    return;
  }
  Kind& k = kinds_[kind];
  if (k.count++ == 0) {
    k.first = line;
    order_.push_back(kind);
  }
}

void ImportNoteLog::add(const QueryRun& q, std::ostream& err) {
  if (!q.imported) return;
  auto where = [&](const engine::ImportNote& n) {
    return q.input + ": note" + (n.pointer.empty() ? "" : " at " + n.pointer) + ": " +
           q.query.name + ": ";
  };
  for (const auto& n : q.imported->losses)
    note(where(n) + "not imported faithfully: " + n.message, "loss\n" + importNoteKind(n.message),
         err);
  for (const auto& n : q.imported->ambiguities)
    note(where(n) + "ambiguous producer: " + n.message, "ambiguity\n" + importNoteKind(n.message),
         err);
}

void ImportNoteLog::merge(const ImportNoteLog& other) {
  for (const auto& kind : other.order_) {
    const Kind& o = other.kinds_.at(kind);
    Kind& k = kinds_[kind];
    if (k.count == 0) {
      k.first = o.first;
      order_.push_back(kind);
    }
    k.count += o.count;
  }
}

void ImportNoteLog::summarise(std::ostream& err) const {
  for (const auto& kind : order_) {
    const Kind& k = kinds_.at(kind);
    err << k.first;
    if (k.count > 1) err << " (and " << k.count - 1 << " more like it: --verbose lists each)";
    err << "\n";
  }
}

}  // namespace rfguard
