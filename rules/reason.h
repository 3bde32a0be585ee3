#pragma once
// Why a hook decided, in words put together only when someone reads them: the
// planner and the verifier ask the hooks thousands of questions per plan and
// print the answers of a few (explain, findings). Building every answer's text
// was a tenth of placing and verifying filters.
#include <cstddef>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "ir/plan.h"

namespace rfguard {

class Reason {
 public:
  Reason() = default;
  Reason(std::string text) { emplace(Text{std::move(text)}); }  // NOLINT: words known now
  Reason(const char* text) : Reason(std::string(text)) {}       // NOLINT: words known now
  Reason(const Reason& o) : ops_(o.ops_) {
    if (ops_) ops_->copy(buf_, o.buf_);
  }
  Reason(Reason&& o) noexcept : ops_(o.ops_) {
    if (ops_) ops_->move(buf_, o.buf_);
    o.reset();  // empty, as a moved-from std::function: its text is ""
  }
  Reason& operator=(const Reason& o) {
    if (this != &o) *this = Reason(o);
    return *this;
  }
  Reason& operator=(Reason&& o) noexcept {
    if (this == &o) return *this;
    reset();
    ops_ = o.ops_;
    if (ops_) ops_->move(buf_, o.buf_);
    o.reset();
    return *this;
  }
  ~Reason() { reset(); }

  /// A reason written when read. `make` must hold what it prints by value: a
  /// report outlives the hooks' arguments.
  template <class F>
  static Reason later(F&& make) {
    Reason r;
    r.emplace(std::forward<F>(make));
    return r;
  }

  /// The words. Built anew on each call (nothing is cached, so reading the same
  /// report from several threads is safe).
  std::string text() const { return ops_ ? ops_->call(buf_) : std::string(); }

 private:
  // What `later` is given is kept inside the reason when it fits (a node's name
  // and two expressions, or an expression and an alias): std::function keeps
  // anything that holds a shared_ptr on the heap, one allocation per question.
  static constexpr size_t kInline = 64;
  struct Ops {
    std::string (*call)(const void* self);
    void (*copy)(void* to, const void* from);
    void (*move)(void* to, void* from) noexcept;  ///< `from` is destroyed after
    void (*destroy)(void* self) noexcept;
  };
  struct Text {
    std::string words;
    std::string operator()() const { return words; }
  };
  template <class F>
  static constexpr bool fitsInline =
      sizeof(F) <= kInline &&
      alignof(F) <= alignof(std::max_align_t) && std::is_nothrow_move_constructible_v<F>;
  template <class F>
  static const Ops* opsFor() {
    if constexpr (fitsInline<F>) {
      static constexpr Ops ops{
          [](const void* s) -> std::string { return (*static_cast<const F*>(s))(); },
          [](void* t, const void* f) { ::new (t) F(*static_cast<const F*>(f)); },
          [](void* t, void* f) noexcept { ::new (t) F(std::move(*static_cast<F*>(f))); },
          [](void* s) noexcept { static_cast<F*>(s)->~F(); }};
      return &ops;
    } else {  // held on the heap: the buffer holds the pointer
      static constexpr Ops ops{
          [](const void* s) -> std::string { return (**static_cast<F* const*>(s))(); },
          [](void* t, const void* f) { *static_cast<F**>(t) = new F(**static_cast<F* const*>(f)); },
          [](void* t, void* f) noexcept {
            *static_cast<F**>(t) = std::exchange(*static_cast<F**>(f), nullptr);
          },
          [](void* s) noexcept { delete *static_cast<F**>(s); }};
      return &ops;
    }
  }
  template <class G>
  void emplace(G&& make) {
    using F = std::decay_t<G>;
    if constexpr (fitsInline<F>)
      ::new (static_cast<void*>(buf_)) F(std::forward<G>(make));
    else
      *reinterpret_cast<F**>(buf_) = new F(std::forward<G>(make));
    ops_ = opsFor<F>();
  }
  void reset() noexcept {
    if (ops_) ops_->destroy(buf_);
    ops_ = nullptr;
  }

  const Ops* ops_ = nullptr;
  alignas(std::max_align_t) unsigned char buf_[kInline];
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
