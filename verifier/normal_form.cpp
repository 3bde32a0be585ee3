#include "verifier/normal_form.h"

#include <algorithm>

#include "rules/normalize.h"
#include "verifier/normal_form_canon.h"
#include "verifier/normal_form_laws.h"

namespace rfguard {

namespace {

using namespace normal_form;

/// Every numbering of `a`'s scans of the tables it reads more than once (one
/// permutation per table), the plan's own order first; at most `cap`.
std::vector<Naming> namings(const PlanNode& a, size_t cap) {
  std::vector<Naming> out{Naming{}};
  for (const auto& [table, n] : tablesReadTwice(a)) {
    std::vector<int> perm(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
    std::vector<Naming> next;
    do {
      for (const Naming& base : out) {
        if (next.size() >= cap) break;
        Naming m = base;
        m[table] = perm;
        next.push_back(std::move(m));
      }
    } while (next.size() < cap && std::next_permutation(perm.begin(), perm.end()));
    out = std::move(next);
  }
  return out;
}

}  // namespace

namespace normal_form {

std::string formOf(const PlanNode& root, unsigned identities, const Naming* naming) {
  std::vector<std::string> output;
  PlanPtr lawful = withLaws(root, identities, naming, &output);
  return Json{{"output", output}, {"plan", Canon(identities).node(*lawful)}}.dump();
}

}  // namespace normal_form

std::string normalForm(const PlanNode& root) {
  return formOf(root, kAll);
}

std::optional<std::string> provedEqual(const PlanNode& a, const PlanNode& b) {
  // Tables read twice keep their aliases; failing that, their scans are
  // numbered in b's order and in a's in every order (a one-to-one renaming of
  // a's columns keeps its rows), up to 24.
  const Naming inOrder;
  std::optional<Naming> naming;
  const Naming* numbered = nullptr;
  if (formOf(a, kAll) != formOf(b, kAll)) {
    if (tablesReadTwice(a).empty()) return std::nullopt;
    const std::string target = formOf(b, kAll, &inOrder);
    for (const Naming& n : namings(a, 24))
      if (formOf(a, kAll, &n) == target) {
        naming = n;
        numbered = &inOrder;
        break;
      }
    if (!naming) return std::nullopt;
  }
  const Naming* na = naming ? &*naming : nullptr;
  if (!verifyPlan(a).empty() || !verifyPlan(b).empty()) return std::nullopt;
  static const std::pair<unsigned, const char*> names[] = {
      {kBlocks, "inner joins reordered or their conjuncts moved"},
      {kMirror, "join inputs swapped with the mirrored join type"},
      {kScanColumns, "scans list other columns"},
      {kOperands, "operands of symmetric comparisons swapped"},
      {kSink, "conjuncts moved into an input of an outer, semi or anti join"},
      {kSimplify, "outer joins simplified where a conjunct rejects their padded rows"},
      {kSubqueries,
       "uncorrelated IN / NOT IN as semi / NULL-aware anti joins, [NOT] EXISTS as semi / anti "
       "joins, scalar subqueries of an aggregate as LEFT JOINs to it grouped, or correlated by a "
       "key of their input as LEFT JOINs to it, a count(*) compared with 0 as [NOT] EXISTS"},
      {kFactor, "conjuncts common to every branch of an OR taken out of it"},
      {kAttach, "LEFT, semi or anti joins moved past inner joins on the side they keep"},
      {kKeys,
       "DISTINCT dropped, GROUP BY as a projection, over a key of its input (constraints, group "
       "keys, joins on keys)"},
      {kJoins,
       "joins dropped whose other input nothing reads: on a NOT NULL foreign key, or LEFT on a "
       "key"},
      {kProjections,
       "projections merged, filters and aggregates read through them, those that only drop "
       "columns left out"},
      {kNames, "tables named by the table, not by the query's alias, result columns by position"},
      {kAggregates,
       "filters on group keys below the aggregate, DISTINCT dropped where values are distinct "
       "anyway, count of a NOT NULL column as count(*), literal group keys out of the grouping"},
      {kConstants,
       "constants folded, NOT pushed to the leaves, IN lists and IN over fixed rows as ORs, "
       "coalesce and nullif as "
       "CASE, dead CASE branches dropped, relations no row reaches as empty, DISTINCT where only "
       "whether a row is there counts"},
      {kTransitive, "conjuncts implied through the equalities of inner joins"},
      {kSetOps,
       "filters moved into set operations; UNION and INTERSECT flattened, their inputs in any "
       "order"},
      {kAcross,
       "conjuncts of one INTERSECT input filtering the others, of EXCEPT's first input its others"},
      {kImplied,
       "conjuncts implied through the ON equalities of LEFT, semi and anti joins into their "
       "other input"},
      {kRepeated, "an input of UNION or INTERSECT that repeats another dropped"},
      {kAssociate,
       "A LEFT JOIN (B LEFT JOIN C ON q) as (A LEFT JOIN B) LEFT JOIN C ON q, q rejecting B's "
       "NULLs"},
      {kFixedKeys, "group keys that a filter below fixes to a literal, as that literal"},
      {kSemi,
       "inner joins on a key of an input nothing else reads as semi joins (each row meets at "
       "most one)"},
      {kAggregateUnion,
       "GROUP BY of sums, mins, maxes over UNION ALL of GROUP BYs on the same keys as one GROUP "
       "BY over their inputs (a sum of counts a count)"},
      {kSetJoins,
       "DISTINCT over a semi (anti) join that matches all its columns, NULL-safely or never "
       "NULL, as INTERSECT (EXCEPT)"},
      {kAggregateJoin,
       "an aggregate joined on all its keys to a key of another input as the aggregate over the "
       "join, group keys equal by the conditions below as one"},
  };
  // Name the identities the forms need: each left out in turn, the most
  // specific first, and kept out where the forms stay equal without it (each
  // one named was needed then).
  unsigned best = kAll;
  for (auto it = std::rbegin(names); it != std::rend(names); ++it) {
    const unsigned without = best & ~it->first;
    if (formOf(a, without, na) == formOf(b, without, numbered)) best = without;
  }
  std::string why;
  for (const auto& [bit, text] : names)
    if (best & bit) why += (why.empty() ? "" : "; ") + std::string(text);
  return why.empty() ? "the same plan but for estimates and runtime filters" : why;
}

}  // namespace rfguard
