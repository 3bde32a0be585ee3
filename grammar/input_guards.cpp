#include "grammar/input_guards.h"

#include <cstdint>
#include <cstring>

#include "RfSqlParser.h"
#include "grammar/fast_lexer.h"
#include "grammar/parse_arena.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

namespace {

/// Nesting that would exhaust the recursive-descent parser's stack, counted
/// token by token.
struct Nesting {
  int limit;
  int depth = 0, prefixRun = 0;
  /// False at the token that nests too deep.
  bool step(size_t type, size_t channel) {
    if (channel != antlr4::Token::DEFAULT_CHANNEL) return true;
    if (type == P::LPAREN || type == P::CASE) ++depth;
    if ((type == P::RPAREN || type == P::END) && depth > 0) --depth;
    bool prefix = type == P::NOT || type == P::MINUS || type == P::PLUS;
    prefixRun = prefix ? prefixRun + 1 : 0;
    return depth + prefixRun <= limit;
  }
};

}  // namespace

size_t invalidUtf8(const std::string& s) {
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  for (size_t i = 0; i < s.size();) {
    // ASCII, most SQL: eight bytes at a time while no high bit is set, then a byte.
    uint64_t word;
    if (i + sizeof word <= s.size() &&
        (std::memcpy(&word, s.data() + i, sizeof word), (word & kHighBits) == 0)) {
      i += sizeof word;
      continue;
    }
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t n = utf8Length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string::npos;
}

SourceLoc locAtOffset(const std::string& s, size_t offset) {
  SourceLoc loc{1, 1};
  for (size_t i = 0; i < offset && i < s.size(); ++i) {
    if (s[i] == '\n') {
      ++loc.line;
      loc.col = 1;
    } else if ((static_cast<unsigned char>(s[i]) >> 6) != 0x2) {
      ++loc.col;
    }
  }
  return loc;
}

bool checkNesting(antlr4::CommonTokenStream& tokens, bool direct, int limit, SourceLoc& where) {
  Nesting nesting{limit};
  antlr4::Token* deep = nullptr;
  if (direct) {
    deep = visitDirectTokens(
        tokens,
        [](void* n, size_t type, size_t channel) {
          return static_cast<Nesting*>(n)->step(type, channel);
        },
        &nesting);
  } else {
    for (size_t i = 0, n = tokens.size(); i < n && !deep; ++i) {  // getTokens() would copy
      antlr4::Token* t = tokens.get(i);
      if (!nesting.step(t->getType(), t->getChannel())) deep = t;
    }
  }
  if (!deep) return true;
  where = {static_cast<int>(deep->getLine()), static_cast<int>(deep->getCharPositionInLine()) + 1};
  return false;
}

bool checkDepth(antlr4::ParserRuleContext* root, int limit, SourceLoc& where) {
  const auto* ctx = static_cast<const ArenaContext*>(root);
  if (ctx->height <= static_cast<size_t>(limit)) return true;
  if (antlr4::Token* t = ctx->deepest)
    where = {static_cast<int>(t->getLine()), static_cast<int>(t->getCharPositionInLine()) + 1};
  return false;
}

}  // namespace rfguard
