#include "engines/scan_below.h"

#include <functional>
#include <map>
#include <optional>

namespace rfguard::engine {

namespace {

using Json = nlohmann::json;

/// `e` with each column replaced by its definition in `defs`; nothing when a
/// column has none or `e` holds a subquery.
std::optional<Json> substitute(const Json& e, const std::map<std::string, const Json*>& defs) {
  if (e.is_object()) {
    if (e.contains("subquery")) return std::nullopt;
    if (e.contains("column")) {
      if (!e["column"].is_string()) return std::nullopt;
      auto d = defs.find(e["column"].get<std::string>());
      if (d == defs.end()) return std::nullopt;
      return *d->second;
    }
    Json out = Json::object();
    for (auto it = e.begin(); it != e.end(); ++it) {
      auto v = substitute(it.value(), defs);
      if (!v) return std::nullopt;
      out[it.key()] = std::move(*v);
    }
    return out;
  }
  if (e.is_array()) {
    Json out = Json::array();
    for (const auto& x : e) {
      auto v = substitute(x, defs);
      if (!v) return std::nullopt;
      out.push_back(std::move(*v));
    }
    return out;
  }
  return e;
}

/// True when `e` reads columns and each one's id starts with `prefix`.
bool readsOnlyPrefixed(const Json& e, const std::string& prefix) {
  bool any = false, all = true;
  std::function<void(const Json&)> walk = [&](const Json& x) {
    if (x.is_object() && x.contains("column")) {
      any = true;
      all = all && x["column"].is_string() && x["column"].get<std::string>().rfind(prefix, 0) == 0;
    }
    if (x.is_object() || x.is_array())
      for (const auto& v : x) walk(v);
  };
  walk(e);
  return any && all;
}

}  // namespace

ScanBelow scanBelow(Json& node, const Json& expr) {
  ScanBelow out;
  Json* at = &node;
  Json e = expr;
  for (int depth = 0; depth < 100000; ++depth) {
    const Json& op = (*at)["op"];
    Json& kids = (*at)["children"];
    if (op == "scan") {
      // A target may read any of the table's columns, listed or not.
      if (!readsOnlyPrefixed(e, (*at)["alias"].get<std::string>() + ".")) return {};
      out.scan = at;
      out.target = std::move(e);
      return out;
    }
    if (!kids.is_array() || kids.size() != 1) return {};
    std::map<std::string, const Json*> defs;
    if (op == "project") {
      for (const auto& x : (*at)["exprs"]) defs[x["name"].get<std::string>()] = &x["expr"];
    } else if (op == "aggregate" && !at->contains("grouping_sets")) {
      for (const auto& k : (*at)["keys"]) defs[k["name"].get<std::string>()] = &k["expr"];
      out.throughKeys = true;
    } else if (op != "filter") {
      return {};
    }
    if (op != "filter") {
      auto s = substitute(e, defs);
      if (!s) return {};
      e = std::move(*s);
    }
    at = &kids[0];
  }
  return {};
}

}  // namespace rfguard::engine
