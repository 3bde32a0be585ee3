#pragma once
// Internal to verifier/: the canonical form normal_form.cpp compares plans by.
// normal_form_canon.cpp: expressions, nodes, joins and the identities' helpers;
// normal_form_blocks.cpp: blocks of inner joins and filters, with the LEFT,
// semi and anti joins attached to them.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/plan.h"

namespace rfguard::normal_form {

using Json = nlohmann::ordered_json;

/// The identities the normal form applies, as bits (a proof names those it needed).
enum Identity : unsigned {
  kBlocks = 1,            ///< inner-join blocks as inputs and conjuncts
  kMirror = 2,            ///< a join as its mirror with the children swapped
  kScanColumns = 4,       ///< the columns a scan lists
  kOperands = 8,          ///< operand order of symmetric operators
  kSink = 16,             ///< conjuncts into the inputs of outer, semi and anti joins
  kSimplify = 32,         ///< outer joins whose padded rows a conjunct rejects as inner
  kSubqueries = 64,       ///< IN / NOT IN, [NOT] EXISTS as semi / anti joins
  kFactor = 128,          ///< what every branch of an OR shares, out of it
  kAttach = 256,          ///< LEFT, semi and anti joins past inner joins on the side they keep
  kKeys = 512,            ///< DISTINCT, GROUP BY over a key of the input (normal_form_laws.h)
  kJoins = 1024,          ///< joins no one reads the other input of, dropped (normal_form_laws.h)
  kProjections = 2048,    ///< projections merged, filters below them; dropping ones not nodes
  kNames = 4096,          ///< a table named by the table, not by its alias
  kSetOps = 8192,         ///< filters into set operations; UNION, INTERSECT flat and unordered
  kAggregates = 16384,    ///< filters on group keys below, DISTINCT and count(x) simplified
  kConstants = 32768,     ///< constants folded, boolean and CASE forms, empty relations
  kTransitive = 65536,    ///< conjuncts implied through an inner block's equalities
  kAcross = 1u << 17,     ///< an INTERSECT input's conjuncts (EXCEPT's first's) into the others
  kImplied = 1u << 18,    ///< conjuncts implied into a LEFT, semi or anti join's other input
  kAssociate = 1u << 19,  ///< LEFT joins nested on the right as left-deep ones
  kRepeated = 1u << 20,   ///< an input of UNION or INTERSECT that repeats another, dropped
  kFixedKeys = 1u << 21,  ///< group keys a filter below fixes to a literal, as it
  kSemi = 1u << 22,       ///< inner joins to a key of an input no one reads, as semi joins
  kAggregateUnion = 1u << 23,  ///< an aggregate of aggregates over UNION ALL as one
  kSetJoins = 1u << 24,        ///< DISTINCT over a semi (anti) join on all its columns as a set op
  kAggregateJoin = 1u << 25,   ///< an aggregate joined on its keys to a key, above the join
  kAll = (1u << 26) - 1,
};

/// Removes what no database sees: node ids, source positions, estimates, and
/// runtime filters (they are judged by `check`, not part of a comparison).
Json stripped(Json j);

/// Every expression of the plan deterministic, its subqueries plain.
bool deterministicPlan(const PlanNode& n);

/// True when every subquery in `e` is an uncorrelated IN or EXISTS over a
/// deterministic plan: a value of the database, the same wherever it is read.
bool plainSubqueries(const Expr& e);

/// A conjunct that may be evaluated elsewhere: deterministic, and no subquery
/// but uncorrelated IN / EXISTS (a scalar subquery evaluated on more rows may
/// fail; a correlated one reads the row it is evaluated on).
bool movable(const Expr& e);

bool isTrue(const Expr& e);

/// True when `e` reads columns and all of them are outputs of `n`.
bool within(const Expr& e, const PlanNode& n);

/// True when `e` is never TRUE on a row whose columns from `side` are all NULL
/// (by the catalog's null policies: NULL, or IS NOT NULL of such a NULL).
bool rejectsNulls(const Expr& e, const PlanNode& side);

using Conjuncts = std::vector<ExprPtr>;

/// `x = y` between two columns of one exact type (not floating point, whose
/// equal 0 and -0 differ under division): where it is TRUE they hold one
/// value, not NULL (normal_form_facts.cpp).
bool columnEquality(const Expr& e);

/// The classes of columns the column equalities among `cs` make one value
/// (columnEquality), each class's columns in name order.
std::vector<std::vector<ExprPtr>> equalityClasses(const Conjuncts& cs);

/// `e` a column that `n` outputs and never makes NULL, by `n`'s output (which
/// knows the NULLs outer joins pad with).
bool neverNull(const Expr& e, const PlanNode& n);

/// The canonical form of plans and expressions under the identities given
/// (Identity bits): two plans with the same form return the same rows.
class Canon {
 public:
  explicit Canon(unsigned identities) : ids_(identities) {}

  /// An expression's form.
  Json expr(const Expr& e) const;

  /// The plan below `n` under the conjuncts `pending` (a filter above it).
  /// `hints`: conditions a row of `n` that fails them cannot change the result
  /// with (it is dropped above), which may make an outer join below inner.
  Json node(const PlanNode& n, const Conjuncts& pending = {}, const Conjuncts& hints = {}) const;

 private:
  static std::vector<std::string> outputIds(const PlanNode& n);

  std::set<std::string> texts(const Conjuncts& cs) const;

  /// `form` under the conjuncts `cs`: a block of one input.
  Json filtered(const Conjuncts& cs, Json form) const;

  /// The node itself, without its children, with its predicate canonical.
  Json shallow(const PlanNode& n) const;

  /// An inner join or filter whose conjuncts may be evaluated anywhere in a
  /// block (movable), or are [NOT] EXISTS the block attaches as a join.
  bool inBlock(const PlanNode& n) const;

  /// The rows a filter's or join's conjuncts are evaluated on.
  static const PlanNode& rowsOf(const PlanNode& n);

  static Conjuncts join2(const Conjuncts& a, const Conjuncts& b);
  /// `cs` with what its column equalities imply (kTransitive).
  Conjuncts closed(const Conjuncts& cs) const;

  /// The type of join `n` with what the conjuncts `cs` above it drop removed: a
  /// LEFT join whose padded rows one of them rejects returns the rows of the
  /// inner join there (its padded rows are its only other rows); a FULL join
  /// likewise becomes LEFT, RIGHT or INNER.
  JoinType simplified(const PlanNode& n, const Conjuncts& cs) const;

  /// A LEFT SEMI (NULL-aware LEFT ANTI) join of `x = o` with an uncorrelated
  /// deterministic projection of one column o: the filter `x IN (input)` (`NOT
  /// (x IN (input))`) it decorrelates, which keeps the same rows: IN is TRUE
  /// exactly when some o equals x; NOT IN exactly when the input is empty, or
  /// x and every o are not NULL and none equals x.
  std::optional<ExprPtr> asInConjunct(const PlanNode& n, JoinType t, int probe) const;

  /// An outer join that the conjuncts above made inner (its condition is
  /// movable then). An inner join whose condition is not movable stays out of blocks.
  bool simplifiedToInner(const PlanNode& n) const;

  JoinType effective(const PlanNode& n) const;

  /// `e` as conjuncts, with what every branch of an OR shares taken out of it:
  /// (a AND x) OR (a AND y) is a AND (x OR y) (AND and OR distribute in SQL's
  /// three-valued logic too); when a branch is only the shared part, the OR
  /// holds whenever the shared part does (absorption) and goes.
  Conjuncts factored(const ExprPtr& e) const;

  /// The input of join `n` along which inner joins commute with it (l-asscom,
  /// the join-type table's innerJoinsCommuteOn) when it joins a block that way:
  /// its other input is then attached to the block. -1 otherwise.
  int attachedAlong(const PlanNode& n) const;

  /// A join attached to a block, as a join with the block on the left.
  struct Attached {
    const PlanNode* join = nullptr;  ///< the join; none for [NOT] EXISTS
    JoinType type = JoinType::LeftSemi;
    Conjuncts on;                     ///< its condition's conjuncts that read the block
    const PlanNode* input = nullptr;  ///< its other input
    Conjuncts below;                  ///< conjuncts over that input alone, evaluated in it
    Conjuncts hint;                   ///< conditions a row of that input failing matches nothing
  };

  /// `c` as the semi (anti) join that [NOT] EXISTS is over the rows of `outer`
  /// (decorrelation): EXISTS (SELECT ... FROM x WHERE p AND q), with p over x's
  /// columns and q also over `outer`'s, keeps exactly the rows the semi join on
  /// q with the rows of x satisfying p keeps; NOT EXISTS those of the anti join.
  /// A deterministic select list does not matter. Nothing else may read `outer`.
  std::optional<Attached> asExistsJoin(const ExprPtr& c, const PlanNode& outer) const;

  /// A block's inputs, conjuncts and attached joins.
  struct Gathered {
    std::vector<const PlanNode*> inputs;
    Conjuncts conjuncts;
    std::vector<Attached> attached;
    /// A semi join's ON conjuncts: a block row on which one is NULL
    /// whatever the other input holds matches nothing and is dropped.
    Conjuncts hints;
  };

  void gather(const PlanNode& n, Gathered& g) const;

  /// Adds `a` to the block whose rows `kept` holds: a semi join's ON conjunct
  /// over the block alone filters the block, and its ON conjuncts are hints.
  void attach(Attached a, const PlanNode& kept, Gathered& g) const;

  void member(const PlanNode& c, Gathered& g) const;

  /// A projection that only passes some of its input's columns under their ids
  /// (kProjections): nothing reads a column by its position but the root, a set
  /// operation and a subquery, whose forms list their columns, so the rows it
  /// returns are its input's.
  bool pruning(const PlanNode& n) const;

  /// Conjuncts the other input of attached join `a` may be filtered by, from
  /// the conjuncts `all` of the block over `inputs` and ON equalities (kImplied).
  Conjuncts impliedBelow(const Attached& a, const Conjuncts& all,
                         const std::vector<const PlanNode*>& inputs) const;

  /// An attached join as part of its block's form: its type as a join with the
  /// block on the left, the ON conjuncts that read the block, its other input.
  std::string attachedForm(const Attached& a) const;

  /// A block of inner joins and filters: the multiset of its inputs and the set
  /// of its conjuncts, a conjunct over one input's columns in that input
  /// (sigma_p(A x B) = sigma_p(A) x B); one input under no conjunct is that input.
  /// An outer join among the inputs whose padded rows a conjunct rejects is an
  /// inner join of the block.
  /// A LEFT, semi or anti join along the input it keeps is part of the block
  /// too (kAttach): its other input and condition are attached to the block,
  /// which stands for its inputs' product with the attached joins applied in
  /// any order their conditions allow, then the conjuncts; every such order
  /// returns the same rows (l-asscom), and the conjuncts may be evaluated first
  /// where they read no attached input's columns (sigma_q(A) LEFT JOIN B ON p
  /// equals sigma_q(A LEFT JOIN B ON p) when q reads only A).
  Json block(const PlanNode& n, const Conjuncts& pending, const Conjuncts& hints) const;

  /// A join that is not part of a block. Its mirror with the inputs swapped is
  /// the same join (the form keeps the type that comes first in the join-type
  /// table). Into the preserved input of a LEFT, semi or anti join go the
  /// conjuncts above over that input's columns alone (its rows reach the output
  /// whole or not at all); into the other input, the ON conjuncts over its
  /// columns alone (a row there that fails them matches nothing), except for a
  /// NULL-aware anti join, whose condition is NOT IN's comparison; into the
  /// preserved input of a semi join, also ON conjuncts over its columns alone.
  Json join(const PlanNode& n, const Conjuncts& pending, const Conjuncts& hints) const;

  unsigned ids_;

  /// Joins of the plan whose type the conjuncts above them simplified.
  mutable std::map<const PlanNode*, JoinType> overrides_;

  /// The filters standing for decorrelated joins.
  mutable std::vector<PlanPtr> synthetic_;
};

}  // namespace rfguard::normal_form
