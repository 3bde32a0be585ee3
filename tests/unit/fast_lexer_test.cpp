// The direct lexer against the ANTLR-generated one: the same tokens on every
// text of the corpus and on random texts built from the grammar's pieces, and
// it declines exactly where it should.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "grammar/sql.h"
#include "ir/printers.h"

using namespace rfguard;

namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("direct lexer: same tokens as RfSqlLexer on every corpus file and line") {
  // .sql files whole (all plain SQL: lexed directly); .test files whole and line
  // by line (SQL, expected output, bad input: lexed directly or declined).
  size_t sqlFiles = 0, lines = 0, queryLines = 0, queryLinesLexed = 0;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(std::string(RFGUARD_SOURCE_DIR) + "/corpus")) {
    const auto ext = e.path().extension();
    if (!e.is_regular_file() || (ext != ".sql" && ext != ".test")) continue;
    const std::string text = readFile(e.path());
    // StarRocks's plan tests keep their upstream `.sql` name: plan text, not SQL.
    if (ext == ".sql" && text.find("\nPLAN FRAGMENT ") != std::string::npos) continue;
    auto diff = lexerDifference(text);
    if (ext == ".sql") {
      ++sqlFiles;
      REQUIRE_MESSAGE(diff, e.path().string() << ": declined");
    }
    if (diff) CHECK_MESSAGE(diff->empty(), e.path().string() << ": " << *diff);
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      ++lines;
      const bool query = line.rfind("SELECT ", 0) == 0 || line.rfind("CREATE TABLE ", 0) == 0;
      queryLines += query;
      auto d = lexerDifference(line);
      if (!d) continue;
      queryLinesLexed += query;
      CHECK_MESSAGE(d->empty(), e.path().string() << ": '" << line << "': " << *d);
    }
  }
  CHECK(sqlFiles >= 8);
  CHECK(lines > 5000);
  // Lines of SQL are lexed directly but for the corpus's deliberate errors
  // (unterminated strings, characters no token starts with).
  MESSAGE(queryLinesLexed << " of " << queryLines << " lines of SQL lexed directly");
  CHECK(queryLines > 500);
  CHECK(queryLinesLexed * 100 > queryLines * 95);
}

TEST_CASE("direct lexer: TPC-H is lexed directly") {
  auto diff =
      lexerDifference(readFile(std::string(RFGUARD_SOURCE_DIR) + "/corpus/examples/tpch.sql"));
  REQUIRE(diff);
  CHECK(diff->empty());
}

TEST_CASE("direct lexer: the edges of every token") {
  for (std::string text : {"",
                           " ",
                           "a",
                           "select",
                           "SELECT",
                           "Select_",
                           "_x1",
                           "selection",
                           "1",
                           "1.",
                           "1.5",
                           ".5",
                           ".",
                           "1..2",
                           "1.a",
                           "t.5",
                           "a.b",
                           "x--c\ny",
                           "--",
                           "-- c",
                           "-1",
                           "->",
                           "/**/",
                           "/* a */b",
                           "/*/ */",
                           "/",
                           "*",
                           "=",
                           "==",
                           "===",
                           "<",
                           "<=",
                           "<=>",
                           "<>",
                           "<<",
                           ">",
                           ">=",
                           ">>",
                           "!=",
                           "||",
                           "''",
                           "'a''b'",
                           "'a'\n'b'",
                           "\"\"",
                           "\"a\"\"b\"",
                           "``",
                           "`a``b`",
                           "\r\n\tx",
                           "a\rb",
                           "null NULL null_",
                           "x;y",
                           "(a,b)",
                           "%+",
                           "interval '1' day",
                           "a\n\n  b",
                           "'a\nb' c",
                           "/* a\n b */ c",
                           "\"x\ny\" z",
                           "`p\r\nq` r",
                           "SeLeCt selecT",
                           "select1",
                           "EXPR$0 $f1 $cor0.k",
                           "abcdefghijklmnopqrstuvwxyz",
                           "ORDER  BY\n\tx",
                           "x\n--c\n/*\n*/ 'q\n\n' y"}) {
    auto diff = lexerDifference(text);
    REQUIRE_MESSAGE(diff, "declined: " << text);
    CHECK_MESSAGE(diff->empty(), "'" << text << "': " << *diff);
  }
}

TEST_CASE("direct lexer: declines what RfSqlLexer reports or reads as UTF-8") {
  for (std::string text :
       {"#",           "a ! b", "a | b",   "|||",         "'open",
        "\"open",      "`open", "/* open", "caf\xc3\xa9", "bad \xff utf-8",
        "a\x01",       "a\fb",  "?",       "[x]",         "a \\ b",
        "@a",          "{",     "^",       "~",           "select a from tbl -- caf\xc3\xa9",
        "12345678\x80"})
    CHECK_MESSAGE(!lexerDifference(text), "not declined: " << text);
}

TEST_CASE("direct lexer: random texts from the grammar's pieces") {
  const std::vector<std::string> pieces = {
      "select", "FROM",  "where",   "Join", "on",  "null",     "is",  "not",  "distinct", "and",
      "or",     "case",  "when",    "then", "end", "interval", "row", "rows", "x",        "t1",
      "_a",     "a_b9",  "9",       "12",   "3.",  ".4",       "5.6", ".",    ",",        ";",
      "(",      ")",     "=",       "==",   "<",   ">",        "<=",  ">=",   "<>",       "!=",
      "<=>",    "||",    "+",       "-",    "*",   "/",        "%",   "'s'",  "'it''s'",  "\"Q\"",
      "`b`",    "--c\n", "/* k */", " ",    "  ",  "\t",       "\n",  "\r\n", "!",        "|",
      "'",      "\"",    "`",       "/*",   "é",   "#"};
  std::mt19937 rng(20261201);
  size_t lexed = 0;
  const int kTexts = 20000;
  for (int i = 0; i < kTexts; ++i) {
    std::string text;
    const int n = static_cast<int>(rng() % 12);
    for (int k = 0; k < n; ++k) text += pieces[rng() % pieces.size()];
    auto diff = lexerDifference(text);
    if (!diff) continue;
    ++lexed;
    REQUIRE_MESSAGE(diff->empty(), "'" << text << "': " << *diff);
  }
  CHECK(lexed > kTexts / 3);
}

// The direct lexer's token stream answers the parser's look-ahead and
// look-behind itself (fast_lexer.cpp: DirectTokenStream::LT). A comment with a
// character outside ASCII makes the direct lexer decline, and the same text goes
// through ANTLR's lexer and CommonTokenStream instead: both must give the same
// statements (names, texts, plans), also with hidden tokens between many others.
TEST_CASE("direct token stream: the same statements as ANTLR's stream") {
  const std::string tpch = readFile(std::string(RFGUARD_SOURCE_DIR) + "/corpus/examples/tpch.sql");
  std::string commented;
  for (char c : tpch) {
    if (c == ',') commented += " /* c */";
    if (c == '\n') commented += " -- c";
    if (c == '(') commented += "/**/";
    if (c == ';') commented += " /* after the statement's last token */";
    commented += c;
    if (c == '=') commented += " /* after a rule's last token */";
  }
  for (const std::string& text : {tpch, commented}) {
    REQUIRE(lexerDifference(text).has_value());                          // lexed directly
    REQUIRE_FALSE(lexerDifference(text + "\n-- \xc3\xa9").has_value());  // declined
    Catalog directCatalog, antlrCatalog;
    std::vector<Query> direct, antlr;
    Diagnostics directDiags, antlrDiags;
    REQUIRE(loadSql(text, "t.sql", directCatalog, direct, directDiags));
    REQUIRE(loadSql(text + "\n-- \xc3\xa9", "t.sql", antlrCatalog, antlr, antlrDiags));
    REQUIRE(direct.size() == 22);
    REQUIRE(antlr.size() == direct.size());
    for (size_t i = 0; i < direct.size(); ++i) {
      CHECK(direct[i].name == antlr[i].name);
      CHECK(direct[i].sql == antlr[i].sql);
      CHECK(direct[i].loc.line == antlr[i].loc.line);
      CHECK(planToText(*direct[i].plan) == planToText(*antlr[i].plan));
    }
  }
}
