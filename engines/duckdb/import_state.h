#pragma once
// The importer's working state, shared by plan_import.cpp (operators),
// import_expr.cpp (expressions) and import_filters.cpp (dynamic filters).
#include <deque>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engines/duckdb/expr_text.h"
#include "engines/duckdb/expr_tokens.h"
#include "engines/duckdb/plan_import.h"

namespace rfguard::duckdb_import {

using Json = nlohmann::json;

/// One output column of an imported operator, as DuckDB sees it.
struct Col {
  std::string id;      ///< the rfguard column id
  std::string name;    ///< DuckDB's name for it (what its parents print)
  std::string table;   ///< the table of a scan column, else empty
  std::string origin;  ///< the scan column it passes through unchanged, else empty
  std::string agg;     ///< an aggregate's function name, for matching its printed form
  /// Its position is a guess: it comes after a join's build columns, of which
  /// DuckDB does not print the ones it outputs (all are assumed).
  bool uncertain = false;
  /// Output of a subquery's side of a join: what DuckDB prints as SUBQUERY.
  bool subquery = false;
  /// Other names it goes by: an inner equi-join makes its keys equal, and
  /// DuckDB then prints either key's name for either.
  std::vector<std::string> aliases;
  std::vector<std::string> equal;  ///< ids of the columns it equals that way
};
using Cols = std::vector<Col>;

inline Col makeCol(std::string id, std::string name, std::string table = "",
                   std::string origin = "", std::string agg = "") {
  Col c;
  c.id = std::move(id);
  c.name = std::move(name);
  c.table = std::move(table);
  c.origin = std::move(origin);
  c.agg = std::move(agg);
  return c;
}

/// An imported operator: its rfguard node, DuckDB's view of its output, and
/// the columns the rfguard node outputs (a superset when a scan reads filter
/// columns DuckDB does not project).
struct Built {
  Json node;
  Cols cols;
  std::vector<std::string> rfOut;
};

/// An equality (or comparison) of a join whose probe side is a scan column:
/// a possible producer of a dynamic filter on that column.
struct JoinKey {
  int join = 0;
  std::string origin;  ///< the scan column id the probe expression is
  Json probe, build;
  std::string op;
  /// A join type and comparison DuckDB builds filters for (INNER, RIGHT, SEMI
  /// with =, <, <=, >, >=). Others are producers only when nothing else can
  /// be: then the verifier judges the placement.
  bool generating = true;
};

/// A scan's dynamic filters on one column, before producers are attributed.
struct PendingFilter {
  int scan = 0;
  std::string column;
  std::string pointer;
  std::set<std::string> kinds;
  int bounds = 0;  ///< optional: k>=c pieces (one per equality producer)
};

/// A TopN's threshold reported at a scan (`optional: Dynamic Filter (v)`).
struct PendingTopN {
  int scan = 0;
  std::string column;
  std::string pointer;
};
/// A TOP_N whose first sort key is a scan column, unchanged.
struct TopNKey {
  int limit = 0;
  std::string origin;
  Json column;
  bool ascending = true;
  bool nullsFirst = false;
};

/// Tables as the import uses them.
struct TableUse {
  std::vector<std::string> columns;  ///< in first-use order
  bool inSchema = false;
  /// Stands for rows DuckDB does not print (COLUMN_DATA_SCAN, EMPTY_RESULT):
  /// no table of the database, so no schema is missing for it.
  bool opaque = false;
  /// Without a schema: a column's type as the literals it is compared with tell it.
  std::map<std::string, std::string> types;
};

/// A delim join being imported: its input (delimited) side stands in for the
/// placeholder scan in its join, and a DELIM_SCAN is the distinct grouping
/// columns of that input (docs/duckdb.md).
struct DelimContext {
  const Json* input = nullptr;
  std::string inputPtr;
  const Json* distinct = nullptr;
  std::string distinctPtr;
  std::string index;
  std::string placeholder;  ///< COLUMN_DATA_SCAN (left delim) or DUMMY_SCAN (right delim)
  bool placed = false;
  std::vector<std::string> names;  ///< the correlated columns' names, from the conditions
};

/// Operators nested deeper than this are an input error, not a stack overflow.
inline constexpr int kMaxImportDepth = 512;

struct Importer {
  Importer(const Catalog& s, ImportedQuery& query, std::map<std::string, TableUse>& t,
           Diagnostics& d, std::string f, const EqualityHints& h)
      : schema(s), q(query), tables(t), diags(d), file(std::move(f)), hints(h) {}

  const Catalog& schema;
  ImportedQuery& q;
  std::map<std::string, TableUse>& tables;
  Diagnostics& diags;
  std::string file;
  const EqualityHints& hints;
  /// "table.column" of a scan column (through its origin), else "".
  std::string tableColumn(const Col& c) const;
  /// For a comparison of two names: the pair of columns the SQL compares, when
  /// a name matches several; false when the hints do not decide.
  bool hintedPair(const TextExprPtr& l, const Cols& ls, const TextExprPtr& r, const Cols& rs,
                  const Col*& a, const Col*& b);
  std::set<std::string> aliases;
  int nextId = 1;
  bool failed = false;
  std::vector<JoinKey> keys;
  std::vector<PendingFilter> pending;
  std::vector<PendingTopN> pendingTopN;
  std::vector<TopNKey> topnKeys;
  std::set<std::string> rowidScans;  ///< aliases whose DuckDB row id is read
  std::deque<Col> rowidCols;         ///< their row id columns (stable addresses)
  std::vector<DelimContext> delims;
  std::map<std::string, std::string> aliasTable;                    ///< scan alias -> table
  std::map<std::string, std::pair<const Json*, std::string>> ctes;  ///< CTE index -> definition
  std::set<std::string> expanding;  ///< CTEs being inlined (a CTE_SCAN inside its own CTE)
  int depth = 0;                    ///< operators being imported, nested
  /// >0 while importing a copy (a DELIM_SCAN's or CTE_SCAN's): its scans and
  /// joins are not DuckDB's own, so they neither report nor produce filters.
  int copying = 0;

  /// The operator being imported and which of its children: what an operator
  /// that prints no columns is read for.
  struct Parent {
    const Json* node = nullptr;
    size_t child = 0;
  } parent;
  /// The names the operators above the one being imported print (in their
  /// conditions, projections, aggregates ...), one set per operator, the
  /// nearest last: what a join DuckDB trimmed to the columns used above may
  /// still output.
  std::vector<std::set<std::string>> namesAbove;
  /// For a projection of #n only (or of DuckDB's compression of #n: the
  /// projection its compressed materialization puts above a join), over a
  /// child whose columns DuckDB may have trimmed: the child's columns the names
  /// above use, when they are as many as the projection's items and the
  /// printed positions are not (else empty).
  std::vector<const Col*> trimmedColumns(const std::vector<TextExprPtr>& refs, const Cols& child);
  /// A projection's i-th item when it is a column of `child` (by position when
  /// the name is the child's i-th column's, else by name), or null.
  const Col* projected(const TextExprPtr& e, size_t i, const Cols& child, const std::string& ptr);

  Built build(const Json& n, const std::string& ptr);
  /// One operator being imported: its document, where it is, its name and
  /// children, its node id, and what it builds.
  struct Op {
    const Json& n;
    const std::string& ptr;
    const std::string& op;
    const Json* kids;
    int id;
    Built out;
  };
  /// Imports child `i` of the operator (an error when it has fewer).
  Built childOf(Op& o, size_t i);
  /// False after an error when the operator has not exactly `count` children.
  bool expectChildren(Op& o, size_t count);
  /// Imports the operator's one child and builds the operator over it with `f`.
  Built overChild(Op& o, Built (Importer::*f)(Op&, Built&));
  // import_scan.cpp
  Built importScan(Op& o);    ///< SEQ_SCAN, TABLE_SCAN
  Built importFilter(Op& o);  ///< FILTER
  // import_join.cpp
  Built importJoin(Op& o);        ///< HASH_JOIN and the other joins, CROSS_PRODUCT
  Built importDelimJoin(Op& o);   ///< LEFT_DELIM_JOIN, RIGHT_DELIM_JOIN
  Built importDelimInput(Op& o);  ///< a delim join's placeholder for its input
  Built importDelimScan(Op& o);   ///< DELIM_SCAN: a copy of the delim join's input
  // import_operators.cpp (the one-child operators take their child imported)
  Built importProjection(Op& o, Built& c);  ///< PROJECTION
  Built importAggregate(Op& o, Built& c);   ///< the GROUP BY and ungrouped aggregates
  Built importOrder(Op& o, Built& c);       ///< ORDER_BY, TOP_N
  Built importLimit(Op& o, Built& c);       ///< LIMIT, STREAMING_LIMIT, LIMIT_PERCENT
  Built importUnion(Op& o);                 ///< UNION
  Built importWindow(Op& o, Built& c);      ///< WINDOW, STREAMING_WINDOW
  Built importCte(Op& o);                   ///< CTE: its definition kept for the scans
  Built importCteScan(Op& o);               ///< CTE_SCAN: the definition inlined
  // import_opaque.cpp
  /// EMPTY_RESULT and COLUMN_DATA_SCAN, whose columns DuckDB does not print:
  /// the columns the parent reads of them, over a table of any content (kept
  /// empty by a false filter for EMPTY_RESULT).
  Built opaque(const std::string& op, int id, const std::string& ptr);
  /// The type of column `id` (alias.col) as the schema or literals tell it, else "unknown".
  std::string columnType(const std::string& id) const;
  /// Where a comparison of two columns knows one type and not the other, the
  /// other is taken to be the same (the columns of an opaque operator).
  void shareType(const std::string& a, const std::string& b);
  void error(const std::string& ptr, const std::string& msg);
  void loss(const std::string& ptr, const std::string& msg) { q.losses.push_back({ptr, msg}); }

  // import_expr.cpp
  /// Translates `e` over `scope` (and, for a join, `right` as the build side
  /// when `side` says so); nullopt after a loss note when a name cannot be resolved.
  std::optional<Json> expr(const TextExprPtr& e, const Cols& scope, const std::string& ptr);
  /// The column of `scope` that `e` names (a name, #n or a printed aggregate); nullptr if none.
  const Col* column(const TextExprPtr& e, const Cols& scope, const std::string& ptr);
  /// Parses and translates `text`; nullopt (after an error or a loss note) on failure.
  std::optional<Json> exprText(const std::string& text, const Cols& scope, const std::string& ptr);
  /// Records that scan column `id` (alias.col) is compared with a literal of `type`.
  void noteType(const std::string& id, const std::string& type);

  // import_filters.cpp
  /// Reads a scan's "Dynamic Filters" text over its columns.
  void dynamicFilters(int scanId, const std::string& text, const Cols& scanCols,
                      const std::string& ptr);
  /// Attributes every pending dynamic filter to its producing joins, adding
  /// runtime_filters and runtime_filter_targets to `root`.
  void attribute(Json& root);
  /// Adds DuckDB's row id to the scans whose rowid a parent reads.
  void addRowids(Json& root);
};

/// Without leading and trailing white space.
std::string trim(const std::string& s);
/// Adds the names an operator's printed expressions use (every word of them)
/// to `out`.
void printedNames(const Json& n, std::set<std::string>& out);
/// The last part of a qualified name as DuckDB prints it, unquoted:
/// `memory.main."name"` is `name` (a part may be quoted, with "" inside).
std::string lastNamePart(const std::string& qualified);
/// DuckDB's text in double quotes, its middle cut when long (an error quotes
/// what it could not read; a 10,000-term condition is not repeated whole).
std::string clipQuoted(const std::string& text);
/// The #n of `e` when it is #n or DuckDB's compression of it
/// (__internal_compress_string_*(#n), __internal_compress_integral_*(#n, c)); else null.
const TextExpr* compressedRef(const TextExprPtr& e);
/// Letters, digits and '_' kept, anything else as '_' ("c" when empty): a name
/// part for a column id.
std::string alnum(const std::string& s);

/// The operator's name: "operator_name" in a profile, "name" in EXPLAIN.
std::string opName(const Json& n);
/// The operator's "children" array, or nullptr.
const Json* childrenOf(const Json& n);
/// A comparison of two operands (=, <>, <, <=, >, >=, <=>, is_distinct_from):
/// in a join condition, the probe side's left and the build side's right.
bool isComparison(const TextExprPtr& e);
/// HASH_JOIN, NESTED_LOOP_JOIN and the other joins with conditions.
bool isJoinOp(const std::string& op);

/// extra_info[key] as a list of strings (a string is one item, "" none).
std::vector<std::string> infoList(const Json& n, const char* key);
/// extra_info[key] as one string ("" when absent).
std::string infoText(const Json& n, const char* key);

}  // namespace rfguard::duckdb_import
