#include "engines/duckdb/expr_text.h"

#include <cctype>
#include <cstring>

namespace rfguard::duckdb_import {

namespace {

struct Token {
  enum class T { Ident, Quoted, Ref, Number, String, Op, End } t = T::End;
  std::string text;
  size_t pos = 0;
};

bool identStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// Splits `text` into tokens; false with `error` on a character it cannot read.
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
      std::string v;
      size_t j = i + 1;
      for (; j < s.size(); ++j) {
        if (s[j] == '"') {
          if (j + 1 < s.size() && s[j + 1] == '"') {
            v += '"';
            ++j;
            continue;
          }
          break;
        }
        v += s[j];
      }
      if (j >= s.size())
        return error = "unterminated quoted name at offset " + std::to_string(i), false;
      t.t = Token::T::Quoted;
      t.text = v;
      i = j + 1;
    } else if (c == '\'') {
      std::string v;
      size_t j = i + 1;
      for (; j < s.size(); ++j) {
        if (s[j] == '\'') {
          if (j + 1 < s.size() && s[j + 1] == '\'') {
            v += '\'';
            ++j;
            continue;
          }
          break;
        }
        v += s[j];
      }
      if (j >= s.size()) return error = "unterminated string at offset " + std::to_string(i), false;
      t.t = Token::T::String;
      t.text = v;
      i = j + 1;
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

TextExprPtr make(TextExpr::Kind k, std::string text = "") {
  auto e = std::make_shared<TextExpr>();
  e->kind = k;
  e->text = std::move(text);
  return e;
}

TextExprPtr call(const std::string& name, std::vector<TextExprPtr> args) {
  auto e = make(TextExpr::Kind::Call, name);
  e->args = std::move(args);
  return e;
}

class Parser {
 public:
  Parser(std::vector<Token> toks, std::string& error) : t_(std::move(toks)), error_(error) {}

  TextExprPtr whole() {
    auto e = expr();
    if (e && !at(Token::T::End)) return fail("unexpected \"" + t_[i_].text + "\"");
    return e;
  }

  bool sortKey(TextSortKey& k) {
    k.expr = expr();
    if (!k.expr) return false;
    sortTail(k);
    if (!at(Token::T::End)) return fail("unexpected \"" + t_[i_].text + "\""), false;
    return true;
  }

 private:
  const Token& peek(size_t ahead = 0) const { return t_[std::min(i_ + ahead, t_.size() - 1)]; }
  bool at(Token::T t) const { return peek().t == t; }
  bool isKw(const char* kw, size_t ahead = 0) const {
    return peek(ahead).t == Token::T::Ident && upper(peek(ahead).text) == kw;
  }
  bool kw(const char* k) {
    if (!isKw(k)) return false;
    ++i_;
    return true;
  }
  bool op(const char* o) {
    if (peek().t != Token::T::Op || peek().text != o) return false;
    ++i_;
    return true;
  }
  TextExprPtr fail(const std::string& msg) {
    if (error_.empty()) error_ = msg + " at offset " + std::to_string(peek().pos);
    return nullptr;
  }
  bool expect(const char* o) {
    if (op(o)) return true;
    fail(std::string("expected \"") + o + "\"");
    return false;
  }

  void sortTail(TextSortKey& k) {
    if (kw("DESC"))
      k.ascending = false;
    else
      kw("ASC");
    k.nullsFirst = false;
    if (kw("NULLS")) {
      if (kw("FIRST"))
        k.nullsFirst = true;
      else
        kw("LAST");
    }
  }

  TextExprPtr expr() { return orExpr(); }

  TextExprPtr orExpr() {
    auto l = andExpr();
    while (l && kw("OR")) {
      auto r = andExpr();
      if (!r) return nullptr;
      l = call("or", {l, r});
    }
    return l;
  }
  TextExprPtr andExpr() {
    auto l = notExpr();
    while (l && kw("AND")) {
      auto r = notExpr();
      if (!r) return nullptr;
      l = call("and", {l, r});
    }
    return l;
  }
  TextExprPtr notExpr() {
    if (kw("NOT")) {
      auto e = notExpr();
      return e ? call("not", {e}) : nullptr;
    }
    return comparison();
  }

  TextExprPtr comparison() {
    auto l = additive();
    if (!l) return nullptr;
    for (;;) {
      static const std::pair<const char*, const char*> cmps[] = {
          {"=", "="},           {"==", "="},    {"<>", "<>"},        {"!=", "<>"},
          {"<=", "<="},         {">=", ">="},   {"<", "<"},          {">", ">"},
          {"<=>", "<=>"},       {"~~", "like"}, {"!~~", "not_like"}, {"~~*", "ilike"},
          {"!~~*", "not_ilike"}};
      bool matched = false;
      for (const auto& [tok, name] : cmps) {
        if (op(tok)) {
          auto r = additive();
          if (!r) return nullptr;
          l = negatable(name, {l, r});
          matched = true;
          break;
        }
      }
      if (matched) continue;
      if (isKw("IS")) {
        ++i_;
        bool negated = kw("NOT");
        if (kw("NULL")) {
          l = call(negated ? "is_not_null" : "is_null", {l});
          continue;
        }
        if (kw("DISTINCT")) {
          if (!kw("FROM")) return fail("expected FROM after IS DISTINCT");
          auto r = additive();
          if (!r) return nullptr;
          l = call(negated ? "<=>" : "is_distinct_from", {l, r});
          continue;
        }
        if (kw("TRUE") || kw("FALSE")) {
          bool v = upper(t_[i_ - 1].text) == "TRUE";
          auto b = make(TextExpr::Kind::Boolean, v ? "true" : "false");
          l = call(negated ? "is_distinct_from" : "<=>", {l, b});
          continue;
        }
        return fail("unexpected token after IS");
      }
      size_t save = i_;
      bool negated = kw("NOT");
      if (kw("IN")) {
        if (isKw("BF") && peek(1).t == Token::T::Op && peek(1).text == "(") {
          i_ += 2;
          auto col = primary();
          if (!col || !expect(")")) return nullptr;
          auto bf = make(TextExpr::Kind::Bloom);
          bf->args = {col};
          l = call("in", {l, bf});
          continue;
        }
        if (!expect("(")) return nullptr;
        std::vector<TextExprPtr> args{l};
        if (!op(")")) {
          do {
            auto a = expr();
            if (!a) return nullptr;
            args.push_back(a);
          } while (op(","));
          if (!expect(")")) return nullptr;
        }
        l = call("in", std::move(args));
        if (negated) l = call("not", {l});
        continue;
      }
      if (kw("BETWEEN")) {
        auto lo = additive();
        if (!lo || !kw("AND")) return lo ? fail("expected AND in BETWEEN") : nullptr;
        auto hi = additive();
        if (!hi) return nullptr;
        l = call("and", {call(">=", {l, lo}), call("<=", {l, hi})});
        if (negated) l = call("not", {l});
        continue;
      }
      if (kw("LIKE") || kw("ILIKE")) {
        bool ci = upper(t_[i_ - 1].text) == "ILIKE";
        auto r = additive();
        if (!r) return nullptr;
        std::vector<TextExprPtr> args{l, r};
        if (kw("ESCAPE")) {
          auto esc = additive();
          if (!esc) return nullptr;
          args.push_back(esc);
        }
        l = call(ci ? "ilike" : "like", std::move(args));
        if (negated) l = call("not", {l});
        continue;
      }
      i_ = save;
      return l;
    }
  }

  /// DuckDB's negated operators (!~~) as NOT over the positive one.
  TextExprPtr negatable(const std::string& name, std::vector<TextExprPtr> args) {
    if (name.rfind("not_", 0) == 0) return call("not", {call(name.substr(4), std::move(args))});
    return call(name, std::move(args));
  }

  TextExprPtr additive() {
    auto l = multiplicative();
    for (;;) {
      if (!l) return nullptr;
      const char* name = op("+") ? "+" : op("-") ? "-" : op("||") ? "||" : nullptr;
      if (!name) return l;
      auto r = multiplicative();
      if (!r) return nullptr;
      l = call(name, {l, r});
    }
  }
  TextExprPtr multiplicative() {
    auto l = unary();
    for (;;) {
      if (!l) return nullptr;
      const char* name = op("*") ? "*" : op("/") ? "/" : op("%") ? "%" : nullptr;
      if (!name) return l;
      auto r = unary();
      if (!r) return nullptr;
      l = call(name, {l, r});
    }
  }
  TextExprPtr unary() {
    if (op("-")) {
      auto e = unary();
      if (!e) return nullptr;
      if (e->kind == TextExpr::Kind::Integer || e->kind == TextExpr::Kind::Decimal) {
        e->text = "-" + e->text;
        return e;
      }
      return call("negate", {e});
    }
    if (op("+")) return unary();
    return postfix();
  }
  TextExprPtr postfix() {
    auto e = primary();
    while (e && op("::")) {
      auto c = make(TextExpr::Kind::Cast);
      c->args = {e};
      c->type = typeName();
      if (c->type.empty()) return fail("expected a type after ::");
      e = c;
    }
    return e;
  }

  /// A type name as DuckDB prints it: words, and a parenthesised argument list.
  std::string typeName() {
    std::string out;
    while (at(Token::T::Ident)) {
      if (!out.empty()) out += ' ';
      out += t_[i_++].text;
    }
    if (!out.empty() && op("(")) {
      out += '(';
      while (!at(Token::T::End) && !(peek().t == Token::T::Op && peek().text == ")"))
        out += t_[i_++].text;
      if (!expect(")")) return "";
      out += ')';
    }
    while (!out.empty() && op("[")) {
      if (!expect("]")) return "";
      out += "[]";
    }
    return out;
  }

  TextExprPtr primary() {
    const Token& tk = peek();
    switch (tk.t) {
      case Token::T::Number: {
        ++i_;
        bool dec = tk.text.find_first_of(".eE") != std::string::npos;
        return make(dec ? TextExpr::Kind::Decimal : TextExpr::Kind::Integer, tk.text);
      }
      case Token::T::String:
        ++i_;
        return make(TextExpr::Kind::String, tk.text);
      case Token::T::Ref: {
        ++i_;
        auto e = make(TextExpr::Kind::Ref, "#" + tk.text);
        e->index = std::stoi(tk.text);
        return e;
      }
      case Token::T::Quoted:
        return name();
      case Token::T::Op:
        if (op("(")) {
          auto e = expr();
          if (!e || !expect(")")) return nullptr;
          return e;
        }
        if (op("*")) {
          auto e = make(TextExpr::Kind::Name, "*");
          return e;
        }
        return fail("unexpected \"" + tk.text + "\"");
      case Token::T::End:
        return fail("unexpected end of expression");
      case Token::T::Ident:
        break;
    }
    std::string u = upper(tk.text);
    if (u == "NULL") return ++i_, make(TextExpr::Kind::Null);
    if (u == "TRUE" || u == "FALSE")
      return ++i_, make(TextExpr::Kind::Boolean, u == "TRUE" ? "true" : "false");
    if (u == "SUBQUERY" && !(peek(1).t == Token::T::Op && peek(1).text == "("))
      return ++i_, make(TextExpr::Kind::Subquery);
    if (u == "CASE") return caseExpr();
    if ((u == "CAST" || u == "TRY_CAST") && peek(1).t == Token::T::Op && peek(1).text == "(") {
      i_ += 2;
      auto c = make(TextExpr::Kind::Cast);
      auto a = expr();
      if (!a) return nullptr;
      if (!kw("AS")) return fail("expected AS in CAST");
      c->args = {a};
      c->type = typeName();
      if (c->type.empty() || !expect(")")) return nullptr;
      return c;
    }
    if (u == "INTERVAL" && peek(1).t == Token::T::String) {
      i_ += 2;
      auto c = make(TextExpr::Kind::Cast);
      c->args = {make(TextExpr::Kind::String, t_[i_ - 1].text)};
      c->type = "INTERVAL";
      return c;
    }
    if (u == "DATE" && peek(1).t == Token::T::String) {
      i_ += 2;
      auto c = make(TextExpr::Kind::Cast);
      c->args = {make(TextExpr::Kind::String, t_[i_ - 1].text)};
      c->type = "DATE";
      return c;
    }
    return name();
  }

  /// A column name (dotted parts joined by '.') or a function call.
  TextExprPtr name() {
    std::string text = t_[i_++].text;
    while (peek().t == Token::T::Op && peek().text == "." &&
           (peek(1).t == Token::T::Ident || peek(1).t == Token::T::Quoted)) {
      i_ += 1;
      text += "." + t_[i_++].text;
    }
    if (!op("(")) return make(TextExpr::Kind::Name, text);
    auto c = make(TextExpr::Kind::Call, text);
    if (op("*")) {
      c->star = true;
    } else if (!(peek().t == Token::T::Op && peek().text == ")")) {
      if (kw("DISTINCT")) c->distinct = true;
      do {
        auto a = expr();
        if (!a) return nullptr;
        c->args.push_back(a);
      } while (op(","));
      if (isKw("ORDER")) return fail("ordered aggregates are not read");
    }
    if (!expect(")")) return nullptr;
    if (kw("OVER")) {
      c->window = true;
      if (!expect("(")) return nullptr;
      if (kw("PARTITION")) {
        if (!kw("BY")) return fail("expected BY after PARTITION");
        do {
          auto p = expr();
          if (!p) return nullptr;
          c->partitionBy.push_back(p);
        } while (op(","));
      }
      if (kw("ORDER")) {
        if (!kw("BY")) return fail("expected BY after ORDER");
        do {
          TextSortKey k;
          k.expr = expr();
          if (!k.expr) return nullptr;
          sortTail(k);
          c->orderBy.push_back(k);
        } while (op(","));
      }
      if (isKw("ROWS") || isKw("RANGE")) {
        WindowFrame f;
        f.rows = kw("ROWS") || !kw("RANGE");
        const bool between = kw("BETWEEN");
        if (!frameBound(f.start)) return nullptr;
        if (between) {
          if (!kw("AND")) return fail("expected AND between frame bounds");
          if (!frameBound(f.end)) return nullptr;
        }
        c->frame = f;
      } else if (isKw("GROUPS")) {
        return fail("GROUPS frames are not read");
      }
      if (isKw("EXCLUDE")) return fail("frame EXCLUDE clauses are not read");
      if (!expect(")")) return nullptr;
    }
    return c;
  }

  /// UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING, UNBOUNDED FOLLOWING.
  bool frameBound(FrameBound& b) {
    using K = FrameBound::Kind;
    if (kw("CURRENT")) {
      if (!kw("ROW")) return fail("expected ROW after CURRENT"), false;
      b.kind = K::CurrentRow;
      return true;
    }
    bool unbounded = kw("UNBOUNDED");
    if (!unbounded) {
      if (!at(Token::T::Number)) return fail("expected a frame bound"), false;
      const std::string digits = peek().text;
      auto offset = parseFrameOffset(digits);
      if (!offset)
        return fail("frame offset " + digits + " is not read (an integer up to " +
                    std::to_string(kMaxFrameOffset) + ")"),
               false;
      b.offset = *offset;
      ++i_;
    }
    if (kw("PRECEDING"))
      b.kind = unbounded ? K::UnboundedPreceding : K::Preceding;
    else if (kw("FOLLOWING"))
      b.kind = unbounded ? K::UnboundedFollowing : K::Following;
    else
      return fail("expected PRECEDING or FOLLOWING"), false;
    return true;
  }

  TextExprPtr caseExpr() {
    ++i_;  // CASE
    std::vector<TextExprPtr> args;
    TextExprPtr operand;
    if (!isKw("WHEN")) {
      operand = expr();
      if (!operand) return nullptr;
    }
    while (kw("WHEN")) {
      auto w = expr();
      if (!w || !kw("THEN")) return w ? fail("expected THEN") : nullptr;
      auto t = expr();
      if (!t) return nullptr;
      args.push_back(operand ? call("=", {operand, w}) : w);
      args.push_back(t);
    }
    if (args.empty()) return fail("CASE without WHEN");
    if (kw("ELSE")) {
      auto e = expr();
      if (!e) return nullptr;
      args.push_back(e);
    }
    if (!kw("END")) return fail("expected END");
    return call("case", std::move(args));
  }

  std::vector<Token> t_;
  size_t i_ = 0;
  std::string& error_;
};

}  // namespace

TextExprPtr parseExpr(const std::string& text, std::string& error) {
  std::vector<Token> toks;
  if (!tokenize(text, toks, error)) return nullptr;
  Parser p(std::move(toks), error);
  return p.whole();
}

bool parseSortKey(const std::string& text, TextSortKey& out, std::string& error) {
  std::vector<Token> toks;
  if (!tokenize(text, toks, error)) return false;
  Parser p(std::move(toks), error);
  return p.sortKey(out);
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
