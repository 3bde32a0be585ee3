// A finding's identity across runs (docs/lint.md, "Baselines"): what it is
// about in the plan, not where it is printed or how its message is worded.
#include <xxhash.h>

#include <cctype>
#include <cstdio>
#include <functional>
#include <map>

#include "ir/printers.h"
#include "tools/cli/lint_policy.h"

namespace rfguard {

namespace {

/// The message with filter and node numbers blanked: stable when ids shift.
std::string stablePart(const std::string& m) {
  std::string out;
  for (size_t i = 0; i < m.size(); ++i) {
    out += m[i];
    bool numbered = m[i] == '#' || (i > 0 && m[i - 1] == 'R' && m[i] == 'F');
    if (numbered)
      while (i + 1 < m.size() && std::isdigit(static_cast<unsigned char>(m[i + 1]))) ++i;
  }
  return out;
}

std::string hex64(const std::string& key) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx",
                static_cast<unsigned long long>(XXH64(key.data(), key.size(), 0)));
  return buf;
}

/// An operator as the path names it: its kind, and a join's type.
std::string opLabel(const PlanNode& n) {
  if (n.op == PlanOp::Join) return std::string(joinInfo(n.joinType).name) + " join";
  return opName(n.op);
}

}  // namespace

std::string findingAnchor(const PlanNode& root, const Finding& f) {
  std::map<int, const PlanNode*> byId;
  std::map<const PlanNode*, const PlanNode*> parent;
  std::function<void(const PlanNode&, const PlanNode*)> visit = [&](const PlanNode& n,
                                                                    const PlanNode* up) {
    byId.emplace(n.id, &n);
    parent[&n] = up;
    for (const auto& c : n.children) visit(*c, &n);
    forEachSubqueryPlan(n, [&](const PlanNode& s) { visit(s, &n); });
  };
  visit(root, nullptr);
  std::vector<const PlanNode*> nodes;
  for (int id : f.nodes)
    if (auto it = byId.find(id); it != byId.end()) nodes.push_back(it->second);
  if (nodes.empty()) return "";
  std::string a;
  // The producer: the filter's expressions where it is one, else the node.
  const PlanNode& producer = *nodes.front();
  a += "at " + opLabel(producer);
  if (producer.op == PlanOp::Scan) a += " " + producer.table;
  for (const auto& rf : producer.runtimeFilters)
    if (rf.id == f.filter && rf.build && rf.probe)
      a +=
          ": " + exprToString(*rf.probe) + " " + cmpSpelling(rf.op) + " " + exprToString(*rf.build);
  if (nodes.size() == 1) return a;
  // The consumer (or culprit): the node, and at a scan the filter's target.
  const PlanNode& consumer = *nodes.back();
  a += "; to " + opLabel(consumer);
  if (consumer.op == PlanOp::Scan) a += " " + consumer.table;
  for (const auto& t : consumer.runtimeFilterTargets)
    if (t.id == f.filter && t.target) a += ": " + exprToString(*t.target);
  for (size_t i = 1; i + 1 < nodes.size(); ++i) a += "; by " + opLabel(*nodes[i]);
  // The operators between them: up from the consumer to the first node
  // above both, then down to the producer.
  std::vector<const PlanNode*> up, down;
  for (const PlanNode* n = &consumer; n; n = parent[n]) up.push_back(n);
  for (const PlanNode* n = &producer; n; n = parent[n]) down.push_back(n);
  while (up.size() > 1 && down.size() > 1 && up[up.size() - 2] == down[down.size() - 2])
    up.pop_back(), down.pop_back();
  a += "; path";
  for (size_t i = 1; i + 1 < up.size(); ++i) a += " " + opLabel(*up[i]);
  if (up.back() != &producer) {
    a += " ^ " + opLabel(*up.back());
    for (size_t i = down.size() - 1; i-- > 1;) a += " " + opLabel(*down[i]);
  }
  return a;
}

LintResult lintResult(const Query& q, Finding f, FindingSite site) {
  LintResult r;
  r.query = q.name;
  r.anchor = q.plan ? findingAnchor(*q.plan, f) : "";
  r.queryKey = queryKey(q);
  r.finding = std::move(f);
  r.site = std::move(site);
  return r;
}

std::string queryKey(const Query& q) {
  if (!q.namedByPosition || q.sql.empty()) return q.name;
  // The text without comments, blanks collapsed, lower case outside quotes,
  // no final semicolon: reformatting or moving the query keeps its key.
  std::string out;
  const std::string& s = q.sql;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
      while (i < s.size() && s[i] != '\n') ++i;
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const size_t end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 1;
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (c == '\'' || c == '"') {
      size_t end = i + 1;
      while (end < s.size() && s[end] != c) ++end;
      out += s.substr(i, end + 1 - i);
      i = end;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  return "sql:" + out;
}

std::string legacyFingerprint(const LintResult& r) {
  return hex64(r.finding.code + "\n" + relativeUri(r.site.file) + "\n" + r.query + "\n" +
               stablePart(r.finding.message));
}

namespace {

/// What identifies a finding: its code, file and query, and what it is about
/// in the plan; the message (ids blanked) only for a finding with no nodes.
/// The message is no part of the rest: it carries the judge's counterexample,
/// whose rows change when an unrelated table joins the query.
std::string identity(const LintResult& r) {
  return r.finding.code + "\n" + relativePath(r.site.file) + "\n" +
         (r.queryKey.empty() ? r.query : r.queryKey) + "\n" +
         (r.anchor.empty() ? "message: " + stablePart(r.finding.message) : r.anchor);
}

}  // namespace

void assignFingerprints(std::vector<LintFile>& files) {
  for (auto& f : files) {
    std::map<std::string, int> seen;  // per file: how often each identity came
    for (auto& r : f.results) {
      const std::string key = identity(r);
      const int n = ++seen[key];
      r.fingerprint = hex64(n == 1 ? key : key + "\n#" + std::to_string(n));
    }
  }
}

std::string findingFingerprint(const LintResult& r) {
  return r.fingerprint.empty() ? hex64(identity(r)) : r.fingerprint;
}

}  // namespace rfguard
