#include "engines/duckdb/expr_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

#include "engines/duckdb/expr_tokens.h"

namespace rfguard::duckdb_import {

namespace {

TextExprPtr make(TextExpr::Kind k, std::string text = "") {
  auto e = std::make_shared<TextExpr>();
  e->kind = k;
  e->text = std::move(text);
  return e;
}

/// Sets e's height from its children's.
void measure(TextExpr& e) {
  int h = 0;
  for (const auto& a : e.args) h = std::max(h, a ? a->height : 0);
  for (const auto& a : e.partitionBy) h = std::max(h, a ? a->height : 0);
  for (const auto& k : e.orderBy) h = std::max(h, k.expr ? k.expr->height : 0);
  e.height = h + 1;
}

TextExprPtr call(const std::string& name, std::vector<TextExprPtr> args) {
  auto e = make(TextExpr::Kind::Call, name);
  e->args = std::move(args);
  measure(*e);
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

  /// One level of the parser's recursion (parentheses, NOT, signs, arguments).
  struct Level {
    explicit Level(int& d) : depth(++d) {}
    ~Level() { --depth; }
    int& depth;
  };
  bool tooDeep() const { return depth_ > kMaxTextDepth; }
  TextExprPtr deepFail() {
    return fail("expression nested more than " + std::to_string(kMaxTextDepth) + " levels deep");
  }
  /// An operator chain (a AND b AND ...) is built in a loop; its height is
  /// checked at every link, before the tree grows past what recursion takes.
  bool tooTall(const TextExprPtr& e) {
    if (!e || e->height <= kMaxTextDepth) return false;
    deepFail();
    return true;
  }

  TextExprPtr expr() {
    Level level(depth_);
    if (tooDeep()) return deepFail();
    auto e = orExpr();
    return tooTall(e) ? nullptr : e;
  }

  TextExprPtr orExpr() {
    auto l = andExpr();
    while (l && kw("OR")) {
      auto r = andExpr();
      if (!r) return nullptr;
      l = call("or", {l, r});
      if (tooTall(l)) return nullptr;
    }
    return l;
  }
  TextExprPtr andExpr() {
    auto l = notExpr();
    while (l && kw("AND")) {
      auto r = notExpr();
      if (!r) return nullptr;
      l = call("and", {l, r});
      if (tooTall(l)) return nullptr;
    }
    return l;
  }
  TextExprPtr notExpr() {
    Level level(depth_);
    if (tooDeep()) return deepFail();
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
      if (tooTall(l)) return nullptr;
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
      if (!l || tooTall(l)) return nullptr;
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
      if (!l || tooTall(l)) return nullptr;
      const char* name = op("*") ? "*" : op("/") ? "/" : op("%") ? "%" : nullptr;
      if (!name) return l;
      auto r = unary();
      if (!r) return nullptr;
      l = call(name, {l, r});
    }
  }
  TextExprPtr unary() {
    Level level(depth_);
    if (tooDeep()) return deepFail();
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
      measure(*c);
      if (tooTall(c)) return nullptr;
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
        auto [end, ec] = std::from_chars(tk.text.data(), tk.text.data() + tk.text.size(), e->index);
        if (ec != std::errc() || end != tk.text.data() + tk.text.size())
          return fail("column reference #" + tk.text + " out of range");
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
      measure(*c);
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
    measure(*c);
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
  int depth_ = 0;
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

}  // namespace rfguard::duckdb_import
