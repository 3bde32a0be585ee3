#pragma once
// A direct lexer for the common case of RfSql text, producing the very tokens
// the ANTLR-generated RfSqlLexer would (types, text, channels, offsets, lines
// and columns). ANTLR 4.9's C++ lexer costs about 4,000 instructions per token
// (a lock per DFA edge, UTF-32 text, a token factory); this one a few dozen.
//
// It declines, and the caller lexes with RfSqlLexer, whenever the text leaves
// the plain path: a byte outside ASCII, a character no token starts with (the
// grammar's UNRECOGNIZED), an unterminated string, quoted identifier or block
// comment. Keywords come from the grammar itself (generated rfsql_keywords.inc).
// tests/unit/fast_lexer_test.cpp and the fuzz_sql target compare the two.
#include <antlr4-runtime.h>

#include <memory>
#include <string>
#include <vector>

namespace rfguard {

/// The tokens of `text` as a token source for a CommonTokenStream, each token
/// attributed to it and to `input` (the ANTLRInputStream over the same text);
/// nullptr to decline. The tokens' texts are views of `text`: it outlives them.
std::unique_ptr<antlr4::TokenSource> fastLex(const std::string& text, antlr4::CharStream* input);

/// A token stream over fastLex()'s tokens: the same as a CommonTokenStream,
/// without its dynamic_cast per fetched token (the tokens are CommonTokens).
/// `direct` must come from fastLex() and outlive the stream.
std::unique_ptr<antlr4::CommonTokenStream> directTokenStream(antlr4::TokenSource* direct);

/// Visits the tokens of a stream from directTokenStream(), every one fetched,
/// in order (EOF last): `visit(context, type, channel)` until it returns
/// false. The token it returned false on, or null. No virtual call per token.
antlr4::Token* visitDirectTokens(antlr4::CommonTokenStream& stream,
                                 bool (*visit)(void* context, size_t type, size_t channel),
                                 void* context);

}  // namespace rfguard
