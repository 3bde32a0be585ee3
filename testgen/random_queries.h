#pragma once
// Random queries for the bounded verifier: 3 to 6 tables joined with random
// join types and keys (`=`, `<=>`, IS NOT DISTINCT FROM), key expressions with
// coalesce, cast and arithmetic, derived tables with aggregates and limits, and
// NOT IN and correlated [NOT] EXISTS subqueries. They feed the sound planner; every placement is
// checked.
#include <cstdint>
#include <random>
#include <string>
#include <utility>

#include "ir/random.h"

namespace rfguard {

/// The schema every random query reads: t0 .. t5 (k int, v int).
std::string randomSchema();

/// One random query over randomSchema() with `tables` tables (3 to 6).
std::string randomQuery(std::mt19937_64& rng, int tables);

/// The schema of randomAnalyticQuery: fact (10 M rows) and fact2 (3 M) over
/// dimensions d0 .. d9 (k int primary key, a int, b varchar, c int, p int), some
/// of them a snowflake's parents.
std::string randomAnalyticSchema();

/// One random query of the analytic benchmarks' shape (TPC-DS, JOB) over
/// randomAnalyticSchema() with `tables` relations (6 to 12; testgen/random_analytic.cpp).
std::string randomAnalyticQuery(std::mt19937_64& rng, int tables);

/// The schema of randomNearPair: t0, t1 (k int, v int) and t2 (k int primary
/// key, x varchar(8)).
std::string randomPairSchema();

/// Two queries over randomPairSchema() (testgen/random_pairs.cpp) that return
/// two integer columns and differ in one random choice (a constant, an
/// operator, a join type, a branch): often equal, often different by a little.
/// Filters, every outer join, arithmetic, CASE, coalesce, IN lists, [NOT] IN
/// and EXISTS subqueries, grouping with count/sum/min/max, DISTINCT and set
/// operations, text comparisons: the fragment the solver encodes.
std::pair<std::string, std::string> randomNearPair(uint64_t seed);

/// The schema of randomKeyPair: d (a primary key), e (a primary key, a NOT
/// NULL and a nullable foreign key to d) and u (a nullable UNIQUE key).
std::string randomKeySchema();

/// A query over randomKeySchema() and a rewrite of it for the normal form's
/// key and name laws (testgen/random_key_pairs.cpp): a join to d added (in ON
/// or WHERE, inner or LEFT), a GROUP BY or a DISTINCT, a self-join on the
/// key, a derived table read through or grouped by, set operations swapped,
/// filtered or nested, the table renamed; each with its side condition kept
/// or broken.
std::pair<std::string, std::string> randomKeyPair(uint64_t seed);

}  // namespace rfguard
