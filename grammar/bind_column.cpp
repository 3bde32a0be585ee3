// Resolution of a column name against the FROM clause's relations, the
// enclosing blocks' for correlated references, with "did you mean" errors.
#include "grammar/binder.h"
#include "grammar/suggest.h"

namespace rfguard {

ExprPtr Binder::resolveColumn(const std::string* qualifier, const std::string& name, SourceLoc loc,
                              const Scope& scope) {
  for (const Scope* s = &scope; s; s = s->outer) {
    if (!qualifier) {
      auto m = s->merged.find(name);
      if (m != s->merged.end()) return m->second;
    }
    const RelColumn* match = nullptr;
    size_t matches = 0;
    bool aliasFound = false;
    for (const auto& rel : s->rels) {
      if (qualifier && rel.alias != *qualifier) continue;
      aliasFound = true;
      for (const auto& col : rel.columns)
        if (col.name == name) match = matches++ ? match : &col;
    }
    if (matches == 1) return makeColumn(match->id, match->type, match->nullable, loc);
    if (matches > 1) {
      std::string ids;
      for (const auto& rel : s->rels)
        if (!qualifier || rel.alias == *qualifier)
          for (const auto& col : rel.columns)
            if (col.name == name) ids += (ids.empty() ? "" : ", ") + col.id.str();
      error(loc, "column reference \"" + name + "\" is ambiguous (" + ids + ")");
      return makeNull({}, loc);
    }
    if (qualifier && aliasFound) {
      std::vector<std::string> columns;
      for (const auto& rel : s->rels)
        if (rel.alias == *qualifier)
          for (const auto& col : rel.columns) columns.push_back(col.name);
      error(loc, "relation \"" + *qualifier + "\" has no column \"" + name + "\"" +
                     didYouMean(name, columns));
      return makeNull({}, loc);
    }
  }
  // What was in scope, nearest block first, for a "did you mean".
  std::vector<std::string> names;
  for (const Scope* s = &scope; s; s = s->outer)
    for (const auto& rel : s->rels) {
      if (qualifier) {
        names.push_back(rel.alias);
        continue;
      }
      for (const auto& col : rel.columns) names.push_back(col.name);
    }
  if (qualifier)
    error(loc, "unknown table or alias \"" + *qualifier + "\" in \"" + *qualifier + "." + name +
                   "\"" + didYouMean(*qualifier, names));
  else
    error(loc, "unknown column \"" + name + "\"" + didYouMean(name, names));
  return makeNull({}, loc);
}

}  // namespace rfguard
