// DuckDB's printed expressions as tokens, and their top-level conjuncts.
#include "engines/duckdb/expr_tokens.h"

#include <cctype>
#include <cstring>

#include "engines/duckdb/expr_text.h"

namespace rfguard::duckdb_import {

namespace {

bool identStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

/// The text of the quoted name or string starting at `s[i]` (its quote
/// doubled inside), and the offset of its closing quote; npos when there is none.
size_t quoted(const std::string& s, size_t i, std::string& text) {
  const char q = s[i];
  text.clear();
  for (size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] != q) {
      text += s[j];
    } else if (j + 1 < s.size() && s[j + 1] == q) {
      text += q;
      ++j;
    } else {
      return j;
    }
  }
  return std::string::npos;
}

}  // namespace

bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

bool tokenize(const std::string& s, std::vector<Token>& out, std::string& error) {
  static const char* ops[] = {
      "!~~*", "~~*", "!~~", "~~", "<=>", "<>", "!=", "<=", ">=", "==", "::", "||", "->", "=", "<",
      ">",    "+",   "-",   "*",  "/",   "%",  "(",  ")",  ",",  "[",  "]",  ".",  ":",  "^"};
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.pos = i;
    if (identStart(c)) {
      size_t j = i;
      while (j < s.size() && identChar(s[j])) ++j;
      t.t = Token::T::Ident;
      t.text = s.substr(i, j - i);
      i = j;
    } else if (c == '"') {
      size_t end = quoted(s, i, t.text);
      if (end == std::string::npos)
        return error = "unterminated quoted name at offset " + std::to_string(i), false;
      t.t = Token::T::Quoted;
      i = end + 1;
    } else if (c == '\'') {
      size_t end = quoted(s, i, t.text);
      if (end == std::string::npos)
        return error = "unterminated string at offset " + std::to_string(i), false;
      t.t = Token::T::String;
      i = end + 1;
    } else if (c == '#' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      size_t j = i + 1;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      t.t = Token::T::Ref;
      t.text = s.substr(i + 1, j - i - 1);
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      if (j + 1 < s.size() && s[j] == '.' && std::isdigit(static_cast<unsigned char>(s[j + 1]))) {
        ++j;
        while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      }
      if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
        if (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) {
          j = k;
          while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        }
      }
      t.t = Token::T::Number;
      t.text = s.substr(i, j - i);
      i = j;
    } else {
      bool found = false;
      for (const char* op : ops) {
        size_t n = std::strlen(op);
        if (s.compare(i, n, op) == 0) {
          t.t = Token::T::Op;
          t.text = op;
          i += n;
          found = true;
          break;
        }
      }
      if (!found)
        return error =
                   std::string("unexpected character '") + c + "' at offset " + std::to_string(i),
               false;
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.pos = s.size();
  out.push_back(end);
  return true;
}

std::vector<std::string> splitConjuncts(const std::string& text) {
  std::vector<std::string> out;
  int depth = 0;
  bool quote = false, dquote = false;
  int betweens = 0;  // BETWEEN seen whose AND is still ahead
  size_t start = 0;
  auto word = [&](size_t i, const char* w) {
    size_t n = std::strlen(w);
    if (text.size() < i + n) return false;
    for (size_t k = 0; k < n; ++k)
      if (std::toupper(static_cast<unsigned char>(text[i + k])) != w[k]) return false;
    bool before = i == 0 || !identChar(text[i - 1]);
    bool after = i + n == text.size() || !identChar(text[i + n]);
    return before && after;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\'') quote = false;
      continue;
    }
    if (dquote) {
      if (c == '"') dquote = false;
      continue;
    }
    if (c == '\'')
      quote = true;
    else if (c == '"')
      dquote = true;
    else if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if (depth == 0 && word(i, "BETWEEN"))
      ++betweens;
    else if (depth == 0 && word(i, "AND")) {
      if (betweens > 0) {
        --betweens;
        continue;
      }
      size_t b = start, e = i;
      while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
      while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
      out.push_back(text.substr(b, e - b));
      start = i + 3;
    }
  }
  size_t b = start, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  if (e > b) out.push_back(text.substr(b, e - b));
  return out;
}

}  // namespace rfguard::duckdb_import
