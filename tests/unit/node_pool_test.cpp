// The per-thread cache of freed node blocks (ir/node_pool.h): nodes made
// through it are built and destroyed exactly once, a freed block is what the
// next node of its size gets, the cache keeps no more than its capacity, and a
// node freed on another thread goes to that thread's cache.
#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "ir/functions.h"
#include "ir/node_pool.h"

using namespace rfguard;

namespace {

struct Counted {
  static inline int alive = 0;
  explicit Counted(int v) : value(v) { ++alive; }
  ~Counted() { --alive; }
  int value;
  char pad[40] = {};
};

/// The cache PoolAllocator<Counted> hands single Counted blocks from.
using Block = detail::BlockCache<sizeof(Counted)>;

}  // namespace

TEST_CASE("pooled nodes are built and destroyed once, with their arguments") {
  {
    auto a = makePooled<Counted>(7);
    auto b = a;
    CHECK(a->value == 7);
    CHECK(Counted::alive == 1);
    a.reset();
    CHECK(Counted::alive == 1);
  }
  CHECK(Counted::alive == 0);
  ExprPtr e = makeCall("=", {makeColumn("t.k", Type::of(TypeKind::Int), true),
                             makeLiteral("1", Type::of(TypeKind::Int))});
  CHECK(exprToString(*e) == "t.k = 1");
  CHECK(e->fn != nullptr);
  CHECK(std::string(e->fn->name) == "=");
}

TEST_CASE("a freed block is the next one of its size, up to the cache's capacity") {
  if (!detail::kPoolNodes) return;  // the sanitizer builds let malloc see every node
  const void* first = makePooled<Counted>(1).get();  // made and freed at once
  auto again = makePooled<Counted>(2);
  CHECK(static_cast<const void*>(again.get()) == first);
  again.reset();

  PoolAllocator<Counted> pool;
  Counted* p = pool.allocate(1);
  const size_t before = Block::mine().size();
  pool.deallocate(p, 1);
  CHECK(Block::mine().size() == before + 1);
  CHECK(pool.allocate(1) == p);
  CHECK(Block::mine().size() == before);
  pool.deallocate(p, 1);

  std::vector<Counted*> many;
  for (size_t i = 0; i < Block::capacity() + 50; ++i) many.push_back(pool.allocate(1));
  CHECK(Block::mine().size() == 0);
  for (Counted* c : many) pool.deallocate(c, 1);
  CHECK(Block::mine().size() == Block::capacity());
}

TEST_CASE("a block freed on another thread goes to that thread's cache") {
  PoolAllocator<Counted> pool;
  Counted* p = pool.allocate(1);
  const size_t here = Block::mine().size();
  size_t there = 0;
  std::thread t([&] {
    const size_t before = Block::mine().size();
    pool.deallocate(p, 1);
    there = Block::mine().size() - before;
  });
  t.join();
  CHECK(Block::mine().size() == here);
  CHECK(there == (detail::kPoolNodes ? 1 : 0));
}
