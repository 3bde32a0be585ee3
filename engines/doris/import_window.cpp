// A PhysicalWindow of a shape plan: the shape prints no window functions, but
// the operators above print the ones they read (`filter((l_quantity < (0.2 *
// avg(l_quantity) OVER(PARTITION BY p_partkey))))`, TPC-H q17): the window
// computes those, over its input.
#include <cctype>

#include "engines/doris/import_state.h"

namespace rfguard::doris_import {

namespace {

std::string lowered(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// `text` split at its commas outside parentheses and quotes, each part trimmed.
std::vector<std::string> topLevel(const std::string& text) {
  std::vector<std::string> out;
  std::string part;
  int depth = 0;
  bool quoted = false;
  for (char c : text) {
    if (c == '\'') quoted = !quoted;
    if (!quoted && c == '(') ++depth;
    if (!quoted && c == ')') --depth;
    if (!quoted && depth == 0 && c == ',') {
      out.push_back(trim(part));
      part.clear();
      continue;
    }
    part += c;
  }
  if (!trim(part).empty()) out.push_back(trim(part));
  return out;
}

/// `text` without its last word `w` (case-insensitive), when it ends with it.
bool dropLastWord(std::string& text, const std::string& w) {
  const std::string low = lowered(text);
  if (low.size() <= w.size() || low.compare(low.size() - w.size(), w.size(), w) != 0 ||
      low[low.size() - w.size() - 1] != ' ')
    return false;
  text = trim(text.substr(0, text.size() - w.size()));
  return true;
}

/// One end of a frame as Doris prints it (`UNBOUNDED PRECEDING`, `2
/// PRECEDING`, `CURRENT ROW`, `3 FOLLOWING`), as plan JSON; nullopt when it is none.
std::optional<Json> frameBound(const std::string& text) {
  const std::string low = lowered(trim(text));
  if (low == "unbounded preceding") return Json{{"bound", "unbounded_preceding"}};
  if (low == "unbounded following") return Json{{"bound", "unbounded_following"}};
  if (low == "current row") return Json{{"bound", "current_row"}};
  for (const char* dir : {" preceding", " following"}) {
    const size_t at = low.find(dir);
    if (at == std::string::npos || at + std::string(dir).size() != low.size()) continue;
    auto offset = parseFrameOffset(low.substr(0, at));
    if (!offset) return std::nullopt;
    return Json{{"bound", std::string(dir).substr(1)}, {"offset", *offset}};
  }
  return std::nullopt;
}

/// The frame at the end of an OVER clause (`ROWS BETWEEN 2 PRECEDING AND
/// CURRENT ROW`, `RANGE UNBOUNDED PRECEDING`), taken off `order`; nullopt
/// when there is none; `bad` when there is one rfguard cannot read.
std::optional<Json> takeFrame(std::string& order, bool& bad) {
  const std::string low = lowered(order);
  size_t at = std::string::npos;
  std::string unit;
  for (const char* u : {"rows", "range"}) {
    const std::string w = std::string(" ") + u + " ";
    if (const size_t k = low.rfind(w);
        k != std::string::npos && (at == std::string::npos || k > at))
      at = k, unit = u;
  }
  if (at == std::string::npos) return std::nullopt;
  const std::string spec = trim(order.substr(at + unit.size() + 2));
  order = trim(order.substr(0, at));
  const std::string lowSpec = lowered(spec);
  std::optional<Json> start, end;
  if (lowSpec.rfind("between ", 0) == 0) {
    const size_t andAt = lowSpec.find(" and ");
    if (andAt != std::string::npos) {
      start = frameBound(spec.substr(8, andAt - 8));
      end = frameBound(spec.substr(andAt + 5));
    }
  } else {
    start = frameBound(spec);
    end = Json{{"bound", "current_row"}};
  }
  if (!start || !end) return bad = true, std::nullopt;
  // What PostgreSQL (and rfguard's reader) accepts: no start after the end by
  // kind, no unbounded end on the wrong side, RANGE offsets not read here.
  auto rank = [](const Json& b) {
    const std::string k = b["bound"];
    return k == "unbounded_preceding" ? 0
           : k == "preceding"         ? 1
           : k == "current_row"       ? 2
           : k == "following"         ? 3
                                      : 4;
  };
  const int a = rank(*start), z = rank(*end);
  if (a == 4 || z == 0 || a > z ||
      (unit == "range" && (start->contains("offset") || end->contains("offset"))))
    return bad = true, std::nullopt;
  return Json{{"unit", unit}, {"start", *start}, {"end", *end}};
}

}  // namespace

std::optional<Importer::Built> Importer::window(const ShapeNode& n, const Built& child,
                                                const std::set<std::string>& used) {
  // Each window function an operator above reads: `f(args) OVER(PARTITION BY
  // p, ... ORDER BY o [ASC|DESC] [NULLS FIRST|LAST], ... [ROWS|RANGE frame])`.
  // A frame rfguard cannot read, a function it does not know or a name the
  // input does not have, and the window stays an operator that may cut any
  // rows (the caller's loss).
  static const std::set<std::string> kKnown = {"sum",   "avg",  "min",        "max",
                                               "count", "rank", "dense_rank", "row_number"};
  static const std::set<std::string> kRanking = {"rank", "dense_rank", "row_number"};
  const Resolver resolve = over(child.cols, &child.same);
  Json windows = Json::array();
  std::vector<std::string> read;  // the marked name of each window function
  for (const auto& u : used) {
    if (u.rfind(kWindowMark, 0) != 0) continue;
    const std::string call = u.substr(kWindowMark.size());
    const size_t open = call.find('(');
    if (open == std::string::npos) return std::nullopt;
    size_t end = 0;
    balanced(call, open, end);
    if (end == std::string::npos) return std::nullopt;
    const std::string func = lowered(trim(call.substr(0, open)));
    const std::string args = call.substr(open + 1, end - open - 1);
    const size_t overAt = lowered(call).find("over", end);
    const size_t clauseOpen = call.find('(', overAt);
    size_t clauseEnd = 0;
    if (overAt == std::string::npos || clauseOpen == std::string::npos) return std::nullopt;
    balanced(call, clauseOpen, clauseEnd);
    if (clauseEnd == std::string::npos || !kKnown.count(func)) return std::nullopt;
    std::string clause = trim(call.substr(clauseOpen + 1, clauseEnd - clauseOpen - 1));
    std::string partition, order;
    const std::string low = lowered(clause);
    const size_t orderAt = low.find("order by");
    if (low.rfind("rows ", 0) == 0 || low.rfind("range ", 0) == 0)
      return std::nullopt;  // a frame without ORDER BY: not read
    if (low.rfind("partition by", 0) == 0)
      partition =
          clause.substr(12, orderAt == std::string::npos ? std::string::npos : orderAt - 12);
    else if (!low.empty() && orderAt != 0)
      return std::nullopt;
    if (orderAt != std::string::npos) order = clause.substr(orderAt + 8);
    // A frame follows the ORDER BY list (PostgreSQL's rules then say whether
    // it is valid for that order; the reader refuses one that is not).
    bool badFrame = false;
    std::optional<Json> frame = takeFrame(order, badFrame);
    if (badFrame || (frame && kRanking.count(func))) return std::nullopt;
    Json w = {{"func", func},
              {"args", Json::array()},
              {"partition_by", Json::array()},
              {"order_by", Json::array()}};
    std::string why;
    if (!(func == "count" && trim(args) == "*"))
      for (const auto& a : topLevel(args)) {
        auto e = parseDorisExpr(a, resolve, why);
        if (!e) return std::nullopt;
        w["args"].push_back(*e);
      }
    for (const auto& p : topLevel(partition)) {
      auto e = parseDorisExpr(p, resolve, why);
      if (!e) return std::nullopt;
      w["partition_by"].push_back(*e);
    }
    for (std::string o : topLevel(order)) {
      // Doris orders NULLs first ascending, last descending, unless told.
      std::optional<bool> nullsFirst;
      if (dropLastWord(o, "nulls first")) nullsFirst = true;
      if (!nullsFirst && dropLastWord(o, "nulls last")) nullsFirst = false;
      bool ascending = true;
      if (dropLastWord(o, "desc")) ascending = false;
      if (ascending) dropLastWord(o, "asc");
      auto e = parseDorisExpr(o, resolve, why);
      if (!e) return std::nullopt;
      w["order_by"].push_back({{"expr", *e},
                               {"ascending", ascending},
                               {"nulls_first", nullsFirst.value_or(ascending)}});
    }
    if (frame) w["frame"] = *frame;
    read.push_back(u);
    windows.push_back(std::move(w));
  }
  if (windows.empty()) return std::nullopt;
  Built out;
  out.cols = child.cols;
  out.same = child.same;
  const int id = newId(n);
  for (size_t i = 0; i < windows.size(); ++i) {
    const std::string name = "w" + std::to_string(id) + "." + std::to_string(i);
    windows[i]["name"] = name;
    out.cols.push_back({name, read[i], "", "unknown"});
  }
  loss(n, "PhysicalWindow prints no functions: imported with the " +
              std::to_string(windows.size()) + " window functions the operators above read");
  out.node = Json{{"id", id}, {"op", "window"}, {"windows", windows}, {"children", {child.node}}};
  return out;
}

}  // namespace rfguard::doris_import
