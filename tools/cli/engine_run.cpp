#include "tools/cli/engine_run.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include "engines/query_facts.h"
#include "grammar/sql.h"
#include "ir/printers.h"
#include "pipeline/session.h"
#include "tools/cli/cli.h"
#include "tools/cli/input_options.h"
#include "tools/cli/lint.h"
#include "tools/cli/lint_policy.h"

namespace rfguard {

namespace {

/// The database's tables as the engine declares them, with rfguard's table properties.
Catalog engineCatalog(const engine::Adapter& engine, const std::vector<engine::EngineTable>& tables,
                      const Catalog& declared) {
  Catalog out;
  for (const auto& et : tables) {
    TableDef t;
    t.name = et.name;
    const TableDef* d = declared.table(et.name);
    for (const auto& c : et.columns) {
      ColumnDef col;
      col.name = c.name;
      auto type = parseType(engine.typeFromEngine(c.type));
      col.type = type.value_or(Type{});
      col.nullable = c.nullable;
      if (d && d->columnIndex(c.name) >= 0) col.ndv = d->columns[d->columnIndex(c.name)].ndv;
      t.columns.push_back(col);
    }
    if (d) {
      t.rows = d->rows;
      t.runtimeFilter = d->runtimeFilter;
      t.distributionKey = d->distributionKey;
    }
    out.addTable(std::move(t));
  }
  return out;
}

/// An Aggregate with more than one grouping set (ROLLUP, CUBE, GROUPING SETS)
/// in `n`, its subqueries included.
bool hasGroupingSets(const PlanNode& n) {
  if (n.op == PlanOp::Aggregate && n.groupingSets.size() > 1) return true;
  bool found = false;
  forEachExpr(n, [&](const ExprPtr& e) {
    std::function<void(const Expr&)> visit = [&](const Expr& x) {
      if (x.kind == ExprKind::Subquery && x.plan) found = found || hasGroupingSets(*x.plan);
      for (const auto& a : x.args) visit(*a);
    };
    visit(*e);
  });
  for (const auto& c : n.children) found = found || hasGroupingSets(*c);
  return found;
}

}  // namespace

bool setUpEngine(const engine::Adapter& engine, const std::string& file, int threads,
                 const EngineLimits& limits, double scale, uint64_t seed, EngineSetup& out,
                 std::ostream& err) {
  const std::string who = engine.displayName();
  Diagnostics diags;
  std::string text;
  if (!readInputFile(file, text, diags) || !loadSql(text, file, out.declared, out.queries, diags)) {
    err << renderErrors(diags);
    return false;
  }
  std::string error;
  out.db =
      engine.open(engine::Options{threads, limits.memoryLimitMb, limits.timeoutSeconds}, error);
  if (!out.db) {
    err << "rfguard " << engine.name() << ": " << error << "\n";
    return false;
  }
  engine::FillSpec fill;
  fill.seed = seed;
  fill.hot = engine::comparedLiterals(out.queries);
  std::map<std::string, long long> rowsOf;
  for (const auto& [name, t] : out.declared.tables()) {
    // Scaled, but small tables (TPC-H's region and nation) keep up to 25 rows.
    const long long declaredRows = t.rows.value_or(1000);
    rowsOf[name] = std::max(0LL, std::max(std::llround(static_cast<double>(declaredRows) * scale),
                                          std::min(declaredRows, 25LL)));
  }
  // Join keys draw evenly over the keys they join: join sizes stay near the rows.
  fill.joinKeys = engine::joinKeyDomains(out.queries, out.declared, rowsOf);
  for (const auto& [name, t] : out.declared.tables()) {
    fill.rows = rowsOf[name];
    if (!out.db->execute(engine.createTableSql(t), nullptr, error) ||
        !out.db->execute(engine.populateSql(t, fill), nullptr, error)) {
      diags.error(file, t.loc, who + ": table " + name + ": " + error);
      err << renderErrors(diags);
      return false;
    }
  }
  for (const auto& [name, v] : out.declared.views()) {
    if (!out.db->execute(engine.createViewSql(v), nullptr, error)) {
      diags.error(v.file, v.loc, who + ": view " + name + ": " + error);
      err << renderErrors(diags);
      return false;
    }
  }
  std::vector<engine::EngineTable> tables;
  if (!out.db->tables(tables, error)) {
    err << "rfguard " << engine.name() << ": " << error << "\n";
    return false;
  }
  out.schema = engineCatalog(engine, tables, out.declared);
  return true;
}

int runEngineRun(const EngineRunArgs& args, std::ostream& out, std::ostream& err) {
  const engine::Adapter& eng = *args.engine;
  const std::string who = eng.displayName();
  EngineSetup setup;
  if (!setUpEngine(eng, args.file, args.threads, args.limits, args.scale, args.seed, setup, err))
    return kExitInputError;
  auto& db = setup.db;
  const auto& queries = setup.queries;
  Diagnostics diags;
  std::string error;
  SessionOptions so;
  so.given = GivenPlans::Json;  // the engine's plan is judged as it ran
  so.schema = setup.schema;
  Session session(so);
  if (!args.savePlans.empty()) std::filesystem::create_directories(args.savePlans);
  LintFile lf;
  ImportNoteLog notes(args.verbose);
  lf.path = args.file;
  bool findings = false;
  for (const auto& q : queries) {
    engine::Result rows;
    std::string profile;
    if (!db->profile(eng.querySql(q.sql), rows, profile, error)) {
      diags.error(q.file, q.loc, who + ": " + error);
      lf.inputError = true;
      continue;
    }
    std::string input = eng.name() + "-profile:" + q.name;
    if (!args.savePlans.empty()) {
      input = (std::filesystem::path(args.savePlans) / (q.name + ".json")).string();
      std::ofstream(input) << profile;
    }
    const size_t first = session.queries().size();
    if (!session.loadEngine(profile, input, eng, diags)) lf.inputError = true;
    for (size_t i = first; i < session.queries().size(); ++i) {
      QueryRun& run = session.queries()[i];
      run.query.name = q.name;
      run.query.sql = q.sql;
      run.query.file = q.file;
      run.query.loc = q.loc;
      run.query.namedByPosition = q.namedByPosition;
      lf.queries.push_back(q.name);
      // An engine's plan may print a grouped aggregate's keys, not its grouping
      // sets (DuckDB's profile); rfguard bound the SQL itself and can say what
      // was lost.
      if (run.imported && q.plan && hasGroupingSets(*q.plan) && !hasGroupingSets(*run.query.plan)) {
        auto noted = std::make_shared<engine::ImportedQuery>(*run.imported);
        noted->losses.push_back({"", "the query groups by ROLLUP, CUBE or GROUPING SETS, which " +
                                         who +
                                         "'s profile does not show: imported as a plain "
                                         "GROUP BY over all its keys"});
        run.imported = noted;
      }
      notes.add(run, err);
      if (args.format == "text") {
        out << "-- " << q.name << " (" << q.file << ":" << q.loc.line << ":" << q.loc.col
            << "): " << who << " " << db->version() << ", " << rows.rows.size() << " rows\n"
            << planToText(*run.query.plan) << "\n";
      }
      for (auto& f : session.verify(run)) {
        FindingSite site = session.siteOf(run, f);
        lf.results.push_back(lintResult(run.query, std::move(f), std::move(site)));
        findings = true;
      }
    }
  }
  notes.summarise(err);
  err << renderErrors(diags);
  lf.errors = diags.items();
  std::vector<LintFile> files{std::move(lf)};
  if (args.format == "json")
    writeLintJson(files, out);
  else if (args.format == "sarif")
    writeLintSarif(files, out, publishedDocsUrl(""));
  else
    writeLintText(files, out);
  return files[0].inputError ? kExitInputError : findings ? kExitFindings : kExitOk;
}

}  // namespace rfguard
