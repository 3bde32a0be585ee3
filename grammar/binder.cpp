// Binder basics: errors with locations, identifiers, unique qualifiers.
#include "grammar/binder.h"

#include <algorithm>
#include <cassert>
#include <cctype>

#include "grammar/literals.h"
#include "ir/ascii.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

Binder::Binder(Catalog& c, Diagnostics& d, std::string f, SourceLoc offset)
    : catalog(c), diags(d), file(std::move(f)), offset_(offset) {}

SourceLoc Binder::locOf(antlr4::Token* tok) const {
  SourceLoc loc{static_cast<int>(tok->getLine()),
                static_cast<int>(tok->getCharPositionInLine()) + 1};
  if (offset_.line > 0) {
    if (loc.line == 1) loc.col += offset_.col - 1;
    loc.line += offset_.line - 1;
  }
  return loc;
}

SourceLoc Binder::locOf(antlr4::ParserRuleContext* ctx) const {
  return locOf(ctx->getStart());
}

void Binder::error(SourceLoc loc, const std::string& message) {
  if (failed_) return;  // one error per statement: later ones are usually consequences
  failed_ = true;
  diags.error(file, loc, message);
}

void Binder::error(antlr4::ParserRuleContext* ctx, const std::string& message) {
  error(locOf(ctx), message);
}

void Binder::error(antlr4::Token* tok, const std::string& message) {
  error(locOf(tok), message);
}

std::optional<size_t> positionLiteral(const std::string& text) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), ::isdigit)) return std::nullopt;
  return text.size() > 6 ? 0 : std::stoul(text);
}

std::string Binder::text(antlr4::ParserRuleContext* ctx) const {
  antlr4::Token* start = ctx->getStart();
  antlr4::Token* stop = ctx->getStop();
  if (start == stop) return start->getText();
  std::string out;
  // An empty rule stops at the token before its start: no text.
  if (!stop || stop->getTokenIndex() < start->getTokenIndex()) return out;
  assert(tokens && "text() of a rule longer than a token needs the statement's tokens");
  for (size_t i = start->getTokenIndex(); i <= stop->getTokenIndex(); ++i) {
    antlr4::Token* t = tokens->get(i);
    if (t->getChannel() == antlr4::Token::DEFAULT_CHANNEL && t->getType() != antlr4::Token::EOF)
      out += t->getText();
  }
  return out;
}

std::string Binder::identText(P::IdentifierContext* ctx) {
  // The rule is one token: its type says how it was quoted.
  std::string text = ctx->getStart()->getText();
  size_t type = ctx->getStart()->getType();
  if (type == P::QUOTED_IDENTIFIER) return unquote(text, '"');
  if (type == P::BACKQUOTED_IDENTIFIER) return unquote(text, '`');
  asciiLowerInPlace(text);
  return text;
}

std::string Binder::uniqueQualifier(const std::string& base) {
  return uniqueName(base, qualifiers_.names, qualifierNext_[base]);
}

void Binder::releaseQualifier(const std::string& name) {
  qualifiers_.names.erase(name);
  // `name` is some base's `base_i`: that base's search must start at i again.
  for (size_t p = name.find('_'); p != std::string::npos; p = name.find('_', p + 1)) {
    const std::string digits = name.substr(p + 1);
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      continue;
    auto hint = qualifierNext_.find(name.substr(0, p));
    if (hint != qualifierNext_.end()) hint->second = std::min(hint->second, std::stoi(digits));
  }
}

PlanPtr Binder::bindTopQuery(P::QueryContext* ctx) {
  qualifiers_.names.clear();
  qualifierNext_.clear();
  BoundRel rel = bindQuery(ctx, nullptr, "q");
  if (failed_) return nullptr;
  // Every node computed its output as it was made, over finished inputs.
  assert(outputsFresh(*rel.plan) && "the binder computes outputs as it builds");
  assignIds(*rel.plan);
  return rel.plan;
}

}  // namespace rfguard
