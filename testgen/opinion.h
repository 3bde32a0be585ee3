#pragma once
// rfguard's evaluator as a third opinion in the differential driver
// (testgen/differential.h, `rfguard duckdb diff`): on small
// data, a random query is also run by rfguard itself (written in rfguard's
// SQL, over DuckDB's rows read back) three ways: as bound, normalised, and
// normalised with rfguard's own runtime filters applied. Each must give
// DuckDB's rows. A disagreement is a wrong result in one of the two engines
// (or a filter rfguard placed unsafely), shown with both bags.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engines/engine.h"
#include "evaluation/evaluator.h"
#include "ir/catalog.h"
#include "testgen/join_queries.h"

namespace rfguard {

/// What rfguard's evaluator says about one query.
struct EvaluatorOpinion {
  enum Verdict {
    Agrees,     ///< every evaluation gave DuckDB's rows
    Disagrees,  ///< one of them did not (`which` says which)
    Declined,   ///< rfguard could not take the query or its data (`reason`)
  } verdict = Declined;
  std::string which;   ///< "bound", "normalised" or "filtered": the first that disagreed
  std::string reason;  ///< Declined: why
  std::vector<std::vector<engine::Cell>> duckdb, rfguard;  ///< both bags, sorted
  /// Disagrees: the rows one bag has more often than the other, sorted.
  std::vector<std::vector<engine::Cell>> onlyDuckdb, onlyRfguard;
  int filters = 0;  ///< runtime filters rfguard placed and applied
};
const char* verdictName(EvaluatorOpinion::Verdict v);

/// The catalog rfguard binds the queries over: t0 .. t<tables-1>(k, v, rid int).
Catalog evaluatorCatalog(int tables);
/// The same over the given tables t<i>(k, v), each with rid added.
Catalog evaluatorCatalog(const std::vector<TableDef>& tables);

/// A cell as DuckDB prints it, for a value of rfguard's evaluator.
engine::Cell cellOf(const rt::Value& v);

/// Reads the tables of DuckDB's database back as they are now and judges
/// queries against them with rfguard's evaluator.
class EvaluatorOracle {
 public:
  EvaluatorOracle(engine::Engine& db, int tables);
  /// Over tables t<i>(k, v) of the given types.
  EvaluatorOracle(engine::Engine& db, const std::vector<TableDef>& tables);
  /// Reads t<i> (k, v, rowid) from DuckDB; call again after changing it.
  bool load(int table, std::string& error);
  /// `duckRows`: DuckDB's rows for diffQueryRowsSql(q, DiffDialect::DuckDb).
  EvaluatorOpinion judge(const DiffQuery& q, const engine::Result& duckRows) const;

 private:
  engine::Engine& db_;
  Catalog catalog_;
  rt::Database data_;
};

/// The most rows of a result rfguard's evaluator is asked to give.
constexpr long long kMaxEvaluatedRows = 100000;

/// rfguard's evaluator on `q` against DuckDB's rows for it (run in `db` with
/// the join filter pushdown on or off); Declined when DuckDB refuses it or
/// returns more than kMaxEvaluatedRows rows.
EvaluatorOpinion thirdOpinion(engine::Engine& db, const EvaluatorOracle& oracle, const DiffQuery& q,
                              bool pushdown);
/// An opinion as JSON: its verdict, and for a disagreement the rows each side
/// has more often (at most 20 of each).
nlohmann::ordered_json opinionJson(const EvaluatorOpinion& o);
/// The verdict in words; for a disagreement, which plan, the row counts and up
/// to 5 rows of each side's surplus, one per line.
std::string opinionText(const EvaluatorOpinion& o);

/// The rows of `r` as a sorted bag.
std::vector<std::vector<engine::Cell>> sortedCells(std::vector<std::vector<engine::Cell>> rows);

}  // namespace rfguard
