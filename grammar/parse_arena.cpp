#include "grammar/parse_arena.h"

#include <algorithm>
#include <new>

#include "ir/node_pool.h"

namespace rfguard {

namespace {

thread_local ParseArena* tOpen = nullptr;

/// Each node is preceded by the arena it came from (nullptr: the heap), in a
/// header that keeps the node as aligned as operator new would.
constexpr std::size_t kHeader = alignof(std::max_align_t);
static_assert(kHeader >= sizeof(ParseArena*));

/// The first block of a finished parse, for the thread's next (at most 1 MiB).
thread_local std::unique_ptr<std::byte[]> tKept;
thread_local std::size_t tKeptSize = 0;
constexpr std::size_t kKeepAtMost = std::size_t{1} << 20;

}  // namespace

ParseArena::FirstBlock ParseArena::takeBlock(std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 64);
  if (tKept && tKeptSize >= bytes) {
    FirstBlock kept{std::move(tKept), tKeptSize};
    tKeptSize = 0;
    return kept;
  }
  return {std::unique_ptr<std::byte[]>(new std::byte[bytes]), bytes};
}

ParseArena::ParseArena(std::size_t expectedBytes)
    : first_(takeBlock(expectedBytes)),
      next_(first_.data.get()),
      end_(first_.data.get() + first_.size),
      memory_(first_.size) {}

ParseArena::~ParseArena() {
  memory_.release();
  // A nested parse (a view's text) may have taken the kept block: keep the larger.
  // (The sanitizer builds keep nothing, so that ASan sees each parse's memory.)
  if (detail::kPoolNodes && first_.size <= kKeepAtMost && first_.size > tKeptSize) {
    tKept = std::move(first_.data);
    tKeptSize = first_.size;
  }
}

ArenaScope::ArenaScope(ParseArena& arena) : previous_(tOpen) {
  tOpen = &arena;
}

ArenaScope::~ArenaScope() {
  tOpen = previous_;
}

void* arenaNew(std::size_t bytes) {
  ParseArena* arena = tOpen;
  void* raw = arena ? arena->allocate(kHeader + bytes) : ::operator new(kHeader + bytes);
  *static_cast<ParseArena**>(raw) = arena;
  return static_cast<char*>(raw) + kHeader;
}

void arenaDelete(void* p) noexcept {
  if (!p) return;
  void* raw = static_cast<char*>(p) - kHeader;
  if (*static_cast<ParseArena**>(raw) == nullptr) ::operator delete(raw);
  // From an arena: released with it.
}

}  // namespace rfguard
