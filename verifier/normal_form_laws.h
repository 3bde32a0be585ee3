#pragma once
// Internal to verifier/: the laws the normal form applies to a copy of a plan
// before its canonical form is taken (normal_form_canon.h's identities):
//  - kProjections: a projection of a projection is one projection; a filter
//    over a projection, the projection over the filter of its substituted
//    condition; an aggregate over a projection, the aggregate of the
//    substituted keys and arguments, a key that is then a plain column named
//    after it (a derived table's names vanish); a projection that only renames
//    and drops columns, its input under the old names; a projection over
//    UNION ALL, each input projected; a filter on every window's partition
//    keys, below the window;
//  - kKeys: GROUP BY over columns among which is a key of its input (PRIMARY
//    KEY, UNIQUE over NOT NULL columns, group keys, joins on keys: row_keys.h)
//    is a projection (count(*) is 1, min / max / sum / avg their argument); a
//    DISTINCT of that kind is its input;
//  - kJoins: a join whose other input no one reads is its kept input, where
//    each kept row meets exactly one row (an inner join on a NOT NULL FOREIGN
//    KEY with the whole referenced table) or at most one and is kept anyway (a
//    LEFT or RIGHT join on a key of the other input).
//  - kSetOps: a filter over a set operation filters each input (columns by
//    position); UNION (INTERSECT) of the same kind flattened where the outer
//    is DISTINCT or both ALL (the canonical form also takes their inputs in
//    any order);
//  - kAggregates: a filter's conjuncts on group keys below the aggregate;
//    min / max, and aggregates of a key column, without DISTINCT; count(x) of
//    a NOT NULL x as count(*); literal keys out of the grouping;
//  - kConstants: expressions without columns folded, NOT at the leaves, IN
//    lists as ORs, AND / OR flat, coalesce and nullif as CASE, CASE without
//    dead branches; relations no row reaches as empty VALUES;
//  - kSubqueries: a scalar subquery of an aggregate, correlated by
//    equalities, as a LEFT JOIN to it grouped (normal_form_scalar.cpp);
//  - kSetOps, after the rest: UNION as DISTINCT over UNION ALL;
//  - kNames: a table is named by the table, not by the query's alias
//    (normal_form_names.cpp): `FROM emp e` reads what `FROM emp` reads; a
//    table read n times is "table#1" to "table#n", in an order a Naming picks;
//    the result's columns are named by their positions.
// Each keeps the root's columns (kNames their names too) and what they hold on
// every database that satisfies the constraints. Each law's argument and counterexample is at its
// code.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/plan.h"
#include "verifier/normal_form_canon.h"

namespace rfguard::normal_form {

/// The filter at `slot` over a node: each of its conjuncts that `inputOf`
/// sends to an input of that node (its index; -1: none), rewritten by
/// `rewrite`, as a filter of that input, the others kept above the node; true
/// when one moved.
bool filterInto(PlanPtr& slot, const std::function<int(const ExprPtr&)>& inputOf,
                const std::function<ExprPtr(const ExprPtr&)>& rewrite);

/// filterInto for a node of one input: the conjuncts `below` accepts.
bool filterThrough(PlanPtr& slot, const std::function<bool(const ExprPtr&)>& below,
                   const std::function<ExprPtr(const ExprPtr&)>& rewrite);

/// Project `p`'s expressions by the ids they make, when `p` is a projection
/// whose expressions may be substituted for those ids (deterministic, no
/// subqueries); nullopt otherwise.
std::optional<std::map<std::string, ExprPtr>> substitutable(const PlanNode& p);

/// A projection with id `id` that passes `columns` of `input` under their ids,
/// in that order.
PlanPtr passingColumns(const std::vector<Column>& columns, const PlanPtr& input, int id);

/// A filter whose condition may be evaluated elsewhere, substituted:
/// deterministic, no subqueries.
bool plainFilter(const PlanNode& f);

/// The set operation `op`'s columns as `input`'s columns in the same
/// positions; nullopt when their counts differ.
std::optional<std::map<std::string, ExprPtr>> byPosition(const PlanNode& op, const PlanNode& input);

/// Conjuncts that hold on every row `n` returns, over its output columns
/// (filters, projections of columns, group keys, inner joins below it).
Conjuncts knownOf(const PlanNode& n);

/// kSetOps (normal_form_setops.cpp): a filter over a set operation as a
/// filter of each input; true when it moved.
bool filterIntoSetOperation(PlanPtr& slot);

/// kSetOps: the conjuncts known of one input of INTERSECT [ALL] (of EXCEPT
/// [ALL]'s first input) filtering its other inputs by position, where they do
/// not already; true when one was added.
bool filtersAcrossSetOperation(PlanNode& n, unsigned identities);

/// kSetOps: UNION (INTERSECT) inputs of a UNION (INTERSECT) flattened where
/// the outer is DISTINCT or both are ALL; true when one was.
bool flattenSetOperation(PlanNode& n);

/// kSetOps: a projection that only renames a set operation's columns, in
/// order, as the set operation under those names; true when it was.
bool renamingOverSetOperation(PlanPtr& slot);

/// kSetOps: each UNION below and at `slot` as DISTINCT over UNION ALL; true
/// when there was one.
bool unionsAsDistinct(PlanPtr& slot);

/// kSetJoins: DISTINCT of all the columns matched by a [NOT] EXISTS filter's
/// equalities (NULL-safe, or never NULL) as INTERSECT (EXCEPT) of those
/// columns and the subquery's; true when it was.
bool distinctSemiAsSetOperation(PlanPtr& slot);

/// kRepeated: an input of a UNION or INTERSECT (DISTINCT) below or at `slot`
/// whose form is another input's dropped, one input left as its DISTINCT;
/// true when one was.
bool repeatedInputs(PlanPtr& slot, unsigned identities);

/// For each table read more than once, the number each of its scans takes
/// (a permutation of 0..n-1, the scans in the plan's pre-order); missing:
/// their order in the plan. Without a Naming such tables keep their aliases.
using Naming = std::map<std::string, std::vector<int>>;

/// A copy of `root` (deepClonePlan) with the laws of `identities` applied
/// wherever they hold, until none does.
/// `output`, when given, receives the result's columns by position (kNames:
/// a root projection of plain columns is then not part of the plan returned).
PlanPtr withLaws(const PlanNode& root, unsigned identities, const Naming* naming = nullptr,
                 std::vector<std::string>* output = nullptr);

/// The canonical form of `root`'s result under `identities` (its columns by
/// position under kNames): equal forms, equal results (normal_form.cpp).
std::string formOf(const PlanNode& root, unsigned identities, const Naming* naming = nullptr);

/// Renames each table of `root` (subqueries included) after the table, where
/// no column of the plan has that name already, and the ids in `columns`
/// with them; true when one was.
bool renameTables(PlanNode& root, const Naming* naming = nullptr,
                  std::vector<std::string>* columns = nullptr);

/// Drops one join of `root` whose other input nothing reads, where each kept
/// row appears once (kJoins; normal_form_joins.cpp), or makes such an inner
/// join whose kept rows meet at most one row a semi join (kSemi); true when
/// it did.
bool dropUnreadJoin(PlanPtr& root, unsigned identities);

/// An inner (or cross) join.
bool innerJoin(const PlanNode& n);

/// A filter, or a projection of columns: a block of inner joins reaches
/// through it.
bool passing(const PlanNode& n);

/// Part of a block of inner joins with what is above or below it: an inner
/// join, or one below filters and projections of columns.
bool joinsMore(const PlanNode& n);

/// kAssociate: A LEFT JOIN (B LEFT JOIN C ON q) ON p at `slot` as (A LEFT
/// JOIN B ON p) LEFT JOIN C ON q, where p reads only A and B and q rejects
/// B's NULLs (normal_form_joins.cpp); true when it was.
bool leftJoinsLeftDeep(PlanPtr& slot);

/// Drops one projection of `root` below its root that only renames and drops
/// its input's columns, renaming what reads them (kProjections); true when it did.
bool dropRenamings(PlanNode& root);

/// kAggregates (normal_form_aggregates.cpp): the conjuncts of a filter over an
/// aggregate that read only its group keys, below it; true when one moved.
bool filterBelowAggregate(PlanPtr& slot);

/// kAggregates: DISTINCT dropped from min / max and from aggregates of a key
/// column, count(x) of a NOT NULL column as count(*); true when one changed.
bool simplifyAggregateCalls(PlanNode& aggregate);

/// kAggregates: literal group keys out of the grouping (another key staying),
/// a projection above giving them back; true when it did.
bool constantGroupKeys(PlanPtr& slot);

/// kFixedKeys: group keys that a conjunct `k = literal` of the filter below
/// fixes, as that literal; true when one was.
bool keysFixedByFilter(PlanNode& aggregate);

/// kAggregateUnion: GROUP BY g of sums (min, max, sums of counts) over a
/// UNION ALL of GROUP BY g's of sums (mins, maxes, counts) as one GROUP BY g
/// over the UNION ALL of their inputs; true when it was.
bool aggregateOfAggregates(PlanPtr& slot);

/// kAggregateJoin (normal_form_aggregate_join.cpp): one inner join of two
/// inputs below `root`, an aggregate on its keys with a key of the other, as
/// the aggregate over the join, grouped by those keys and the other input's
/// columns; true when there was one.
bool aggregateAboveKeyJoin(PlanPtr& root);

/// kAggregateJoin: group keys that the conjuncts below make equal to another
/// column, as the first of their class by name; a key twice, once; true when
/// one changed.
bool keysByEqualities(PlanPtr& slot);

/// kConstants (normal_form_constants.cpp): the expressions of `n` folded and
/// written one way; true when one changed.
bool simplifyExpressions(PlanNode& n);

/// kConstants: `*slot` as empty VALUES when no row can reach it (a filter
/// never TRUE, LIMIT 0, an empty input it needs), a LEFT join with an empty
/// other input as its padded input; true when it changed.
bool emptyRelation(PlanPtr& slot);

/// kConstants: a DISTINCT (an aggregate of keys only) as the projection of
/// its keys, for where only whether a row is there counts; null when `n` is
/// no DISTINCT.
PlanPtr withoutDistinct(const PlanPtr& n);

/// kNames: the columns of each subquery's result, and of the select list a
/// semi or anti join reads its other input through, "$sq.0"...: read by
/// position only.
void renameSubqueryOutputs(PlanNode& root);

/// kSubqueries (normal_form_scalar.cpp): the first scalar subquery of an
/// aggregate without group keys, correlated by equalities, in a projection or
/// filter at `slot`, as a LEFT JOIN to that aggregate grouped by its
/// correlated columns; true when it did.
bool scalarAsLeftJoin(PlanPtr& slot);

/// `(SELECT count(*) FROM x WHERE p) = 0` (or any comparison with 0 or 1 that
/// tells no rows from some rows) in the expressions of `n` as `NOT EXISTS
/// (SELECT * FROM x WHERE p)`, or EXISTS; true when it did.
bool countsAsExists(PlanNode& n);

/// kNames: each aggregate's results named after what they compute and their
/// group keys, where the name is free; `columns` (the result's) renamed too.
void renameAggregates(PlanNode& root, std::vector<std::string>& columns);

/// Renames the columns `to` maps in the whole plan, and in `columns`.
void renameColumns(PlanNode& root, const std::map<std::string, std::string>& to,
                   std::vector<std::string>& columns);

/// True when inner join `n`'s condition is exactly a NOT NULL FOREIGN KEY of
/// its input `keep` equated with the whole table it references (its other
/// input, a scan), or a key of a table with itself: each row of `keep` meets
/// exactly one row (normal_form_joins.cpp).
bool foreignKeyJoin(const PlanNode& n, int keep);

/// The result's columns by position: the columns a root projection of plain
/// columns (each once) lists, that projection then dropped from `root` when
/// `look`; else the root's output.
std::vector<std::string> rootColumns(PlanPtr& root, bool look);

/// Names each key of each aggregate of `root` that is a plain column after
/// that column, where no node outside the aggregate's subtree makes or reads
/// that name and no other output of the aggregate has it, renaming what reads
/// the key. A one-to-one renaming of what the plan calls a column: the rows
/// stay the same.
void renameGroupKeys(PlanNode& root);

/// Names the columns of each projection that is an input of a set operation
/// by their positions ("$in.0"...): the set operation reads them by position
/// and no one else reads them.
void renameSetOperationInputs(PlanNode& root);

/// kNames: the columns of each set operation named "$set.<depth>.<position>"
/// where no column has that name: they are read by position.
void renameSetOperationOutputs(PlanNode& root);

/// Renames the result's `columns` "$out.0", "$out.1"... in the whole plan,
/// but a scan's own columns (their "alias.col" binds them to the table's): a
/// result is read by position, so its names do not matter.
void renameOutputs(PlanNode& root, std::vector<std::string>& columns);

/// The tables `root` reads more than once, with how many times.
std::map<std::string, int> tablesReadTwice(const PlanNode& root);

}  // namespace rfguard::normal_form
