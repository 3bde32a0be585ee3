// Doris's printed expressions read into rfguard's plan JSON: a tokenizer and a
// recursive descent over SQL's precedence (OR, AND, NOT, comparisons, + -, * /),
// with Doris's own `OR[a,b]` / `AND[a,b]` lists and `IN (...)`.
#include "engines/doris/expr_parse.h"

#include <cctype>
#include <set>
#include <vector>

namespace rfguard::doris_import {

namespace {

using Json = nlohmann::json;

struct Tok {
  enum Kind { Ident, Number, String, Punct, End } kind = End;
  std::string text;  ///< identifiers as written (dotted names whole), strings unquoted
  size_t at = 0;     ///< offset in the text
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool tokenize(const std::string& s, std::vector<Tok>& out, std::string& why) {
  size_t i = 0;
  auto identChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '#';
  };
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Tok t;
    t.at = i;
    if (identChar(c) && !std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < s.size() &&
             (identChar(s[j]) || (s[j] == '.' && j + 1 < s.size() && identChar(s[j + 1]))))
        ++j;
      t.kind = Tok::Ident, t.text = s.substr(i, j - i), i = j;
    } else if (c == '`') {
      size_t j = s.find('`', i + 1);
      if (j == std::string::npos) return why = "an unclosed ` at " + std::to_string(i + 1), false;
      t.kind = Tok::Ident, t.text = s.substr(i + 1, j - i - 1), i = j + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
      t.kind = Tok::Number, t.text = s.substr(i, j - i), i = j;
    } else if (c == '\'') {
      std::string v;
      size_t j = i + 1;
      for (;; ++j) {
        if (j >= s.size()) return why = "an unclosed string at " + std::to_string(i + 1), false;
        if (s[j] == '\\' && j + 1 < s.size()) {
          v += s[++j];
        } else if (s[j] == '\'') {
          if (j + 1 < s.size() && s[j + 1] == '\'') {
            v += '\'', ++j;
          } else {
            break;
          }
        } else {
          v += s[j];
        }
      }
      t.kind = Tok::String, t.text = v, i = j + 1;
    } else {
      static const char* kTwo[] = {"<=>", "<=", ">=", "<>", "!="};
      t.kind = Tok::Punct;
      for (const char* p : kTwo)
        if (s.compare(i, std::char_traits<char>::length(p), p) == 0) {
          t.text = p;
          break;
        }
      if (t.text.empty()) {
        if (std::string("()[],=<>+-*/%").find(c) == std::string::npos)
          return why = std::string("an unexpected '") + c + "' at " + std::to_string(i + 1), false;
        t.text = std::string(1, c);
      }
      i += t.text.size();
    }
    out.push_back(t);
  }
  out.push_back(Tok{Tok::End, "", s.size()});
  return true;
}

/// A parsed expression and its type ("" when not known).
struct Typed {
  Json j;
  std::string type;
};

class Parser {
 public:
  Parser(std::string src, std::vector<Tok> toks, const Resolver& resolve)
      : src_(std::move(src)), t_(std::move(toks)), resolve_(resolve) {}

  std::optional<Json> parseAll(std::string& why) {
    auto e = orExpr(0);
    if (e && peek().kind != Tok::End) fail("unexpected \"" + peek().text + "\"");
    if (!why_.empty()) return why = why_, std::nullopt;
    return e->j;
  }

 private:
  const Tok& peek(size_t k = 0) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool isWord(const char* w, size_t k = 0) const {
    return peek(k).kind == Tok::Ident && lower(peek(k).text) == w;
  }
  bool isPunct(const char* w) const { return peek().kind == Tok::Punct && peek().text == w; }
  std::optional<Typed> fail(const std::string& w) {
    if (why_.empty()) why_ = w + " at " + std::to_string(peek().at + 1);
    return std::nullopt;
  }
  bool expect(const char* w) {
    if (isPunct(w)) return ++p_, true;
    fail(std::string("expected '") + w + "'");
    return false;
  }
  static Typed call(const std::string& f, std::vector<Json> args, std::string type = "") {
    return {Json{{"call", f}, {"args", std::move(args)}}, std::move(type)};
  }
  bool tooDeep(int depth) {
    if (depth <= kMaxExprDepth) return false;
    fail("an expression nested more than " + std::to_string(kMaxExprDepth) + " levels deep");
    return true;
  }

  std::optional<Typed> orExpr(int d) { return chain(d, "or", &Parser::andExpr); }
  std::optional<Typed> andExpr(int d) { return chain(d, "and", &Parser::notExpr); }
  std::optional<Typed> chain(int d, const char* word, std::optional<Typed> (Parser::*next)(int)) {
    if (tooDeep(d)) return std::nullopt;
    auto l = (this->*next)(d + 1);
    while (l && isWord(word)) {
      ++p_;
      auto r = (this->*next)(d + 1);
      if (!r) return std::nullopt;
      l = call(word, {l->j, r->j}, "boolean");
    }
    return l;
  }
  std::optional<Typed> notExpr(int d) {
    if (tooDeep(d)) return std::nullopt;
    if (isWord("not")) {
      ++p_;
      auto e = notExpr(d + 1);
      if (!e) return std::nullopt;
      return call("not", {e->j}, "boolean");
    }
    return comparison(d + 1);
  }
  /// A string literal compared with a date column is a date.
  static void typeLiteral(Typed& lit, const Typed& other) {
    if (lit.j.contains("literal") && lit.type == "varchar" &&
        (other.type == "date" || other.type == "datetime" || other.type == "timestamp"))
      lit.j["type"] = lit.type = other.type;
  }
  std::optional<Typed> comparison(int d) {
    auto l = additive(d + 1);
    if (!l) return std::nullopt;
    static const char* kOps[] = {"<=>", "<=", ">=", "<>", "!=", "=", "<", ">"};
    for (const char* op : kOps)
      if (isPunct(op)) {
        ++p_;
        auto r = additive(d + 1);
        if (!r) return std::nullopt;
        typeLiteral(*r, *l);
        typeLiteral(*l, *r);
        return call(std::string(op) == "!=" ? "<>" : op, {l->j, r->j}, "boolean");
      }
    bool negated = false;
    if (isWord("not") && (isWord("like", 1) || isWord("in", 1))) negated = true, ++p_;
    if (isWord("like")) {
      ++p_;
      auto r = additive(d + 1);
      if (!r) return std::nullopt;
      Typed like = call("like", {l->j, r->j}, "boolean");
      return negated ? call("not", {like.j}, "boolean") : like;
    }
    if (isWord("in")) {
      ++p_;
      if (!expect("(")) return std::nullopt;
      std::vector<Json> args{l->j};
      do {
        auto x = additive(d + 1);
        if (!x) return std::nullopt;
        typeLiteral(*x, *l);
        args.push_back(x->j);
      } while (isPunct(",") && ++p_);
      if (!expect(")")) return std::nullopt;
      Typed in = call("in", args, "boolean");
      return negated ? call("not", {in.j}, "boolean") : in;
    }
    if (isWord("is")) {
      ++p_;
      const bool no = isWord("not") && ++p_;
      if (!isWord("null")) return fail("expected NULL");
      ++p_;
      return call(no ? "is_not_null" : "is_null", {l->j}, "boolean");
    }
    return l;
  }
  std::optional<Typed> additive(int d) { return arith(d, "+-", &Parser::multiplicative); }
  std::optional<Typed> multiplicative(int d) { return arith(d, "*/%", &Parser::unary); }
  std::optional<Typed> arith(int d, const char* ops, std::optional<Typed> (Parser::*next)(int)) {
    if (tooDeep(d)) return std::nullopt;
    auto l = (this->*next)(d + 1);
    while (l && peek().kind == Tok::Punct && peek().text.size() == 1 &&
           std::string(ops).find(peek().text[0]) != std::string::npos) {
      const std::string op = t_[p_++].text;
      auto r = (this->*next)(d + 1);
      if (!r) return std::nullopt;
      l = call(op, {l->j, r->j}, l->type == r->type ? l->type : "");
    }
    return l;
  }
  std::optional<Typed> unary(int d) {
    if (tooDeep(d)) return std::nullopt;
    if (isPunct("-")) {
      ++p_;
      auto e = unary(d + 1);
      if (!e) return std::nullopt;
      return call("negate", {e->j}, e->type);
    }
    return primary(d + 1);
  }
  std::optional<Typed> primary(int d) {
    const Tok tok = peek();
    if (tok.kind == Tok::Punct && tok.text == "(") {
      ++p_;
      auto e = orExpr(d + 1);
      if (!e || !expect(")")) return std::nullopt;
      return e;
    }
    if (tok.kind == Tok::Number) {
      ++p_;
      const size_t dot = tok.text.find('.');
      if (dot == std::string::npos) {
        if (tok.text.size() > 18) return fail("an integer too large");
        return Typed{Json{{"literal", std::stoll(tok.text)}, {"type", "bigint"}}, "bigint"};
      }
      const size_t scale = tok.text.size() - dot - 1;
      const size_t digits = tok.text.size() - 1;
      if (digits > 38 || tok.text.find('.', dot + 1) != std::string::npos)
        return fail("a number rfguard cannot read");
      const std::string type =
          "decimal(" + std::to_string(std::max(digits, scale)) + "," + std::to_string(scale) + ")";
      return Typed{Json{{"literal", tok.text}, {"type", type}}, type};
    }
    if (tok.kind == Tok::String) {
      ++p_;
      return Typed{Json{{"literal", tok.text}, {"type", "varchar"}}, "varchar"};
    }
    if (tok.kind != Tok::Ident)
      return fail(tok.kind == Tok::End ? "an unexpected end" : "unexpected \"" + tok.text + "\"");
    const std::string w = lower(tok.text);
    if (w.rfind("expr_", 0) == 0 && peek(1).kind == Tok::Punct && peek(1).text == "(") {
      // A slot a projection below computes, named by its expression:
      // `expr_cast(d_week_seq1 as BIGINT)`, `expr_(cast(x as BIGINT) - 53)`.
      // Its value in each row is the expression's over the same row.
      if (w == "expr_") return ++p_, primary(d + 1);
      t_[p_].text = tok.text.substr(5);
      return primary(d + 1);
    }
    if ((w == "or" || w == "and") && peek(1).kind == Tok::Punct && peek(1).text == "[") {
      // Doris's n-ary OR[a,b,...] and AND[a,b,...].
      p_ += 2;
      std::optional<Typed> acc;
      do {
        auto x = orExpr(d + 1);
        if (!x) return std::nullopt;
        acc = acc ? call(w, {acc->j, x->j}, "boolean") : *x;
      } while (isPunct(",") && ++p_);
      if (!expect("]")) return std::nullopt;
      return acc;
    }
    if (w == "case") return caseExpr(d);
    if (w == "null") return ++p_, Typed{Json{{"literal", nullptr}, {"type", "unknown"}}, ""};
    if (w == "true" || w == "false")
      return ++p_, Typed{Json{{"literal", w == "true"}, {"type", "boolean"}}, "boolean"};
    if (w == "cast" && peek(1).kind == Tok::Punct && peek(1).text == "(") {
      p_ += 2;
      auto x = orExpr(d + 1);
      if (!x) return std::nullopt;
      if (!isWord("as")) return fail("expected AS");
      ++p_;
      std::string type;
      int depth = 0;
      while (peek().kind != Tok::End && (depth > 0 || !isPunct(")"))) {
        if (isPunct("(")) ++depth;
        if (isPunct(")")) --depth;
        type += t_[p_++].text;
      }
      if (!expect(")")) return std::nullopt;
      const std::string to = typeFromDoris(type);
      if (to.empty()) return fail("a cast to " + type + ", a type rfguard does not know");
      return Typed{Json{{"cast", x->j}, {"type", to}}, to};
    }
    static const std::set<std::string> kAggregates = {"sum", "avg", "min", "max", "count"};
    if (kAggregates.count(w) && peek(1).kind == Tok::Punct && peek(1).text == "(") {
      // An aggregate's result, named by its call as the plan prints it.
      const size_t close = closing(p_ + 1);
      if (close >= t_.size() || t_[close].kind == Tok::End) return fail("an unclosed call");
      const std::string text = aggregateCallText(src_.substr(tok.at, t_[close].at + 1 - tok.at));
      p_ = close + 1;
      if (isWord("over")) return windowResult(tok);
      std::string why;
      auto col = resolve_(kAggregateMark + text, why);
      if (!col)
        return fail("an aggregate's result (" + text + "), which no aggregate below computes");
      return Typed{Json{{"column", col->id}}, col->type};
    }
    if (peek(1).kind == Tok::Punct && peek(1).text == "(") {
      p_ += 2;
      std::vector<Json> args;
      if (!isPunct(")")) do {
          auto x = orExpr(d + 1);
          if (!x) return std::nullopt;
          args.push_back(x->j);
        } while (isPunct(",") && ++p_);
      if (!expect(")")) return std::nullopt;
      if (isWord("over")) return windowResult(tok);
      if (w == "if" && args.size() == 3) return call("case", args);
      return Typed{Json{{"call", w == "substr" ? "substring" : w}, {"args", args}}, ""};
    }
    ++p_;
    std::string why;
    auto col = resolve_(tok.text, why);
    if (!col) {
      p_--;
      return fail(why);
    }
    return Typed{Json{{"column", col->id}}, col->type};
  }

  /// The token closing the parenthesis at token `open` (the end token, or
  /// past the end, when none does).
  size_t closing(size_t open) const {
    size_t close = open;
    for (int depth = 0; close < t_.size() && t_[close].kind != Tok::End; ++close) {
      if (t_[close].kind == Tok::Punct && t_[close].text == "(") ++depth;
      if (t_[close].kind == Tok::Punct && t_[close].text == ")" && --depth == 0) break;
    }
    return close;
  }

  /// A window function's result: the call from `start` and its `OVER (...)`
  /// clause, as the window below computes it (kWindowMark).
  std::optional<Typed> windowResult(const Tok& start) {
    ++p_;  // OVER
    if (!isPunct("(")) return fail("expected ( after OVER");
    const size_t close = closing(p_);
    if (close >= t_.size() || t_[close].kind == Tok::End) return fail("an unclosed OVER clause");
    const std::string text = aggregateCallText(src_.substr(start.at, t_[close].at + 1 - start.at));
    p_ = close + 1;
    std::string why;
    auto col = resolve_(kWindowMark + text, why);
    if (!col)
      return fail("a window function's result (" + text + "), which no window below computes");
    return Typed{Json{{"column", col->id}}, col->type};
  }

  /// CASE WHEN c THEN r ... [ELSE e] END (the searched form Doris prints).
  std::optional<Typed> caseExpr(int d) {
    ++p_;
    std::vector<Json> args;
    while (isWord("when")) {
      ++p_;
      auto c = orExpr(d + 1);
      if (!c) return std::nullopt;
      if (!isWord("then")) return fail("expected THEN");
      ++p_;
      auto r = orExpr(d + 1);
      if (!r) return std::nullopt;
      args.push_back(c->j), args.push_back(r->j);
    }
    if (args.empty()) return fail("expected WHEN");
    if (isWord("else")) {
      ++p_;
      auto e = orExpr(d + 1);
      if (!e) return std::nullopt;
      args.push_back(e->j);
    }
    if (!isWord("end")) return fail("expected END");
    ++p_;
    return call("case", args);
  }

  std::string src_;
  std::vector<Tok> t_;
  const Resolver& resolve_;
  size_t p_ = 0;
  std::string why_;
};

}  // namespace

std::string aggregateCallText(const std::string& call) {
  std::string out;
  bool quoted = false, space = false;
  for (char c : call) {
    if (c == '\'') quoted = !quoted;
    if (!quoted && std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string typeFromDoris(const std::string& dorisType) {
  std::string t;
  for (char c : dorisType)
    if (!std::isspace(static_cast<unsigned char>(c)))
      t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string base = t.substr(0, t.find('('));
  const std::string args = t.size() > base.size() ? t.substr(base.size()) : "";
  if (base == "decimalv3" || base == "decimalv2" || base == "decimal") return "decimal" + args;
  if (base == "datev2" || base == "date") return "date";
  if (base == "datetimev2" || base == "datetime") return "timestamp";
  if (base == "varchar" || base == "char" || base == "string" || base == "text")
    return base == "char" ? "char" + args : "varchar";
  static const char* kSame[] = {"tinyint", "smallint", "int",    "bigint",
                                "double",  "float",    "boolean"};
  for (const char* s : kSame)
    if (base == s && args.empty()) return s;
  if (base == "largeint") return "bigint";
  return "";
}

std::optional<nlohmann::json> parseDorisExpr(const std::string& text, const Resolver& resolve,
                                             std::string& why) {
  std::vector<Tok> toks;
  if (!tokenize(text, toks, why)) return std::nullopt;
  Parser p(text, std::move(toks), resolve);
  return p.parseAll(why);
}

}  // namespace rfguard::doris_import
