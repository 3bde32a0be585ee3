#pragma once
// The answers a plan may give on one database, and whether a rewritten plan's
// answer is one of the original's: the comparison every bounded search makes.
#include <string>
#include <vector>

#include "evaluation/evaluator.h"
#include "ir/plan.h"
#include "verifier/bounded.h"

namespace rfguard {

/// The same bag of rows (NULLs equal to NULLs, values by rt::compare).
bool sameBag(const std::vector<rt::Row>& a, const std::vector<rt::Row>& b);
/// The rewritten result is one the original query may return: the same bag, or for
/// a root LIMIT with ties, any valid top-k of the original's input; in the order
/// the original's ORDER BY fixes, up to the order of tied rows.
bool sameResult(const rt::Relation& original, const rt::Relation& rewritten);
/// True when `answer` is one of the answers `origins` (every tie resolution) allow.
bool allowedIn(const std::vector<rt::Relation>& origins, const rt::Relation& answer);
/// Every answer `plan` may give on `db`, from its canonical one: that one alone
/// unless a tie was cut (a LIMIT below the root, row_number's peers: then all of
/// them, rt::evaluateAll). `complete`, when given, is false when there were more
/// answers than were listed: an answer not among them is then not a difference.
bool answersOf(const PlanNode& plan, const rt::Database& db, const rt::EvalOptions& options,
               rt::Relation canonical, std::vector<rt::Relation>& out, std::string& error,
               bool* complete = nullptr);

/// Records `db` as undecided in `out` (BoundedVerdict::undecided), once: ties
/// allow the original more answers than were listed, or `why`.
void noteUndecided(const rt::Database& db, BoundedVerdict& out, const std::string& why = "");

/// After an evaluation that failed with out.error: where the query has no one
/// result on `db` (rt::kQueryFails), `db` is undecided, the error cleared and
/// the search goes on. Returns false, a probe's "no difference here".
bool skipWhereQueryFails(const rt::Database& db, BoundedVerdict& out);

}  // namespace rfguard
