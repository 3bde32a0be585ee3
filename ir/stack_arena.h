#pragma once
// Memory for the containers of one short walk, from a buffer inside the arena.
#include <array>
#include <cstddef>
#include <memory_resource>

namespace rfguard {

/// A monotonic memory resource over N bytes held in the object itself: as a
/// local, the containers of a walk (a work list, a seen-set) take their memory
/// from the stack and spill to the heap only past N bytes; everything goes at
/// once with the arena. Freed blocks are not reused: for lists that only grow.
template <size_t N>
struct StackArena {
  StackArena() = default;
  StackArena(const StackArena&) = delete;
  StackArena& operator=(const StackArena&) = delete;
  std::array<std::byte, N> buffer;
  std::pmr::monotonic_buffer_resource memory{buffer.data(), buffer.size()};
};

}  // namespace rfguard
