// StarRocks's expressions. StarRocks (a fork of Doris) prints expressions as
// Doris does, but names every column by its id: `[22: O_CUSTKEY, INT, false]`
// (id, name, type, nullable) in operators' properties, `22: O_CUSTKEY` in scan
// predicates and runtime filters, and a function's call with its signature:
// `substring[([5: C_PHONE, VARCHAR, false], 1, 2); args: VARCHAR,INT,INT;
// result: VARCHAR; ...]`. Each column becomes a name of its own (`#22`) and
// each call a plain one, and Doris's expression reader reads the rest.
#include <cctype>

#include "engines/doris/expr_parse.h"
#include "engines/starrocks/import_state.h"

namespace rfguard::starrocks_import {

namespace {

bool digitsAt(const std::string& s, size_t i, size_t& end) {
  end = i;
  while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
  return end > i && end - i <= 9;
}

/// The index of the bracket closing the one at `open` (`(` or `[`), or npos;
/// quotes are skipped.
size_t closing(const std::string& s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\'') {
      const size_t q = s.find('\'', i + 1);
      if (q == std::string::npos) return q;
      i = q;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if ((c == ')' || c == ']') && --depth == 0) {
      return i;
    }
  }
  return std::string::npos;
}

/// A column reference `[N: NAME, TYPE, nullable]` at `i`: its id, name and
/// type, and where it ends.
bool bracketRef(const std::string& s, size_t i, int& id, std::string& name, std::string& type,
                size_t& end) {
  size_t d = 0;
  if (s[i] != '[' || !digitsAt(s, i + 1, d) || s.compare(d, 2, ": ") != 0) return false;
  const size_t close = closing(s, i);
  if (close == std::string::npos) return false;
  const std::vector<std::string> parts = splitTop(s.substr(d + 2, close - d - 2), ',');
  if (parts.size() != 3) return false;
  id = std::stoi(s.substr(i + 1, d - i - 1));
  name = trim(parts[0]);
  type = trim(parts[1]);
  end = close + 1;
  return true;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// `text` with each column reference `#N` (backquoted) and each call with a
/// signature plain; `ids` gets every id named, with its name.
std::string rewrite(const std::string& s, std::map<int, std::string>& ids) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    int id = 0;
    std::string name, type;
    size_t end = 0;
    if (c == '\'') {  // a string literal, as is
      const size_t q = s.find('\'', i + 1);
      const size_t stop = q == std::string::npos ? s.size() : q + 1;
      out += s.substr(i, stop - i);
      i = stop;
    } else if (c == '[' && bracketRef(s, i, id, name, type, end)) {
      ids[id] = name;
      out += "`#" + std::to_string(id) + "`";
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c)) &&
               (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_' ||
                            s[i - 1] == '.')) &&
               digitsAt(s, i, end) && s.compare(end, 2, ": ") == 0 && end + 2 < s.size() &&
               (std::isalpha(static_cast<unsigned char>(s[end + 2])) || s[end + 2] == '_')) {
      // `22: O_CUSTKEY`
      size_t n = end + 2;
      while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) || s[n] == '_')) ++n;
      id = std::stoi(s.substr(i, end - i));
      ids[id] = s.substr(end + 2, n - end - 2);
      out += "`#" + std::to_string(id) + "`";
      i = n;
    } else if (c == '[' && i + 1 < s.size() && s[i + 1] == '(' && !out.empty() &&
               (std::isalnum(static_cast<unsigned char>(out.back())) || out.back() == '_')) {
      // f[(args); args: ...; result: ...] -> f(args)
      const size_t argsEnd = closing(s, i + 1);
      const size_t close = closing(s, i);
      if (argsEnd == std::string::npos || close == std::string::npos) {
        out += c;
        ++i;
        continue;
      }
      out += "(" + rewrite(s.substr(i + 2, argsEnd - i - 2), ids) + ")";
      i = close + 1;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

}  // namespace

void Importer::learn(const std::string& text) {
  for (size_t i = text.find('['); i != std::string::npos; i = text.find('[', i + 1)) {
    int id = 0;
    std::string name, type;
    size_t end = 0;
    if (!bracketRef(text, i, id, name, type, end)) continue;
    names_[id] = name;
    types_[id] = typeFromStarRocks(type);
  }
}

std::optional<std::string> Importer::column(int id, const std::string& name, Built& in,
                                            std::string& why) {
  if (auto b = in.bound.find(id); b != in.bound.end()) return b->second;
  // The first reference to an id binds it to the output of that name below.
  const std::string want = upper(name);
  for (size_t k = 0; k < in.unbound.size(); ++k)
    if (in.unbound[k].name == want) {
      const std::string col = in.unbound[k].id;
      if (!types_.count(id) && !in.unbound[k].type.empty()) types_[id] = in.unbound[k].type;
      in.bound[id] = col;
      in.unbound.erase(in.unbound.begin() + static_cast<std::ptrdiff_t>(k));
      return col;
    }
  // A scan without a schema outputs whatever the plan reads of it, when it is
  // the only such scan below.
  size_t open = in.unbound.size();
  for (size_t k = 0; k < in.unbound.size(); ++k)
    if (in.unbound[k].name == "*") {
      if (open != in.unbound.size()) {
        why = "column " + std::to_string(id) + " (" + name +
              ") may be of either of two tables without a schema (--schema)";
        return std::nullopt;
      }
      open = k;
    }
  if (open != in.unbound.size()) {
    std::string lowered;
    for (char c : name) lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string col = in.unbound[open].id + "." + lowered;
    auto t = types_.find(id);
    openColumns_[in.unbound[open].id][lowered] = t == types_.end() ? "" : t->second;
    in.bound[id] = col;
    return col;
  }
  why = "column " + std::to_string(id) + " (" + name + ") is output by no operator below";
  return std::nullopt;
}

std::optional<Json> Importer::expr(const std::string& text, Built& in, std::string& why) {
  learn(text);
  std::map<int, std::string> ids;
  const std::string plain = rewrite(text, ids);
  // Bind every column the expression names before reading it.
  std::map<std::string, doris_import::ResolvedColumn> cols;
  for (const auto& [id, name] : ids) {
    auto c = column(id, name, in, why);
    if (!c) return std::nullopt;
    auto t = types_.find(id);
    cols["#" + std::to_string(id)] = {*c, t == types_.end() ? "unknown" : t->second};
  }
  doris_import::Resolver resolve =
      [&cols](const std::string& n, std::string& w) -> std::optional<doris_import::ResolvedColumn> {
    if (auto c = cols.find(n); c != cols.end()) return c->second;
    w = "\"" + n + "\" names no column (StarRocks names columns by id)";
    return std::nullopt;
  };
  return doris_import::parseDorisExpr(plain, resolve, why);
}

std::string typeFromStarRocks(const std::string& t) {
  std::string u = upper(trim(t));
  if (u.rfind("DECIMAL", 0) == 0) {
    // DECIMAL64(15, 2), DECIMALV2(10, 0)
    const size_t open = u.find('(');
    if (open == std::string::npos) return "decimal(38,9)";
    std::string args;
    for (char c : u.substr(open)) args += c == ' ' ? std::string() : std::string(1, c);
    return "decimal" + std::string(args.begin(), args.end());
  }
  const std::string mapped = doris_import::typeFromDoris(u);
  return mapped.empty() ? "unknown" : mapped;
}

}  // namespace rfguard::starrocks_import
