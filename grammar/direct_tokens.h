#pragma once
// Internal to grammar/: the direct lexer's tokens and the list that hands them
// out, shared by the scanner (grammar/fast_lexer.cpp) and the token stream
// over them (grammar/direct_token_stream.cpp).
#include <antlr4-runtime.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "grammar/parse_arena.h"

namespace rfguard::direct {

/// A scanned token, its fields set at once: CommonToken's constructor asks the
/// token source for the line and column (virtual calls), and its text would
/// come through a setter, copied from a temporary. The text is a view of the
/// scanned source, which outlives the parse (grammar/sql_parser.cpp's Parsed),
/// copied only when asked for.
class DirectToken : public ArenaToken {
 public:
  DirectToken(std::pair<antlr4::TokenSource*, antlr4::CharStream*> source, size_t type,
              size_t channel, size_t start, size_t stop, size_t line, size_t col,
              std::string_view text)
      : ArenaToken(type), text_(text) {
    _source = source;
    _channel = channel;
    _start = start;
    _stop = stop;
    _line = line;
    _charPositionInLine = col;
  }
  /// As CommonToken's: a text set later wins, EOF's is "<EOF>".
  std::string getText() const override {
    if (!_text.empty() || text_.empty()) return CommonToken::getText();
    return std::string(text_);
  }
  /// The type and channel without a virtual call (the token stream asks at
  /// every step of the parser).
  size_t type() const { return _type; }
  size_t channelOf() const { return _channel; }

 private:
  std::string_view text_;
};

using TokenVector = std::vector<std::unique_ptr<antlr4::Token>>;

/// The thread's spare token vector: a finished parse's, emptied, for the next
/// scan (its kilobyte or more asked of malloc each time made glibc merge every
/// small block freed since the last such request).
inline TokenVector& spareTokens() {
  thread_local TokenVector spare;
  return spare;
}

/// Hands out the scanned tokens in order, EOF last (and again if asked).
class TokenList : public antlr4::TokenSource {
 public:
  explicit TokenList(antlr4::CharStream* input) : input_(input) {}
  TokenVector tokens;

  std::unique_ptr<antlr4::Token> nextToken() override {
    if (next_ + 1 < tokens.size()) return std::move(tokens[next_++]);
    return std::make_unique<DirectToken>(eof());  // a copy of EOF
  }
  /// Appends every token not handed out yet to `out`, as nextToken() would
  /// one by one (EOF last, a copy), numbering them by their place in `out`.
  /// Into an empty `out`, before any was handed out, the list's vector moves
  /// whole (EOF itself, the list keeping a copy).
  void takeAll(TokenVector& out) {
    const size_t first = out.size();
    if (first == 0 && next_ == 0 && !tokens.empty()) {
      eofCopy_ = std::make_unique<DirectToken>(eof());
      out.swap(tokens);  // `out` was empty: so is the list now
    } else {
      out.reserve(first + tokens.size() - next_);
      for (; next_ + 1 < tokens.size(); ++next_) out.push_back(std::move(tokens[next_]));
      out.push_back(std::make_unique<DirectToken>(eof()));
    }
    for (size_t i = first; i < out.size(); ++i)
      static_cast<antlr4::CommonToken*>(out[i].get())->setTokenIndex(i);
  }
  // CommonToken's constructor asks these while the list is still being filled.
  size_t getLine() const override { return tokens.empty() ? 1 : current()->getLine(); }
  size_t getCharPositionInLine() override {
    return tokens.empty() ? 0 : current()->getCharPositionInLine();
  }
  antlr4::CharStream* getInputStream() override { return input_; }
  std::string getSourceName() override { return input_->getSourceName(); }
  antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override {
    return antlr4::CommonTokenFactory::DEFAULT.get();
  }

 private:
  /// Every token in the list is a DirectToken, EOF (the last) too; once the
  /// vector moved out, the copy of EOF kept.
  const DirectToken& eof() const {
    return eofCopy_ ? *eofCopy_ : static_cast<const DirectToken&>(*tokens.back());
  }
  const antlr4::Token* current() const {
    return next_ < tokens.size() ? tokens[next_].get() : tokens.back().get();
  }
  antlr4::CharStream* input_;
  size_t next_ = 0;
  std::unique_ptr<DirectToken> eofCopy_;
};

}  // namespace rfguard::direct
