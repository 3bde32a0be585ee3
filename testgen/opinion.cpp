#include "testgen/opinion.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "pipeline/session.h"

namespace rfguard {

namespace {

using Rows = std::vector<std::vector<engine::Cell>>;

/// Cells sort NULL first, then numbers by value, then text.
bool cellLess(const engine::Cell& a, const engine::Cell& b) {
  if (!a || !b) return !a && b;
  char* endA = nullptr;
  char* endB = nullptr;
  const long long x = std::strtoll(a->c_str(), &endA, 10), y = std::strtoll(b->c_str(), &endB, 10);
  const bool numA = !a->empty() && *endA == '\0', numB = !b->empty() && *endB == '\0';
  if (numA && numB && x != y) return x < y;
  if (numA != numB) return numA;
  return *a < *b;
}

bool rowLess(const std::vector<engine::Cell>& a, const std::vector<engine::Cell>& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), cellLess);
}

/// The rows of sorted bag `a` that sorted bag `b` does not hold as often.
Rows bagMinus(const Rows& a, const Rows& b) {
  Rows out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out), rowLess);
  return out;
}

Rows cellsOf(const std::vector<rt::Row>& rows) {
  Rows out;
  out.reserve(rows.size());
  for (const auto& r : rows) {
    std::vector<engine::Cell> cells;
    cells.reserve(r.size());
    for (const auto& v : r) cells.push_back(cellOf(v));
    out.push_back(std::move(cells));
  }
  return sortedCells(std::move(out));
}

int countFilters(const PlanNode& n) {
  int k = static_cast<int>(n.runtimeFilters.size());
  for (const auto& c : n.children) k += countFilters(*c);
  return k;
}

}  // namespace

const char* verdictName(EvaluatorOpinion::Verdict v) {
  switch (v) {
    case EvaluatorOpinion::Agrees:
      return "agrees";
    case EvaluatorOpinion::Disagrees:
      return "disagrees";
    case EvaluatorOpinion::Declined:
      break;
  }
  return "declined";
}

Catalog evaluatorCatalog(int tables) {
  std::vector<TableDef> defs;
  for (int i = 0; i < tables; ++i) defs.push_back(diffQueryTable(i));
  return evaluatorCatalog(defs);
}

Catalog evaluatorCatalog(const std::vector<TableDef>& tables) {
  Catalog c;
  for (TableDef t : tables) {
    ColumnDef rid;  // DuckDB's rowid, read back as a column
    rid.name = "rid";
    rid.type = Type::of(TypeKind::Int);
    rid.nullable = false;
    t.columns.push_back(rid);
    c.addTable(t);
  }
  return c;
}

engine::Cell cellOf(const rt::Value& v) {
  if (rt::isNull(v)) return std::nullopt;
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", *d);
    return std::string(buf);
  }
  return std::get<std::string>(v);
}

Rows sortedCells(Rows rows) {
  std::sort(rows.begin(), rows.end(), rowLess);
  return rows;
}

EvaluatorOracle::EvaluatorOracle(engine::Engine& db, int tables)
    : db_(db), catalog_(evaluatorCatalog(tables)) {}

EvaluatorOracle::EvaluatorOracle(engine::Engine& db, const std::vector<TableDef>& tables)
    : db_(db), catalog_(evaluatorCatalog(tables)) {}

bool EvaluatorOracle::load(int table, std::string& error) {
  const std::string name = "t" + std::to_string(table);
  engine::Result r;
  if (!db_.execute("SELECT k, v, rowid FROM " + name + " ORDER BY rowid", &r, error)) return false;
  rt::Table t;
  t.columns = {"k", "v", "rid"};
  for (const auto& row : r.rows) {
    rt::Row values(row.size());  // NULL unless the cell holds an integer
    for (size_t i = 0; i < row.size(); ++i) {
      const engine::Cell& cell = row[i];
      if (!cell) continue;
      char* end = nullptr;
      const long long x = std::strtoll(cell->c_str(), &end, 10);
      if (cell->empty() || *end != '\0') {
        error = name + " holds a value that is not an integer: " + *cell;
        return false;
      }
      values[i].emplace<int64_t>(x);
    }
    t.rows.push_back(std::move(values));
  }
  data_[name] = std::move(t);
  return true;
}

EvaluatorOpinion EvaluatorOracle::judge(const DiffQuery& q, const engine::Result& duckRows) const {
  EvaluatorOpinion o;
  o.duckdb = sortedCells(duckRows.rows);
  for (int t : diffQueryTables(q))
    if (!data_.count("t" + std::to_string(t))) {
      o.reason = "t" + std::to_string(t) + " was not read from DuckDB";
      return o;
    }
  SessionOptions so;
  so.schema = catalog_;
  so.keepBound = true;
  Session s(so);
  Diagnostics diags;
  const std::string sql = diffQueryRowsSql(q, DiffDialect::RfGuard);
  if (!s.loadFormat(sql, "duckdb-diff", InputFormat::Sql, diags, catalog_) ||
      s.queries().size() != 1) {
    o.reason =
        diags.hasErrors() ? diags.items().front().message : "rfguard does not take the query";
    return o;
  }
  s.run();
  const QueryRun& run = s.queries()[0];
  o.filters = countFilters(*run.query.plan);
  struct Way {
    const char* name;
    const PlanNode* plan;
    bool filters;
  };
  const Way ways[] = {{"bound", run.bound.get(), false},
                      {"normalised", run.query.plan.get(), false},
                      {"filtered", run.query.plan.get(), true}};
  for (const auto& way : ways) {
    rt::EvalOptions eo;
    eo.applyFilters = way.filters;
    rt::Relation rel;
    std::string error;
    if (!way.plan || !rt::evaluate(*way.plan, data_, eo, rel, error)) {
      o.verdict = EvaluatorOpinion::Declined;
      o.reason = std::string("rfguard's evaluator (") + way.name + "): " + error;
      return o;
    }
    o.rfguard = cellsOf(rel.rows);
    if (o.rfguard != o.duckdb) {
      o.verdict = EvaluatorOpinion::Disagrees;
      o.which = way.name;
      o.onlyDuckdb = bagMinus(o.duckdb, o.rfguard);
      o.onlyRfguard = bagMinus(o.rfguard, o.duckdb);
      return o;
    }
  }
  o.verdict = EvaluatorOpinion::Agrees;
  return o;
}

/// rfguard's evaluator on `q` against DuckDB's rows for it, with the pushdown
/// on or off.
EvaluatorOpinion thirdOpinion(engine::Engine& db, const EvaluatorOracle& oracle, const DiffQuery& q,
                              bool pushdown) {
  engine::Result count, rows;
  std::string error;
  const std::string sql = diffQueryRowsSql(q, DiffDialect::DuckDb);
  // A chain of range joins can make millions of rows: counted first, so that
  // neither DuckDB's rows as text nor rfguard's evaluations of them exhaust memory.
  bool ok = db.setRuntimeFilters(pushdown, error) &&
            db.execute("SELECT count(*) FROM (" + sql + ") q", &count, error);
  long long n = 0;
  if (ok && !count.rows.empty() && count.rows[0][0]) n = std::stoll(*count.rows[0][0]);
  const bool small = n <= kMaxEvaluatedRows;
  ok = ok && (!small || db.execute(sql, &rows, error));
  std::string ignored;
  db.setRuntimeFilters(true, ignored);
  EvaluatorOpinion o;
  if (!ok) {
    o.reason = "DuckDB: " + error;
    return o;
  }
  if (!small) {
    o.reason = "DuckDB's result has " + std::to_string(n) + " rows, more than the " +
               std::to_string(kMaxEvaluatedRows) + " rfguard evaluates";
    return o;
  }
  return oracle.judge(q, rows);
}

namespace {

nlohmann::ordered_json rowsJson(const std::vector<std::vector<engine::Cell>>& rows, size_t cap) {
  using Json = nlohmann::ordered_json;
  Json out = Json::array();
  for (size_t i = 0; i < rows.size() && i < cap; ++i) {
    Json row = Json::array();
    for (const auto& c : rows[i]) row.push_back(c ? Json(*c) : Json(nullptr));
    out.push_back(row);
  }
  return out;
}

std::string rowText(const std::vector<engine::Cell>& row) {
  std::string out = "(";
  for (size_t i = 0; i < row.size(); ++i) out += (i ? ", " : "") + row[i].value_or("NULL");
  return out + ")";
}

}  // namespace

/// An opinion as JSON: its verdict, and for a disagreement the rows each side
/// has more often (at most 20 of each).
nlohmann::ordered_json opinionJson(const EvaluatorOpinion& o) {
  nlohmann::ordered_json j{{"verdict", verdictName(o.verdict)}, {"filters", o.filters}};
  if (!o.which.empty()) j["which"] = o.which;
  if (!o.reason.empty()) j["reason"] = o.reason;
  if (o.verdict == EvaluatorOpinion::Disagrees) {
    j["duckdb_rows"] = o.duckdb.size();
    j["rfguard_rows"] = o.rfguard.size();
    j["only_duckdb"] = rowsJson(o.onlyDuckdb, 20);
    j["only_rfguard"] = rowsJson(o.onlyRfguard, 20);
  }
  return j;
}

/// A disagreement in words, for the text output.
std::string opinionText(const EvaluatorOpinion& o) {
  if (o.verdict != EvaluatorOpinion::Disagrees) return verdictName(o.verdict);
  std::string out = std::string("disagrees (") + o.which + " plan, " + std::to_string(o.filters) +
                    " filters): DuckDB " + std::to_string(o.duckdb.size()) + " rows, rfguard " +
                    std::to_string(o.rfguard.size());
  for (size_t i = 0; i < o.onlyDuckdb.size() && i < 5; ++i)
    out += "\n     only DuckDB:  " + rowText(o.onlyDuckdb[i]);
  for (size_t i = 0; i < o.onlyRfguard.size() && i < 5; ++i)
    out += "\n     only rfguard: " + rowText(o.onlyRfguard[i]);
  return out;
}

}  // namespace rfguard
