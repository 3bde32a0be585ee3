// Names in DuckDB's printed plans: qualified and quoted names, long text in
// messages, and which columns a join DuckDB trimmed still outputs (read from
// the names the operators above print).
#include <set>
#include <string>
#include <vector>

#include "engines/duckdb/expr_tokens.h"
#include "engines/duckdb/import_state.h"

namespace rfguard::duckdb_import {

std::string lastNamePart(const std::string& qualified) {
  std::string part;
  bool inQuotes = false;
  for (size_t i = 0; i < qualified.size(); ++i) {
    const char c = qualified[i];
    if (c == '"') {
      if (inQuotes && i + 1 < qualified.size() && qualified[i + 1] == '"') {
        part += '"';
        ++i;
      } else {
        inQuotes = !inQuotes;
      }
    } else if (c == '.' && !inQuotes) {
      part.clear();
    } else {
      part += c;
    }
  }
  return part;
}

std::string clipQuoted(const std::string& text) {
  constexpr size_t kShown = 60;  // characters kept at each end
  if (text.size() <= 2 * kShown + 5) return "\"" + text + "\"";
  return "\"" + text.substr(0, kShown) + " ... " + text.substr(text.size() - kShown) + "\"";
}

/// The names an operator's printed expressions use (every word of them: a
/// keyword among them matches no column that matters).
void printedNames(const Json& n, std::set<std::string>& out) {
  auto ei = n.find("extra_info");
  if (ei == n.end() || !ei->is_object()) return;
  static const std::set<std::string> notExpressions = {
      "Table", "Type", "Join Type", "Estimated Cardinality", "Dynamic Filters", "Filters"};
  for (const auto& [key, v] : ei->items()) {
    if (notExpressions.count(key)) continue;
    std::vector<std::string> texts;
    if (v.is_string()) texts.push_back(v.get<std::string>());
    if (v.is_array())
      for (const auto& x : v)
        if (x.is_string()) texts.push_back(x.get<std::string>());
    for (const auto& t : texts) {
      std::vector<Token> toks;
      std::string err;
      if (!tokenize(t, toks, err)) continue;
      for (const auto& k : toks)
        if (k.t == Token::T::Ident || k.t == Token::T::Quoted) out.insert(k.text);
    }
  }
}

const TextExpr* compressedRef(const TextExprPtr& e) {
  if (!e) return nullptr;
  if (e->kind == TextExpr::Kind::Ref) return e.get();
  const bool compress =
      e->kind == TextExpr::Kind::Call && !e->args.empty() &&
      e->args[0]->kind == TextExpr::Kind::Ref &&
      (e->text.rfind("__internal_compress_string", 0) == 0 ||
       (e->text.rfind("__internal_compress_integral", 0) == 0 && e->args.size() == 2));
  return compress ? e->args[0].get() : nullptr;
}

std::vector<const Col*> Importer::trimmedColumns(const std::vector<TextExprPtr>& refs,
                                                 const Cols& child) {
  // The projection is imported after its child: namesAbove holds the names of
  // the operators above it, one set per operator, its parent last.
  if (namesAbove.empty() || refs.empty()) return {};
  std::set<std::string> above;
  for (const auto& level : namesAbove) above.insert(level.begin(), level.end());
  bool unused = false;  // a printed position names a column nothing above uses
  for (const auto& item : refs) {
    const TextExpr* r = compressedRef(item);
    if (!r) return {};
    if (r->index < 0 || static_cast<size_t>(r->index) >= child.size()) return {};
    unused = unused || !above.count(child[r->index].name);
  }
  if (!unused) return {};
  // The names of the nearest operators first: the parent's, then its
  // parent's too, and so on, until the child's columns they name are exactly
  // as many as the projection's items (JOB 28a: the parent names
  // info_type_id, its parent movie_id; an info far above is another table's).
  std::set<std::string> near;
  for (auto level = namesAbove.rbegin(); level != namesAbove.rend(); ++level) {
    near.insert(level->begin(), level->end());
    std::vector<const Col*> used;
    for (const auto& c : child)
      if (near.count(c.name) && !c.id.empty()) used.push_back(&c);
    if (used.size() == refs.size()) return used;
    if (used.size() > refs.size()) return {};
  }
  return {};
}

}  // namespace rfguard::duckdb_import
