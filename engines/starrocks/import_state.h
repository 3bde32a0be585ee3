#pragma once
// Internal to engines/starrocks/: the importer of one plan's fragments
// (import.cpp: the walk across fragments and exchanges; import_nodes.cpp:
// scans, projections, aggregates and the rest; import_join.cpp: joins and the
// filters they build; exprs.cpp: StarRocks's expressions).
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engines/adapter.h"
#include "engines/plan_document.h"
#include "engines/starrocks/plan_text.h"

namespace rfguard::starrocks_import {

using Json = nlohmann::json;

/// An output of a built operator not yet known by a StarRocks column id: a
/// scan's column, or an aggregate's result. The first reference `[N: NAME]`
/// from above that names it binds N to it.
struct Unbound {
  std::string name;  ///< upper case: `C_CUSTKEY`, `COUNT`
  std::string id;    ///< rfguard's column id
  std::string type;
};

/// What a built operator outputs: the columns bound to StarRocks ids, and the
/// ones still waiting for theirs.
struct Built {
  Json node;                         ///< null: the operator took no node (its input's)
  std::map<int, std::string> bound;  ///< StarRocks id -> rfguard column id
  std::vector<Unbound> unbound;
};

class Importer {
 public:
  Importer(const Catalog& schema, const std::string& file, engine::ImportedQuery& q,
           Diagnostics& diags)
      : schema_(schema), file_(file), q_(q), diags_(diags) {}

  /// Imports the plan of `fragments` into a plan JSON node tree.
  bool run(const std::vector<Fragment>& fragments, Json& plan);

  std::map<std::string, TableDef> usedTables;  ///< the tables the plan scans, as imported

 private:
  const Catalog& schema_;
  const std::string& file_;
  engine::ImportedQuery& q_;
  Diagnostics& diags_;
  int next_ = 1;
  std::map<int, const Fragment*> byExchange_;  ///< exchange id -> the fragment feeding it
  std::set<int> usedFragments_;
  std::map<int, std::string> types_;  ///< StarRocks id -> rfguard type, as printed
  std::map<int, std::string> names_;  ///< StarRocks id -> name, as printed
  std::set<std::string> aliases_;
  std::map<int, int> producers_;  ///< StarRocks filter id -> rfguard join node id
  std::map<int, std::vector<size_t>> pendingTargets_;  ///< filter id -> dynamicFilters
  std::set<int> built_;                                ///< filters some join built
  std::map<int, int> producerLine_;                    ///< filter id -> its join's line
  /// Scans without a schema: alias -> the columns the plan reads of them, typed.
  std::map<std::string, std::map<std::string, std::string>> openColumns_;
  std::map<std::string, std::string> openTables_;  ///< alias -> table
  /// Gives each scan without a schema the columns the plan read of it.
  void closeOpenScans(Json& node);

  static std::string where(const PlanOp& n) { return "line " + std::to_string(n.line); }
  void loss(const PlanOp& n, const std::string& m) { q_.losses.push_back({where(n), m}); }
  bool error(const PlanOp& n, const std::string& m);
  int newId(const PlanOp& n);

  std::optional<Built> build(const PlanOp& n, int depth);
  std::optional<Built> scan(const PlanOp& n);
  std::optional<Built> project(const PlanOp& n, Built in);
  std::optional<Built> aggregate(const PlanOp& n, Built in);
  std::optional<Built> join(const PlanOp& n, std::vector<Built>& ins);
  /// A filter node above `in` for a predicate list ("" or unreadable: `in`).
  Built filtered(const PlanOp& n, Built in, const std::string& predicates, const char* what);
  /// Targets for the `probe runtime filters:` of `n`, at the scan `scanNode`
  /// (n itself, or a scan below an exchange that rows pass unchanged).
  void probeFilters(const PlanOp& n, Built& at, Json* scanNode);

  /// `text` (StarRocks's expression) as plan JSON over the columns of `in`;
  /// nullopt with `why` when it cannot be read.
  std::optional<Json> expr(const std::string& text, Built& in, std::string& why);
  /// The rfguard column of StarRocks id `id` printed as `name`, binding it.
  std::optional<std::string> column(int id, const std::string& name, Built& in, std::string& why);
  /// Notes every `[N: NAME, TYPE, nullable]` of `text`: types and names by id.
  void learn(const std::string& text);
};

using engine::splitTop;
/// rfguard's type for StarRocks's (`INT` -> "int", `DECIMAL64(15, 2)` ->
/// "decimal(15,2)", `VARCHAR` -> "varchar"); "unknown" when it has none.
std::string typeFromStarRocks(const std::string& t);
/// StarRocks's join op (`LEFT OUTER JOIN (BROADCAST)`) -> plan JSON's join type.
std::string joinType(const std::string& op);
/// ... and its distribution -> plan JSON's ("" when it prints none).
std::string distribution(const std::string& op);
/// StarRocks's filter `filter_id` in messages: `filter 1 (RF2)` (rfguard
/// numbers filters from 1, StarRocks from 0).
inline std::string filterName(int fid) {
  return "filter " + std::to_string(fid) + " (RF" + std::to_string(fid + 1) + ")";
}
/// `s` clipped to about 120 characters, for messages.
std::string clip(const std::string& s);

}  // namespace rfguard::starrocks_import
