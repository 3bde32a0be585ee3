#include "grammar/fast_lexer.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "RfSqlLexer.h"
#include "grammar/direct_tokens.h"

namespace rfguard {

namespace {

using L = rfsql::RfSqlLexer;
using direct::DirectToken;
using direct::spareTokens;
using direct::TokenList;

/// What a byte can be in a token: a letter, a digit, '_' (or '$'), a blank (one
/// table look-up where the scan's loops asked up to five questions per byte).
enum : uint8_t { kLetter = 1, kDigit = 2, kUnderscore = 4, kBlank = 8 };
constexpr std::array<uint8_t, 256> kClasses = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[static_cast<size_t>(c)] = kLetter;
  for (int c = 'A'; c <= 'Z'; ++c) t[static_cast<size_t>(c)] = kLetter;
  for (int c = '0'; c <= '9'; ++c) t[static_cast<size_t>(c)] = kDigit;
  t['_'] = kUnderscore;
  t['$'] = kUnderscore;  // identifiers as Calcite prints them: EXPR$0, $f1
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

}  // namespace rfguard
