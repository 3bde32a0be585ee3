// The token stream over the direct lexer's tokens (grammar/fast_lexer.h).
#include <cassert>

#include "grammar/direct_tokens.h"
#include "grammar/fast_lexer.h"

namespace rfguard {

using direct::DirectToken;
using direct::spareTokens;
using direct::TokenList;

namespace {

class DirectTokenStream final : public antlr4::CommonTokenStream {
 public:
  explicit DirectTokenStream(TokenList* source) : CommonTokenStream(source) {}
  /// The tokens go (their memory is the parse arena's, still alive); the
  /// vector, if it is the larger, stays for the thread's next scan.
  ~DirectTokenStream() override {
    _tokens.clear();
    if (_tokens.capacity() > spareTokens().capacity()) spareTokens() = std::move(_tokens);
  }

  // The parser asks for the next token (LT(1), LA(1)) at every decision and
  // for the previous one (LT(-1)) at every rule's end. Once every token is
  // fetched the stream's position is always on the parser's channel, so the
  // next token is the one there and the previous one a short step back: the
  // same answers as CommonTokenStream's, without its sync and channel search.
  antlr4::Token* LT(ssize_t k) override {
    if (!_fetchedEOF || _p >= _tokens.size()) return CommonTokenStream::LT(k);
    if (k == 1) return _tokens[_p].get();
    if (k == -1 && _p > 0) {
      // As BufferedTokenStream::previousTokenOnChannel: EOF is on every
      // channel, and the search stops at the first token.
      size_t i = _p - 1;
      while (i > 0 && at(i).type() != antlr4::Token::EOF && at(i).channelOf() != channel) --i;
      return _tokens[i].get();
    }
    return CommonTokenStream::LT(k);
  }
  size_t LA(ssize_t i) override {
    if (i == 1 && _fetchedEOF && _p < _tokens.size()) return at(_p).type();
    return LT(i)->getType();
  }

  // The parser moves past every token it matches: as BufferedTokenStream's
  // consume() and CommonTokenStream's search for the next token on the
  // channel, once every token is fetched and the current one is not EOF (the
  // last): without their checks, sync calls and virtual calls per step.
  void consume() override {
    // (Fetching EOF implies the stream's set-up ran: only sync fetches.)
    if (!_fetchedEOF || _p + 1 >= _tokens.size()) return CommonTokenStream::consume();
    size_t i = _p + 1;
    while (at(i).channelOf() != channel && at(i).type() != antlr4::Token::EOF) ++i;
    _p = i;
  }

  antlr4::Token* visit(bool (*f)(void*, size_t, size_t), void* context) {
    assert(_fetchedEOF && "the stream has every token");
    for (size_t i = 0; i < _tokens.size(); ++i)
      if (!f(context, at(i).type(), at(i).channelOf())) return _tokens[i].get();
    return nullptr;
  }

 protected:
  /// Token `i`, which the list made (fetch() takes every token from it).
  const DirectToken& at(size_t i) const { return static_cast<const DirectToken&>(*_tokens[i]); }

  // BufferedTokenStream::fetch, but every token at once: the list holds them
  // all already (EOF last). Fetching more than asked for is what fill() and
  // sync() accept (they ask for at least n).
  size_t fetch(size_t) override {
    if (_fetchedEOF) return 0;
    const size_t before = _tokens.size();
    static_cast<TokenList*>(_tokenSource)->takeAll(_tokens);
    for (const auto& t : _tokens) {
      (void)t;
      assert(dynamic_cast<const DirectToken*>(t.get()) && "the stream holds direct tokens only");
    }
    _fetchedEOF = true;
    return _tokens.size() - before;
  }
};

}  // namespace

std::unique_ptr<antlr4::CommonTokenStream> directTokenStream(antlr4::TokenSource* direct) {
  return std::make_unique<DirectTokenStream>(static_cast<TokenList*>(direct));
}

antlr4::Token* visitDirectTokens(antlr4::CommonTokenStream& stream,
                                 bool (*visit)(void* context, size_t type, size_t channel),
                                 void* context) {
  assert(dynamic_cast<DirectTokenStream*>(&stream) && "a stream from directTokenStream()");
  return static_cast<DirectTokenStream&>(stream).visit(visit, context);
}

}  // namespace rfguard
