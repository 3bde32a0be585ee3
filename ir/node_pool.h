#pragma once
// Expression and plan nodes through a per-thread cache of freed blocks.
//
// A query's expression and plan nodes are made as it is bound and rewritten
// and dropped together when it goes. With the C library's malloc most of
// those blocks (an Expr with its reference count is 168 bytes, a PlanNode more)
// are too large for its fast bins and more than its per-thread cache holds
// (seven per size), so every query paid for them to be merged into and split
// out of its general bins again. Here a thread keeps the blocks it frees, one
// list per size, and the next query takes them back from the list.
#include <cstddef>
#include <memory>
#include <new>
#include <utility>

namespace rfguard {

namespace detail {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kPoolNodes = false;  // let ASan see every node's lifetime
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
inline constexpr bool kPoolNodes = false;
#else
inline constexpr bool kPoolNodes = true;
#endif
#else
inline constexpr bool kPoolNodes = true;
#endif

/// The freed blocks of one size a thread keeps, as a list through the blocks
/// themselves. It keeps at most about 1 MiB; blocks beyond go back to malloc,
/// and the list is freed when the thread ends.
template <size_t Size>
class BlockCache {
  static_assert(Size >= sizeof(void*));

 public:
  BlockCache() = default;
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;
  ~BlockCache() {
    while (head_) {
      Free* f = head_;
      head_ = f->next;
      ::operator delete(f);
    }
  }
  void* get() {
    if (!head_) return ::operator new(Size);
    Free* f = head_;
    head_ = f->next;
    --count_;
    return f;
  }
  void put(void* p) {
    if (count_ >= kKeep) return ::operator delete(p);
    head_ = ::new (p) Free{head_};
    ++count_;
  }
  /// How many freed blocks the list holds.
  size_t size() const { return count_; }
  /// The most it holds.
  static constexpr size_t capacity() { return kKeep; }
  static BlockCache& mine() {
    thread_local BlockCache cache;
    return cache;
  }

 private:
  struct Free {
    Free* next;
  };
  static constexpr size_t kKeep = (size_t{1} << 20) / Size + 16;
  Free* head_ = nullptr;
  size_t count_ = 0;
};

}  // namespace detail

/// An allocator for std::allocate_shared whose single blocks come from the
/// thread's cache (arrays, never asked for by allocate_shared, from malloc).
template <typename T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <typename U>
  PoolAllocator(const PoolAllocator<U>&) {}  // NOLINT(google-explicit-constructor)
  T* allocate(size_t n) {
    if (!detail::kPoolNodes || n != 1) return static_cast<T*>(::operator new(n * sizeof(T)));
    return static_cast<T*>(detail::BlockCache<sizeof(T)>::mine().get());
  }
  void deallocate(T* p, size_t n) {
    if (!detail::kPoolNodes || n != 1) return ::operator delete(p);
    detail::BlockCache<sizeof(T)>::mine().put(p);
  }
  template <typename U>
  bool operator==(const PoolAllocator<U>&) const {
    return true;
  }
};

/// std::make_shared, the node and its reference count in one pooled block.
template <typename T, typename... Args>
std::shared_ptr<T> makePooled(Args&&... args) {
  return std::allocate_shared<T>(PoolAllocator<T>{}, std::forward<Args>(args)...);
}

}  // namespace rfguard
