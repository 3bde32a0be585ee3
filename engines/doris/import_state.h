#pragma once
// Internal to engines/doris/: the importer of one shape plan's operator tree
// (shape_import.cpp: the walk; import_nodes.cpp: scans, projections, filters,
// aggregates; import_join.cpp: joins and the filters they build;
// import_cte.cpp: CTE anchors, producers and consumers; import_names.cpp:
// names and what they resolve to; import_text.cpp: reading the operator lines).
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

/// A runtime filter as the join (or set operation) that builds it prints it.
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
/// True when `outer` is `inner` or holds it.
bool holds(const ShapeNode& outer, const ShapeNode* inner);
/// True when plan JSON expression `x` is `a = b` (not `<=>`).
bool equalityCall(const Json& x);
/// The conjuncts of `e` (its `and`s taken apart), appended to `out`.
void appendConjuncts(const Json& e, std::vector<Json>& out);
/// The conjunction of `xs` (at least one), `and` nested from the left.
Json andOf(const std::vector<Json>& xs);

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
    /// Column id -> the first of its class: columns equal in every row, as
    /// an inner join's equality made them (NULL padding pads both alike). A
    /// name ambiguous among the columns of one class may read any of them:
    /// `t1.k` above copies of a CTE joined on `t1.k = t2.k`.
    std::map<std::string, std::string> same;
  };
  /// Makes columns `a` and `b` of `same` one class.
  static void makeSame(std::map<std::string, std::string>& same, const std::string& a,
                       const std::string& b);
  /// `same` for the columns an operator outputs: `renames` pairs an input
  /// column with an output column that copies it.
  static std::map<std::string, std::string> sameAfter(
      const std::map<std::string, std::string>& same,
      const std::vector<std::pair<std::string, std::string>>& renames);

  static std::string where(const ShapeNode& n) { return "line " + std::to_string(n.line); }
  void loss(const ShapeNode& n, const std::string& m) { q_.losses.push_back({where(n), m}); }
  bool error(const ShapeNode& n, const std::string& m);
  int newId(const ShapeNode& n);

  /// Every `build RFs:` list of the plan, before any node is built: a scan
  /// may apply a filter whose join is not above it.
  void collectFilters(const ShapeNode& n);

  /// A resolver over `cols`: `q.name` by qualifier and name, `name` alone when
  /// one column has it, or when the columns that have it are of one class of `same`.
  Resolver over(const std::vector<Col>& cols,
                const std::map<std::string, std::string>* same = nullptr);

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
  /// A PhysicalWindow as a window computing the functions the operators above
  /// print (`avg(l_quantity) OVER(PARTITION BY p_partkey)`); nullopt when it
  /// cannot read one, or none is read (import_window.cpp).
  std::optional<Built> window(const ShapeNode& n, const Built& child,
                              const std::set<std::string>& used);
  std::optional<Built> aggregate(const ShapeNode& n, Built child,
                                 const std::set<std::string>& used);
  /// A PhysicalUnion, PhysicalIntersect or PhysicalExcept of two or more inputs.
  static bool isSetOperation(const ShapeNode& n);
  /// True when `n` or an operator below it is a set operation or a mark join,
  /// whose columns are named by what reads them, not by the scans below.
  bool madeBelow(const ShapeNode& n);
  /// A join that prints `markCondition=(...)`.
  static bool isMarkJoin(const ShapeNode& n);
  /// The mark joins at `n` and below it.
  static int markJoinsBelow(const ShapeNode& n);
  /// A mark join: the probe's rows with the mark the operators above read
  /// (`names`), a subquery over the build input (import_mark.cpp).
  std::optional<Built> markJoin(const ShapeNode& n, std::vector<Built>& kids,
                                const std::set<std::string>& names);
  /// Some of the rows of `kids` (an operator of several inputs whose columns
  /// are not tied to theirs), without columns; `why` is the loss said.
  Built someRowsOf(const ShapeNode& n, std::vector<Built>& kids, const std::string& why);
  /// A set operation with the columns the plan ties to its inputs, and the
  /// filters it builds (import_setop.cpp); `names` are those read above.
  std::optional<Built> setOperation(const ShapeNode& n, const std::set<std::string>& names);
  /// A join, its condition and the filters it builds (import_join.cpp).
  std::optional<Built> join(const ShapeNode& n, std::vector<Built>& kids);
  /// The words of `n`'s `apply RFs: RF1 RF3` and `RFV2: RF6` (the filters of
  /// set operations) with the Doris id each names (-1: none).
  static std::vector<std::pair<std::string, int>> appliedList(const ShapeNode& n);
  /// The filters `n` prints `apply RFs: RF1 RF3` (or `RFV2: RF6`) of, as
  /// (word, Doris id), known ones only: one no operator builds is a loss
  /// (`what` applies it).
  std::vector<std::pair<std::string, int>> appliedFilters(const ShapeNode& n,
                                                          const std::string& what);
  /// Whether `n` or an operator below it (CTE consumers: their producer's
  /// operators) prints `apply RFs: ... RF<rf> ...`.
  bool appliedBelow(const ShapeNode& n, int rf, int depth = 0);

  /// A CTE anchor: its producer is imported where consumers read it, the
  /// anchor is its second input (import_cte.cpp).
  std::optional<Built> cteAnchor(const ShapeNode& n, const std::set<std::string>& wanted);
  /// A CTE consumer: a copy of its producer's operators (rfguard has no shared
  /// subplans; the CTE's rows are the same at each), with the filters the
  /// consumer applies imported at the scans below where they remove the same rows.
  std::optional<Built> cteConsumer(const ShapeNode& n, const std::set<std::string>& wanted);
  /// The CTE a `PhysicalCteAnchor`, `PhysicalCteProducer` or
  /// `PhysicalCteConsumer` line names (`cteId=CTEId#3` -> "3"), else "".
  static std::string cteIdOf(const ShapeNode& n);
  /// The operators below a CTE anchor, producer or consumer: those of its
  /// producer's body for a consumer.
  const ShapeNode* cteBody(const ShapeNode& n) const;
  /// rfguard's id of Doris's RF<rf> where it is imported now: rf + 1, or in a
  /// second or later copy of a CTE whose operators build RF<rf>, an id of that copy's own.
  int rfId(int rf) const;
  /// True when `e` reads columns and all of them are in `ids`.
  static bool columnsWithin(const Json& e, const std::set<std::string>& ids);

  /// A filter the import left out: its targets too (a target needs its
  /// filter), and the filters the scans printed stay without a producer.
  void dropTargets(int rf) { dropped_.insert(rfId(rf)); }
  void removeDropped(Json& node);

  /// Doris's default runtime_filter_type is IN_OR_BLOOM_FILTER and MIN_MAX;
  /// the shape prints no kinds.
  inline static const std::vector<std::string> kKinds = {"in", "bloom", "min_max"};
  /// The most operators one plan imports, with the columns each outputs, CTE
  /// copies included: a CTE read twice by a CTE read twice ... doubles at each level.
  static constexpr long kMaxImported = 300000;

  const Catalog& schema_;
  const std::string& file_;
  engine::ImportedQuery& q_;
  Diagnostics& diags_;
  int next_ = 1;
  std::map<int, RfSpec> rfs_;                          ///< by Doris's id
  std::set<int> consumed_;                             ///< applied somewhere (or said why not)
  std::map<int, std::vector<size_t>> pendingTargets_;  ///< rfguard id -> dynamicFilters
  std::set<std::string> aliases_;
  std::map<std::string, int> suffixes_;  ///< alias -> copies of it renamed so far
  std::set<int> dropped_;                ///< rfguard filter ids left out
  std::map<const ShapeNode*, std::set<std::string>> provided_;
  std::map<const ShapeNode*, bool> madeBelow_;    ///< madeBelow's answers
  std::set<const ShapeNode*> partial_;            ///< first phases of two-phase aggregations
  std::map<std::string, const ShapeNode*> ctes_;  ///< CTE id -> its producer's input
  std::map<std::string, int> copies_;             ///< CTE id -> consumers imported so far
  std::set<std::string> expanding_;               ///< CTEs whose copy is being imported
  std::vector<std::map<int, int>> remaps_;        ///< per copy: Doris id -> rfguard id
  int nextFresh_ = 1;                             ///< the next id of a copy's own filter
  long built_ = 0;  ///< operators imported and their columns (copies included)

  std::map<std::string, std::set<std::string>> cteSeen_;  ///< CTE id -> names its consumers read
  std::set<std::string> unrouted_;  ///< names several inputs of an operator provide

 public:
  std::map<std::string, TableDef> usedTables;  ///< the tables the plan scans, as imported
  /// True when the plan imported reads a CTE: the import is then run again
  /// with `cteWanted` from cteColumns(), as a consumer imported early does not
  /// know what a later one reads of the CTE's columns.
  bool readsCtes() const { return !copies_.empty(); }
  /// After a run, per CTE the names some consumer reads of it: what each of
  /// its consumers reads, and the names a join of several reads without
  /// telling which input's (copies of one CTE joined with each other).
  std::map<std::string, std::set<std::string>> cteColumns();
  /// Per CTE, the names each copy of it outputs (what the group keys of an
  /// aggregate in it are inferred from) besides those its own consumer reads.
  std::map<std::string, std::set<std::string>> cteWanted;
};

}  // namespace rfguard::doris_import
