#pragma once
// Proofs of equivalence by algebra, for every database: two plans with the
// same normal form return the same rows (docs/equiv.md). The normal form
// forgets only what identities that hold on every database make irrelevant:
//  - inner-join blocks: a maximal tree of INNER / CROSS joins and filters is
//    the multiset of its inputs and the set of its conjuncts (inner joins
//    commute and associate, and a deterministic conjunct may be evaluated at
//    any join above all the inputs it reads);
//  - a join and its mirror with the children swapped (A LEFT JOIN B = B RIGHT
//    JOIN A, the semi and anti joins likewise, FULL both ways);
//  - the columns a scan lists (a scan returns one row per table row whatever
//    it lists; what reads a missing column does not bind);
//  - conjuncts sunk into the inputs of outer, semi and anti joins where the
//    join-type semantics allow it;
//  - outer joins whose padded rows a conjunct above rejects, as the inner (or
//    one-sided) join;
//  - uncorrelated `x IN (select)` / `NOT (x IN ...)` as the semi / NULL-aware
//    anti join they decorrelate to;
//  - a conjunct common to every branch of an OR, out of it;
//  - operand order of symmetric comparisons and of AND / OR, `a > b` as `b < a`;
//    filters that are TRUE;
//  - DISTINCT over an input that has a key among its columns (a PRIMARY KEY,
//    UNIQUE over NOT NULL columns, group keys: verifier/row_keys.h), dropped;
//    GROUP BY over such columns, a projection;
//  - joins whose other input nothing reads, dropped where every kept row
//    appears once: an inner join on a NOT NULL FOREIGN KEY with the table it
//    references, a LEFT join on a key of its other input;
//  - a projection of a projection, one projection; a projection that only
//    drops columns, its input (normal_form_laws.h);
//  - conjuncts of one INTERSECT input (of EXCEPT's first) filtering the other
//    inputs; an input of UNION / INTERSECT repeating another, dropped;
//  - conjuncts implied through a LEFT, semi or anti join's ON equalities into
//    its other input; right-nested LEFT joins left-deep where the inner
//    condition rejects the middle input's NULLs;
//  - group keys a filter below fixes to a literal, that literal; IN over a
//    subquery of fixed rows, the IN list; an inner join of two inputs on a
//    key of one that nothing else reads, the semi join.
// Column order is kept where it reaches the result by position: the root's
// output and the inputs of UNION / INTERSECT / EXCEPT. Conjuncts with scalar or
// correlated subqueries or non-deterministic calls are not moved (a scalar
// subquery evaluated on more rows may fail), so such filters and joins keep
// their place. Each identity's argument is at the code that applies it.
#include <optional>
#include <string>

#include "ir/plan.h"

namespace rfguard {

/// The normal form of a plan as canonical text (equal texts: equal plans).
std::string normalForm(const PlanNode& root);

/// When `a` and `b` return the same rows on every database by the identities
/// above: what made their forms equal, for the reader. Nullopt when the forms
/// differ (which proves nothing either way) or a plan does not bind (a column
/// read that no child produces).
std::optional<std::string> provedEqual(const PlanNode& a, const PlanNode& b);

}  // namespace rfguard
