// Names in a shape plan: which columns a name resolves to (by qualifier and
// name, or through columns an equality made equal), which names an
// operator's text reads and which the scans below provide, and the filters a
// line applies.
#include "engines/doris/import_state.h"

#include <algorithm>

namespace rfguard::doris_import {

void Importer::makeSame(std::map<std::string, std::string>& same, const std::string& a,
                        const std::string& b) {
  auto rep = [&](const std::string& x) {
    auto it = same.find(x);
    return it == same.end() ? x : it->second;
  };
  const std::string ra = rep(a), rb = rep(b);
  if (ra == rb) return;
  for (auto& [id, r] : same)
    if (r == rb) r = ra;
  same[a] = same[b] = same[ra] = same[rb] = ra;
}

std::map<std::string, std::string> Importer::sameAfter(
    const std::map<std::string, std::string>& same,
    const std::vector<std::pair<std::string, std::string>>& renames) {
  std::map<std::string, std::string> out, first;  // class -> its first output column
  for (const auto& [in, outId] : renames) {
    auto it = same.find(in);
    if (it == same.end()) continue;
    auto f = first.emplace(it->second, outId).first;
    out[outId] = f->second;
  }
  return out;
}

std::vector<std::pair<std::string, int>> Importer::appliedList(const ShapeNode& n) {
  std::vector<std::pair<std::string, int>> out;
  // `apply RFs: RF1 RF3`, and at a scan `RFV2: RF6` (a set operation's filter;
  // at the set operation itself its items are `RF6[src->dst]`, not applied).
  const bool scan = headOf(n.text).find("Scan") != std::string::npos;
  const size_t at = n.text.find("apply RFs:");
  const size_t v2 = scan ? n.text.find("RFV2:") : std::string::npos;
  if (at == std::string::npos && v2 == std::string::npos) return out;
  for (const auto& w : splitTop(n.text.substr(std::min(at, v2)), ' ')) {
    if (w == "apply" || w == "RFs:" || w == "RFV2:") continue;
    int rf = -1;
    const std::string digits = w.rfind("RF", 0) == 0 ? w.substr(2) : "";
    if (!digits.empty() && digits.size() < 8 &&
        std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      rf = std::stoi(digits);
    out.emplace_back(w, rf);
  }
  return out;
}

std::vector<std::pair<std::string, int>> Importer::appliedFilters(const ShapeNode& n,
                                                                  const std::string& what) {
  std::vector<std::pair<std::string, int>> out;
  for (const auto& [w, rf] : appliedList(n)) {
    if (!rfs_.count(rf)) {
      loss(n, "the " + what + " applies " + w + ", which no operator of the plan builds");
      continue;
    }
    out.emplace_back(w, rf);
  }
  return out;
}

Resolver Importer::over(const std::vector<Col>& cols,
                        const std::map<std::string, std::string>* same) {
  return [&cols, same](const std::string& name, std::string& why) -> std::optional<ResolvedColumn> {
    if (name.rfind(kAggregateMark, 0) == 0 || name.rfind(kWindowMark, 0) == 0) {
      // An aggregate's or a window function's result, by its call.
      for (const auto& c : cols)
        if (c.name == name) return ResolvedColumn{c.id, c.type};
      why = "nothing below computes " + name.substr(1);
      return std::nullopt;
    }
    const size_t dot = name.rfind('.');
    const std::string qual = dot == std::string::npos ? "" : name.substr(0, dot);
    const std::string base = lastPart(name);
    std::vector<const Col*> found;
    for (const auto& c : cols)
      if (c.name == base && (qual.empty() || c.qual == qual)) found.push_back(&c);
    if (found.empty() && !qual.empty())  // a derived table's or view's name (t3.ps_suppkey)
      for (const auto& c : cols)
        if (c.name == base) found.push_back(&c);
    const size_t n = found.size();
    bool oneClass = n > 1 && same;  // the columns of one class: any of them
    for (size_t i = 0; oneClass && i < n; ++i) {
      auto it = same->find(found[i]->id);
      oneClass = it != same->end() && it->second == same->at(found[0]->id);
    }
    if (n == 1 || oneClass) return ResolvedColumn{found[0]->id, found[0]->type};
    why = n == 0 ? "\"" + name + "\" names no column below"
                 : "\"" + name + "\" is ambiguous (" + std::to_string(n) + " columns of that name)";
    return std::nullopt;
  };
}

std::set<std::string> Importer::namesIn(const std::string& text) {
  std::set<std::string> out;
  static const std::set<std::string> kAggregates = {"sum", "avg", "min", "max", "count"};
  size_t i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    if (ch == '\'') {  // a string literal
      const size_t close = text.find('\'', i + 1);
      i = close == std::string::npos ? text.size() : close + 1;
      continue;
    }
    if (text.compare(i, 3, "$c$") == 0) {  // a mark join's mark: `$c$1`
      size_t j = i + 3;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      out.insert(text.substr(i, j - i));
      i = j;
      continue;
    }
    if (!(std::isalpha(static_cast<unsigned char>(ch)) || ch == '_')) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_' || text[j] == '.'))
      ++j;
    const std::string word = text.substr(i, j - i);
    size_t k = j;
    while (k < text.size() && text[k] == ' ') ++k;
    std::string low = word;
    for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (k < text.size() && text[k] == '(') {
      size_t end = 0;
      balanced(text, k, end);
      if (end == std::string::npos) break;
      size_t after = end + 1;
      while (after < text.size() && text[after] == ' ') ++after;
      if (text.compare(after, 4, "OVER") == 0) {
        // A window function's result, by its call and OVER clause; the names
        // in them are read below the window, so the scan goes on inside.
        size_t open = after + 4, close = 0;
        while (open < text.size() && text[open] == ' ') ++open;
        if (open < text.size() && text[open] == '(') {
          balanced(text, open, close);
          if (close != std::string::npos)
            out.insert(kWindowMark + aggregateCallText(text.substr(i, close + 1 - i)));
        }
        i = j;
        continue;
      }
      if (kAggregates.count(low)) {
        out.insert(kAggregateMark + aggregateCallText(text.substr(i, end + 1 - i)));
        i = end + 1;
        continue;
      }
    }
    out.insert(word);
    if (word.find('.') != std::string::npos) out.insert(lastPart(word));
    i = j;
  }
  return out;
}

const std::set<std::string>& Importer::provides(const ShapeNode& n) {
  auto it = provided_.find(&n);
  if (it != provided_.end()) return it->second;
  provided_[&n];  // a CTE that consumes itself provides nothing more (an error where read)
  std::set<std::string> out;
  const std::string head = headOf(n.text);
  if (const ShapeNode* body = cteBody(n)) {
    out = provides(*body);
    return provided_[&n] = out;
  }
  if (head == "PhysicalOlapScan" || head == "PhysicalLazyMaterializeOlapScan") {
    const auto [table, alias] = scanNames(n);
    if (const TableDef* def = schema_.table(table))
      for (const auto& c : def->columns) out.insert(c.name), out.insert(alias + "." + c.name);
  }
  // A semi or anti join outputs one input's columns.
  size_t from = 0, to = n.children.size();
  if (head == "hashJoin" && n.children.size() == 2) {
    if (n.text.find("[LEFT_SEMI_JOIN") != std::string::npos ||
        n.text.find("[LEFT_ANTI_JOIN") != std::string::npos ||
        n.text.find("[NULL_AWARE_LEFT_ANTI_JOIN") != std::string::npos)
      to = 1;
    if (n.text.find("[RIGHT_SEMI_JOIN") != std::string::npos ||
        n.text.find("[RIGHT_ANTI_JOIN") != std::string::npos)
      from = 1;
  }
  for (size_t i = from; i < to; ++i) {
    const auto& sub = provides(*n.children[i]);
    out.insert(sub.begin(), sub.end());
  }
  return provided_[&n] = out;
}

std::pair<std::string, std::string> Importer::scanNames(const ShapeNode& n) {
  size_t end = 0;
  const size_t open = n.text.find('[');
  std::string inside = open == std::string::npos ? "" : balanced(n.text, open, end);
  inside = inside.substr(0, inside.find(' '));  // PhysicalLazyMaterializeOlapScan[t lazySlots:..]
  if (const size_t p = inside.find('('); p != std::string::npos && inside.back() == ')')
    return {inside.substr(0, p), inside.substr(p + 1, inside.size() - p - 2)};
  return {inside, inside};
}

}  // namespace rfguard::doris_import
