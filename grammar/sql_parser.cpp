// Driving ANTLR: two-stage parsing behind the input guards (grammar/input_guards.h),
// syntax errors with locations, and dispatch of each statement to the binder.
#include <antlr4-runtime.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <mutex>

#include "RfSqlLexer.h"
#include "RfSqlParser.h"
#include "grammar/binder.h"
#include "grammar/fast_lexer.h"
#include "grammar/foreign_syntax.h"
#include "grammar/input_guards.h"
#include "grammar/parse_arena.h"
#include "grammar/sql.h"
#include "grammar/suggest.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

namespace {

/// One syntax error: where, what, and the token it happened at.
struct SyntaxError {
  SourceLoc loc;
  std::string message;
  size_t tokenIndex = 0;
};

/// Where a token starts, as line and column (1-based).
SourceLoc tokenLoc(const antlr4::Token& t) {
  return {static_cast<int>(t.getLine()), static_cast<int>(t.getCharPositionInLine()) + 1};
}

/// The words a typo most often breaks: clause and statement keywords.
const std::vector<std::string>& commonKeywords() {
  static const std::vector<std::string> words{
      "SELECT", "FROM",   "WHERE",     "GROUP",     "ORDER",    "HAVING",  "LIMIT",   "OFFSET",
      "JOIN",   "LEFT",   "RIGHT",     "FULL",      "INNER",    "OUTER",   "CROSS",   "UNION",
      "EXCEPT", "CREATE", "TABLE",     "VIEW",      "WITH",     "AND",     "BETWEEN", "EXISTS",
      "CASE",   "WHEN",   "THEN",      "ELSE",      "DISTINCT", "PRIMARY", "FOREIGN", "REFERENCES",
      "UNIQUE", "NULL",   "INTERSECT", "PARTITION", "VALUES",   "INSERT",  "NOT",     "LIKE"};
  return words;
}

/// `; did you mean "FROM"?` when `text` is a word near a keyword and no
/// keyword itself ("SELEC", "FORM"), else "".
std::string keywordHint(const std::string& text) {
  if (text.size() < 3) return "";
  for (char c : text)
    if (!std::isalpha(static_cast<unsigned char>(c))) return "";
  std::string upper = text;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const auto& words = commonKeywords();
  if (std::find(words.begin(), words.end(), upper) != words.end()) return "";
  return didYouMean(upper, words);
}

/// Records syntax errors with their locations.
class ErrorCollector : public antlr4::BaseErrorListener {
 public:
  std::vector<SyntaxError> errors;

  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* bad, size_t line, size_t col,
                   const std::string& msg, std::exception_ptr) override {
    SyntaxError e;
    e.loc = {static_cast<int>(line), static_cast<int>(col) + 1};
    e.tokenIndex = bad ? bad->getTokenIndex() : 0;
    std::string& message = e.message;
    if (!bad) {
      message = "syntax error: " + msg;
    } else if (bad->getType() == antlr4::Token::EOF) {
      message = "syntax error: unexpected end of statement";
    } else {
      std::string text = bad->getText();
      if (text.size() > 40) text = text.substr(0, 40) + "...";
      message = "syntax error at '" + text + "'";
      if (text == "'") message = "syntax error: unterminated string literal";
      if (text == "\"" || text == "`") message = "syntax error: unterminated quoted identifier";
      if (msg.size() < 100 && msg.find("expecting {") == std::string::npos &&
          msg.find("<EOF>") == std::string::npos)
        message += ": " + msg;
      // A mistyped keyword: the word itself ("SELEC a"), or the word before,
      // which the parser took for a name ("SELECT a FORM t" fails at t).
      std::string hint = keywordHint(bad->getText());
      auto* tokens =
          recognizer ? dynamic_cast<antlr4::TokenStream*>(recognizer->getInputStream()) : nullptr;
      const antlr4::Token* before = nullptr;
      for (size_t i = bad->getTokenIndex(); tokens && !before && i-- > 0;) {
        const antlr4::Token* t = tokens->get(i);
        if (t && t->getChannel() == antlr4::Token::DEFAULT_CHANNEL) before = t;
      }
      if (hint.empty() && before) {
        hint = keywordHint(before->getText());
        if (!hint.empty()) hint = "; \"" + before->getText() + "\" is no keyword" + hint;
      }
      message += hint;
    }
    errors.push_back(e);
  }
};

/// The parse arena's first block per character of SQL: TPC-H's queries take
/// 53 to 110 bytes per character (tokens and contexts), most
/// under 100, so that most parses fit in one block. A long script starts at
/// 1 MiB and grows by doubling.
constexpr size_t kArenaBytesPerChar = 100;
constexpr size_t kArenaFirstBlockMax = size_t{1} << 20;

/// Parsers the thread made and has no parse for: the next parse takes one.
/// Making a parser, and growing the list in which it records every context it
/// makes (ANTLR's ParseTreeTracker, a vector that doubled to a few kilobytes
/// in every parse: blocks of a kilobyte or more make glibc's malloc first
/// merge every small block freed since the last such request), cost every
/// parse. A view's text is parsed while its query's parse is open: a few.
std::vector<std::unique_ptr<P>>& spareParsers() {
  thread_local std::vector<std::unique_ptr<P>> spare;
  return spare;
}
constexpr size_t kSpareParsers = 4;

/// Gives a parser back to the thread's spares when its parse is done.
struct ParserReturn {
  void operator()(P* parser) const noexcept {
    // Its contexts go now, while the parse's arena (their memory) is alive;
    // the list that tracked them keeps its capacity.
    parser->removeErrorListeners();
    parser->setTokenStream(nullptr);
    auto& spare = spareParsers();
    if (spare.size() < kSpareParsers)
      spare.emplace_back(parser);
    else
      delete parser;
  }
};
using ParserPtr = std::unique_ptr<P, ParserReturn>;

/// A parser reading `tokens`, from the spares or new: no error listener, no
/// parse tree, predicting with rfguard::PredictionFastPath.
ParserPtr takeParser(antlr4::TokenStream* tokens) {
  auto& spare = spareParsers();
  if (spare.empty()) {
    ParserPtr parser(new P(tokens));
    parser->usePredictionFastPath();
    parser->setBuildParseTree(false);
    parser->removeErrorListeners();
    return parser;
  }
  ParserPtr parser(spare.back().release());
  spare.pop_back();
  parser->setTokenStream(tokens);
  return parser;
}

/// Lexes and parses `text` with rule `entry`, SLL first, LL on failure.
template <typename Ctx>
struct Parsed {
  const std::string* text = nullptr;  ///< the source; outlives this
  /// The tokens' and the parse tree's memory: declared before what owns them.
  std::unique_ptr<ParseArena> arena;
  /// ANTLR's copy of the text as code points: empty when the direct lexer took
  /// the text (then ASCII, where code point and byte offsets agree).
  std::unique_ptr<antlr4::ANTLRInputStream> input;
  std::unique_ptr<rfsql::RfSqlLexer> lexer;  ///< when the direct lexer declined
  std::unique_ptr<antlr4::TokenSource> direct;
  std::unique_ptr<antlr4::CommonTokenStream> tokens;
  ParserPtr parser;
  ErrorCollector errors;
  Ctx* tree = nullptr;

  /// The source between code point offsets `a` and `b`, both included.
  std::string slice(size_t a, size_t b) const {
    if (lexer) return input->getText(antlr4::misc::Interval(a, b));
    // As ANTLR's stream does: clipped to the text.
    if (a >= text->size() || b < a) return "";
    return text->substr(a, std::min(b, text->size() - 1) - a + 1);
  }
};

/// ANTLR 4.9's C++ runtime shares its prediction caches (the DFA, the context
/// cache) among all lexers and parsers of a grammar, and not every path that
/// grows them takes a lock. rfguard lexes and parses one text at a time; binding,
/// normalising, placing and verifying run in parallel (rfguard lint --jobs).
std::mutex& antlrMutex() {
  static std::mutex m;
  return m;
}

template <typename Ctx>
bool parseText(const std::string& text, const std::string& file, Ctx* (P::*entry)(),
               Parsed<Ctx>& out, Diagnostics& diags, const SqlLimits& limits, SourceLoc offset,
               bool recover = false) {
  std::lock_guard<std::mutex> lock(antlrMutex());
  auto shift = [&](SourceLoc loc) {
    if (offset.line > 0) {
      if (loc.line == 1) loc.col += offset.col - 1;
      loc.line += offset.line - 1;
    }
    return loc;
  };
  if (size_t bad = invalidUtf8(text); bad != std::string::npos) {
    diags.error(file, shift(locAtOffset(text, bad)),
                "input is not valid UTF-8 text (byte " + std::to_string(bad) + ")");
    return false;
  }
  out.text = &text;
  assert(!out.arena && "a Parsed holds one parse");
  out.arena = std::make_unique<ParseArena>(
      std::min(kArenaBytesPerChar * text.size() + 1024, kArenaFirstBlockMax));
  ArenaScope scope(*out.arena);
  // The direct lexer's tokens carry their text; converting the source to code
  // points for ANTLR's stream is only needed when ANTLR's lexer runs.
  out.input = std::make_unique<antlr4::ANTLRInputStream>();
  out.direct = fastLex(text, out.input.get());
  if (out.direct) {
    out.tokens = directTokenStream(out.direct.get());
  } else {
    out.input->load(text);
    out.lexer = std::make_unique<rfsql::RfSqlLexer>(out.input.get());
    out.lexer->removeErrorListeners();
    out.lexer->addErrorListener(&out.errors);
    out.tokens = std::make_unique<antlr4::CommonTokenStream>(out.lexer.get());
  }
  out.tokens->fill();
  SourceLoc where;
  if (out.tokens->size() > limits.maxTokens) {
    antlr4::Token* t = out.tokens->get(limits.maxTokens);
    diags.error(
        file,
        shift({static_cast<int>(t->getLine()), static_cast<int>(t->getCharPositionInLine()) + 1}),
        "input too large: more than " + std::to_string(limits.maxTokens) +
            " tokens (split it into smaller files)");
    return false;
  }
  if (!checkNesting(*out.tokens, out.direct != nullptr, limits.maxNesting, where)) {
    diags.error(
        file, shift(where),
        "expression nested more than " + std::to_string(limits.maxNesting) + " levels deep");
    return false;
  }
  // `a SEMI JOIN b` would parse as `a AS semi JOIN b`: named before parsing.
  if (auto f = foreignJoin(*out.tokens)) {
    // A script goes statement by statement, as after a syntax error, so that
    // its other statements still load.
    if (recover) {
      out.errors.errors.push_back({tokenLoc(*f->at), f->message, f->at->getTokenIndex()});
      return true;
    }
    diags.error(file, shift(tokenLoc(*f->at)), f->message);
    return false;
  }
  out.parser = takeParser(out.tokens.get());
  out.parser->template getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  out.parser->setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  try {
    out.tree = ((*out.parser).*entry)();
  } catch (const antlr4::ParseCancellationException&) {
    // SLL could not decide; full LL with error reporting.
    out.tokens->seek(0);
    out.parser->reset();
    out.parser->addErrorListener(&out.errors);
    out.parser->setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
    out.parser->template getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::LL);
    out.tree = ((*out.parser).*entry)();
  }
  if (!out.errors.errors.empty() && !recover) {
    // Another dialect's construct is named, not reported as a bare syntax error.
    if (auto f = foreignConstructAt(*out.tokens, out.errors.errors[0].tokenIndex)) {
      diags.error(file, shift(tokenLoc(*f->at)), f->message);
      return false;
    }
    diags.error(file, shift(out.errors.errors[0].loc), out.errors.errors[0].message);
    return false;
  }
  if (!checkDepth(out.tree, limits.maxTreeDepth, where)) {
    diags.error(file, shift(where),
                "expression too deeply nested (parse tree deeper than " +
                    std::to_string(limits.maxTreeDepth) + ")");
    return false;
  }
  return true;
}

template <typename Ctx>
std::string textOf(const Parsed<Ctx>& parsed, antlr4::ParserRuleContext* ctx) {
  size_t a = ctx->getStart()->getStartIndex();
  size_t b = ctx->getStop() ? ctx->getStop()->getStopIndex() : a;
  if (b < a) b = a;
  return parsed.slice(a, b);
}

/// A `-- name: x` comment right before the statement names the query.
std::string nameFromComment(antlr4::CommonTokenStream& tokens, antlr4::ParserRuleContext* ctx) {
  auto hidden = tokens.getHiddenTokensToLeft(ctx->getStart()->getTokenIndex());
  for (auto it = hidden.rbegin(); it != hidden.rend(); ++it) {
    std::string t = (*it)->getText();
    auto pos = t.find("name:");
    if (t.rfind("--", 0) != 0 || pos == std::string::npos) continue;
    std::string name = t.substr(pos + 5);
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t\r") + 1);
    if (!name.empty()) return name;
  }
  return "";
}

}  // namespace

BoundRel bindView(Binder& b, const ViewDef& view, const std::string& hint) {
  BoundRel none{makePooled<PlanNode>(), {}};
  if (b.viewDepth > 32) {
    b.error(view.loc, "views nested more than 32 deep");
    return none;
  }
  Parsed<P::SingleQueryContext> parsed;
  Diagnostics local;
  if (!parseText(view.sql, view.file, &P::singleQuery, parsed, local, SqlLimits{}, view.loc)) {
    b.error(view.loc, "view " + view.name + " no longer parses: " + local.items()[0].message);
    return none;
  }
  std::string savedFile = b.file;
  SourceLoc savedOffset = b.offset_;
  b.file = view.file;
  b.offset_ = view.loc;
  ++b.viewDepth;
  antlr4::TokenStream* savedTokens = b.tokens;
  b.tokens = parsed.tokens.get();
  BoundRel r = b.bindQuery(parsed.tree->body, nullptr, hint);
  b.tokens = savedTokens;
  --b.viewDepth;
  b.file = savedFile;
  b.offset_ = savedOffset;
  return r;
}

/// Binds one parsed statement; `offset` places the statement's text in the file.
template <typename Ctx>
bool bindStatement(P::StatementContext* st, Parsed<Ctx>& parsed, SourceLoc offset,
                   const std::string& file, Catalog& catalog, std::vector<Query>& queries,
                   Diagnostics& diags, int& index, const SqlLimits& limits, Dialect dialect) {
  Binder binder(catalog, diags, file, offset);
  binder.limits = limits;
  binder.dialect = dialect;
  binder.tokens = parsed.tokens.get();
  if (auto* ct = st->table) {
    binder.bindCreateTable(ct);
  } else if (auto* cv = st->view) {
    auto* q = cv->body;
    binder.bindCreateView(cv, textOf(parsed, q), binder.locOf(q));
  } else {
    ++index;
    PlanPtr plan = binder.bindTopQuery(st->select);
    if (plan) {
      Query q;
      q.name = nameFromComment(*parsed.tokens, st);
      if (q.name.empty()) q.name = "query" + std::to_string(index), q.namedByPosition = true;
      q.sql = textOf(parsed, st);
      q.file = file;
      q.loc = binder.locOf(st);
      q.plan = plan;
      queries.push_back(std::move(q));
    }
  }
  return !binder.failed();
}

bool loadSql(const std::string& text, const std::string& file, Catalog& catalog,
             std::vector<Query>& queries, Diagnostics& diags, const SqlLimits& limits) {
  return loadSql(text, file, catalog, queries, diags, limits, Dialect::Default);
}

bool loadSql(const std::string& text, const std::string& file, Catalog& catalog,
             std::vector<Query>& queries, Diagnostics& diags, const SqlLimits& limits,
             Dialect dialect) {
  Parsed<P::ScriptContext> parsed;
  if (!parseText(text, file, &P::script, parsed, diags, limits, {}, true)) return false;
  bool ok = true;
  int index = 0;
  if (parsed.errors.errors.empty()) {
    for (auto* st : parsed.tree->stmts)
      ok = bindStatement(st, parsed, {}, file, catalog, queries, diags, index, limits, dialect) &&
           ok;
    return ok;
  }
  // A syntax error: parse statement by statement, so that one bad statement
  // is reported once and skipped while the others still load.
  size_t begin = 0;
  SourceLoc at{1, 1};
  size_t firstType = 0;  // the statement's first token, to number queries that did not parse
  for (size_t i = 0; i < parsed.tokens->size(); ++i) {
    antlr4::Token* t = parsed.tokens->get(i);
    bool last = t->getType() == antlr4::Token::EOF;
    if (!firstType && t->getChannel() == antlr4::Token::DEFAULT_CHANNEL) firstType = t->getType();
    if (t->getType() != P::SEMICOLON && !last) continue;
    size_t end = last ? text.size() : t->getStartIndex();
    // ANTLR indexes characters; the text is UTF-8 (Parsed::slice maps them).
    std::string chunk = parsed.slice(begin, end == 0 ? 0 : end - 1);
    if (end == begin) chunk.clear();
    if (chunk.find_first_not_of(" \t\r\n") != std::string::npos) {
      Parsed<P::SingleStatementContext> one;
      if (!parseText(chunk, file, &P::singleStatement, one, diags, limits, at)) {
        ok = false;
        if (firstType == P::SELECT || firstType == P::WITH || firstType == P::LPAREN) ++index;
      } else if (auto* st = one.tree->stmt) {
        ok =
            bindStatement(st, one, at, file, catalog, queries, diags, index, limits, dialect) && ok;
      }
    }
    if (last) break;
    firstType = 0;
    begin = t->getStopIndex() + 1;
    at = {static_cast<int>(t->getLine()), static_cast<int>(t->getCharPositionInLine()) + 2};
  }
  return ok;
}

std::optional<std::string> lexerDifference(const std::string& text) {
  // ANTLR's input stream throws on invalid UTF-8 (parseText reports it first);
  // the direct lexer declines any non-ASCII text anyway.
  if (invalidUtf8(text) != std::string::npos) return std::nullopt;
  std::lock_guard<std::mutex> lock(antlrMutex());
  antlr4::ANTLRInputStream input(text);
  auto direct = fastLex(text, &input);
  if (!direct) return std::nullopt;
  antlr4::ANTLRInputStream input2(text);
  rfsql::RfSqlLexer lexer(&input2);
  lexer.removeErrorListeners();
  for (size_t i = 0;; ++i) {
    auto a = direct->nextToken();
    auto b = lexer.nextToken();
    auto describe = [](const antlr4::Token& t) {
      return std::to_string(t.getType()) + " '" + t.getText() + "' channel " +
             std::to_string(t.getChannel()) + " at " + std::to_string(t.getStartIndex()) + ".." +
             std::to_string(t.getStopIndex()) + " line " + std::to_string(t.getLine()) + ":" +
             std::to_string(t.getCharPositionInLine());
    };
    if (describe(*a) != describe(*b))
      return "token " + std::to_string(i) + ": direct " + describe(*a) + ", ANTLR " + describe(*b);
    if (a->getType() == antlr4::Token::EOF) return "";
  }
}

}  // namespace rfguard
