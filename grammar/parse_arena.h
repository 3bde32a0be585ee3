#pragma once
// Memory for one parse's tokens and rule contexts.
//
// ANTLR 4.9's C++ runtime allocates every token and rule context on its own
// and frees each when the parser and token stream die: about 220 allocations
// for a TPC-H query, each with its free some 200 instructions. In a ParseArena
// they cost a pointer bump and are released together when the arena dies.
//
// The generated parser's contexts derive from ArenaContext (RfSql.g4's
// contextSuperClass) and the direct lexer's tokens are ArenaTokens. Each comes
// from the arena open on the calling thread (ArenaScope), or from the heap when
// none is, and knows which: deleting one from an arena runs its destructor and
// frees nothing, deleting one from the heap frees it. So whatever owns the
// tokens and the parser must die before the arena does.
#include <antlr4-runtime.h>

#include <cstddef>
#include <memory>
#include <memory_resource>

namespace rfguard {

class ParseArena {
 public:
  /// `expectedBytes`: a guess at what the parse will take (the first block).
  explicit ParseArena(std::size_t expectedBytes = 16 * 1024);
  ~ParseArena();
  ParseArena(const ParseArena&) = delete;
  ParseArena& operator=(const ParseArena&) = delete;

  /// `bytes` aligned as operator new aligns: a pointer bump in the first
  /// block (most parses fit), the monotonic resource beyond it.
  void* allocate(std::size_t bytes) {
    bytes = (bytes + kAlign - 1) & ~(kAlign - 1);
    if (bytes <= static_cast<std::size_t>(end_ - next_)) {
      void* p = next_;
      next_ += bytes;
      return p;
    }
    return memory_.allocate(bytes, kAlign);
  }

 private:
  /// The first block: the thread's kept block when it is free and large
  /// enough (a request this large makes glibc's malloc first merge every
  /// small chunk freed since the last one), given back when the arena dies.
  struct FirstBlock {
    std::unique_ptr<std::byte[]> data;
    std::size_t size = 0;
  };
  static FirstBlock takeBlock(std::size_t bytes);
  static constexpr std::size_t kAlign = alignof(std::max_align_t);
  FirstBlock first_;
  std::byte* next_;  ///< the first block's free part: [next_, end_)
  std::byte* end_;
  std::pmr::monotonic_buffer_resource memory_;  ///< blocks after the first
};

/// While alive, parse nodes the calling thread creates come from `arena`.
/// Scopes nest; each restores the one it replaced.
class ArenaScope {
 public:
  explicit ArenaScope(ParseArena& arena);
  ~ArenaScope();
  ArenaScope(const ArenaScope&) = delete;
  ArenaScope& operator=(const ArenaScope&) = delete;

 private:
  ParseArena* previous_;
};

void* arenaNew(std::size_t bytes);
void arenaDelete(void* p) noexcept;

/// `Node` allocated as the top of this file says. A derived class rather than
/// a second base, so that the runtime's and the binder's dynamic_casts keep
/// their single-inheritance fast path.
template <typename Node>
class ArenaNode : public Node {
 public:
  using Node::Node;
  static void* operator new(std::size_t bytes) { return arenaNew(bytes); }
  static void operator delete(void* p) noexcept { arenaDelete(p); }
};

/// A rule context. The parser builds no parse tree (the binder reads the
/// contexts' labelled fields), so it records here, as each rule exits, how
/// deep the tree the binder builds from it goes (RfSql.g4's exitRule).
class ArenaContext : public ArenaNode<antlr4::ParserRuleContext> {
 public:
  ArenaContext() = default;
  ArenaContext(antlr4::ParserRuleContext* parent, size_t invokingState)
      : ArenaNode(parent, invokingState) {}

  /// While the rule is parsed, the greatest height of its sub-rules so far;
  /// once it exits, its own.
  size_t height = 0;
  /// Where the deepest rule under this one starts.
  antlr4::Token* deepest = nullptr;
};
using ArenaToken = ArenaNode<antlr4::CommonToken>;

}  // namespace rfguard
