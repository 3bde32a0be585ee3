#include "tools/cli/lint_config.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "engines/adapter.h"
#include "grammar/suggest.h"
#include "rules/rf_profiles.h"
#include "verifier/findings.h"

namespace rfguard {

namespace {

std::string at(const std::string& path, const toml::source_region& where) {
  return path + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column) +
         ": error: ";
}

std::vector<std::string> codeNames() {
  std::vector<std::string> names;
  for (const auto& c : findingCodes()) names.push_back(c.id);
  return names;
}

std::vector<std::string> profileNames() {
  std::vector<std::string> names;
  for (const auto& p : allProfileInfos()) names.push_back(p.name);
  return names;
}

}  // namespace

std::string findLintConfig() {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::path dir = fs::current_path(ec); !ec && !dir.empty(); dir = dir.parent_path()) {
    fs::path candidate = dir / ".rfguard.toml";
    std::error_code missing;  // a directory without one: keep walking up
    if (fs::is_regular_file(candidate, missing)) return candidate.string();
    if (dir == dir.parent_path()) break;
  }
  return "";
}

bool readLintConfig(const std::string& path, LintConfig& out, std::string& error) {
  toml::table doc;
  errno = 0;
  if (!std::ifstream(path))  // toml++ would say "0:0" for a file it cannot open
    return error = path + ": error: cannot open: " + (errno ? std::strerror(errno) : "unreadable"),
           false;
  try {
    doc = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    error = at(path, e.source()) + std::string(e.description());
    return false;
  }
  out.path = path;
  auto text = [&](const toml::node& n, const std::string& key, std::string& v) {
    if (auto s = n.value<std::string>()) return v = *s, true;
    error = at(path, n.source()) + "`" + key + "` must be a string";
    return false;
  };
  auto list = [&](const toml::node& n, const std::string& key, std::vector<std::string>& v) {
    const toml::array* a = n.as_array();
    if (!a)
      return error = at(path, n.source()) + "`" + key + "` must be an array of strings", false;
    for (const auto& e : *a) {
      std::string s;
      if (!text(e, key, s)) return false;
      v.push_back(s);
    }
    return true;
  };
  for (const auto& [k, node] : doc) {
    const std::string key(k.str());
    std::string s;
    if (key == "profile") {
      if (!text(node, key, s)) return false;
      if (!parseProfile(s))
        return error = at(path, node.source()) + "unknown profile \"" + s + "\"" +
                       didYouMean(s, profileNames()),
               false;
      out.profile = s;
    } else if (key == "fail-on") {
      if (!text(node, key, s)) return false;
      if (s != "error" && s != "warning" && s != "never")
        return error = at(path, node.source()) + "fail-on must be error, warning or never", false;
      out.failOn = s;
    } else if (key == "from") {
      if (!text(node, key, s)) return false;
      std::vector<std::string> froms{"auto", "sql", "json"};
      for (const engine::Adapter* a : engine::adapters()) froms.push_back(a->name());
      if (std::find(froms.begin(), froms.end(), s) == froms.end()) {
        std::string all;
        for (const auto& f : froms) all += (all.empty() ? "" : ", ") + f;
        return error =
                   at(path, node.source()) + "from must be one of " + all + didYouMean(s, froms),
               false;
      }
      out.from = s;
    } else if (key == "schema") {
      if (!text(node, key, s)) return false;
      // Relative to the configuration file, as the paths are.
      out.schema = (std::filesystem::path(path).parent_path() / s).lexically_normal().string();
    } else if (key == "docs-url") {
      if (!text(node, key, s)) return false;
      out.docsUrl = s;
    } else if (key == "composite" || key == "quiet") {
      auto b = node.value<bool>();
      if (!b) return error = at(path, node.source()) + "`" + key + "` must be true or false", false;
      (key == "composite" ? out.composite : out.quiet) = *b;
    } else if (key == "paths" || key == "exclude") {
      std::vector<std::string> v;
      if (!list(node, key, v)) return false;
      if (key == "exclude") {
        out.exclude = v;
      } else {
        for (auto& p : v)
          p = (std::filesystem::path(path).parent_path() / p).lexically_normal().string();
        out.paths = v;
      }
    } else if (key == "codes") {
      const toml::table* codes = node.as_table();
      if (!codes) return error = at(path, node.source()) + "`codes` must be a table", false;
      for (const auto& [ck, cn] : *codes) {
        const std::string ckey(ck.str());
        if (ckey == "disable") {
          std::vector<std::string> v;
          if (!list(cn, "codes.disable", v)) return false;
          for (const auto& c : v) {
            if (!isFindingCode(c))
              return error = at(path, cn.source()) + "no finding code \"" + c + "\"" +
                             didYouMean(c, codeNames()),
                     false;
            out.disabled.insert(c);
          }
        } else if (ckey == "levels") {
          const toml::table* levels = cn.as_table();
          if (!levels)
            return error = at(path, cn.source()) + "`codes.levels` must be a table", false;
          for (const auto& [lk, ln] : *levels) {
            const std::string code(lk.str());
            if (!isFindingCode(code))
              return error = at(path, ln.source()) + "no finding code \"" + code + "\"" +
                             didYouMean(code, codeNames()),
                     false;
            if (!text(ln, "codes.levels." + code, s)) return false;
            if (s != "error" && s != "warning")
              return error = at(path, ln.source()) + "a level is error or warning", false;
            out.levels[code] = s == "error" ? Severity::Error : Severity::Warning;
          }
        } else {
          return error = at(path, cn.source()) + "unknown key `codes." + ckey + "`" +
                         didYouMean(ckey, {"disable", "levels"}) + " (disable, levels)",
                 false;
        }
      }
    } else {
      const std::vector<std::string> keys{"profile", "fail-on", "from",    "schema",   "composite",
                                          "quiet",   "paths",   "exclude", "docs-url", "codes"};
      return error = at(path, node.source()) + "unknown key `" + key + "`" + didYouMean(key, keys) +
                     " (profile, fail-on, from, schema, composite, quiet, paths, exclude, "
                     "docs-url, codes)",
             false;
    }
  }
  return true;
}

}  // namespace rfguard
