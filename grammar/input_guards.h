#pragma once
// What is checked of a text before and after ANTLR parses it: valid UTF-8,
// and nesting the recursive-descent parser and the binder can recurse through.
#include <antlr4-runtime.h>

#include <cstddef>
#include <string>

#include "ir/diagnostics.h"

namespace rfguard {

/// The byte offset of the first invalid UTF-8 sequence (ir/diagnostics.h), or npos.
size_t invalidUtf8(const std::string& s);

/// The line and column (in code points) of byte `offset` of `s`.
SourceLoc locAtOffset(const std::string& s, size_t offset);

/// Rejects nesting that would exhaust the recursive-descent parser's stack;
/// `where` is the token that nests too deep. `direct`: the stream is a
/// directTokenStream() (grammar/fast_lexer.h).
bool checkNesting(antlr4::CommonTokenStream& tokens, bool direct, int limit, SourceLoc& where);

/// Rejects a tree deeper than `limit` for the binder to recurse into: the
/// parser measured each rule's height as it exited (RfSql.g4's exitRule).
bool checkDepth(antlr4::ParserRuleContext* root, int limit, SourceLoc& where);

}  // namespace rfguard
