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

/// Filter ids start at 1; a plan built through the API may use any int.
const char* filterColor(int id) {
  return kColors[(static_cast<unsigned>(id) + 7u) % 8u];
}

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

/// (filter id, producer node, consumer node) for every consumer.
std::vector<std::tuple<int, int, int>> filterEdges(const PlanNode& root) {
  std::map<int, int> from;  // filter id -> producer node id
  forEachNode(root, [&](const PlanNode& n) {
    for (const auto& f : n.runtimeFilters) from[f.id] = n.id;
  });
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
    bool build = n.op == PlanOp::Join && i == 1;
    for (const auto& f : n.runtimeFilters)  // a set operation's input that builds a filter
      build = build || (isSetOperation(n.op) && filterBuildInput(n, f) == static_cast<int>(i));
    if (build) out += " [style=dashed, label=\"build\"]";
    out += ";\n";
    emit(c, prefix, out);
  }
  forEachSubqueryPlan(n, [&](const PlanNode& sub) {
    out += "    " + me + " -> " + prefix + std::to_string(sub.id) +
           " [style=dotted, label=\"subquery\"];\n";
    emit(sub, prefix, out);
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
      const char* color = filterColor(id);
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

/// Writes the tree's nodes and links; `links` counts the links, whose order
/// Mermaid's linkStyle refers to.
void mermaidNode(const PlanNode& n, const std::string& prefix, std::string& out, size_t& links) {
  const std::string me = prefix + std::to_string(n.id);
  std::string label;
  for (const auto& l : labelLines(n)) label += (label.empty() ? "" : "<br/>") + mermaidText(l);
  out += "    " + me + "[\"" + label + "\"]\n";
  for (size_t i = 0; i < n.children.size(); ++i) {
    const PlanNode& c = *n.children[i];
    out += "    " + me + (n.op == PlanOp::Join && i == 1 ? " -.->|build| " : " --> ") + prefix +
           std::to_string(c.id) + "\n";
    ++links;
    mermaidNode(c, prefix, out, links);
  }
  forEachSubqueryPlan(n, [&](const PlanNode& sub) {
    out += "    " + me + " -.->|subquery| " + prefix + std::to_string(sub.id) + "\n";
    ++links;
    mermaidNode(sub, prefix, out, links);
  });
}

}  // namespace

std::string planToMermaid(const std::vector<Query>& queries) {
  std::string out = "flowchart TD\n", styles;
  size_t links = 0;
  for (size_t i = 0; i < queries.size(); ++i) {
    const std::string prefix = "q" + std::to_string(i) + "_";
    out += "  subgraph " + prefix + "plan [\"" + mermaidText(queries[i].name) + "\"]\n";
    mermaidNode(*queries[i].plan, prefix, out, links);
    for (const auto& [id, from, to] : filterEdges(*queries[i].plan)) {
      out += "    " + prefix + std::to_string(from) + " ==>|RF" + std::to_string(id) + "| " +
             prefix + std::to_string(to) + "\n";
      styles += "  linkStyle " + std::to_string(links++) + " stroke:" + filterColor(id) +
                ",stroke-width:2px\n";
    }
    out += "  end\n";
  }
  return out + styles;
}

}  // namespace rfguard
