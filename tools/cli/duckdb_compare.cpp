// `rfguard duckdb compare`: the duckdb profile against DuckDB itself. Each
// query runs in DuckDB; the consumers DuckDB reports (imported) are compared
// with the ones the duckdb profile places on the same join tree, and every
// difference gets the reason it is expected, or "unexplained".
#include <nlohmann/json.hpp>
#include <set>

#include "engines/duckdb/schema_sql.h"
#include "pipeline/session.h"
#include "rules/rf_planner.h"
#include "tools/cli/cli.h"
#include "tools/cli/duckdb_run.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

/// A consumer: the producing node and the target at the scan.
struct Placed {
  int producer = 0;
  int scan = 0;
  std::string target;
  bool operator<(const Placed& o) const {
    return std::tie(producer, scan, target) < std::tie(o.producer, o.scan, o.target);
  }
  bool operator==(const Placed& o) const {
    return producer == o.producer && scan == o.scan && target == o.target;
  }
};

const PlanNode* findNode(const PlanNode& n, int id) {
  if (n.id == id) return &n;
  for (const auto& c : n.children)
    if (const PlanNode* f = findNode(*c, id)) return f;
  return nullptr;
}

/// The nodes from `from` down to node `id`, both included; empty when not below.
bool pathTo(const PlanNode& from, int id, std::vector<const PlanNode*>& path) {
  path.push_back(&from);
  if (from.id == id) return true;
  for (const auto& c : from.children)
    if (pathTo(*c, id, path)) return true;
  path.pop_back();
  return false;
}

/// The consumers placed on `plan`, by producer node.
std::vector<Placed> placements(const PlanNode& plan) {
  std::map<int, int> producerOf;  // filter id -> node
  std::vector<std::pair<int, const PlanNode*>> scans;
  std::function<void(const PlanNode&)> walk = [&](const PlanNode& n) {
    for (const auto& f : n.runtimeFilters) producerOf[f.id] = n.id;
    if (!n.runtimeFilterTargets.empty()) scans.push_back({n.id, &n});
    for (const auto& c : n.children) walk(*c);
  };
  walk(plan);
  std::vector<Placed> out;
  for (const auto& [id, scan] : scans)
    for (const auto& t : scan->runtimeFilterTargets)
      out.push_back({producerOf[t.id], id, exprToString(*t.target)});
  std::sort(out.begin(), out.end());
  return out;
}

/// Why DuckDB reported no filter where the profile places one.
std::string whyUnreported(const PlanNode& plan, const duckdb_import::ImportedQuery& imp,
                          const Placed& p) {
  const PlanNode* producer = findNode(plan, p.producer);
  if (!producer) return "";
  if (const PlanNode* scan = findNode(plan, p.scan);
      scan && scan->op == PlanOp::Scan && scan->table.rfind("empty_", 0) == 0)
    return "the scan stands for an EMPTY_RESULT, a part of the plan DuckDB proved empty: there "
           "is no scan to filter";
  if (imp.copied.count(p.scan))
    return "the scan is in a copy the import made of a DELIM_SCAN's or CTE's input, which DuckDB "
           "reads materialised: there is no such scan to filter";
  if (imp.markJoins.count(p.producer))
    return "join #" + std::to_string(p.producer) +
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
  if (pathTo(plan, p.scan, fromRoot))
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
  if (producer->children.empty() || !pathTo(*producer->children[0], p.scan, path)) return "";
  for (const PlanNode* n : path) {
    if (n->op == PlanOp::Sort || n->op == PlanOp::Aggregate || n->op == PlanOp::Limit ||
        n->op == PlanOp::Window)
      return std::string("a ") + opName(n->op) + " (#" + std::to_string(n->id) +
             ") between them ends a pipeline: the scan can run before the build side is done, "
             "and DuckDB reports the filter only when it arrived in time";
  }
  return "";
}

/// Scans (rfguard node ids) where DuckDB printed a dynamic filter the import
/// could not read or attribute: what DuckDB filtered there is unknown.
std::set<int> scansWithUnimported(const duckdb_import::ImportedQuery& imp, size_t& printed,
                                  size_t& imported) {
  std::map<std::string, int> scanAt;  // DuckDB pointer -> rfguard node
  for (const auto& [id, ptr] : imp.sourcePointer) scanAt.emplace(ptr, id);
  std::set<int> out;
  auto mark = [&](const std::string& scanPointer) {
    if (auto it = scanAt.find(scanPointer); it != scanAt.end()) out.insert(it->second);
  };
  for (const auto& df : imp.dynamicFilters) {
    ++printed;
    if (!df.producers.empty()) {
      ++imported;
      continue;
    }
    mark(df.scanPointer);
  }
  const std::string tail = "/extra_info/Dynamic Filters";
  for (const auto& l : imp.losses)
    if (l.pointer.size() > tail.size() &&
        l.pointer.compare(l.pointer.size() - tail.size(), tail.size(), tail) == 0) {
      ++printed;  // a piece the import could not read
      mark(l.pointer.substr(0, l.pointer.size() - tail.size()));
    }
  return out;
}

}  // namespace

int runDuckDbCompare(const DuckDbCompareArgs& args, std::ostream& out, std::ostream& err) {
  DuckDbSetup setup;
  if (!setUpDuckDb(args.file, args.threads, args.limits, args.scale, args.seed, setup, err))
    return kExitInputError;
  SessionOptions so;
  so.given = GivenPlans::Json;
  so.schema = setup.schema;
  Session session(so);
  Diagnostics diags;
  bool inputError = false;
  size_t agree = 0, differ = 0, unexplained = 0, reported = 0, placed = 0;
  // Queries whose comparison the import leaves open (a dynamic filter DuckDB
  // printed and the import lost): counted apart, never as agreeing.
  size_t unknown = 0, printed = 0, imported = 0;
  Json queries = Json::array();
  for (const auto& q : setup.queries) {
    engine::Result rows;
    std::string profile, error;
    if (!setup.db->profile(duckdb_import::duckdbDialect(q.sql), rows, profile, error)) {
      diags.error(q.file, q.loc, "DuckDB: " + error);
      inputError = true;
      continue;
    }
    const size_t first = session.queries().size();
    if (!session.loadFormat(profile, "duckdb-profile:" + q.name, InputFormat::DuckDb, diags)) {
      inputError = true;
      continue;
    }
    const QueryRun& run = session.queries()[first];
    const PlanNode& plan = *run.query.plan;
    std::vector<Placed> duck = placements(plan);
    PlanPtr copy = clonePlan(plan);
    RfReport report;
    planRuntimeFilters(*copy, report, RfOptions(Profile::DuckDb));
    std::vector<Placed> mine = placements(*copy);
    reported += duck.size();
    placed += mine.size();
    const std::set<int> lost = scansWithUnimported(*run.imported, printed, imported);
    Json diffs = Json::array();
    for (const auto& p : mine)
      if (!std::binary_search(duck.begin(), duck.end(), p)) {
        std::string why = whyUnreported(plan, *run.imported, p);
        if (why.empty() && lost.count(p.scan))
          why =
              "unknown: DuckDB printed a dynamic filter at this scan that the import could not "
              "read or attribute to a join";
        if (why.empty()) ++unexplained;
        diffs.push_back({{"kind", "placed, not reported"},
                         {"producer", p.producer},
                         {"scan", p.scan},
                         {"target", p.target},
                         {"why", why.empty() ? "unexplained" : why}});
      }
    for (const auto& p : duck)
      if (!std::binary_search(mine.begin(), mine.end(), p)) {
        ++unexplained;  // DuckDB did what the profile says it cannot
        diffs.push_back({{"kind", "reported, not placed"},
                         {"producer", p.producer},
                         {"scan", p.scan},
                         {"target", p.target},
                         {"why", "unexplained"}});
      }
    // An agreement over a plan that lost a filter proves nothing (TPC-H q15:
    // the lost filter and a lost join condition read "0 = 0").
    const bool open = !lost.empty();
    open ? ++unknown : diffs.empty() ? ++agree : ++differ;
    if (args.format == "text") {
      out << "-- " << q.name << ": DuckDB " << duck.size() << ", profile " << mine.size()
          << (open ? ", unknown: the import lost " + std::to_string(lost.size()) +
                         " scan's dynamic filters"
              : diffs.empty() ? ", agree"
                              : "")
          << "\n";
      for (const auto& d : diffs)
        out << "  " << d["kind"].get<std::string>() << ": #" << d["producer"].get<int>() << " -> "
            << d["target"].get<std::string>() << " at scan #" << d["scan"].get<int>() << ": "
            << d["why"].get<std::string>() << "\n";
    }
    queries.push_back({{"name", q.name},
                       {"unknown", open},
                       {"reported", duck.size()},
                       {"placed", mine.size()},
                       {"differences", diffs}});
  }
  err << diags.render();
  if (args.format == "json") {
    out << Json{{"engine", setup.db->version()},
                {"queries", queries},
                {"agree", agree},
                {"differ", differ},
                {"unknown", unknown},
                {"unexplained", unexplained},
                {"dynamic_filters_printed", printed},
                {"dynamic_filters_imported", imported}}
               .dump(2)
        << "\n";
  } else {
    out << "-- " << queries.size() << " queries: " << agree << " agree, " << differ << " differ ("
        << unexplained << " unexplained differences), " << unknown
        << " unknown (a dynamic filter lost in the import); DuckDB printed " << printed
        << " dynamic filters, " << imported << " imported; DuckDB reported " << reported
        << " consumers, the profile placed " << placed << "\n";
  }
  if (inputError) return kExitInputError;
  return unexplained ? kExitFindings : kExitOk;
}

}  // namespace rfguard
