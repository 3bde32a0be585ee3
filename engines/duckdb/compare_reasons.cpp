// Why DuckDB reports no filter where the duckdb profile places one: what
// DuckDB's executor does that the profile, a placement policy, cannot know
// (`rfguard duckdb compare`, docs/duckdb.md).
#include "engines/duckdb/compare_reasons.h"

#include "ir/plan.h"

namespace rfguard::engine {

namespace {

const PlanNode* findNode(const PlanNode& n, int id) {
  if (n.id == id) return &n;
  for (const auto& c : n.children)
    if (const PlanNode* f = findNode(*c, id)) return f;
  return nullptr;
}

/// The nodes from `from` down to node `id`, both included; false when not below.
bool pathTo(const PlanNode& from, int id, std::vector<const PlanNode*>& path) {
  path.push_back(&from);
  if (from.id == id) return true;
  for (const auto& c : from.children)
    if (pathTo(*c, id, path)) return true;
  path.pop_back();
  return false;
}

}  // namespace

std::string duckDbUnreportedReason(const PlanNode& plan, const ImportedQuery& imp, int producerId,
                                   int scanId) {
  const PlanNode* producer = findNode(plan, producerId);
  if (!producer) return "";
  if (const PlanNode* scan = findNode(plan, scanId);
      scan && scan->op == PlanOp::Scan && scan->table.rfind("empty_", 0) == 0)
    return "the scan stands for an EMPTY_RESULT, a part of the plan DuckDB proved empty: there "
           "is no scan to filter";
  if (imp.copied.count(scanId))
    return "the scan is in a copy the import made of a DELIM_SCAN's or CTE's input, which DuckDB "
           "reads materialised: there is no such scan to filter";
  if (imp.markJoins.count(producerId))
    return "join #" + std::to_string(producerId) +
           " is a MARK join in DuckDB (an IN list or subquery filtered above it), imported as a "
           "semi join: DuckDB builds join filters at INNER, RIGHT and SEMI joins only";
  auto rows = [&](int id) -> std::optional<long long> {
    auto it = imp.cardinality.find(id);
    if (it == imp.cardinality.end()) return std::nullopt;
    return it->second;
  };
  // A join above the scan (the producer or an enclosing one) with an empty
  // build side: DuckDB skips its probe side, so the filter is never filled.
  std::vector<const PlanNode*> fromRoot;
  if (pathTo(plan, scanId, fromRoot))
    for (size_t i = 0; i + 1 < fromRoot.size(); ++i) {
      const PlanNode* n = fromRoot[i];
      if (n->op != PlanOp::Join || n->children.size() != 2 ||
          fromRoot[i + 1] != n->children[0].get())
        continue;
      auto build = rows(n->children[1]->id);
      if (build && *build == 0)
        return "join #" + std::to_string(n->id) +
               " above the scan had an empty build side: DuckDB skips its probe side, and the "
               "filter is never filled";
    }
  std::vector<const PlanNode*> path;
  if (producer->children.empty() || !pathTo(*producer->children[0], scanId, path)) return "";
  for (const PlanNode* n : path) {
    if (n->op == PlanOp::Sort || n->op == PlanOp::Aggregate || n->op == PlanOp::Limit ||
        n->op == PlanOp::Window)
      return std::string("a ") + opName(n->op) + " (#" + std::to_string(n->id) +
             ") between them ends a pipeline: the scan can run before the build side is done, "
             "and DuckDB reports the filter only when it arrived in time";
  }
  return "";
}

std::string duckDbUnreadFilterConsumer(const ImportNote& loss) {
  const std::string tail = "/extra_info/Dynamic Filters";
  const std::string& p = loss.pointer;
  if (p.size() > tail.size() && p.compare(p.size() - tail.size(), tail.size(), tail) == 0)
    return p.substr(0, p.size() - tail.size());
  return "";
}

}  // namespace rfguard::engine
