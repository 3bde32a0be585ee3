// Mark joins of a shape plan: a join with `markCondition=(...)` returns every
// probe row with a mark, `$c$N`, that a filter above reads (`filter(($c$1 OR
// (s_nationkey = 1)))` for `EXISTS (...) OR s_nationkey = 1`). Doris's probe
// (be/src/pipeline/exec/join/process_hash_table_probe_impl.h,
// do_mark_join_conjuncts) makes the mark TRUE when a build row matches, and
// for a NULL-aware join NULL when none does but the build side holds a NULL
// key (or the probe key is NULL), as `x IN (...)` is; an anti join's mark is
// the negation. rfguard has no mark join; it is the same as a projection of
// the probe's rows with the mark as a subquery over the build input:
// EXISTS (build rows meeting the conditions), or `x IN (build keys)`.
#include <algorithm>

#include "engines/doris/import_state.h"

namespace rfguard::doris_import {

namespace {

/// The number in a mark's name (`$c$12` -> 12), -1 when it is none.
int markNumber(const std::string& name) {
  if (name.rfind("$c$", 0) != 0 || name.size() == 3 || name.size() > 12) return -1;
  const std::string digits = name.substr(3);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stoi(digits);
}

}  // namespace

bool Importer::isMarkJoin(const ShapeNode& n) {
  const std::string head = headOf(n.text);
  return (head == "hashJoin" || head == "NestedLoopJoin") &&
         n.text.find(" markCondition=(") != std::string::npos;
}

int Importer::markJoinsBelow(const ShapeNode& n) {
  int k = isMarkJoin(n) ? 1 : 0;
  for (const auto& c : n.children) k += markJoinsBelow(*c);
  return k;
}

std::optional<Importer::Built> Importer::markJoin(const ShapeNode& n, std::vector<Built>& kids,
                                                  const std::set<std::string>& names) {
  const int id = newId(n);
  // The filters built here: a mark join keeps every probe row, so none of
  // them may filter it; Doris builds none (left out, and said, if it did).
  for (auto& [rf, s] : rfs_)
    if (s.join == &n) {
      loss(n, "RF" + std::to_string(rf) + " " + s.src +
                  " is built at a mark join, which keeps every probe row: left out");
      consumed_.insert(rf);
      dropTargets(rf);
    }
  // The mark the operators above read: marks are numbered as Doris makes the
  // joins, the innermost first (an assumption where several are read).
  std::vector<std::pair<int, std::string>> marks;
  for (const auto& name : names)
    if (int k = markNumber(name); k >= 0) marks.emplace_back(k, name);
  std::sort(marks.begin(), marks.end());
  const size_t inner = static_cast<size_t>(markJoinsBelow(*n.children[0]));
  Built out;
  out.cols = kids[0].cols;
  out.same = kids[0].same;
  if (marks.size() <= inner) {
    // Nothing above reads this join's mark: its rows are the probe's, all of them.
    loss(n,
         "a mark join (markCondition) whose mark no operator above reads: imported as its "
         "probe's rows, all of them, without its build input");
    out.node = std::move(kids[0].node);
    return out;
  }
  const std::string mark = marks[inner].second;
  if (marks.size() > 1)
    loss(n, "the mark join's mark is taken to be " + mark +
                ": the shape does not say which mark each mark join makes (taken from the "
                "innermost, in Doris's numbering)");
  // Its conditions, over the probe's and the build input's columns.
  std::vector<Col> both = kids[0].cols;
  both.insert(both.end(), kids[1].cols.begin(), kids[1].cols.end());
  const Resolver resolve = over(both);
  std::map<std::string, std::vector<Json>> parts;  // condition -> its conjuncts
  std::string why;
  for (const char* key : {"hashCondition=", "otherCondition=", "markCondition="}) {
    const size_t at = n.text.find(key);
    if (at == std::string::npos || !why.empty()) continue;
    size_t end = 0;
    const std::string text = balanced(n.text, at + std::string(key).size(), end);
    if (trim(text).empty()) continue;
    std::string w;
    auto e = parseDorisExpr(text, resolve, w);
    if (!e) {
      why = "cannot read \"" + clip(text) + "\" (" + w + ")";
      continue;
    }
    appendConjuncts(*e, parts[key]);
  }
  const bool nullAware = n.text.find("[NULL_AWARE_LEFT_") != std::string::npos;
  const bool anti = n.text.find("_ANTI_JOIN") != std::string::npos;
  const bool left = n.text.find("[LEFT_") != std::string::npos || nullAware;
  std::set<std::string> probeIds, buildIds;
  for (const auto& c : kids[0].cols) probeIds.insert(c.id);
  for (const auto& c : kids[1].cols) buildIds.insert(c.id);
  std::optional<Json> markExpr;
  if (why.empty() && !left) why = "a right semi or anti mark join";
  if (why.empty() && !nullAware) {
    // EXISTS: a build row that meets every condition.
    std::vector<Json> all;  // the mark condition repeats the hash condition: once each
    for (const auto& [key, xs] : parts)
      for (const auto& x : xs)
        if (std::find(all.begin(), all.end(), x) == all.end()) all.push_back(x);
    Json sub = kids[1].node;
    if (!all.empty())
      sub =
          Json{{"id", newId(n)}, {"op", "filter"}, {"predicate", andOf(all)}, {"children", {sub}}};
    markExpr = Json{{"subquery", "exists"}, {"plan", sub}};
  } else if (why.empty()) {
    // `x IN (build keys meeting the other conditions)`: one equality of a
    // probe expression with a build expression decides the match.
    const auto& keys =
        parts.count("markCondition=") ? parts["markCondition="] : parts["hashCondition="];
    std::optional<Json> x, y;
    for (const auto& eq : keys)
      if (!x && equalityCall(eq))
        for (int side = 0; side < 2 && !x; ++side)
          if (columnsWithin(eq["args"][side], probeIds) &&
              columnsWithin(eq["args"][1 - side], buildIds))
            x = eq["args"][side], y = eq["args"][1 - side];
    if (!x || keys.size() != 1) {
      why =
          "a NULL-aware mark join whose mark is not one equality of a probe and a build expression";
    } else {
      Json sub = kids[1].node;
      if (parts.count("otherCondition="))
        sub = Json{{"id", newId(n)},
                   {"op", "filter"},
                   {"predicate", andOf(parts["otherCondition="])},
                   {"children", {sub}}};
      sub = Json{{"id", newId(n)},
                 {"op", "project"},
                 {"exprs", {{{"name", "m" + std::to_string(id) + ".key"}, {"expr", *y}}}},
                 {"children", {sub}}};
      markExpr = Json{{"subquery", "in"}, {"arg", *x}, {"plan", sub}};
    }
  }
  if (!markExpr) {
    // Kept as the probe's rows, some of which the filter above may cut.
    loss(n, "a mark join (markCondition) whose mark rfguard cannot write (" + why +
                "): imported as an operator that may cut any of the probe's rows, without its "
                "build input and the filters built there");
    for (auto& [rf, s] : rfs_)
      if (holds(*n.children[1], s.join)) consumed_.insert(rf), dropTargets(rf);
    out.node = Json{
        {"id", id}, {"op", "limit"}, {"unprinted", true}, {"children", {std::move(kids[0].node)}}};
    return out;
  }
  if (anti) markExpr = Json{{"call", "not"}, {"args", {*markExpr}}};
  Json exprs = Json::array();
  for (const auto& c : kids[0].cols)
    exprs.push_back({{"name", c.id}, {"expr", {{"column", c.id}}}});
  const std::string markId = "m" + std::to_string(id) + "_mark";
  exprs.push_back({{"name", markId}, {"expr", *markExpr}});
  out.cols.push_back({markId, mark, "", "boolean"});
  out.node = Json{
      {"id", id}, {"op", "project"}, {"exprs", exprs}, {"children", {std::move(kids[0].node)}}};
  loss(n, std::string("a mark join (markCondition): imported as its probe's rows with the mark ") +
              mark + " as " + (anti ? "NOT " : "") + (nullAware ? "`x IN (...)`" : "EXISTS (...)") +
              " over its build input, a subquery");
  return out;
}

}  // namespace rfguard::doris_import
