// Graphviz rendering: one cluster per query, one box per node, edges from
// parent to child (build side drawn dashed).
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

void emit(const PlanNode& n, const std::string& prefix, std::string& out) {
  std::string me = prefix + std::to_string(n.id);
  out += "    " + me + " [label=\"" + escape(nodeLabel(n)) + "\"];\n";
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
    out += "  }\n";
  }
  return out + "}\n";
}

}  // namespace rfguard
