// Reading the plan text of Trino's cost-based plan tests into an operator tree.
#include "engines/trino/plan_text.h"

#include "engines/plan_document.h"

namespace rfguard::trino_import {

namespace {

bool startsWith(const std::string& s, const std::string& p) {
  return s.rfind(p, 0) == 0;
}

/// A printed symbol without the double quotes older printers put around it.
std::string unquoted(std::string s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

/// The symbols of a printed list.
std::vector<std::string> symbolList(const std::string& list) {
  std::vector<std::string> out;
  for (const auto& s : engine::splitTop(list, ',')) out.push_back(unquoted(s));
  return out;
}

/// The text inside the parentheses that start at `open` (none nested); "" and
/// false when there are none.
bool inParens(const std::string& s, size_t open, std::string& out) {
  if (open >= s.size() || s[open] != '(') return false;
  const size_t close = s.rfind(')');
  if (close == std::string::npos || close < open) return false;
  out = s.substr(open + 1, close - open - 1);
  return true;
}

/// Classifies one operator line; false with `why` when a known operator is malformed.
bool readOp(PlanOp& op, std::string& why) {
  const std::string& t = op.text;
  std::string inside;
  if (startsWith(t, "remote exchange (") || startsWith(t, "local exchange (")) {
    op.kind = t[0] == 'r' ? OpKind::RemoteExchange : OpKind::LocalExchange;
    if (!inParens(t, t.find('('), inside)) return why = "an exchange without its (...)", false;
    auto parts = engine::splitTop(inside, ',');
    if (parts.size() < 3) return why = "an exchange needs (type, partitioning, [keys])", false;
    op.exchangeType = parts[0];
    std::string keys = parts.back();
    if (keys.size() < 2 || keys.front() != '[' || keys.back() != ']')
      return why = "an exchange's keys are not a [list]", false;
    op.symbols = symbolList(keys.substr(1, keys.size() - 2));
    return true;
  }
  if (startsWith(t, "join (")) {
    op.kind = OpKind::Join;
    if (!inParens(t, 5, inside)) return why = "a join without its (type, distribution)", false;
    auto parts = engine::splitTop(inside, ',');
    if (parts.size() < 2) return why = "a join needs (type, distribution)", false;
    op.joinType = parts[0];
    op.distribution = parts[1];
    if (op.joinType != "INNER" && op.joinType != "LEFT" && op.joinType != "RIGHT" &&
        op.joinType != "FULL")
      return why = "an unknown join type \"" + op.joinType + "\"", false;
    return true;
  }
  if (startsWith(t, "cross join")) {
    op.kind = OpKind::CrossJoin;
    op.joinType = "INNER";
    op.distribution = "REPLICATED";
    return true;
  }
  if (startsWith(t, "semijoin (")) {
    op.kind = OpKind::SemiJoin;
    if (!inParens(t, 9, inside)) return why = "a semijoin without its (distribution)", false;
    op.distribution = inside;
    return true;
  }
  for (const char* step : {"final", "partial", "intermediate", "single"}) {
    const std::string head = std::string(step) + " aggregation over (";
    if (!startsWith(t, head)) continue;
    op.kind = OpKind::Aggregation;
    op.step = step;
    if (!inParens(t, head.size() - 1, inside))
      return why = "an aggregation without its (keys)", false;
    op.symbols = symbolList(inside);
    return true;
  }
  if (startsWith(t, "dynamic filter (")) {
    op.kind = OpKind::DynamicFilter;
    if (!inParens(t, 15, inside)) return why = "a dynamic filter without its (list)", false;
    // `dynamic filter (a::EQUAL, b::GREATER_THAN)`; older printers
    // `dynamic filter ([a, b])`, the operator unprinted; newer ones group the
    // filters the scan waits for: `dynamic filter ([a], await [b, c])`. A
    // symbol listed twice is two filters on it (`nationkey::EQUAL,
    // nationkey::EQUAL` at q5's customer: from two joins).
    std::vector<std::string> items;
    for (std::string part : engine::splitTop(inside, ',')) {
      while (!part.empty() && part.front() == ' ') part.erase(0, 1);
      if (startsWith(part, "await ")) part = part.substr(6);
      while (!part.empty() && part.front() == ' ') part.erase(0, 1);
      if (part.size() >= 2 && part.front() == '[' && part.back() == ']') {
        for (const auto& x : engine::splitTop(part.substr(1, part.size() - 2), ','))
          items.push_back(x);
        continue;
      }
      items.push_back(part);
    }
    for (const auto& item : items) {
      DfItem f;
      const size_t sep = item.rfind("::");
      f.symbol = unquoted(sep == std::string::npos ? item : item.substr(0, sep));
      f.op = sep == std::string::npos ? "EQUAL" : item.substr(sep + 2);
      if (f.symbol.empty()) return why = "a dynamic filter without its symbol", false;
      op.filters.push_back(f);
    }
    if (op.filters.empty()) return why = "a dynamic filter of nothing", false;
    return true;
  }
  if (startsWith(t, "scan ")) {
    op.kind = OpKind::Scan;
    op.table = t.substr(5);
    while (!op.table.empty() && op.table.back() == ' ') op.table.pop_back();
    if (op.table.empty() || op.table.find(' ') != std::string::npos)
      return why = "a scan's table is one name", false;
    return true;
  }
  if (startsWith(t, "values (")) {
    op.kind = OpKind::Values;
    if (!inParens(t, 7, inside)) return why = "values without its (N rows)", false;
    const size_t sp = inside.find(' ');
    const std::string n = inside.substr(0, sp);
    if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos)
      return why = "values (N rows) with N not a count", false;
    op.rows = std::stoll(n);
    if (op.rows > kMaxValuesRows)
      return why = "values of more than " + std::to_string(kMaxValuesRows) + " rows", false;
    return true;
  }
  op.kind = OpKind::Unknown;
  return true;
}

}  // namespace

std::string baseName(const std::string& symbol) {
  const size_t us = symbol.rfind('_');
  if (us == std::string::npos || us == 0 || us + 1 >= symbol.size()) return symbol;
  const std::string tail = symbol.substr(us + 1);
  if (tail.find_first_not_of("0123456789") != std::string::npos) return symbol;
  return symbol.substr(0, us);
}

bool looksLikeTrinoPlan(const std::string& text) {
  bool first = true, scans = false;
  for (const auto& l : engine::textLines(text)) {
    if (l.find_first_not_of(' ') == std::string::npos) continue;
    PlanOp op;
    op.text = l.substr(l.find_first_not_of(' '));
    std::string why;
    if (first) {
      if (l[0] == ' ' || !readOp(op, why) || op.kind == OpKind::Unknown) return false;
      first = false;
    }
    if (startsWith(op.text, "scan ") || startsWith(op.text, "values (")) scans = true;
    if (scans) return true;
  }
  return false;
}

bool startsLikeTrinoPlan(const std::string& text, int& line) {
  line = 0;
  for (const auto& l : engine::textLines(text)) {
    ++line;
    if (l.find_first_not_of(' ') == std::string::npos) continue;
    PlanOp op;
    op.text = l;
    std::string why;
    readOp(op, why);  // malformed, it is still the printer's operator
    return l[0] != ' ' && op.kind != OpKind::Unknown;
  }
  line = 1;
  return false;
}

bool readPlanText(const std::string& text, const std::string& file, std::unique_ptr<PlanOp>& root,
                  Diagnostics& diags) {
  if (!engine::checkUtf8(text, file, diags)) return false;
  std::vector<PlanOp*> stack;  // the open operators, by depth
  int lineNo = 0;
  bool ok = true;
  for (const auto& l : engine::textLines(text)) {
    ++lineNo;
    const size_t first = l.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    if (l[first] == '\t') {
      diags.error(file, {lineNo, static_cast<int>(first) + 1},
                  "a tab in the indentation (the plan indents by four spaces)");
      return false;
    }
    if (first % 4 != 0) {
      diags.error(file, {lineNo, static_cast<int>(first) + 1},
                  "indented by " + std::to_string(first) +
                      " spaces, not a multiple of four: which operator is its parent?");
      return false;
    }
    const size_t depth = first / 4;
    if (depth > stack.size() || (depth == 0 && root)) {
      diags.error(file, {lineNo, static_cast<int>(first) + 1},
                  depth == 0 ? "a second plan root: a plan text holds one plan"
                             : "indented deeper than one level below the line above");
      return false;
    }
    if (depth >= static_cast<size_t>(kMaxPlanDepth)) {
      diags.error(file, {lineNo, static_cast<int>(first) + 1},
                  "a plan deeper than " + std::to_string(kMaxPlanDepth) + " operators");
      return false;
    }
    auto op = std::make_unique<PlanOp>();
    op->text = l.substr(first);
    while (!op->text.empty() && op->text.back() == ' ') op->text.pop_back();
    for (char c : op->text)
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t') {
        diags.error(file, {lineNo, static_cast<int>(first) + 1}, "a control byte in the line");
        return false;
      }
    op->line = lineNo;
    op->col = static_cast<int>(first) + 1;
    std::string why;
    if (!readOp(*op, why)) {
      diags.error(file, {lineNo, op->col}, why + ": \"" + op->text.substr(0, 120) + "\"");
      ok = false;
      continue;
    }
    stack.resize(depth);
    PlanOp* raw = op.get();
    if (depth == 0) {
      root = std::move(op);
    } else {
      raw->parent = stack.back();
      stack.back()->inputs.push_back(std::move(op));
    }
    stack.push_back(raw);
  }
  if (ok && !root) diags.error(file, {1, 1}, "no plan: the text holds no operator line");
  return ok && root != nullptr;
}

}  // namespace rfguard::trino_import
