#include "engines/plan_document.h"

#include <functional>

#include "ir/printers.h"

namespace rfguard::engine {

std::vector<std::string> textLines(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = 0; at <= text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string l = text.substr(at, end - at);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back(std::move(l));
    at = end + 1;
  }
  return out;
}

bool checkUtf8(const std::string& text, const std::string& file, Diagnostics& diags) {
  for (size_t i = 0, line = 1, col = 1; i < text.size(); ++col) {
    const size_t n = utf8Length(text, i);
    if (n == 0) {
      diags.error(file, {static_cast<int>(line), static_cast<int>(col)},
                  "not valid UTF-8 (a byte of no UTF-8 character)");
      return false;
    }
    if (text[i] == '\n') ++line, col = 0;
    i += n;
  }
  return true;
}

namespace {

std::string trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

}  // namespace

std::vector<std::string> splitTop(const std::string& s, char sep) {
  std::vector<std::string> out;
  int depth = 0;
  bool quoted = false;
  std::string cur;
  for (char ch : s) {
    if (ch == '\'') quoted = !quoted;
    if (!quoted && (ch == '(' || ch == '[')) ++depth;
    if (!quoted && (ch == ')' || ch == ']')) --depth;
    if (!quoted && depth == 0 && ch == sep) {
      if (!trimmed(cur).empty()) out.push_back(trimmed(cur));
      cur.clear();
      continue;
    }
    cur += ch;
  }
  if (!trimmed(cur).empty()) out.push_back(trimmed(cur));
  return out;
}

bool readsOnly(const nlohmann::json& e, const std::set<std::string>& ids) {
  bool any = false, all = true;
  std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& x) {
    if (x.is_object() && x.contains("column") && x["column"].is_string()) {
      any = true;
      all = all && ids.count(x["column"].get<std::string>());
    }
    if (x.is_object() || x.is_array())
      for (const auto& v : x) walk(v);
  };
  walk(e);
  return any && all;
}

void mergeTables(std::map<std::string, TableDef>& all,
                 const std::map<std::string, TableDef>& more) {
  for (const auto& [name, t] : more) {
    TableDef& into = all[name];
    if (into.name.empty()) {
      into = t;
      continue;
    }
    for (const auto& c : t.columns)
      if (into.columnIndex(c.name) < 0) into.columns.push_back(c);
  }
}

nlohmann::json planDocument(const Catalog& schema, const std::map<std::string, TableDef>& used,
                            nlohmann::json queries) {
  Catalog catalog = schema;
  for (const auto& [name, t] : used)
    if (!schema.table(name)) catalog.addTable(t);
  return nlohmann::json{{"format", "rfguard-plan"},
                        {"version", 1},
                        {"catalog", nlohmann::json::parse(catalogToJson(catalog, {}).dump())},
                        {"queries", std::move(queries)}};
}

nlohmann::json unionOfRows(std::vector<nlohmann::json> inputs, const std::function<int()>& nextId) {
  nlohmann::json kids = nlohmann::json::array();
  for (auto& in : inputs)
    kids.push_back({{"id", nextId()},
                    {"op", "project"},
                    {"exprs", nlohmann::json::array()},
                    {"children", nlohmann::json::array({std::move(in)})}});
  return {{"id", nextId()},
          {"op", "union"},
          {"all", true},
          {"columns", nlohmann::json::array()},
          {"children", std::move(kids)}};
}

nlohmann::json opaqueOfInputs(std::vector<nlohmann::json> inputs,
                              const std::function<int()>& nextId) {
  nlohmann::json u = unionOfRows(std::move(inputs), nextId);
  return {{"id", nextId()},
          {"op", "limit"},
          {"unprinted", true},
          {"children", nlohmann::json::array({std::move(u)})}};
}

}  // namespace rfguard::engine
