// Reading and printing a placement's report: a consumer's derivation (rule by
// rule, lineage jumps expanded) and the --explain text.
#include "ir/printers.h"
#include "rules/rf_planner.h"

namespace rfguard {

std::vector<RfStep> RfReport::derivation(const RfDerivation& d) const {
  std::vector<RfStep> out;
  for (int i = d.last; i >= 0; i = steps[i].parent) {
    const RfStep& s = steps[i];
    if (!s.jumpTo) {
      out.push_back(s);
      continue;
    }
    auto nodes = lineage->path(s.node, s.jumpTo);  // top first; out is built bottom first
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
      out.push_back({it->first, it->second, s.before, s.after, s.parent, 0});
  }
  return {out.rbegin(), out.rend()};
}

std::string ExprText::str() const {
  if (!expr_) return "";
  return sortKey_ ? sortKeyToString({expr_, ascending_, nullsFirst_}) : exprToString(*expr_);
}

std::string changeText(const RfStep& s) {
  std::string before = s.before.str(), after = s.after.str();
  return before == after ? after : before + " => " + after;
}

std::string explainRuntimeFilters(const RfReport& r) {
  std::string out;
  for (const auto& s : r.skipped)
    out += "join #" + std::to_string(s.node) + " `" + s.what.str() +
           "`: skipped by cost: " + s.decision.reason.text() + "\n";
  for (const auto& g : r.generation) {
    if (!g.filter) {
      out += "#" + std::to_string(g.node) + " `" + g.what.str() +  // a join's or a TopN's
             "`: no filter: " + ruleName(g.decision.rule) + ": " + g.decision.reason.text() + "\n";
      continue;
    }
    bool dropped = false;
    for (int d : r.dropped) dropped = dropped || d == g.filter;
    int mergedInto = 0;
    for (const auto& m : r.merged)
      if (m.filter == g.filter && m.whole) mergedInto = m.into;
    out += "RF" + std::to_string(g.filter) + " from #" + std::to_string(g.node) + " `" +
           g.what.str() + "`" + (dropped ? " (dropped: no scan can consume it)" : "") +
           (mergedInto ? " (merged into RF" + std::to_string(mergedInto) +
                             ": a filter of the same keys reaches the same consumers)"
                       : "") +
           "\n  generated: " + ruleName(g.decision.rule) + ": " + g.decision.reason.text() + "\n";
    for (const auto& m : r.merged)
      if (m.filter == g.filter)
        out += "  consumer " + m.target.str() + " at scan #" + std::to_string(m.scan) +
               ": merged into RF" + std::to_string(m.into) + ", which holds the same keys there\n";
    for (const auto& c : r.consumers) {
      if (c.filter != g.filter) continue;
      out += "  consumer " + c.target.str() + " at scan #" + std::to_string(c.scan) + ":\n";
      for (const auto& s : r.derivation(c))
        out +=
            "    #" + std::to_string(s.node) + " " + ruleName(s.rule) + ": " + changeText(s) + "\n";
    }
    for (const auto& e : r.rejected)
      if (e.filter == g.filter)
        out += "  rejected at #" + std::to_string(e.node) + " `" + e.what.str() +
               "`: " + ruleName(e.decision.rule) + ": " + e.decision.reason.text() + "\n";
  }
  return out;
}

}  // namespace rfguard
