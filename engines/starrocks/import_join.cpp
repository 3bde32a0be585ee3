// Joins of a StarRocks plan and the runtime filters each builds.
#include <functional>

#include "engines/starrocks/import_state.h"
#include "ir/comparison.h"

namespace rfguard::starrocks_import {

namespace {

/// The rfguard columns a built input outputs, bound or not.
std::set<std::string> idsOf(const Built& b) {
  std::set<std::string> ids;
  for (const auto& [sid, col] : b.bound) ids.insert(col);
  for (const auto& u : b.unbound) ids.insert(u.id);
  return ids;
}

/// The comparison `op` (a catalog name) seen from its other side: `<` -> `>`.
std::string flip(const std::string& op) {
  const ComparisonInfo* c = comparisonNamed(op);
  return c ? comparisonInfo(c->flipped).name : op;
}

}  // namespace

std::optional<Built> Importer::join(const PlanOp& n, std::vector<Built>& ins) {
  if (ins.size() != 2)
    return error(n, "a join with " + std::to_string(ins.size()) + " inputs"), std::nullopt;
  const std::string op = n.value("join op: ");
  std::string type = n.kind == "CROSS JOIN" && op.empty() ? "cross" : joinType(op);
  if (type.empty()) return error(n, "an unknown join op \"" + clip(op) + "\""), std::nullopt;
  // The probe side's columns, then the build side's: bound as the
  // conditions read them.
  const std::set<std::string> probeIds = idsOf(ins[0]), buildIds = idsOf(ins[1]);
  Built both;
  for (auto* b : {&ins[0], &ins[1]}) {
    both.bound.insert(b->bound.begin(), b->bound.end());
    both.unbound.insert(both.unbound.end(), b->unbound.begin(), b->unbound.end());
  }
  const int id = newId(n);
  Json node = {{"id", id}, {"op", "join"}, {"join_type", type}};
  if (!distribution(op).empty()) {
    node["distribution"] = distribution(op);
  } else if (n.inputs.size() == 2 && n.inputs[1]->kind == "EXCHANGE" &&
             n.inputs[1]->value("distribution type: ") == "BROADCAST") {
    node["distribution"] = "broadcast";  // a NESTLOOP JOIN prints it at its build exchange
  }
  std::vector<Json> conjuncts, comparisons;
  for (const auto& p : n.props) {
    const bool equal = p.text.rfind("equal join conjunct: ", 0) == 0;
    const bool other = p.text.rfind("other join predicates: ", 0) == 0;
    if (!equal && !other) continue;
    const std::string text = p.text.substr(p.text.find(": ") + 2);
    for (const auto& part : splitTop(text, ',')) {
      std::string why;
      auto e = expr(part, both, why);
      if (!e) {
        loss(n, "cannot read the join's condition \"" + clip(part) + "\" (" + why + "): left out");
        continue;
      }
      conjuncts.push_back(*e);
      if (e->contains("call") && (*e)["args"].size() == 2) comparisons.push_back(*e);
    }
  }
  if (!conjuncts.empty()) {
    Json cond = conjuncts[0];
    for (size_t i = 1; i < conjuncts.size(); ++i)
      cond = Json{{"call", "and"}, {"args", {cond, conjuncts[i]}}};
    node["condition"] = cond;
  } else if (type != "cross") {
    node["join_type"] = type = type == "inner" ? "cross" : type;
    if (type != "cross") node["condition"] = Json{{"literal", true}, {"type", "boolean"}};
  }
  // The filters it builds: the build expression is one side of a comparison
  // of the condition, the probe expression its other side.
  Json filters = Json::array();
  for (const auto& item : n.list("build runtime filters:")) {
    int fid = -1;
    const size_t at = item.text.find("filter_id = ");
    const size_t e = item.text.find("build_expr = (");
    try {
      if (at != std::string::npos) fid = std::stoi(item.text.substr(at + 12));
    } catch (const std::exception&) {
    }
    std::string text;
    if (e != std::string::npos) {
      int depth = 0;
      for (size_t i = e + 13; i < item.text.size(); ++i) {
        depth += item.text[i] == '(' ? 1 : item.text[i] == ')' ? -1 : 0;
        if (depth == 0) {
          text = item.text.substr(e + 14, i - e - 14);
          break;
        }
      }
    }
    if (fid < 0 || fid > 1000000 || text.empty()) {
      q_.losses.push_back({"line " + std::to_string(item.line),
                           "cannot read the runtime filter \"" + clip(item.text) + "\": left out"});
      continue;
    }
    std::string why;
    auto build = expr(text, both, why);
    std::optional<Json> probe;
    std::string cmp;
    for (const auto& c : comparisons)
      for (int side = 0; side < 2 && build && !probe; ++side)
        if (c["args"][side] == *build && engine::readsOnly(c["args"][1 - side], probeIds) &&
            engine::readsOnly(*build, buildIds)) {
          probe = c["args"][1 - side];
          const std::string o = c["call"].get<std::string>();
          cmp = side == 1 ? o : flip(o);
        }
    const ComparisonInfo* op = comparisonNamed(cmp);
    if (!probe || !op || !op->filterOp) {
      loss(n, filterName(fid) + " " + clip(text) +
                  ": no comparison of the join's condition sets it against the probe side" +
                  (build ? "" : " (" + why + ")") + ": left out");
      continue;
    }
    const bool equality = op->equality;
    Json f = {
        {"id", fid + 1},
        {"build", *build},
        {"probe", *probe},
        {"op", cmp},
        {"kinds", equality ? Json::array({"in", "bloom", "min_max"}) : Json::array({"min_max"})}};
    // `remote = false`: the filter stays on the worker that built it.
    if (item.text.find("remote = false") != std::string::npos) f["scope"] = "local";
    if (op->nullSafe) f["null_allowed"] = true;
    filters.push_back(f);
    built_.insert(fid);
    producerLine_[fid] = n.line;
    if (auto p = pendingTargets_.find(fid); p != pendingTargets_.end())
      for (size_t i : p->second) q_.dynamicFilters[i].producers = {id};
  }
  if (!filters.empty()) node["runtime_filters"] = filters;
  node["children"] = {std::move(ins[0].node), std::move(ins[1].node)};
  Built out;
  out.node = std::move(node);
  // Semi and anti joins output one side; the others both.
  const bool probeOnly =
      type == "left_semi" || type == "left_anti" || type == "null_aware_left_anti";
  const bool buildOnly = type == "right_semi" || type == "right_anti";
  for (const auto& [sid, col] : both.bound)
    if ((!probeOnly || probeIds.count(col)) && (!buildOnly || buildIds.count(col)))
      out.bound[sid] = col;
  for (const auto& u : both.unbound)
    if ((!probeOnly || probeIds.count(u.id)) && (!buildOnly || buildIds.count(u.id)))
      out.unbound.push_back(u);
  return filtered(n, std::move(out), n.value("other predicates: "), "predicate");
}

}  // namespace rfguard::starrocks_import
