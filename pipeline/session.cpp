#include "pipeline/session.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "engines/query_facts.h"
#include "grammar/sql.h"
#include "ir/plan_json.h"
#include "rules/cardinality.h"
#include "verifier/judge.h"
#include "verifier/verify.h"

namespace rfguard {

namespace {

bool carriesPlacement(const PlanNode& n) {
  if (!n.runtimeFilters.empty() || !n.runtimeFilterTargets.empty()) return true;
  for (const auto& c : n.children)
    if (carriesPlacement(*c)) return true;
  return false;
}

/// The JSON pointer of node `id` below `n`, which is at `ptr`; empty when absent.
std::string pointerTo(const PlanNode& n, int id, const std::string& ptr) {
  if (n.id == id) return ptr;
  for (size_t i = 0; i < n.children.size(); ++i) {
    std::string p = pointerTo(*n.children[i], id, ptr + "/children/" + std::to_string(i));
    if (!p.empty()) return p;
  }
  return "";
}

}  // namespace

bool looksLikePlanJson(const std::string& name, const std::string& text) {
  if (name.size() > 5 && name.substr(name.size() - 5) == ".json") return true;
  if (name.size() > 4 && name.substr(name.size() - 4) == ".sql") return false;
  size_t i = text.find_first_not_of(" \t\r\n");
  return i != std::string::npos && text[i] == '{';
}

std::optional<InputFormat> parseInputFormat(const std::string& name,
                                            const engine::Adapter** engine) {
  if (name == "auto") return InputFormat::Auto;
  if (name == "sql") return InputFormat::Sql;
  if (name == "json") return InputFormat::PlanJson;
  if (const engine::Adapter* a = engine::findAdapter(name)) {
    if (engine) *engine = a;
    return InputFormat::Engine;
  }
  return std::nullopt;
}

InputFormat detectFormat(const std::string& name, const std::string& text,
                         const engine::Adapter** engine) {
  if (const engine::Adapter* a = engine::detectAdapter(text)) {
    if (engine) *engine = a;
    return InputFormat::Engine;
  }
  return looksLikePlanJson(name, text) ? InputFormat::PlanJson : InputFormat::Sql;
}

bool readInputFile(const std::string& path, std::string& text, Diagnostics& diags) {
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      diags.error(path, {}, "is a directory (lint walks directories; plan and check take files)");
      return false;
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      diags.error(path, {},
                  std::string("cannot open: ") + (errno ? std::strerror(errno) : "unreadable"));
      return false;
    }
    std::ostringstream buf;
    buf << in.rdbuf();
    text = buf.str();
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    diags.error(path, {1, 1}, "empty input: no statements");
    return false;
  }
  return true;
}

Session::Session(SessionOptions options) : options_(std::move(options)) {}

bool Session::load(const std::string& path, Diagnostics& diags) {
  std::string text;
  if (!readInputFile(path, text, diags)) {
    SessionInput in;
    in.path = path;
    in.ok = false;
    inputs_.push_back(std::move(in));
    return false;
  }
  return loadContent(text, path, diags);
}

bool Session::loadContent(const std::string& text, const std::string& path, Diagnostics& diags) {
  // JSON Lines: one complete document per line (what `plan --format json` writes
  // for several inputs). Each line is an input of its own, named file:line, so
  // that no document is judged by another. Anything else after a document stays
  // an error of the JSON reader.
  if (options_.from != InputFormat::Sql) {
    std::vector<std::pair<int, std::string>> lines;
    size_t start = 0;
    for (int no = 1; start < text.size(); ++no) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      std::string line = text.substr(start, end - start);
      if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back({no, line});
      start = end + 1;
    }
    if (lines.size() > 1 && lines[0].second.find_first_not_of(" \t") < lines[0].second.size() &&
        lines[0].second[lines[0].second.find_first_not_of(" \t")] == '{' &&
        nlohmann::json::accept(lines[0].second)) {
      bool ok = true;
      for (const auto& [no, line] : lines) {
        const std::string name = path + ":" + std::to_string(no);
        InputFormat f = options_.from;
        if (f == InputFormat::Auto) f = detectFormat(name, line);
        if (f == InputFormat::Sql) f = InputFormat::PlanJson;  // a line of JSON Lines is JSON
        ok = loadFormat(line, name, f, diags) && ok;
      }
      return ok;
    }
  }
  return loadText(text, path, diags);
}

bool Session::loadText(const std::string& text, const std::string& name, Diagnostics& diags) {
  return loadFormat(text, name, options_.from, diags);
}

bool Session::loadAs(const std::string& text, const std::string& name, bool json,
                     Diagnostics& diags, const Catalog& base) {
  return loadFormat(text, name, json ? InputFormat::PlanJson : InputFormat::Sql, diags, base);
}

bool Session::loadFormat(const std::string& text, const std::string& name, InputFormat format,
                         Diagnostics& diags, const Catalog& base) {
  return loadWith(text, name, format, options_.engine, diags, base);
}

bool Session::loadEngine(const std::string& text, const std::string& name,
                         const engine::Adapter& engine, Diagnostics& diags, const Catalog& base) {
  return loadWith(text, name, InputFormat::Engine, &engine, diags, base);
}

bool Session::loadWith(const std::string& text, const std::string& name, InputFormat format,
                       const engine::Adapter* engine, Diagnostics& diags, const Catalog& base) {
  if (format == InputFormat::Auto) format = detectFormat(name, text, &engine);
  if (format == InputFormat::Engine && !engine) engine = engine::detectAdapter(text);
  SessionInput in;
  in.path = name;
  in.format = format;
  in.engine = format == InputFormat::Engine ? engine : nullptr;
  in.json = format != InputFormat::Sql;
  const Catalog& schema = base.tables().empty() ? options_.schema : base;
  if (format == InputFormat::Sql) in.catalog = schema;
  std::vector<Query> queries;
  std::vector<engine::ImportedQuery> imported;
  if (format == InputFormat::Engine && !engine) {
    in.ok = false;
    std::string names;
    for (const engine::Adapter* a : engine::adapters())
      names += (names.empty() ? "" : ", ") + a->documentKind();
    diags.errorAt(name, "", "not a plan of any engine rfguard imports (" + names + ")");
  } else if (format == InputFormat::Engine) {
    nlohmann::json doc;
    // The queries' own SQL (DuckDB's "query_name"), bound over the schema,
    // tells which columns its unqualified names compare.
    engine::EqualityHints hints;
    if (!schema.tables().empty()) {
      for (const auto& sql : engine->queryTexts(text)) {
        Catalog c = schema;
        std::vector<Query> qs;
        Diagnostics ignored;  // only hints: a query rfguard cannot bind gives none
        if (loadSql(sql, name, c, qs, ignored, {}, options_.dialect)) {
          auto h = engine::equatedColumns(qs);
          hints.insert(h.begin(), h.end());
        }
      }
    }
    in.ok = engine->importPlans(text, name, schema, doc, imported, diags, hints);
    // The imported document is rfguard's own: an error reading it is an import defect.
    Diagnostics inner;
    if (!doc.is_null() &&
        !readPlanDocument(doc.dump(), name + " (as imported)", in.catalog, queries, inner)) {
      in.ok = false;
      diags.errorAt(name, "", "the imported plan does not read back: " + inner.render());
      queries.clear();
    }
  } else if (format == InputFormat::PlanJson) {
    in.ok = readPlanDocument(text, name, in.catalog, queries, diags);
  } else {
    in.ok = loadSql(text, name, in.catalog, queries, diags, {}, options_.dialect);
  }
  for (size_t i = 0; i < queries.size(); ++i) {
    QueryRun q;
    if (i < imported.size()) {
      imported[i].plan = nullptr;  // the plan lives in q.query
      q.imported = std::make_shared<const engine::ImportedQuery>(std::move(imported[i]));
    }
    q.engine = in.engine;
    q.query = std::move(queries[i]);
    q.input = name;
    q.indexInInput = i;
    q.fromJson = in.json;
    q.stage = in.json ? Stage::Normalized : Stage::Loaded;
    // An engine's plan is what the engine ran, filters or none: never re-planned.
    q.given = in.json && (options_.given == GivenPlans::Json ||
                          (options_.given == GivenPlans::JsonWithFilters &&
                           (format == InputFormat::Engine || carriesPlacement(*q.query.plan))));
    in.queries.push_back(queries_.size());
    queries_.push_back(std::move(q));
  }
  const bool ok = in.ok;
  inputs_.push_back(std::move(in));
  return ok;
}

void Session::add(std::vector<Query> queries, const Catalog& catalog, const std::string& name) {
  SessionInput in;
  in.path = name;
  in.catalog = catalog;
  for (auto& query : queries) {
    QueryRun q;
    q.query = std::move(query);
    q.input = name;
    q.indexInInput = in.queries.size();
    in.queries.push_back(queries_.size());
    queries_.push_back(std::move(q));
  }
  inputs_.push_back(std::move(in));
}

size_t Session::normalize() {
  size_t broken = 0;
  for (auto& q : queries_) {
    if (q.given || q.normalized || q.stage == Stage::Placed) continue;
    if (options_.keepBound) q.bound = clonePlan(*q.query.plan);
    rfguard::normalize(q.query.plan, options_.normalize, q.normalization);
    annotateEstimates(*q.query.plan);
    q.stage = Stage::Normalized;
    q.normalized = true;
    if (!q.normalization.problems.empty()) ++broken;
  }
  return broken;
}

bool Session::placeFilters(bool replace) {
  bool ok = true;
  for (auto& q : queries_) {
    if (q.given || (q.stage == Stage::Placed && !replace)) continue;
    if (q.stage == Stage::Loaded) {
      ok = false;  // out of order: filters go on normalised plans only
      continue;
    }
    if (!options_.placeFilters) continue;
    q.placement = RfReport{};
    planRuntimeFilters(*q.query.plan, q.placement, options_.filters);
    q.stage = Stage::Placed;
  }
  return ok;
}

size_t Session::run() {
  size_t broken = normalize();
  placeFilters(false);
  return broken;
}

namespace {

/// True when `sql` (a plan JSON's "file") exists from the working directory or
/// from a folder above `plan`.
bool sqlFileThere(const std::string& sql, const std::string& plan) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(sql, ec)) return true;
  if (fs::path(sql).is_absolute()) return false;
  fs::path dir = fs::absolute(plan, ec).parent_path();
  for (int up = 0; up < 16 && !ec && !dir.empty(); ++up) {
    if (fs::exists(dir / sql, ec)) return true;
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return false;
}

}  // namespace

FindingSite Session::siteOf(const QueryRun& q, const Finding& f) const {
  FindingSite site;
  const Query& query = q.query;
  // A plan JSON names the SQL file it came from, as the command that wrote it
  // was given it: from the working directory, or from a folder above the plan
  // (the repository's root). Where that file is not there (another machine, a
  // generated name), the finding points at the plan JSON and its pointer.
  const bool sqlThere =
      !query.file.empty() && (!q.fromJson || q.imported || sqlFileThere(query.file, q.input));
  if (f.loc.line && sqlThere) {
    site.file = query.file;
    site.loc = f.loc;
  } else {
    site.file = q.input;
    if (!q.fromJson) site.loc = query.loc;
  }
  if (q.fromJson && !f.nodes.empty()) {
    int id = f.nodes.size() > 1 ? f.nodes[1] : f.nodes[0];
    if (q.imported) {                    // a node of the engine's own document
      if (sqlThere && query.loc.line) {  // run from SQL: the query's place
        site.file = query.file;
        site.loc = query.loc;
      }
      auto it = q.imported->sourcePointer.find(id);
      if (it != q.imported->sourcePointer.end()) {
        site.pointer = it->second;
        site.planFile = q.input;
      }
      return site;
    }
    site.pointer =
        pointerTo(*query.plan, id, "/queries/" + std::to_string(q.indexInInput) + "/plan");
    if (!site.pointer.empty()) site.planFile = q.input;
  }
  return site;
}

Session Session::clone() const {
  Session s(options_);
  s.inputs_ = inputs_;
  s.queries_ = queries_;
  for (auto& q : s.queries_) {
    q.query.plan = clonePlan(*q.query.plan);
    if (q.bound) q.bound = clonePlan(*q.bound);
    // The lineage index points into the plan it was built over.
    if (q.placement.lineage) q.placement.lineage = std::make_shared<LineageIndex>(*q.query.plan);
  }
  return s;
}

std::vector<ProfileConsumers> consumersByProfile(const PlanNode& plan, RfOptions options) {
  std::vector<ProfileConsumers> out;
  for (Profile p : allProfiles()) {
    PlanPtr copy = clonePlan(plan);
    RfReport r;
    options.profile = p;
    planRuntimeFilters(*copy, r, options);
    out.push_back({p, std::move(r.consumers)});
  }
  return out;
}

std::vector<Finding> Session::verify(const QueryRun& q) const {
  return verify(q, options_.semanticJudge);
}

std::vector<Finding> Session::verify(const QueryRun& q, bool semanticJudge) const {
  std::vector<Finding> out = verifyRuntimeFilters(*q.query.plan);
  if (semanticJudge && !out.empty()) judgeFindings(*q.query.plan, out);
  return out;
}

}  // namespace rfguard
