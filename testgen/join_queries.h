#pragma once
// Random join queries for the differential driver (testgen/differential.h), as
// a structure that renders to DuckDB's SQL (the one live engine's dialect; a
// second engine adds its DiffDialect) and rfguard's, and knows its one-step
// simplifications, so that a query showing
// a wrong result can be shrunk to the simplest one that still shows it. Every
// query and every simplification of it has one right answer: each ORDER BY
// under a LIMIT or OFFSET is a total order (ties broken by rowid), and the
// query returns its row count and the sum of its rows' hashes.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ir/catalog.h"

namespace rfguard {

/// A relation r<alias> over table t<table>: the table itself or a derived table.
struct DiffRelation {
  enum Shape {
    Table,           ///< t AS r
    GroupCount,      ///< SELECT k, count(*) AS v ... GROUP BY k
    Limit,           ///< ORDER BY v, k, rowid LIMIT limit
    LimitOffset,     ///< ORDER BY v, k, rowid LIMIT limit OFFSET offset
    Offset,          ///< ORDER BY k, v, rowid OFFSET offset
    UnionAll,        ///< t UNION ALL other
    Intersect,       ///< t INTERSECT other
    Except,          ///< t EXCEPT other
    DistinctMod3,    ///< SELECT DISTINCT k, v % 3 AS v
    OffsetSmallest,  ///< ORDER BY v, k, rowid OFFSET offset (skips the smallest v)
    /// t joined to `other` on k, ORDER BY v, k, rowid OFFSET offset: the scan
    /// below the OFFSET is a join's probe, so it starts after the builds, when
    /// filters from joins above are ready (DuckDB PR #22963's shape).
    OffsetJoined,
    /// t semi-joined to itself on k IS NOT DISTINCT FROM k (every row of t,
    /// once), ORDER BY v, k, rowid OFFSET offset: the OFFSET of a whole table
    /// whose scan, a join's probe, starts after the builds. A filter from a
    /// join above that crosses the OFFSET (DuckDB 1.5.6 pushes it) changes
    /// which rows it skips.
    OffsetDelayed
  };
  int alias = 0;
  int table = 0;
  Shape shape = Table;
  int other = 0;  ///< the second table of a set operation
  int limit = 1;
  int offset = 0;
};

/// How a join key reads its column.
enum class DiffKey { Plain, Coalesce, CastBigint, PlusOne, Abs };

struct DiffJoin {
  int type = 0;  ///< index into diffJoinTypes()
  int left = 0;  ///< alias of the relation on the left of the condition
  DiffRelation right;
  DiffKey leftKey = DiffKey::Plain, rightKey = DiffKey::Plain;
  int op = 0;          ///< index into diffJoinOps()
  bool sameV = false;  ///< AND left.v = right.v
};

struct DiffQuery {
  DiffRelation first;
  std::vector<DiffJoin> joins;
  enum Where { None, NotIn, VGreater } where = None;
  int whereTable = 0;  ///< NOT IN (SELECT k FROM t<whereTable>)
  int whereValue = 0;  ///< r0.v > whereValue
  int topN = 0;        ///< a TopN over the whole join, ordered by every column; 0: none
};

/// "JOIN", "LEFT JOIN", ..., "SEMI JOIN", "ANTI JOIN"; index 0 is the inner join.
const std::vector<std::string>& diffJoinTypes();
/// "=", "IS NOT DISTINCT FROM", "<"; index 0 is "=".
const std::vector<std::string>& diffJoinOps();

/// Table t<i> of the queries: t<i> (k int, v int), both nullable.
TableDef diffQueryTable(int i);
/// Table t<i> (k, v) with the given integer types, both nullable.
TableDef diffQueryTable(int i, TypeKind k, TypeKind v);

/// A random query over t0 .. t5 (k, v: integers of any width) with `tables` relations.
DiffQuery randomDiffQuery(std::mt19937_64& rng, int tables);

/// The SQL dialect a query is written in.
enum class DiffDialect {
  DuckDb,  ///< tables t<i>(k, v); rowid breaks ties; SEMI JOIN; ORDER BY ALL
  /// rfguard's: tables t<i>(k, v, rid) with rid DuckDB's rowid; LEFT SEMI JOIN;
  /// ORDER BY positions
  RfGuard
};

/// The query's rows in `dialect` (what diffQuerySql counts and hashes).
std::string diffQueryRowsSql(const DiffQuery& q, DiffDialect dialect);

/// The query in DuckDB's SQL: its row count and the sum of its rows' hashes.
std::string diffQuerySql(const DiffQuery& q);

/// Every query one step simpler than `q`: without the TopN, the WHERE, a join
/// nothing else refers to or its extra v = v conjunct; with a relation read
/// as its plain table, a plain key, an inner join, `=`, a smaller LIMIT or
/// OFFSET. Simplest first.
std::vector<DiffQuery> diffQuerySimplifications(const DiffQuery& q);

/// The query with every table t it reads replaced by `to[t]`.
DiffQuery remapTables(DiffQuery q, const std::vector<int>& to);

/// The tables (0 .. 5) the query reads.
std::vector<int> diffQueryTables(const DiffQuery& q);

}  // namespace rfguard
