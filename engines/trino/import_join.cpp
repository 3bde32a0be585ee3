// Joins and semi joins: the runtime filters attributed to each (producers.cpp)
// and a condition rebuilt from them and from the keys its hash exchanges print.
// A filter says its join compares the symbol (or one equal to it below) with
// the build key, so `probe op build` is a conjunct of the condition; the
// probe side's column nearest the join stands for the symbol.
#include "engines/trino/import_state.h"
#include "ir/comparison.h"

#include <algorithm>

namespace rfguard::trino_import {

namespace {

Json andOf(const std::vector<Json>& cs) {
  Json cond = cs[0];
  for (size_t i = 1; i < cs.size(); ++i) cond = Json{{"call", "and"}, {"args", {cond, cs[i]}}};
  return cond;
}

Json call(const std::string& op, const std::string& a, const std::string& b) {
  return Json{{"call", op}, {"args", {Json{{"column", a}}, Json{{"column", b}}}}};
}

}  // namespace

std::optional<Importer::Built> Importer::join(const PlanOp& n, std::vector<Built>& ins) {
  const int id = newId(n);
  joinId_[&n] = id;
  std::vector<Json> conjuncts;
  auto add = [&](const Json& c) {
    if (std::find(conjuncts.begin(), conjuncts.end(), c) == conjuncts.end()) conjuncts.push_back(c);
  };
  // The keys its hash exchanges print.
  const ExchangeKeys keys = exchangeKeys(n);
  for (const auto& [p, b] : keys.pairs) {
    const auto pc = owner(p), bc = owner(b);
    const Col* pcol = pc ? find(ins[0], *pc) : nullptr;
    const Col* bcol = bc ? find(ins[1], *bc) : nullptr;
    if (pcol && bcol) add(call("=", pcol->id, bcol->id));
  }
  // One side's keys printed alone (the other side is hashed already): each
  // key's partner is the other side's only column of the key's name.
  if (keys.pairs.empty() && (keys.probe.empty() != keys.build.empty())) {
    const bool probeSide = !keys.probe.empty();
    for (const auto& k : probeSide ? keys.probe : keys.build) {
      const auto c = owner(k);
      const Col* mine = c ? find(ins[probeSide ? 0 : 1], *c) : nullptr;
      const Col* other = nullptr;
      int same = 0;
      if (mine)
        for (const auto& col : ins[probeSide ? 1 : 0].cols)
          if (col.source.column == c->column) other = &col, ++same;
      if (same == 1)
        add(probeSide ? call("=", mine->id, other->id) : call("=", other->id, mine->id));
    }
  }
  // The filters it builds, one per build key and operator.
  Json filters = Json::array();
  std::map<int, std::vector<const Attribution*>> mine;
  for (const auto& a : attributed_)
    if (a.join == &n) mine[filterIds_.at({a.join, a.build, a.item.op})].push_back(&a);
  for (const auto& [fid, as] : mine) {
    const Attribution& first = *as[0];
    const Col* build = find(ins[1], first.build);
    // The probe side's column for it: a target's, nearest the join.
    const Col* probe = nullptr;
    int best = 0;
    for (const Attribution* a : as)
      if (const Col* c = find(ins[0], a->target); c && (!probe || depth_.at(a->target.scan) < best))
        probe = c, best = depth_.at(a->target.scan);
    if (!build || !probe) {
      loss(n, "the filter on " + columnId(first.target) + " from build key " +
                  columnId(first.build) + ": " +
                  (!build ? "the key is not an output of the build side"
                          : "its column is not an output of the probe side") +
                  " (an aggregation or a union below does not pass it on): left out");
      continue;
    }
    // An equality of the exchanges' keys names this key already: use its probe column.
    for (const auto& c : conjuncts)
      if (comparisonNamed(first.item.op)->kind == Comparison::Eq &&
          c["args"][1]["column"] == build->id)
        for (const auto& col : ins[0].cols)
          if (col.id == c["args"][0]["column"]) probe = &col;
    add(call(first.item.op, probe->id, build->id));
    filters.push_back({{"id", fid},
                       {"build", {{"column", build->id}}},
                       {"probe", {{"column", probe->id}}},
                       {"op", first.item.op},
                       {"kinds", {"in", "min_max"}}});
    definedFilters_.insert(fid);
  }
  std::string type = joinType(n.joinType);
  Json node = {{"id", id}, {"op", "join"}};
  if (!distribution(n.distribution).empty()) node["distribution"] = distribution(n.distribution);
  if (!conjuncts.empty()) {
    node["condition"] = andOf(conjuncts);
  } else if (n.kind == OpKind::CrossJoin) {
    type = "cross";
  } else if (type == "inner") {
    type = "cross";
    loss(n,
         "the join's condition is not printed and no key of it is known: imported as a "
         "cross join");
  } else {
    node["condition"] = Json{{"literal", true}, {"type", "boolean"}};
    loss(n,
         "the join's condition is not printed and no key of it is known: imported as ON "
         "TRUE");
  }
  node["join_type"] = type;
  if (!filters.empty()) node["runtime_filters"] = filters;
  node["children"] = Json::array({std::move(ins[0].node), std::move(ins[1].node)});
  Built out;
  out.node = std::move(node);
  out.cols = std::move(ins[0].cols);
  out.cols.insert(out.cols.end(), ins[1].cols.begin(), ins[1].cols.end());
  return out;
}

std::optional<Importer::Built> Importer::semiJoin(const PlanOp& n, std::vector<Built>& ins) {
  // Trino's semi join marks each row of its first input; a filter above,
  // which the plan does not print, keeps the marked rows (IN) or the others
  // (NOT IN). Trino builds a dynamic filter only for IN: with one, it is a
  // semi join; without, an operator that may remove any rows.
  const bool filtered = std::any_of(attributed_.begin(), attributed_.end(),
                                    [&](const Attribution& a) { return a.join == &n; });
  if (filtered) {
    Built source = ins[0];
    auto b = join(n, ins);
    if (!b) return std::nullopt;
    if (b->node.contains("condition")) {
      b->node["join_type"] = "left_semi";
      b->cols.resize(b->cols.size() - ins[1].cols.size());
      return b;
    }
    return opaque(n, std::move(source),
                  "a semi join whose keys are not known: imported as an operator that may "
                  "remove any rows");
  }
  std::vector<const PlanOp*> scans;
  scansUnder(*n.inputs[1], scans);
  std::string tables;
  for (const PlanOp* s : scans) tables += (tables.empty() ? "" : ", ") + s->table;
  return opaque(n, std::move(ins[0]),
                "a semi join without a dynamic filter, whose use (IN or NOT IN) the plan does "
                "not print: imported as an operator that may remove any rows, its filtering "
                "input (" +
                    tables + ") left out");
}

}  // namespace rfguard::trino_import
