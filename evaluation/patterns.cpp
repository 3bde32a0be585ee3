#include "evaluation/patterns.h"

#include <re2/re2.h>

#include <map>
#include <memory>
#include <tuple>

namespace rfguard::rt {

namespace {

/// The RE2 pattern of a LIKE or SIMILAR TO pattern; nullopt with `error` when malformed.
std::optional<std::string> translate(PatternKind kind, const std::string& p, const std::string* esc,
                                     std::string* error) {
  if (esc && esc->size() != 1) {
    *error = "ESCAPE takes one character, got '" + *esc + "'";
    return std::nullopt;
  }
  const bool similar = kind == PatternKind::SimilarTo;
  std::string out;
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (esc && c == (*esc)[0]) {
      if (i + 1 == p.size()) {
        *error = "the pattern ends with its ESCAPE character";
        return std::nullopt;
      }
      out += RE2::QuoteMeta(p.substr(++i, 1));
    } else if (c == '%') {
      out += ".*";
    } else if (c == '_') {
      out += ".";
    } else if (similar && std::string("|*+?{}()[]").find(c) != std::string::npos) {
      out += c;  // SIMILAR TO's regular-expression operators
    } else {
      // One UTF-8 character at a time, so that a multi-byte character stays whole.
      size_t n = 1;
      while (i + n < p.size() && (static_cast<unsigned char>(p[i + n]) & 0xC0) == 0x80) ++n;
      out += RE2::QuoteMeta(p.substr(i, n));
      i += n - 1;
    }
  }
  return out;
}

/// Compiled patterns, kept across the many databases a search evaluates.
const RE2* compiled(PatternKind kind, const std::string& pattern, const std::string* escape,
                    std::string* error) {
  using Key = std::tuple<int, std::string, std::string, bool>;
  thread_local std::map<Key, std::unique_ptr<RE2>> cache;
  Key key{static_cast<int>(kind), pattern, escape ? *escape : "", escape != nullptr};
  if (auto it = cache.find(key); it != cache.end()) return it->second.get();
  std::string re = pattern;
  if (kind != PatternKind::RegexMatch) {
    auto t = translate(kind, pattern, escape, error);
    if (!t) return nullptr;
    re = *t;
  }
  RE2::Options o;
  o.set_log_errors(false);
  o.set_dot_nl(kind != PatternKind::RegexMatch);  // % and _ match line breaks too
  o.set_case_sensitive(kind != PatternKind::ILike);
  auto r = std::make_unique<RE2>(re, o);
  if (!r->ok()) {
    *error = "bad regular expression '" + pattern + "': " + r->error();
    return nullptr;
  }
  if (cache.size() >= 4096) cache.clear();
  return (cache[key] = std::move(r)).get();
}

}  // namespace

std::optional<bool> matchPattern(PatternKind kind, const std::string& s, const std::string& pattern,
                                 const std::string* escape, std::string* error) {
  const RE2* re = compiled(kind, pattern, escape, error);
  if (!re) return std::nullopt;
  if (kind == PatternKind::RegexMatch) return RE2::PartialMatch(s, *re);
  return RE2::FullMatch(s, *re);
}

}  // namespace rfguard::rt
