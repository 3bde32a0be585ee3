// DuckDB's dynamic filters, read at the scans and attributed to the joins that
// built them. DuckDB prints no producer: a filter on scan column c comes from
// an ancestor join whose probe-side key is c, passed through unchanged
// (docs/duckdb.md).
#include <algorithm>

#include "engines/duckdb/import_state.h"
#include "ir/comparison.h"

namespace rfguard::duckdb_import {

namespace {

/// Finds node `id` below `n`.
Json* find(Json& n, int id) {
  if (n.value("id", -1) == id) return &n;
  auto it = n.find("children");
  if (it == n.end()) return nullptr;
  for (auto& c : *it)
    if (Json* f = find(c, id)) return f;
  return nullptr;
}

/// The consumer's target: the scan column, under the probe key's cast if it has one.
Json targetOf(const JoinKey& k, const std::string& column) {
  Json col{{"column", column}};
  if (k.probe.contains("cast")) return Json{{"cast", col}, {"type", k.probe["type"]}};
  return col;
}

}  // namespace

void Importer::dynamicFilters(int scanId, const std::string& text, const Cols& scanCols,
                              const std::string& ptr) {
  const std::string p = ptr + "/extra_info/Dynamic Filters";
  for (const auto& raw : splitConjuncts(text)) {
    std::string piece = trim(raw);
    if (piece.rfind("optional:", 0) == 0) piece = trim(piece.substr(9));
    std::string err;
    TextExprPtr e = parseExpr(piece, err);
    if (!e || e->kind != TextExpr::Kind::Call || e->args.empty() ||
        e->args[0]->kind != TextExpr::Kind::Name) {
      loss(p, "dynamic filter \"" + piece + "\" is not read" + (err.empty() ? "" : ": " + err));
      continue;
    }
    const Col* col = column(e->args[0], scanCols, p);
    if (!col) {
      loss(p, "dynamic filter \"" + piece + "\" is on no column of the scan");
      continue;
    }
    auto it = std::find_if(pending.begin(), pending.end(), [&](const PendingFilter& f) {
      return f.scan == scanId && f.column == col->id;
    });
    if (it == pending.end()) {
      pending.push_back({scanId, col->id, ptr, {}, 0});
      it = pending.end() - 1;
    }
    const std::string& f = e->text;
    if (f != "in" || e->args.size() < 2 || e->args[1]->kind != TextExpr::Kind::Bloom)
      expr(e, scanCols, p);  // tells the column's type by its literals
    if (f == "in" && e->args.size() == 2 && e->args[1]->kind == TextExpr::Kind::Bloom) {
      it->kinds.insert("bloom");
    } else if (f == "in") {
      it->kinds.insert("in");
    } else if (const ComparisonInfo* cmp = comparisonNamed(f); cmp && cmp->order) {
      it->kinds.insert("min_max");
      if (cmp->onGreater) ++it->bounds;  // a lower bound: > or >=
    } else if (cmp && cmp->kind == Comparison::Eq) {
      it->kinds.insert("in");
      ++it->bounds;
    } else {
      loss(p, "dynamic filter \"" + piece + "\" is not read");
    }
  }
}

void Importer::attribute(Json& root) {
  int nextFilter = 1;
  std::map<std::pair<int, std::string>, int> filterOf;  // (join, probe origin) -> filter id
  for (const auto& pf : pending) {
    std::vector<const JoinKey*> cands;
    for (const auto& k : keys)
      if (k.origin == pf.column && k.generating) cands.push_back(&k);
    // No join that DuckDB builds filters at has this key: the nearest join
    // that has it anyway, for the verifier to judge (a filter on a LEFT join's
    // preserved side is a finding, not an import failure).
    if (cands.empty())
      for (const auto& k : keys)
        if (k.origin == pf.column) {
          cands.push_back(&k);
          break;
        }
    DynamicFilter df;
    df.scanPointer = pf.pointer;
    df.column = pf.column;
    df.kinds.assign(pf.kinds.begin(), pf.kinds.end());
    for (const JoinKey* k : cands) df.candidates.push_back(k->join);
    if (cands.empty()) {
      q.losses.push_back(
          {pf.pointer, "dynamic filter on " + pf.column +
                           ": no join above has it as a probe key, unchanged: not imported"});
      q.dynamicFilters.push_back(df);
      continue;
    }
    // Keys are collected bottom-up: the nearest join first. Each equality
    // producer prints its own lower bound, so the count of bounds tells how
    // many joins filled the filter.
    std::vector<const JoinKey*> chosen = cands;
    if (cands.size() > 1 && pf.bounds < static_cast<int>(cands.size())) {
      chosen.assign(cands.begin(), cands.begin() + std::max(1, pf.bounds));
      std::string list;
      for (const JoinKey* k : cands)
        list += (list.empty() ? "" : ", ") + std::string("#") + std::to_string(k->join);
      std::string took;
      for (const JoinKey* k : chosen)
        took += (took.empty() ? "" : ", ") + std::string("#") + std::to_string(k->join);
      q.ambiguities.push_back({pf.pointer, "dynamic filter on " + pf.column +
                                               " may come from joins " + list +
                                               ": attributed to the nearest (" + took + ")"});
    }
    for (const JoinKey* k : chosen) {
      df.producers.push_back(k->join);
      auto key = std::make_pair(k->join, pf.column);
      int fid;
      if (auto it = filterOf.find(key); it != filterOf.end()) {
        fid = it->second;
      } else {
        fid = nextFilter++;
        filterOf[key] = fid;
        Json* join = find(root, k->join);
        if (!join) continue;
        Json f{{"id", fid},
               {"build", k->build},
               {"probe", k->probe},
               {"op", k->op},
               {"kinds", df.kinds}};
        (*join)["runtime_filters"].push_back(f);
      }
      Json* scan = find(root, pf.scan);
      if (!scan) continue;
      (*scan)["runtime_filter_targets"].push_back(
          Json{{"id", fid}, {"target", targetOf(*k, pf.column)}});
    }
    q.dynamicFilters.push_back(df);
  }
  // TopN thresholds: from the TOP_N whose first key is the scan's column.
  for (const auto& pt : pendingTopN) {
    std::vector<const TopNKey*> cands;
    for (const auto& k : topnKeys)
      if (k.origin == pt.column) cands.push_back(&k);
    DynamicFilter df;
    df.scanPointer = pt.pointer;
    df.column = pt.column;
    df.kinds = {"min_max"};
    for (const TopNKey* k : cands) df.candidates.push_back(k->limit);
    if (cands.empty()) {
      q.losses.push_back({pt.pointer, "TopN dynamic filter on " + pt.column +
                                          ": no TOP_N above sorts by it first: not imported"});
      q.dynamicFilters.push_back(df);
      continue;
    }
    if (cands.size() > 1)
      q.ambiguities.push_back({pt.pointer, "TopN dynamic filter on " + pt.column +
                                               " may come from " + std::to_string(cands.size()) +
                                               " TOP_N operators: attributed to the nearest (#" +
                                               std::to_string(cands[0]->limit) + ")"});
    const TopNKey* k = cands[0];
    df.producers.push_back(k->limit);
    int fid = nextFilter++;
    if (Json* limit = find(root, k->limit))
      (*limit)["runtime_filters"].push_back(Json{{"id", fid},
                                                 {"build", k->column},
                                                 {"probe", k->column},
                                                 {"op", k->ascending ? "<=" : ">="},
                                                 {"null_allowed", k->nullsFirst},
                                                 {"kinds", {"min_max"}}});
    if (Json* scan = find(root, pt.scan))
      (*scan)["runtime_filter_targets"].push_back(
          Json{{"id", fid}, {"target", {{"column", pt.column}}}});
    q.dynamicFilters.push_back(df);
  }
}

void Importer::addRowids(Json& root) {
  if (root.value("op", "") == "scan" && rowidScans.count(root.value("alias", ""))) {
    root["columns"].push_back("rowid");
    auto& use = tables[aliasTable[root["alias"].get<std::string>()]].columns;
    if (std::find(use.begin(), use.end(), "rowid") == use.end()) use.push_back("rowid");
  }
  if (root.contains("children"))
    for (auto& c : root["children"]) addRowids(c);
}

}  // namespace rfguard::duckdb_import
