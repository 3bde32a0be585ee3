#pragma once
// Why a hook decided, in words put together only when someone reads them: the
// planner and the verifier ask the hooks thousands of questions per plan and
// print the answers of a few (explain, findings). Building every answer's text
// was a tenth of placing and verifying filters.
#include <functional>
#include <string>
#include <utility>

#include "ir/plan.h"

namespace rfguard {

class Reason {
 public:
  Reason() = default;
  Reason(std::string text) : text_(std::move(text)) {}  // NOLINT: words known now
  Reason(const char* text) : text_(text) {}             // NOLINT: words known now

  /// A reason written when read. `make` must hold what it prints by value: a
  /// report outlives the hooks' arguments.
  template <class F>
  static Reason later(F&& make) {
    Reason r;
    r.make_ = std::forward<F>(make);
    return r;
  }

  /// The words. Built anew on each call (nothing is cached, so reading the same
  /// report from several threads is safe).
  std::string text() const { return make_ ? make_() : text_; }

 private:
  std::string text_;
  std::function<std::string()> make_;
};

/// What nodeRef() prints for a node, held by value for a reason written later.
struct NodeName {
  PlanOp op;
  JoinType joinType;
  int id;
  explicit NodeName(const PlanNode& n) : op(n.op), joinType(n.joinType), id(n.id) {}
  std::string str() const { return nodeRef(op, joinType, id); }
};

}  // namespace rfguard
