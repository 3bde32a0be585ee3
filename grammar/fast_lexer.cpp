#include "grammar/fast_lexer.h"

#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "RfSqlLexer.h"
#include "grammar/parse_arena.h"

namespace rfguard {

namespace {

using L = rfsql::RfSqlLexer;

/// What a byte can be in a token: a letter, a digit, '_', a blank (one
/// table look-up where the scan's loops asked up to five questions per byte).
enum : uint8_t { kLetter = 1, kDigit = 2, kUnderscore = 4, kBlank = 8 };
constexpr std::array<uint8_t, 256> kClasses = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[static_cast<size_t>(c)] = kLetter;
  for (int c = 'A'; c <= 'Z'; ++c) t[static_cast<size_t>(c)] = kLetter;
  for (int c = '0'; c <= '9'; ++c) t[static_cast<size_t>(c)] = kDigit;
  t['_'] = kUnderscore;
  for (char c : {' ', '\t', '\r', '\n'}) t[static_cast<unsigned char>(c)] = kBlank;
  return t;
}();
uint8_t classOf(char c) {
  return kClasses[static_cast<unsigned char>(c)];
}
bool isLetter(char c) {
  return classOf(c) & kLetter;
}
bool isDigit(char c) {
  return classOf(c) & kDigit;
}
char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

/// Keyword spellings (lower case) and their token types, from the grammar's
/// `NAME : N A M E ;` rules, by length and first letter: most words of a query
/// (table and column names) find no keyword of their length and initial, and
/// the rest compare with one or two spellings, case-insensitively, in place.
class Keywords {
 public:
  static constexpr size_t kMaxLength = 24;
  Keywords() {
    static const std::pair<std::string_view, size_t> all[] = {
#include "rfsql_keywords.inc"
    };
    for (const auto& [text, type] : all)
      if (text.size() < kMaxLength && isLetter(text[0]))
        buckets_[text.size()][letter(text[0])].push_back({text, type});
  }
  /// The keyword's token type, or IDENTIFIER.
  size_t find(const char* word, size_t n) const {
    if (n >= kMaxLength || !isLetter(word[0])) return L::IDENTIFIER;
    for (const auto& [text, type] : buckets_[n][letter(word[0])]) {
      size_t i = 1;
      while (i < n && lower(word[i]) == text[i]) ++i;
      if (i == n) return type;
    }
    return L::IDENTIFIER;
  }

 private:
  static size_t letter(char c) {
    return static_cast<size_t>(lower(c) - 'a');
  }
  std::vector<std::pair<std::string_view, size_t>> buckets_[kMaxLength][26];
};

const Keywords& keywords() {
  static const Keywords k;
  return k;
}

/// True when every byte of `s` is ASCII, eight bytes at a time.
bool allAscii(const std::string& s) {
  const char* p = s.data();
  size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    if (w & 0x8080808080808080ULL) return false;
  }
  for (; n > 0; ++p, --n)
    if (static_cast<unsigned char>(*p) >= 0x80) return false;
  return true;
}

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
TokenVector& spareTokens() {
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
      out.swap(tokens);
      tokens.clear();
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

class Scanner {
 public:
  Scanner(const std::string& text, antlr4::CharStream* input)
      : s_(text), list_(std::make_unique<TokenList>(input)), source_{list_.get(), input} {}

  std::unique_ptr<antlr4::TokenSource> run() {
    // Offsets are in code points for ANTLR and in bytes here: ASCII only.
    if (!allAscii(s_)) return nullptr;
    // About one token per four characters of SQL: one allocation instead of
    // a growing vector's many, none when the last parse's vector has room.
    list_->tokens = std::move(spareTokens());
    list_->tokens.clear();
    list_->tokens.reserve(s_.size() / 4 + 2);
    while (pos_ < s_.size())
      if (!next()) return nullptr;
    // EOF as RfSqlLexer emits it: empty, just past the end, text "<EOF>".
    // (Its text is empty and the direct lexer loads no input: getText() says "<EOF>".)
    list_->tokens.push_back(std::make_unique<DirectToken>(source_, antlr4::Token::EOF,
                                                          antlr4::Token::DEFAULT_CHANNEL, pos_,
                                                          pos_ - 1, line_, pos_ - lineStart_, ""));
    return std::move(list_);
  }

 private:
  /// Scans one token at pos_; false to decline.
  bool next() {
    const char c = s_[pos_];
    const char d = at(pos_ + 1);
    const uint8_t cls = classOf(c);
    if (cls & kBlank) {
      // Blanks make no token (RfSql.g4: WS -> skip).
      for (; pos_ < s_.size(); ++pos_) {
        const char b = s_[pos_];
        if (!(classOf(b) & kBlank)) break;
        if (b == '\n') ++line_, lineStart_ = pos_ + 1;
      }
      return true;
    }
    if (cls & (kLetter | kUnderscore)) {
      size_t end = pos_ + 1;
      while (end < s_.size() && (classOf(s_[end]) & (kLetter | kDigit | kUnderscore))) ++end;
      return emit(wordType(end), end);
    }
    if (isDigit(c)) {
      size_t end = pos_;
      while (end < s_.size() && isDigit(s_[end])) ++end;
      if (at(end) != '.') return emit(L::INTEGER_VALUE, end);
      ++end;
      while (end < s_.size() && isDigit(s_[end])) ++end;
      return emit(L::DECIMAL_VALUE, end);
    }
    switch (c) {
      case '.': {
        if (!isDigit(d)) return emit(L::DOT, pos_ + 1);
        size_t end = pos_ + 1;
        while (end < s_.size() && isDigit(s_[end])) ++end;
        return emit(L::DECIMAL_VALUE, end);
      }
      case '\'':
        return quoted('\'', L::STRING);
      case '"':
        return quoted('"', L::QUOTED_IDENTIFIER);
      case '`':
        return quoted('`', L::BACKQUOTED_IDENTIFIER);
      case '-':
        if (d == '-') {
          size_t end = pos_ + 2;
          while (end < s_.size() && s_[end] != '\r' && s_[end] != '\n') ++end;
          return emit(L::LINE_COMMENT, end, antlr4::Token::HIDDEN_CHANNEL);
        }
        return emit(L::MINUS, pos_ + 1);
      case '/':
        if (d == '*') {
          size_t close = s_.find("*/", pos_ + 2);
          if (close == std::string::npos) return false;
          return emit(L::BLOCK_COMMENT, close + 2, antlr4::Token::HIDDEN_CHANNEL, true);
        }
        return emit(L::SLASH, pos_ + 1);
      case '=':
        return emit(L::EQ, pos_ + (d == '=' ? 2 : 1));
      case '<':
        if (d == '=' && at(pos_ + 2) == '>') return emit(L::NSEQ, pos_ + 3);
        if (d == '=') return emit(L::LTE, pos_ + 2);
        if (d == '>') return emit(L::NEQ, pos_ + 2);
        return emit(L::LT, pos_ + 1);
      case '>':
        return d == '=' ? emit(L::GTE, pos_ + 2) : emit(L::GT, pos_ + 1);
      case '!':
        return d == '=' && emit(L::NEQ, pos_ + 2);
      case '|':
        return d == '|' && emit(L::CONCAT, pos_ + 2);
      case '+':
        return emit(L::PLUS, pos_ + 1);
      case '*':
        return emit(L::ASTERISK, pos_ + 1);
      case '%':
        return emit(L::PERCENT, pos_ + 1);
      case '(':
        return emit(L::LPAREN, pos_ + 1);
      case ')':
        return emit(L::RPAREN, pos_ + 1);
      case ',':
        return emit(L::COMMA, pos_ + 1);
      case ';':
        return emit(L::SEMICOLON, pos_ + 1);
      default:
        return false;  // UNRECOGNIZED: RfSqlLexer reports it
    }
  }

  /// A keyword when the word spells one (keyword rules come before IDENTIFIER).
  size_t wordType(size_t end) const { return keywords().find(s_.data() + pos_, end - pos_); }

  /// 'text', "name" or `name`, a doubled quote standing for one.
  bool quoted(char q, size_t type) {
    size_t end = pos_ + 1;
    for (;;) {
      end = s_.find(q, end);
      if (end == std::string::npos) return false;  // unterminated
      if (at(end + 1) != q) break;
      end += 2;
    }
    return emit(type, end + 1, antlr4::Token::DEFAULT_CHANNEL, true);
  }

  char at(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }

  /// A token from pos_ to `end`; `lines` when it may hold line breaks (quoted
  /// text, block comments: no other token does).
  bool emit(size_t type, size_t end, size_t channel = antlr4::Token::DEFAULT_CHANNEL,
            bool lines = false) {
    list_->tokens.push_back(std::make_unique<DirectToken>(
        source_, type, channel, pos_, end - 1, line_, pos_ - lineStart_,
        std::string_view(s_).substr(pos_, end - pos_)));
    if (lines)
      for (size_t i = pos_; i < end; ++i)
        if (s_[i] == '\n') ++line_, lineStart_ = i + 1;
    pos_ = end;
    return true;
  }

  const std::string& s_;
  std::unique_ptr<TokenList> list_;
  std::pair<antlr4::TokenSource*, antlr4::CharStream*> source_;
  size_t pos_ = 0;
  size_t line_ = 1;
  size_t lineStart_ = 0;  ///< where line_ starts: a column is pos_ - lineStart_
};

}  // namespace

std::unique_ptr<antlr4::TokenSource> fastLex(const std::string& text, antlr4::CharStream* input) {
  return Scanner(text, input).run();
}

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
