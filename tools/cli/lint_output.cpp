// Lint output: text for people, JSON (docs/lint-json.md) for scripts, SARIF
// 2.1.0 for code-scanning services.
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tools/cli/lint.h"
#include "tools/cli/lint_policy.h"
#include "tools/cli/rule_help.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

/// "file:line:col" (SQL) or "file" (plan JSON without positions).
std::string where(const FindingSite& s) {
  std::string out = s.file;
  if (s.loc.line) out += ":" + std::to_string(s.loc.line) + ":" + std::to_string(s.loc.col);
  return out;
}

/// " [plan.json /queries/0/plan/...]" for findings in plan JSON, else "".
std::string planNode(const FindingSite& s) {
  return s.pointer.empty() ? "" : " [" + s.planFile + " " + s.pointer + "]";
}

Json siteJson(const FindingSite& s) {
  Json j{{"file", s.file}};
  if (s.loc.line) {
    j["line"] = s.loc.line;
    j["column"] = s.loc.col;
  }
  if (!s.pointer.empty()) j["plan"] = Json{{"file", s.planFile}, {"pointer", s.pointer}};
  return j;
}

/// What a URI reference cannot hold, percent-encoded (RFC 3986: unreserved
/// characters and the path's slashes stay).
std::string percentEncoded(const std::string& path) {
  std::string enc;
  for (unsigned char ch : path) {
    if (std::isalnum(ch) || std::string("/-._~").find(static_cast<char>(ch)) != std::string::npos) {
      enc += static_cast<char>(ch);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", ch);
      enc += buf;
    }
  }
  return enc;
}

}  // namespace

std::string relativePath(const std::string& path) {
  namespace fs = std::filesystem;
  if (path == "-") return "stdin";
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  fs::path rel = ec ? fs::path(path) : p.lexically_relative(fs::current_path(ec));
  if (rel.empty()) rel = path;
  return rel.lexically_normal().generic_string();
}

std::string relativeUri(const std::string& path) {
  return percentEncoded(relativePath(path));
}

std::string publishedDocsUrl(const std::string& given) {
  if (!given.empty()) return given;
  const std::string built = kDocsUrl;
  return built.rfind("https://", 0) == 0 || built.rfind("http://", 0) == 0 ? built : "";
}

void writeLintText(const std::vector<LintFile>& files, std::ostream& out, bool color,
                   bool showSuppressed) {
  size_t n = 0, errors = 0, queries = 0, unread = 0, suppressed = 0, baselined = 0;
  auto line = [&](const LintResult& r, const char* note) {
    const bool error = r.finding.severity == Severity::Error;
    const char* on = !color ? "" : error ? "\033[1;31m" : "\033[1;33m";
    out << where(r.site) << ": " << on << severityName(r.finding.severity)
        << (color ? "\033[0m" : "") << " [" << r.finding.code << "] "
        << (r.query.empty() ? "" : r.query + ": ") << r.finding.message << planNode(r.site) << note
        << "\n";
  };
  for (const auto& f : files) {
    queries += f.queries.size();
    unread += f.inputError;
    suppressed += f.suppressed.size();
    baselined += f.baselined;
    for (const auto& r : f.results) {
      line(r, "");
      ++n;
      errors += r.finding.severity == Severity::Error;
    }
    if (showSuppressed)
      for (const auto& r : f.suppressed) line(r, " (suppressed)");
  }
  out << "-- " << files.size() << (files.size() == 1 ? " file, " : " files, ") << queries
      << (queries == 1 ? " query, " : " queries, ") << n << (n == 1 ? " finding" : " findings")
      << " (" << errors << (errors == 1 ? " error" : " errors") << ")";
  if (suppressed) out << ", " << suppressed << " suppressed";
  if (baselined) out << ", " << baselined << " in the baseline";
  // Files that did not load are said in the summary too, not only on stderr.
  if (unread) out << ", " << unread << (unread == 1 ? " file" : " files") << " with input errors";
  out << "\n";
}

void writeLintJson(const std::vector<LintFile>& files, std::ostream& out) {
  Json doc{{"format", "rfguard-lint"}, {"version", 1}, {"files", Json::array()}};
  size_t queries = 0, n = 0, errors = 0;
  for (const auto& f : files) {
    Json fj{{"file", f.path}, {"input_error", f.inputError}, {"queries", Json::array()}};
    Json errs = Json::array();  // always there, empty on a clean file
    for (const auto& d : f.errors) {
      Json e{{"message", d.message}, {"file", d.file}};
      if (d.loc.line) e["line"] = d.loc.line, e["column"] = d.loc.col;
      if (!d.pointer.empty()) e["pointer"] = d.pointer;
      errs.push_back(e);
    }
    fj["errors"] = errs;
    for (const auto& name : f.queries) {
      Json qj{{"name", name}, {"findings", Json::array()}};
      for (const auto& r : f.results) {
        if (r.query != name) continue;
        const Finding& x = r.finding;
        qj["findings"].push_back(Json{{"code", x.code},
                                      {"severity", severityName(x.severity)},
                                      {"judge", x.judge},
                                      {"message", x.message},
                                      {"filter", x.filter},
                                      {"nodes", x.nodes},
                                      {"location", siteJson(r.site)},
                                      {"fingerprint", findingFingerprint(r)}});
        ++n;
        errors += x.severity == Severity::Error;
      }
      fj["queries"].push_back(qj);
      ++queries;
    }
    // Findings of no query (an unused suppression comment) belong to the file.
    Json own = Json::array();
    for (const auto& r : f.results) {
      if (std::find(f.queries.begin(), f.queries.end(), r.query) != f.queries.end()) continue;
      own.push_back(Json{{"code", r.finding.code},
                         {"severity", severityName(r.finding.severity)},
                         {"message", r.finding.message},
                         {"location", siteJson(r.site)},
                         {"fingerprint", findingFingerprint(r)}});
      ++n;
      errors += r.finding.severity == Severity::Error;
    }
    fj["findings"] = own;
    fj["suppressed"] = f.suppressed.size();
    doc["files"].push_back(fj);
  }
  size_t suppressed = 0, baselined = 0;
  for (const auto& f : files) suppressed += f.suppressed.size(), baselined += f.baselined;
  doc["summary"] =
      Json{{"files", files.size()}, {"queries", queries},     {"findings", n},
           {"errors", errors},      {"warnings", n - errors}, {"suppressed", suppressed},
           {"baselined", baselined}};
  out << doc.dump(2, ' ', false, nlohmann::detail::error_handler_t::replace) << "\n";
}

void writeLintGitlab(const std::vector<LintFile>& files, std::ostream& out) {
  // GitLab's Code Quality report: one issue per finding; errors are "major"
  // (they change results), warnings "minor" (waste).
  Json issues = Json::array();
  for (const auto& f : files)
    for (const auto& r : f.results)
      issues.push_back(
          Json{{"description", (r.query.empty() ? "" : r.query + ": ") + r.finding.message},
               {"check_name", r.finding.code},
               {"fingerprint", findingFingerprint(r)},
               {"severity", r.finding.severity == Severity::Error ? "major" : "minor"},
               {"location",
                {{"path", relativePath(r.site.file)},
                 {"lines", {{"begin", r.site.loc.line ? r.site.loc.line : 1}}}}}});
  out << issues.dump(2, ' ', false, nlohmann::detail::error_handler_t::replace) << "\n";
}

void writeLintSarif(const std::vector<LintFile>& files, std::ostream& out,
                    const std::string& docsUrl) {
  Json rules = Json::array();
  const auto& codes = findingCodes();
  for (const auto& c : codes) {
    const char* level = c.severity == Severity::Error ? "error" : "warning";
    // The whole help (what is unsafe, the bad example, the fix), which code
    // scanning shows beside the alert; a link only to a published copy.
    const std::string markdown = ruleHelpMarkdown(c.id).value_or(std::string(c.fix));
    Json rule{{"id", c.id},
              {"name", c.id},
              {"shortDescription", {{"text", c.summary}}},
              {"fullDescription", {{"text", c.details}}},
              {"help", {{"text", markdownAsText(markdown)}, {"markdown", markdown}}}};
    if (!docsUrl.empty()) rule["helpUri"] = docsUrl + "findings.md#" + c.id;
    rule["defaultConfiguration"] = {{"level", level}};
    rules.push_back(rule);
  }
  Json results = Json::array();
  for (const auto& f : files)
    for (const auto& r : f.results) {
      size_t index = 0;
      while (index < codes.size() && r.finding.code != codes[index].id) ++index;
      std::string uri = relativeUri(r.site.file);
      Json region{{"startLine", r.site.loc.line ? r.site.loc.line : 1},
                  {"startColumn", r.site.loc.line ? r.site.loc.col : 1}};
      Json loc{
          {"physicalLocation",
           {{"artifactLocation", {{"uri", uri}, {"uriBaseId", "%SRCROOT%"}}}, {"region", region}}},
          {"logicalLocations",
           Json::array(
               {Json{{"name", r.query},
                     {"fullyQualifiedName", r.query + "/RF" + std::to_string(r.finding.filter)},
                     {"kind", "function"}}})}};
      std::string text = r.finding.message;
      text += planNode(r.site);
      results.push_back(
          Json{{"ruleId", r.finding.code},
               {"ruleIndex", index},
               {"level", severityName(r.finding.severity)},
               {"message", {{"text", r.query + ": " + text}}},
               {"locations", Json::array({loc})},
               {"partialFingerprints", {{"rfguardFinding/v2", findingFingerprint(r)}}}});
    }
  // Input errors are the run's notifications: the run did not succeed on them.
  Json notes = Json::array();
  bool ok = true;
  for (const auto& f : files) {
    ok = ok && !f.inputError;
    for (const auto& d : f.errors) {
      Json physical{
          {"artifactLocation", {{"uri", relativeUri(d.file)}, {"uriBaseId", "%SRCROOT%"}}}};
      if (d.loc.line) physical["region"] = {{"startLine", d.loc.line}, {"startColumn", d.loc.col}};
      notes.push_back(Json{{"level", "error"},
                           {"message", {{"text", d.render()}}},
                           {"locations", Json::array({Json{{"physicalLocation", physical}}})}});
    }
  }
  std::error_code ec;
  std::string root = std::filesystem::current_path(ec).generic_string();
  if (root.empty() || root.back() != '/') root += '/';
  Json doc{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       Json::array({Json{
           {"tool", {{"driver", {{"name", "rfguard"}, {"version", kVersion}, {"rules", rules}}}}},
           {"invocations", Json::array({Json{{"executionSuccessful", ok},
                                             {"toolExecutionNotifications", notes}}})},
           {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", "file://" + percentEncoded(root)}}}}},
           {"columnKind", "unicodeCodePoints"},
           {"results", results}}})}};
  if (!docsUrl.empty()) doc["runs"][0]["tool"]["driver"]["informationUri"] = docsUrl;
  out << doc.dump(2, ' ', false, nlohmann::detail::error_handler_t::replace) << "\n";
}

}  // namespace rfguard
