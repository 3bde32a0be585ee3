#include "verifier/answers.h"

#include <algorithm>

#include "execution/key.h"

namespace rfguard {

namespace {

bool sameRow(const rt::Row& r, const rt::Row& s) {
  if (r.size() != s.size()) return false;
  for (size_t j = 0; j < r.size(); ++j) {
    if (rt::isNull(r[j]) != rt::isNull(s[j])) return false;
    if (!rt::isNull(r[j]) && rt::compare(r[j], s[j]) != 0) return false;
  }
  return true;
}

}  // namespace

/// This runs for every database of a search whose filters dropped a row. The
/// evaluator is deterministic, so equal results mostly come in the same order:
/// compared as they are first, then both sorted by reference (no row copied).
bool sameBag(const std::vector<rt::Row>& a, const std::vector<rt::Row>& b) {
  if (a.size() != b.size()) return false;
  size_t same = 0;
  while (same < a.size() && sameRow(a[same], b[same])) ++same;
  if (same == a.size()) return true;
  auto sorted = [](const std::vector<rt::Row>& rows) {
    std::vector<const rt::Row*> out;
    out.reserve(rows.size());
    for (const auto& r : rows) out.push_back(&r);
    std::sort(out.begin(), out.end(),
              [](const rt::Row* x, const rt::Row* y) { return rt::rowLess(*x, *y); });
    return out;
  };
  const auto x = sorted(a), y = sorted(b);
  for (size_t i = 0; i < x.size(); ++i)
    if (!sameRow(*x[i], *y[i])) return false;
  return true;
}

bool sameResult(const rt::Relation& original, const rt::Relation& rewritten) {
  if (original.topK ? !rt::validTopK(*original.topK, rewritten.rows)
                    : !sameBag(original.rows, rewritten.rows))
    return false;
  // A rewritten plan that fixes no order may return its rows in any order.
  if (original.order && !rewritten.order) return !rt::orderBreaking(original);
  return rt::orderKept(original, rewritten.rows);
}

bool allowedIn(const std::vector<rt::Relation>& origins, const rt::Relation& answer) {
  for (const auto& o : origins)
    if (sameResult(o, answer)) return true;
  return false;
}

bool answersOf(const PlanNode& plan, const rt::Database& db, const rt::EvalOptions& options,
               rt::Relation canonical, std::vector<rt::Relation>& out, std::string& error,
               bool* complete) {
  out.clear();
  if (complete) *complete = true;
  if (canonical.tieArities.empty()) {
    if (complete) *complete = !canonical.tiesCapped;
    out.push_back(std::move(canonical));
    return true;
  }
  return rt::evaluateAll(plan, db, options, out, error, 256, complete);
}

void noteUndecided(const rt::Database& db, BoundedVerdict& out, const std::string& why) {
  if (!out.undecided.empty()) return;
  std::string tables;
  for (const auto& [name, t] : db) {
    tables += (tables.empty() ? "" : " ") + name + "={";
    for (size_t i = 0; i < t.rows.size(); ++i)
      tables += (i ? " " : "") + rt::keyToString(t.rows[i]);
    tables += "}";
  }
  out.undecided = "on " + tables + " " +
                  (why.empty() ? "ties allow the original more answers than were listed (" +
                                     std::to_string(rt::kTieAlternatives) + " per tie, 256 in all)"
                               : why);
}

bool skipWhereQueryFails(const rt::Database& db, BoundedVerdict& out) {
  if (out.error.rfind(rt::kQueryFails, 0) != 0) return false;
  noteUndecided(db, out, out.error);
  out.error.clear();
  return false;
}

}  // namespace rfguard
