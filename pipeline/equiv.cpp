#include "pipeline/equiv.h"

#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "engines/adapter.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
#include "verifier/counterexample.h"
#include "verifier/normal_form.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

bool carriesFilters(const PlanNode& root) {
  bool any = false;
  forEachNode(root, [&](const PlanNode& n) {
    any = any || !n.runtimeFilters.empty() || !n.runtimeFilterTargets.empty();
  });
  return any;
}

/// "table t: column k int NOT NULL" lines of the tables a plan reads.
std::map<std::string, std::string> tableShapes(const PlanNode& root) {
  std::map<std::string, std::string> out;
  forEachNode(root, [&](const PlanNode& n) {
    if (n.op != PlanOp::Scan || out.count(n.table)) return;
    std::string s;
    for (const auto& c : n.tableColumns)
      s += (s.empty() ? "" : ", ") + c.id.substr(n.alias.size() + 1) + " " + c.type.toString() +
           (c.nullable ? "" : " NOT NULL");
    out[n.table] = "(" + s + ")";
  });
  return out;
}

/// The same output column ids in the same order.
bool sameColumns(const PlanNode& a, const PlanNode& b) {
  if (a.output.size() != b.output.size()) return false;
  for (size_t i = 0; i < a.output.size(); ++i)
    if (a.output[i].id != b.output[i].id) return false;
  return true;
}

/// A node's document without its subquery expressions' plans.
Json withoutSubqueryPlans(Json j) {
  if (j.is_object()) {
    if (j.contains("subquery")) j.erase("plan");
    for (auto& [k, v] : j.items()) v = withoutSubqueryPlans(std::move(v));
  } else if (j.is_array()) {
    for (auto& v : j) v = withoutSubqueryPlans(std::move(v));
  }
  return j;
}

Json stripPositions(Json j) {
  if (j.is_object()) {
    j.erase("id");
    j.erase("loc");
    for (auto& [k, v] : j.items()) v = stripPositions(std::move(v));
  } else if (j.is_array()) {
    for (auto& v : j) v = stripPositions(std::move(v));
  }
  return j;
}

}  // namespace

bool loadEquivSide(const std::string& text, const std::string& name, InputFormat format,
                   const Catalog& schema, EquivSide& out, Catalog& declared, Diagnostics& diags) {
  return loadEquivSide(text, name, format, schema, out, declared, diags, Dialect::Default);
}

bool loadEquivSide(const std::string& text, const std::string& name, InputFormat format,
                   const Catalog& schema, EquivSide& out, Catalog& declared, Diagnostics& diags,
                   Dialect dialect) {
  if (format == InputFormat::Auto) format = detectFormat(name, text);
  SessionOptions so;
  so.schema = schema;
  so.dialect = dialect;
  so.given = GivenPlans::Json;
  std::optional<Session> session;
  // A SQL side may declare its own tables (then they must match the other side's).
  if (format == InputFormat::Sql && !schema.tables().empty()) {
    SessionOptions alone = so;
    alone.schema = Catalog{};
    Session s(alone);
    Diagnostics ignored;
    if (s.loadFormat(text, name, format, ignored) && !s.inputs()[0].catalog.tables().empty())
      session.emplace(std::move(s));
  }
  if (!session) {
    session.emplace(so);
    if (!session->loadFormat(text, name, format, diags)) return false;
  }
  const auto& queries = session->queries();
  if (queries.size() != 1) {
    const std::string msg = "holds " + std::to_string(queries.size()) +
                            " queries; each side of a comparison is one query";
    if (queries.size() > 1 && queries[1].query.loc.line)
      diags.error(name, queries[1].query.loc, msg + " (the second starts here)");
    else if (queries.size() > 1 && format != InputFormat::Sql)
      diags.errorAt(name, "/queries/1", msg);
    else
      diags.error(name, {1, 1}, msg);
    return false;
  }
  const QueryRun& q = queries[0];
  declared = session->inputs()[0].catalog;
  out.file = name;
  out.name = q.query.name;
  out.plan = q.query.plan;
  out.filters = carriesFilters(*out.plan);
  if (out.filters)
    out.notes.push_back(
        "its runtime filters are not part of the comparison (rfguard check "
        "judges them)");
  if (q.imported) {
    out.importLosses = q.imported->losses.size();
    for (const auto& n : q.imported->losses)
      out.notes.push_back("not imported faithfully" +
                          (n.pointer.empty() ? "" : " (at " + n.pointer + ")") + ": " + n.message);
  }
  return true;
}

bool comparable(const PlanNode& original, const PlanNode& rewritten, std::string& why) {
  auto a = tableShapes(original), b = tableShapes(rewritten);
  for (const auto& [table, shape] : a)
    if (auto it = b.find(table); it != b.end() && it->second != shape) {
      why = "table " + table + " is " + shape + " in the original and " + it->second +
            " in the rewritten plan: not one schema";
      return false;
    }
  return true;
}

namespace {

/// "equivalent" with the proof, when `options` allow one and the normal forms
/// of the two plans are equal.
std::optional<EquivResult> proofOf(const PlanNode& original, const PlanNode& rewritten,
                                   const BoundedOptions& options) {
  if (!options.proofs) return std::nullopt;
  auto t0 = std::chrono::steady_clock::now();
  auto proof = provedEqual(original, rewritten);
  if (!proof) return std::nullopt;
  EquivResult r;
  r.verdict = "equivalent";
  r.requested = options.bound;
  r.bounded.bound = options.bound;
  r.proof = *proof;
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

using Pairs = std::vector<std::pair<const PlanNode*, const PlanNode*>>;

/// The most rows any table of `db` holds.
int mostRows(const rt::Database& db) {
  size_t rows = 0;
  for (const auto& [name, table] : db) rows = std::max(rows, table.rows.size());
  return static_cast<int>(rows);
}

/// "equivalent" when the plans differ only in the subtrees `pairs` (not the
/// roots), each returning the same columns and reading no outer column, and
/// each pair is equivalent alone (equal subtrees make equal plans; their
/// searches are smaller than the whole's).
std::optional<EquivResult> bySubtrees(const PlanNode& original, const Pairs& pairs,
                                      const BoundedOptions& options) {
  if (pairs[0].first == &original) return std::nullopt;  // the roots differ
  for (const auto& [x, y] : pairs)
    if (!sameColumns(*x, *y) || !freeColumns(*x).empty() || !freeColumns(*y).empty())
      return std::nullopt;
  EquivResult sub;
  for (size_t k = 0; k < pairs.size(); ++k) {
    EquivResult r = checkRewrite(*pairs[k].first, *pairs[k].second, options);
    if (r.verdict != "equivalent") return std::nullopt;
    sub.subtree += (sub.subtree.empty() ? "" : ", ") + nodeRef(*pairs[k].second);
    sub.bounded.databases += r.bounded.databases;
    addOracleAccount(r.bounded, sub.bounded);
    sub.ms += r.ms;
    sub.bounded.solverMs += r.bounded.solverMs;
    // Every value when each pair's verdict covers every value.
    sub.bounded.everyValue = (!k || sub.bounded.everyValue) && r.bounded.everyValue;
    if (!r.bounded.domain.empty() && !r.bounded.everyValue)
      sub.bounded.domain += (sub.bounded.domain.empty() ? "" : " and ") + r.bounded.domain;
    if (sub.bounded.valuesOpen.empty()) sub.bounded.valuesOpen = r.bounded.valuesOpen;
    if (!k) {
      sub.verdict = r.verdict;
      sub.requested = r.requested;
      sub.bounded.bound = r.bounded.bound;
    }
  }
  return sub;
}

/// The whole search stopped short of the bound: search around the changed
/// subtrees `pairs` (verifier/bounded.h's searchAround) with what is left of
/// the budget, and at least a quarter of it, so a check takes at most 1.25
/// times its budget.
void searchAroundChanges(const PlanNode& original, const PlanNode& rewritten, const Pairs& pairs,
                         const BoundedOptions& options, std::chrono::steady_clock::time_point start,
                         BoundedVerdict& v) {
  if (pairs[0].first == &original) return;  // the roots differ
  BoundedOptions around = options;
  const double spent =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  around.seconds = std::max(options.seconds - spent, options.seconds / 4);
  around.maxDatabases = std::max(options.maxDatabases - std::min(options.maxDatabases, v.databases),
                                 options.maxDatabases / 4);
  BoundedVerdict a = searchAround(original, rewritten, pairs, around);
  v.databases += a.databases;
  addOracleAccount(a, v);
  if (!a.error.empty()) v.error = a.error;
  if (!a.counterexample) {
    if (!a.limit.empty()) v.limit += (v.limit.empty() ? "" : "; ") + a.limit;
    return;
  }
  v.safe = false;
  v.bound = std::min(v.bound, mostRows(a.counterexample->db) - 1);
  v.counterexample = std::move(a.counterexample);
  v.around = a.around;
}

}  // namespace

int reportedBound(const EquivResult& r) {
  if (!r.bounded.counterexample) return r.bounded.bound;
  const Counterexample& c = *r.bounded.counterexample;
  return c.repeated ? r.bounded.bound + 1 : mostRows(c.db);
}

namespace {

EquivResult compareRewrite(const PlanNode& original, const PlanNode& rewritten,
                           const BoundedOptions& options) {
  EquivResult r;
  r.requested = options.bound;
  if (original.output.size() != rewritten.output.size()) {
    r.verdict = "different";
    auto columns = [](size_t n) { return std::to_string(n) + (n == 1 ? " column" : " columns"); };
    r.reason = "the original returns " + columns(original.output.size()) +
               " and the rewritten plan " + columns(rewritten.output.size());
    r.bounded.safe = false;
    return r;
  }
  if (auto proof = proofOf(original, rewritten, options)) return *proof;
  const Pairs pairs = changedSubtrees(original, rewritten);
  if (auto local = bySubtrees(original, pairs, options)) return *local;
  auto t0 = std::chrono::steady_clock::now();
  // Plans the solver encodes get a short search first (it finds small
  // counterexamples with the values people read), then the solver; the rest of
  // the search only when the solver does not decide.
  const bool encoded = options.everyValue && everyValueGap(original, rewritten).empty();
  BoundedOptions first = options;
  if (encoded) {
    first.maxDatabases = std::min<uint64_t>(options.maxDatabases, kQuickDatabases);
    first.seconds = options.seconds / 4;
  }
  r.bounded = checkEquivalent(original, rewritten, first);
  auto shortOfBound = [&] { return r.bounded.bound < options.bound || !r.bounded.complete; };
  const auto open = [&] { return !r.bounded.counterexample && r.bounded.error.empty(); };
  if (open() && options.everyValue) {
    checkEveryValue(original, rewritten, options, r.bounded);
    // The solver covered every database up to the bound (a LIMIT window no
    // such database passes still leaves the question open: constantsReached).
    if (r.bounded.everyValue) {
      r.bounded.bound = options.bound;
      r.bounded.complete = true;
      r.bounded.limit.clear();
    }
  }
  if (open() && !r.bounded.everyValue && shortOfBound()) {
    if (encoded) {  // the whole search after all, keeping the solver's account
      BoundedVerdict solver = r.bounded;
      r.bounded = checkEquivalent(original, rewritten, options);
      r.bounded.valuesOpen = solver.valuesOpen;
      r.bounded.solverMs = solver.solverMs;
      addOracleAccount(solver, r.bounded);
    }
    if (open() && shortOfBound())
      searchAroundChanges(original, rewritten, pairs, options, t0, r.bounded);
  }
  if (r.bounded.counterexample) {
    r.verdict = "different";
    r.sql = counterexampleScript(original, *r.bounded.counterexample, &rewritten,
                                 engine::scriptSpellings());
  } else if (!r.bounded.error.empty()) {
    r.verdict = "error";
    r.reason = r.bounded.error;
  } else {
    // A LIMIT window the search could not pass leaves the question open too.
    // The search's values are a finite domain: "equivalent" needs the solver's
    // word that no other values tell the plans apart either.
    r.verdict =
        r.bounded.bound >= options.bound && r.bounded.constantsReached && r.bounded.everyValue
            ? "equivalent"
            : "inconclusive";
    if (!r.bounded.constantsReached && r.bounded.limit.empty())
      r.bounded.limit = r.bounded.constants;
    if (r.verdict == "inconclusive" && r.bounded.limit.empty())
      r.bounded.limit = r.bounded.undecided;
  }
  return r;
}

}  // namespace

EquivResult checkRewrite(const PlanNode& original, const PlanNode& rewritten,
                         const BoundedOptions& options) {
  // All of the work counts: the proof attempt, the subtree searches, the script.
  const auto t0 = std::chrono::steady_clock::now();
  EquivResult r = compareRewrite(original, rewritten, options);
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

bool structurallyIdentical(const PlanNode& a, const PlanNode& b) {
  return stripPositions(planToJson(a)) == stripPositions(planToJson(b));
}

std::vector<std::pair<const PlanNode*, const PlanNode*>> changedSubtrees(const PlanNode& a,
                                                                         const PlanNode& b) {
  if (a.children.size() == b.children.size()) {
    Json na = stripPositions(planToJson(a)), nb = stripPositions(planToJson(b));
    na.erase("children");
    nb.erase("children");
    std::vector<const PlanNode*> sa, sb;  // the plans of the node's own subqueries
    forEachSubqueryPlan(a, [&](const PlanNode& p) { sa.push_back(&p); });
    forEachSubqueryPlan(b, [&](const PlanNode& p) { sb.push_back(&p); });
    // The node is unchanged, or changed only inside its subqueries' plans: the
    // change is in its children or those plans.
    const bool inSubqueries = na != nb && !sa.empty() && sa.size() == sb.size() &&
                              withoutSubqueryPlans(na) == withoutSubqueryPlans(nb);
    if (na == nb || inSubqueries) {
      std::vector<std::pair<const PlanNode*, const PlanNode*>> out;
      bool alike = true;  // every changed pair returns the same columns
      auto descend = [&](const PlanNode& x, const PlanNode& y) {
        if (structurallyIdentical(x, y)) return;
        auto below = changedSubtrees(x, y);
        for (const auto& [u, v] : below) alike = alike && sameColumns(*u, *v);
        out.insert(out.end(), below.begin(), below.end());
      };
      for (size_t i = 0; i < a.children.size(); ++i) descend(*a.children[i], *b.children[i]);
      if (inSubqueries)
        for (size_t i = 0; i < sa.size(); ++i) descend(*sa[i], *sb[i]);
      if (!out.empty() && alike) return out;
    }
  }
  return {{&a, &b}};
}

}  // namespace rfguard
