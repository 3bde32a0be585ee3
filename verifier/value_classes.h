#pragma once
// Internal to verifier/: which columns a plan ever relates to each other, and
// which constants each group of related columns meets. A column's search
// domain needs only the constants of its own class: a value that no
// expression reaching the column can tell apart from a fresh one adds
// databases but no behaviour (the small-scope argument of docs/design.md section 6).
#include <map>
#include <string>
#include <vector>

#include "evaluation/values.h"
#include "ir/plan.h"

namespace rfguard {

/// The constants one class of related columns meets.
struct ValueClass {
  std::vector<rt::Value> constants;  ///< in first-seen order, without duplicates
  bool ranges = false;               ///< some expression of the class compares by order
  /// Integer constants the class's columns are shifted by (`x + 5 = y`) or
  /// multiplied by (`x * 3 = y`): its values come with their images, so that
  /// two of them can satisfy such a comparison.
  std::vector<int64_t> offsets, factors;
};

class ValueClasses {
 public:
  /// Relates the columns of every node in `nodes` (subquery plans included by the caller).
  explicit ValueClasses(const std::vector<const PlanNode*>& nodes);
  /// The class of column `id` (a class of its own when the plans never relate it).
  const ValueClass& of(const std::string& id) const;

 private:
  int find(int x) const;
  int idOf(const std::string& column);
  void unite(const std::string& a, const std::string& b);
  void atom(const Expr& e, const std::string& with);
  void counted(const std::string& column);
  /// The columns of `e` are compared by order (a sort key, a window's ORDER BY,
  /// min/max): their domains take the constants' neighbours, as for `<`.
  void ordered(const Expr& e);

  mutable std::vector<int> parent_;
  std::map<std::string, int> ids_;
  std::map<int, std::vector<std::pair<std::string, rt::Value>>> pending_;  // column -> constants
  std::map<int, bool> ranges_;
  std::map<int, std::vector<int64_t>> offsets_, factors_;  // column -> arithmetic constants
  std::map<int, ValueClass> classes_;                      // by root, after construction
  ValueClass none_;
};

}  // namespace rfguard
