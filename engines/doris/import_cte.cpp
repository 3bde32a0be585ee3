// CTEs of a shape plan. Doris runs a CTE's producer once and each
// `PhysicalCteConsumer` reads its rows; rfguard's plans have no shared
// subplans, so each consumer imports a copy of the producer's operators: the
// same rows, as a CTE's query is deterministic. A filter Doris pushes into the
// producer (every consumer joined on the same column) is a target in every
// copy, as it filters the rows every consumer reads; a filter a join inside
// the producer builds is one filter per copy (ids of the copy's own after the
// first). A filter applied at a consumer is imported at the scan below where
// it removes the same rows (engines/scan_below.h).
#include <algorithm>

#include "engines/doris/import_state.h"
#include "engines/scan_below.h"

namespace rfguard::doris_import {

namespace {

/// The RFs that joins in `n`'s subtree build (consumers' producers not included).
void builtIn(const ShapeNode& n, const std::map<int, RfSpec>& rfs, std::map<int, int>& out,
             int& next) {
  for (const auto& [rf, s] : rfs)
    if (s.join == &n) out.emplace(rf, next++);
  for (const auto& c : n.children) builtIn(*c, rfs, out, next);
}

}  // namespace

std::string Importer::cteIdOf(const ShapeNode& n) {
  // PhysicalCteConsumer ( cteId=CTEId#3 ), CteProducer[cteId= ( CTEId#3=] )
  size_t at = n.text.find("CTEId#");
  if (at != std::string::npos) {
    at += 6;
  } else if ((at = n.text.find("cteId=")) != std::string::npos) {
    at += 6;
  } else {
    return "";
  }
  size_t end = at;
  while (end < n.text.size() && std::isdigit(static_cast<unsigned char>(n.text[end]))) ++end;
  return n.text.substr(at, end - at);
}

const ShapeNode* Importer::cteBody(const ShapeNode& n) const {
  const std::string head = headOf(n.text);
  if (head == "PhysicalCteAnchor" && n.children.size() == 2) return n.children[1].get();
  if (head != "PhysicalCteConsumer") return nullptr;
  auto it = ctes_.find(cteIdOf(n));
  return it == ctes_.end() ? nullptr : it->second;
}

int Importer::rfId(int rf) const {
  for (auto r = remaps_.rbegin(); r != remaps_.rend(); ++r)
    if (auto it = r->find(rf); it != r->end()) return it->second;
  return rf + 1;
}

std::map<std::string, std::set<std::string>> Importer::cteColumns() {
  std::map<std::string, std::set<std::string>> out = cteSeen_;
  for (const auto& [id, body] : ctes_) {
    const auto& has = provides(*body);
    for (const auto& name : unrouted_)
      if (has.count(name)) out[id].insert(name);
  }
  return out;
}

std::optional<Importer::Built> Importer::cteAnchor(const ShapeNode& n,
                                                   const std::set<std::string>& wanted) {
  const std::string head = n.children.empty() ? "" : headOf(n.children[0]->text);
  if (n.children.size() != 2 || (head != "PhysicalCteProducer" && head != "CteProducer") ||
      n.children[0]->children.size() != 1)
    return error(n,
                 "a CTE anchor that is not a CTE producer of one input and the query "
                 "that reads it"),
           std::nullopt;
  const std::string id = cteIdOf(*n.children[0]);
  if (id.empty() || id != cteIdOf(n))
    return error(*n.children[0], "a CTE producer without its anchor's cteId"), std::nullopt;
  if (ctes_.at(id) != n.children[0]->children[0].get())
    return error(*n.children[0], "a second CTE producer of cteId " + id), std::nullopt;
  return build(*n.children[1], wanted);
}

std::optional<Importer::Built> Importer::cteConsumer(const ShapeNode& n,
                                                     const std::set<std::string>& wanted) {
  const std::string id = cteIdOf(n);
  if (!n.children.empty()) return error(n, "a CTE consumer with inputs"), std::nullopt;
  auto it = ctes_.find(id);
  if (it == ctes_.end())
    return error(n, "a CTE consumer of cteId " + id + ", which no CTE producer of the plan makes"),
           std::nullopt;
  if (expanding_.count(id))
    return error(n, "CTE " + id + " reads itself (recursive CTEs are not imported)"), std::nullopt;
  const int copy = ++copies_[id];
  std::map<int, int> remap;
  if (copy > 1) builtIn(*it->second, rfs_, remap, nextFresh_);
  remaps_.push_back(std::move(remap));
  expanding_.insert(id);
  cteSeen_[id].insert(wanted.begin(), wanted.end());
  std::set<std::string> want = wanted;
  if (auto w = cteWanted.find(id); w != cteWanted.end())
    want.insert(w->second.begin(), w->second.end());
  auto b = build(*it->second, want);
  expanding_.erase(id);
  remaps_.pop_back();
  if (!b) return std::nullopt;
  loss(n, "CTE " + id + ": Doris runs its producer once for all its consumers; imported as a " +
              (copy == 1 ? "copy" : "further copy (" + std::to_string(copy) + ")") +
              " of the producer's operators here (rfguard shares no subplans)");
  // apply RFs: RF1 RF3 at the consumer.
  for (const auto& [w, rf] : appliedFilters(n, "CTE consumer")) {
    auto spec = rfs_.find(rf);
    consumed_.insert(rf);  // imported or said here
    std::optional<ResolvedColumn> col;
    for (const auto& d : spec->second.dsts) {
      std::string why;
      if ((col = over(b->cols, &b->same)(d, why))) break;
    }
    if (!col) {
      loss(n, "the CTE consumer applies " + w + " to " + spec->second.src +
                  "'s targets, none of them a column the CTE outputs: left out");
      continue;
    }
    const engine::ScanBelow below = engine::scanBelow(b->node, Json{{"column", col->id}});
    if (!below.scan) {
      loss(n, "the CTE consumer applies " + w +
                  " above operators of the CTE that change rows (rfguard applies filters at "
                  "scans): left out");
      continue;
    }
    (*below.scan)["runtime_filter_targets"].push_back({{"id", rfId(rf)}, {"target", below.target}});
    engine::ImportedFilter f;
    f.scanPointer = where(n);
    f.column = below.target.contains("column") ? below.target["column"].get<std::string>() : w;
    f.kinds = kKinds;
    q_.dynamicFilters.push_back(f);
    pendingTargets_[rfId(rf)].push_back(q_.dynamicFilters.size() - 1);
    loss(n, "the CTE consumer applies " + w + ": imported at the scan of " +
                (*below.scan)["table"].get<std::string>() + " below it" +
                (below.throughKeys ? ", through the group keys of an aggregate (a filter of a "
                                     "group key removes whole groups either way)"
                                   : ", whose rows reach the consumer unchanged"));
  }
  return b;
}

}  // namespace rfguard::doris_import
