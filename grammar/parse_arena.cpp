#include "grammar/parse_arena.h"

#include <new>

namespace rfguard {

namespace {

thread_local ParseArena* tOpen = nullptr;

/// Each node is preceded by the arena it came from (nullptr: the heap), in a
/// header that keeps the node as aligned as operator new would.
constexpr std::size_t kHeader = alignof(std::max_align_t);
static_assert(kHeader >= sizeof(ParseArena*));

}  // namespace

ParseArena::ParseArena(std::size_t expectedBytes) : memory_(expectedBytes) {}

void* ParseArena::allocate(std::size_t bytes) {
  return memory_.allocate(bytes, alignof(std::max_align_t));
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
