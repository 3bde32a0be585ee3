// Binder basics: errors with locations, identifiers, unique qualifiers.
#include "grammar/binder.h"
#include <algorithm>

#include <cctype>

#include "grammar/literals.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

std::string uniqueName(const std::string& base, std::set<std::string>& taken) {
  std::string name = base;
  for (int i = 2; taken.count(name); ++i) name = base + "_" + std::to_string(i);
  taken.insert(name);
  return name;
}

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

std::string ruleText(antlr4::ParserRuleContext* ctx) {
  antlr4::Token* start = ctx->getStart();
  return start && start == ctx->getStop() ? start->getText() : ctx->getText();
}

std::string Binder::identText(P::IdentifierContext* ctx) {
  std::string text = ruleText(ctx);
  // The rule is one token: its type says how it was quoted.
  size_t type = ctx->getStart()->getType();
  if (type == P::QUOTED_IDENTIFIER) return unquote(text, '"');
  if (type == P::BACKQUOTED_IDENTIFIER) return unquote(text, '`');
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string Binder::uniqueQualifier(const std::string& base) {
  return uniqueName(base, qualifiers_);
}

PlanPtr Binder::bindTopQuery(P::QueryContext* ctx) {
  qualifiers_.clear();
  BoundRel rel = bindQuery(ctx, nullptr, "q");
  if (failed_) return nullptr;
  refreshOutputs(*rel.plan);
  assignIds(*rel.plan);
  return rel.plan;
}

}  // namespace rfguard
