#include "tools/cli/lint_policy.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "grammar/suggest.h"

namespace rfguard {

namespace {

bool isSql(const std::string& file, const std::map<std::string, std::string>& sources) {
  return sources.count(file) || (file.size() > 4 && file.compare(file.size() - 4, 4, ".sql") == 0);
}

std::vector<std::string> codeIds() {
  std::vector<std::string> ids;
  for (const auto& c : findingCodes()) ids.push_back(c.id);
  return ids;
}

LintResult unused(const std::string& file, SourceLoc loc, const std::string& pointer,
                  const std::string& code) {
  LintResult r;
  r.finding = makeFinding(
      "unused-suppression",
      isFindingCode(code) ? "the suppression of `" + code + "` suppresses nothing"
                          : "`" + code + "` names no finding code" + didYouMean(code, codeIds()),
      0, {}, loc);
  r.site.file = file;
  r.site.loc = loc;
  if (!pointer.empty()) {
    r.site.planFile = file;
    r.site.pointer = pointer;
  }
  return r;
}

}  // namespace

void applyLintPolicy(std::vector<LintFile>& files, const LintPolicy& policy,
                     const std::map<std::string, std::string>& sources,
                     const std::map<std::string, QuerySuppress>& querySuppress) {
  std::map<std::string, std::string> cache;
  std::map<std::string, std::vector<Directive>> directives;  // by SQL file
  std::map<std::string, size_t> owner;  // SQL file -> the LintFile reporting it
  auto load = [&](const std::string& file, size_t index) {
    if (directives.count(file) || !isSql(file, sources)) return;
    directives[file] = parseDirectives(file, sourceText(file, sources, cache));
    owner[file] = index;
  };
  for (size_t i = 0; i < files.size(); ++i) {
    load(files[i].path, i);
    for (const auto& r : files[i].results)
      if (r.site.loc.line) load(r.site.file, i);
  }
  std::map<std::string, std::set<std::string>> usedByQuery;  // plan JSON suppress, by key
  for (auto& f : files) {
    std::vector<LintResult> kept;
    for (auto& r : f.results) {
      bool hit = false;
      if (auto q = querySuppress.find(f.path + "\n" + r.query); q != querySuppress.end())
        for (const auto& c : q->second.codes)
          if (c == r.finding.code) hit = true, usedByQuery[q->first].insert(c);
      if (r.site.loc.line)
        if (auto d = directives.find(r.site.file); d != directives.end())
          for (auto& dir : d->second)
            if (dir.malformed.empty() && dir.covers(r.site.loc.line))
              for (size_t k = 0; k < dir.codes.size(); ++k)
                if (dir.codes[k] == r.finding.code) hit = true, dir.used[k] = true;
      (hit ? f.suppressed : kept).push_back(std::move(r));
    }
    f.results = std::move(kept);
  }
  // Suppressions that suppressed nothing are reported where they are written.
  for (const auto& [file, list] : directives)
    for (const auto& d : list) {
      if (!d.malformed.empty()) {
        LintResult r = unused(file, {d.line, 1}, "", "");
        r.finding.message = "a malformed suppression: " + d.malformed;
        files[owner[file]].results.push_back(std::move(r));
      }
      for (size_t k = 0; k < d.codes.size(); ++k)
        if (!d.used[k])
          files[owner[file]].results.push_back(unused(file, {d.line, 1}, "", d.codes[k]));
    }
  for (auto& f : files)
    for (const auto& [key, qs] : querySuppress) {
      if (key.compare(0, f.path.size() + 1, f.path + "\n") != 0) continue;
      for (const auto& c : qs.codes)
        if (!usedByQuery[key].count(c)) {
          LintResult r = unused(f.path, {}, qs.pointer, c);
          r.query = key.substr(f.path.size() + 1);
          f.results.push_back(std::move(r));
        }
    }
  assignFingerprints(files);
  // A baseline entry absorbs one finding: a new finding like a baselined one
  // is reported however similar it is.
  std::map<std::string, size_t> baseline = policy.baseline;
  for (auto& f : files) {
    std::vector<LintResult> kept;
    for (auto& r : f.results) {
      if (policy.disabled.count(r.finding.code)) continue;
      if (auto l = policy.levels.find(r.finding.code); l != policy.levels.end())
        r.finding.severity = l->second;
      auto b = baseline.find(policy.legacyBaseline ? legacyFingerprint(r) : r.fingerprint);
      if (b != baseline.end() && b->second > 0) {
        --b->second;
        ++f.baselined;
        continue;
      }
      if (policy.quiet && r.finding.severity != Severity::Error) continue;
      kept.push_back(std::move(r));
    }
    f.results = std::move(kept);
  }
}

int lintExitCode(const std::vector<LintFile>& files, const LintPolicy& policy, bool inputError) {
  if (inputError) return kExitInputError;
  if (policy.failOn == "never") return kExitOk;
  for (const auto& f : files)
    for (const auto& r : f.results)
      if (policy.failOn == "warning" || r.finding.severity == Severity::Error) return kExitFindings;
  return kExitOk;
}

std::string baselineJson(const std::vector<LintFile>& files) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& f : files)
    for (const auto& r : f.results)
      list.push_back({{"fingerprint", findingFingerprint(r)},
                      {"code", r.finding.code},
                      {"file", r.site.file},
                      {"query", r.query}});
  nlohmann::ordered_json doc{{"format", "rfguard-baseline"}, {"version", 2}, {"findings", list}};
  return doc.dump(2) + "\n";
}

bool readBaseline(const std::string& path, LintPolicy& policy, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error = path + ": error: cannot open the baseline", false;
  std::stringstream buf;
  buf << in.rdbuf();
  nlohmann::json doc = nlohmann::json::parse(buf.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("format", "") != "rfguard-baseline")
    return error = path +
                   ": error at /format: not an rfguard baseline (rfguard lint "
                   "--write-baseline writes one)",
           false;
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || version->get<int64_t>() < 1 ||
      version->get<int64_t>() > 2)
    return error = path + ": error at /version: expected 1 or 2 (this rfguard writes 2)", false;
  // Version 1 fingerprints were the message's shape: still read, and counted.
  policy.legacyBaseline = version->get<int64_t>() == 1;
  if (!doc.contains("findings") || !doc["findings"].is_array())
    return error = path + ": error at /findings: expected an array", false;
  for (size_t i = 0; i < doc["findings"].size(); ++i) {
    const auto& f = doc["findings"][i];
    if (!f.is_object() || !f.contains("fingerprint") || !f["fingerprint"].is_string())
      return error = path + ": error at /findings/" + std::to_string(i) +
                     "/fingerprint: expected a string",
             false;
    ++policy.baseline[f["fingerprint"].get<std::string>()];
  }
  return true;
}

}  // namespace rfguard
