// Graphs of plans: Graphviz (one cluster per query, one box per node, edges
// from parent to child, build sides dashed) and Mermaid (for Markdown). Each
// runtime filter is a coloured, labelled edge from its producing join to each
// consuming scan; scans list their consumers as the text plan does; long labels
// wrap so that a six-table plan stays readable on a screen.
#include <functional>
#include <map>
#include <tuple>

#include "ir/printers.h"

namespace rfguard {

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

constexpr size_t kWrap = 48;
const char* const kColors[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd",
                               "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

/// A node's text as the text plan has it (consumers included), wrapped at
/// spaces into lines of about kWrap characters.
std::vector<std::string> labelLines(const PlanNode& n) {
  std::string text = nodeLabel(n);
  for (const auto& t : n.runtimeFilterTargets) text += "; " + targetToString(t);
  std::vector<std::string> lines{""};
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > kWrap) lines.push_back("");
    lines.back() += (lines.back().empty() ? "" : " ") + word;
    start = end + 1;
  }
  return lines;
}

/// Producer node id of every filter of the plan (subqueries included).
void producers(const PlanNode& n, std::map<int, int>& out) {
  for (const auto& f : n.runtimeFilters) out[f.id] = n.id;
  for (const auto& c : n.children) producers(*c, out);
  forEachExpr(n, [&](const ExprPtr& e) {
    std::function<void(const Expr&)> visit = [&](const Expr& x) {
      if (x.kind == ExprKind::Subquery && x.plan) producers(*x.plan, out);
      for (const auto& a : x.args) visit(*a);
    };
    visit(*e);
  });
}

/// (filter id, producer node, consumer node) for every consumer.
std::vector<std::tuple<int, int, int>> filterEdges(const PlanNode& root) {
  std::map<int, int> from;
  producers(root, from);
  std::vector<std::tuple<int, int, int>> out;
  forEachNode(root, [&](const PlanNode& n) {
    for (const auto& t : n.runtimeFilterTargets)
      if (auto it = from.find(t.id); it != from.end()) out.emplace_back(t.id, it->second, n.id);
  });
  return out;
}

void emit(const PlanNode& n, const std::string& prefix, std::string& out) {
  std::string me = prefix + std::to_string(n.id);
  std::string label;
  for (const auto& l : labelLines(n)) label += escape(l) + "\\l";
  out += "    " + me + " [label=\"" + label + "\"];\n";
  for (size_t i = 0; i < n.children.size(); ++i) {
    const PlanNode& c = *n.children[i];
    out += "    " + me + " -> " + prefix + std::to_string(c.id);
    if (n.op == PlanOp::Join && i == 1) out += " [style=dashed, label=\"build\"]";
    out += ";\n";
    emit(c, prefix, out);
  }
  forEachExpr(n, [&](const ExprPtr& e) {
    std::function<void(const Expr&)> visit = [&](const Expr& x) {
      if (x.kind == ExprKind::Subquery && x.plan) {
        out += "    " + me + " -> " + prefix + std::to_string(x.plan->id) +
               " [style=dotted, label=\"subquery\"];\n";
        emit(*x.plan, prefix, out);
      }
      for (const auto& a : x.args) visit(*a);
    };
    visit(*e);
  });
}

}  // namespace

std::string planToDot(const std::vector<Query>& queries) {
  std::string out = "digraph rfguard {\n  node [shape=box, fontname=\"monospace\"];\n";
  for (size_t i = 0; i < queries.size(); ++i) {
    std::string prefix = "q" + std::to_string(i) + "_";
    out += "  subgraph cluster_" + std::to_string(i) + " {\n    label=\"" +
           escape(queries[i].name) + "\";\n";
    emit(*queries[i].plan, prefix, out);
    for (const auto& [id, from, to] : filterEdges(*queries[i].plan)) {
      const char* color = kColors[(id - 1) % 8];
      out += "    " + prefix + std::to_string(from) + " -> " + prefix + std::to_string(to) +
             " [color=\"" + color + "\", fontcolor=\"" + color + "\", penwidth=2, label=\"RF" +
             std::to_string(id) + "\", constraint=false];\n";
    }
    out += "  }\n";
  }
  return out + "}\n";
}

namespace {

std::string mermaidText(const std::string& s) {
  std::string out;
  for (char c : s)
    out += c == '"'   ? std::string("#quot;")
           : c == '<' ? std::string("#lt;")
           : c == '>' ? std::string("#gt;")
                      : std::string(1, c);
  return out;
}

void mermaidNode(const PlanNode& n, const std::string& prefix, std::string& out) {
  const std::string me = prefix + std::to_string(n.id);
  std::string label;
  for (const auto& l : labelLines(n)) label += (label.empty() ? "" : "<br/>") + mermaidText(l);
  out += "    " + me + "[\"" + label + "\"]\n";
  for (size_t i = 0; i < n.children.size(); ++i) {
    const PlanNode& c = *n.children[i];
    out += "    " + me + (n.op == PlanOp::Join && i == 1 ? " -.->|build| " : " --> ") + prefix +
           std::to_string(c.id) + "\n";
    mermaidNode(c, prefix, out);
  }
  forEachExpr(n, [&](const ExprPtr& e) {
    std::function<void(const Expr&)> visit = [&](const Expr& x) {
      if (x.kind == ExprKind::Subquery && x.plan) {
        out += "    " + me + " -.->|subquery| " + prefix + std::to_string(x.plan->id) + "\n";
        mermaidNode(*x.plan, prefix, out);
      }
      for (const auto& a : x.args) visit(*a);
    };
    visit(*e);
  });
}

}  // namespace

std::string planToMermaid(const std::vector<Query>& queries) {
  std::string out = "flowchart TD\n";
  size_t edge = 0;  // Mermaid styles links by their order of appearance
  std::string styles;
  for (size_t i = 0; i < queries.size(); ++i) {
    const std::string prefix = "q" + std::to_string(i) + "_";
    std::string body;
    mermaidNode(*queries[i].plan, prefix, body);
    out += "  subgraph " + prefix + "plan [\"" + mermaidText(queries[i].name) + "\"]\n" + body;
    // Count the tree's links so that the filter links' indexes are known.
    size_t links = 0;
    for (size_t at = body.find("-->"); at != std::string::npos; at = body.find("-->", at + 1))
      ++links;
    for (size_t at = body.find("-.->"); at != std::string::npos; at = body.find("-.->", at + 1))
      ++links;
    edge += links;
    for (const auto& [id, from, to] : filterEdges(*queries[i].plan)) {
      out += "    " + prefix + std::to_string(from) + " ==>|RF" + std::to_string(id) + "| " +
             prefix + std::to_string(to) + "\n";
      styles += "  linkStyle " + std::to_string(edge++) + " stroke:" + kColors[(id - 1) % 8] +
                ",stroke-width:2px\n";
    }
    out += "  end\n";
  }
  return out + styles;
}

}  // namespace rfguard
