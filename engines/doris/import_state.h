#pragma once
// Internal to engines/doris/: the importer of one shape plan's operator tree
// (shape_import.cpp: the walk; import_nodes.cpp: scans, projections, filters,
// aggregates; import_join.cpp: joins and the filters they build;
// import_text.cpp: reading the operator lines).
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engines/adapter.h"
#include "engines/doris/expr_parse.h"
#include "engines/doris/shape_lines.h"
#include "engines/plan_document.h"

namespace rfguard::doris_import {

using Json = nlohmann::json;

/// A column a node outputs: its id, and the name and qualifier Doris prints it by.
struct Col {
  std::string id, name, qual, type;
};

/// A runtime filter as the join that builds it prints it.
struct RfSpec {
  std::string src;                ///< the build key's name (`s_nationkey`)
  std::vector<std::string> dsts;  ///< the targets' names
  const ShapeNode* join = nullptr;
};

/// `s` without its leading and trailing spaces.
std::string trim(const std::string& s);
/// The text between the bracket at `open` and its match; npos `end` when unmatched.
std::string balanced(const std::string& s, size_t open, size_t& end);
/// The operator's name: the text before its first '[', '(' or space.
std::string headOf(const std::string& t);
using engine::splitTop;
/// The part of a dotted name after its last dot (`lineitem.l_orderkey` -> `l_orderkey`).
std::string lastPart(const std::string& name);
/// `s`'s letters, digits and underscores (at most 40), for column ids.
std::string alnum(const std::string& s);
/// Doris's join type names -> rfguard's (ir/join_type.cpp).
std::string joinType(const std::string& doris);
/// Doris's distribution of a join's inputs -> plan JSON's.
std::string distribution(const std::string& doris);
/// `s` clipped in the middle to at most about 120 characters, for messages.
std::string clip(const std::string& s);

class Importer {
 public:
  Importer(const Catalog& schema, const std::string& file, engine::ImportedQuery& q,
           Diagnostics& diags)
      : schema_(schema), file_(file), q_(q), diags_(diags) {}

  bool run(const ShapeNode& root, Json& plan);

 private:
  struct Built {
    Json node;  ///< null: the operator changed no rows and took no node (its child's)
    std::vector<Col> cols;
  };

  static std::string where(const ShapeNode& n) { return "line " + std::to_string(n.line); }
  void loss(const ShapeNode& n, const std::string& m) { q_.losses.push_back({where(n), m}); }
  bool error(const ShapeNode& n, const std::string& m);
  int newId(const ShapeNode& n);

  /// Every `build RFs:` list of the plan, before any node is built: a scan
  /// may apply a filter whose join is not above it.
  void collectFilters(const ShapeNode& n);

  /// A resolver over `cols`: `q.name` by qualifier and name, `name` alone when
  /// one column has it.
  Resolver over(const std::vector<Col>& cols);

  /// The names `text` reads (`l_orderkey`, and `lineitem.l_orderkey` also as
  /// written), leaving out the arguments of aggregate calls: `sum(l_quantity)`
  /// reads an aggregate's result, not a column of its input.
  static std::set<std::string> namesIn(const std::string& text);

  /// The names the scans below `n` provide: each column's name, and qualified
  /// by the name the plan prints its table by.
  const std::set<std::string>& provides(const ShapeNode& n);

  /// A scan's table and the name the plan prints it by (its alias, else the table).
  static std::pair<std::string, std::string> scanNames(const ShapeNode& n);

  /// Imports `n`; `wanted` holds the names the operators above read from it
  /// (what an aggregate below must output as its keys).
  std::optional<Built> build(const ShapeNode& n, const std::set<std::string>& wanted);

  /// A scan, with a target of each filter it applies (import_nodes.cpp).
  std::optional<Built> scan(const ShapeNode& n);
  /// A projection; of columns only, none (the child's columns narrowed).
  std::optional<Built> project(const ShapeNode& n, Built child);
  /// A filter; one that cannot be read is left out, and said.
  std::optional<Built> filter(const ShapeNode& n, Built child);
  /// An aggregate whose keys and aggregates are what the operators above read.
  std::optional<Built> aggregate(const ShapeNode& n, Built child,
                                 const std::set<std::string>& used);
  /// A join, its condition and the filters it builds (import_join.cpp).
  std::optional<Built> join(const ShapeNode& n, std::vector<Built>& kids);
  /// True when `e` reads columns and all of them are in `ids`.
  static bool columnsWithin(const Json& e, const std::set<std::string>& ids);

  /// A filter the import left out: its targets too (a target needs its
  /// filter), and the filters the scans printed stay without a producer.
  void dropTargets(int rf) { dropped_.insert(rf + 1); }
  void removeDropped(Json& node);

  /// Doris's default runtime_filter_type is IN_OR_BLOOM_FILTER and MIN_MAX;
  /// the shape prints no kinds.
  inline static const std::vector<std::string> kKinds = {"in", "bloom", "min_max"};

  const Catalog& schema_;
  const std::string& file_;
  engine::ImportedQuery& q_;
  Diagnostics& diags_;
  int next_ = 1;
  std::map<int, RfSpec> rfs_;                          ///< by Doris's id
  std::set<int> consumed_;                             ///< applied somewhere (or said why not)
  std::map<int, std::vector<size_t>> pendingTargets_;  ///< Doris id -> dynamicFilters
  std::set<std::string> aliases_;
  std::set<int> dropped_;  ///< rfguard filter ids left out
  std::map<const ShapeNode*, std::set<std::string>> provided_;
  std::set<const ShapeNode*> partial_;  ///< first phases of two-phase aggregations

 public:
  std::map<std::string, TableDef> usedTables;  ///< the tables the plan scans, as imported
};

}  // namespace rfguard::doris_import
