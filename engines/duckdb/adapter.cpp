// The DuckDB adapter: the importer, the SQL and the live engine behind the
// one interface every engine implements (engines/adapter.h).
#include "engines/duckdb/adapter.h"

#include "engines/duckdb/compare_reasons.h"
#include "engines/duckdb/plan_import.h"
#include "engines/duckdb/schema_sql.h"

#ifdef RFGUARD_HAVE_DUCKDB
#include "engines/duckdb/capi/duckdb_engine.h"
#endif

namespace rfguard::engine {

namespace {

class DuckDbAdapter final : public Adapter {
 public:
  std::string name() const override { return "duckdb"; }
  std::string displayName() const override { return "DuckDB"; }
  std::string profileName() const override { return "duckdb"; }
  std::string documentKind() const override {
    return "DuckDB's JSON profile or EXPLAIN (FORMAT JSON)";
  }

  bool recognizes(const std::string& text) const override {
    return duckdb_import::looksLikeDuckDbJson(text);
  }
  std::vector<std::string> queryTexts(const std::string& text) const override {
    return duckdb_import::queryTexts(text);
  }
  bool importPlans(const std::string& text, const std::string& name, const Catalog& schema,
                   nlohmann::json& doc, std::vector<ImportedQuery>& queries, Diagnostics& diags,
                   const EqualityHints& hints) const override {
    return duckdb_import::importDocument(text, name, schema, doc, queries, diags, hints);
  }

  const SqlSpelling* spelling() const override { return &duckDbSpelling(); }

  bool live() const override { return true; }

#ifdef RFGUARD_HAVE_DUCKDB
  bool linked() const override {
    return true;
  }
  std::unique_ptr<Engine> open(const Options& options, std::string& error) const override {
    return openDuckDb(options, error);
  }
#else
  std::unique_ptr<Engine> open(const Options&, std::string& error) const override {
    error = "this rfguard was built without DuckDB (configured with -DRFGUARD_DUCKDB=OFF)";
    return nullptr;
  }
#endif
  // DuckDB's join filter pushdown is one optimizer pass; disabling it keeps
  // every other pass, so the two runs differ in the runtime filters only.
  std::string runtimeFiltersStatement(bool on) const override {
    return on ? "SET disabled_optimizers = ''" : "SET disabled_optimizers = 'join_filter_pushdown'";
  }
  std::string threadsStatement(int threads) const override {
    return "SET threads = " + std::to_string(threads);
  }
  std::string typeName(const Type& t) const override {
    return duckdb_import::duckdbType(t);
  }
  std::string typeFromEngine(const std::string& engineType) const override {
    return duckdb_import::typeFromDuckDb(engineType);
  }
  std::string createTableSql(const TableDef& t) const override {
    return duckdb_import::createTableSql(t);
  }
  std::string createViewSql(const ViewDef& v) const override {
    return duckdb_import::createViewSql(v);
  }
  std::string populateSql(const TableDef& t, const FillSpec& f) const override {
    return duckdb_import::populateSql(t, f.rows, f.seed, f.hot, f.nullPercent, f.skewPercent,
                                      f.joinKeys);
  }
  std::string querySql(const std::string& rfguardSql) const override {
    return duckdb_import::duckdbDialect(rfguardSql);
  }
  bool differential() const override {
    return true;
  }

  std::string unreportedReason(const PlanNode& plan, const ImportedQuery& imp, int producer,
                               int scan) const override {
    return duckDbUnreportedReason(plan, imp, producer, scan);
  }
  std::string unreadFilterConsumer(const ImportNote& loss) const override {
    return duckDbUnreadFilterConsumer(loss);
  }
};

}  // namespace

const Adapter& duckDbAdapter() {
  static const DuckDbAdapter adapter;
  return adapter;
}

}  // namespace rfguard::engine
