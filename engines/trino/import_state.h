#pragma once
// Internal to engines/trino/: the importer of one plan text's operator tree.
// symbols.cpp: which scan column each printed symbol is; producers.cpp: which
// join each dynamic filter came from; import.cpp: the plan JSON nodes.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engines/adapter.h"
#include "engines/trino/plan_text.h"

namespace rfguard::trino_import {

using Json = nlohmann::json;

/// A column of a scan: the scan and the table's column name.
struct ScanColumn {
  const PlanOp* scan = nullptr;
  std::string column;
  bool operator<(const ScanColumn& o) const {
    return scan != o.scan ? scan < o.scan : column < o.column;
  }
  bool operator==(const ScanColumn& o) const { return scan == o.scan && column == o.column; }
};

/// One dynamic filter item at a filter line, attributed to the join that builds it.
struct Attribution {
  const PlanOp* join = nullptr;
  const PlanOp* at = nullptr;  ///< the `dynamic filter` line
  DfItem item;
  ScanColumn target;  ///< the consumer
  ScanColumn build;   ///< the build side's key
  size_t record = 0;  ///< index into ImportedQuery::dynamicFilters
};

/// A join's keys as its inputs' hash exchanges print them.
struct ExchangeKeys {
  std::vector<std::string> probe, build;
  std::vector<std::pair<std::string, std::string>> pairs;  ///< probe -> build, where paired
};

class Importer {
 public:
  Importer(const Catalog& schema, const std::string& file, engine::ImportedQuery& q,
           Diagnostics& diags)
      : schema_(schema), file_(file), q_(q), diags_(diags) {}

  bool run(const PlanOp& root, Json& plan);

  std::map<std::string, TableDef> usedTables;  ///< the tables the plan scans, as imported

 private:
  struct Col {
    std::string id;
    ScanColumn source;  ///< the scan column it carries (through aggregations)
    std::string type;
  };
  struct Built {
    Json node;
    std::vector<Col> cols;
  };

  // ---- symbols.cpp
  /// Aliases, depths, scans and the symbols each line prints.
  void index(const PlanOp& n, int depth);
  /// Gives each symbol the scan column it names, where the plan tells.
  void resolveSymbols();
  /// The scan columns `symbol` (by its name or base name) may be among the
  /// columns `n` outputs.
  std::vector<ScanColumn> columnsNamed(const std::string& symbol, const PlanOp& n);
  /// The scan columns `n` outputs: an aggregation its keys only (each key
  /// not yet known, every column of its name), a semi join its first input's.
  const std::set<ScanColumn>& visible(const PlanOp& n);

  /// The scans below `n` (itself included).
  void scansUnder(const PlanOp& n, std::vector<const PlanOp*>& out) const;
  /// The scan column of `symbol`; nullopt when the plan does not tell.
  std::optional<ScanColumn> owner(const std::string& symbol) const;

  /// The columns `side` outputs that a declared foreign key pairs with
  /// `target` (either way): a key a join of them compares, whatever its name.
  std::vector<ScanColumn> keyPartners(const ScanColumn& target, const PlanOp& side);

  // ---- producers.cpp
  /// The keys of a join's hash exchanges (its partitioned inputs).
  ExchangeKeys exchangeKeys(const PlanOp& join) const;
  /// Attributes every dynamic filter of the plan to a join.
  void attribute(const PlanOp& n);
  void attributeFilterLine(const PlanOp& df);

  // ---- import.cpp
  std::optional<Built> build(const PlanOp& n);
  std::optional<Built> scan(const PlanOp& n);
  std::optional<Built> aggregate(const PlanOp& n, Built in);
  std::optional<Built> join(const PlanOp& n, std::vector<Built>& ins);
  std::optional<Built> semiJoin(const PlanOp& n, std::vector<Built>& ins);
  Built opaque(const PlanOp& n, Built in, const std::string& why);
  /// An exchange of several inputs: a UNION ALL.
  Built unionOf(const PlanOp& n, std::vector<Built>& ins);
  /// The column of `in` that carries scan column `c`.
  const Col* find(const Built& in, const ScanColumn& c) const;

  static std::string where(const PlanOp& n) { return "line " + std::to_string(n.line); }
  void loss(const PlanOp& n, const std::string& m) { q_.losses.push_back({where(n), m}); }
  void ambiguity(const PlanOp& n, const std::string& m) { q_.ambiguities.push_back({where(n), m}); }
  bool error(const PlanOp& n, const std::string& m);
  int newId(const PlanOp& n);
  std::string columnId(const ScanColumn& c) const { return alias_.at(c.scan) + "." + c.column; }

  const Catalog& schema_;
  const std::string& file_;
  engine::ImportedQuery& q_;
  Diagnostics& diags_;
  int next_ = 1;
  std::map<const PlanOp*, std::string> alias_;
  std::map<const PlanOp*, int> depth_;
  std::vector<const PlanOp*> scans_;
  /// Tables without a schema: scan -> the columns the plan names of it.
  std::map<const PlanOp*, std::set<std::string>> openColumns_;
  /// symbol -> the lines that print it (their subtrees hold its scan).
  std::map<std::string, std::vector<const PlanOp*>> uses_;
  std::map<std::string, ScanColumn> owners_;
  std::map<const PlanOp*, std::set<ScanColumn>> visible_;  ///< cleared when owners_ grow
  std::vector<Attribution> attributed_;
  std::map<const PlanOp*, int> joinId_;  ///< a join line -> its rfguard node id
  /// ImportedQuery::dynamicFilters index -> every join it could have come from.
  std::map<size_t, std::vector<const PlanOp*>> candidates_;
  std::set<int> definedFilters_;  ///< filter ids some join built
  /// (join, build column, op) -> rfguard filter id, in the order they are first met.
  std::map<std::tuple<const PlanOp*, ScanColumn, std::string>, int> filterIds_;
};

/// Trino's dynamic filter operator -> plan JSON's runtime filter op ("" when unknown).
std::string filterOp(const std::string& trinoOp);
/// Trino's join type and distribution -> plan JSON's.
std::string joinType(const std::string& trino);
std::string distribution(const std::string& trino);

}  // namespace rfguard::trino_import
