#pragma once
// A column id ("alias.col"), as plan outputs carry it.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "ir/node_pool.h"

namespace rfguard {

/// Immutable text shared by its copies. A plan's outputs repeat their inputs'
/// columns at every Filter, Sort, Limit and Join, and ids are longer than a
/// std::string holds without allocating: a copy is a reference count here, not
/// an allocation (and a free when the node goes).
class ColumnId {
 public:
  ColumnId() = default;
  ColumnId(std::string s)  // NOLINT(google-explicit-constructor): ids are written as strings
      : text_(makePooled<Text>(std::move(s))) {}
  ColumnId(const char* s) : ColumnId(std::string(s)) {}  // NOLINT(google-explicit-constructor)

  const std::string& str() const { return text_ ? text_->text : none().text; }
  /// std::hash of the text, computed once when the id is made (plans index
  /// their outputs often; the ids stay the same).
  size_t hash() const { return text_ ? text_->hash : none().hash; }
  operator const std::string&() const { return str(); }  // NOLINT(google-explicit-constructor)

  size_t rfind(std::string_view s, size_t pos = std::string::npos) const {
    return str().rfind(s, pos);
  }
  std::string substr(size_t pos, size_t n = std::string::npos) const {
    return str().substr(pos, n);
  }
  std::string_view view() const { return str(); }

  friend bool operator==(const ColumnId& a, const ColumnId& b) {
    return a.text_ == b.text_ || a.str() == b.str();
  }
  friend bool operator!=(const ColumnId& a, const ColumnId& b) { return !(a == b); }
  friend bool operator==(const ColumnId& a, std::string_view b) { return a.str() == b; }
  friend bool operator!=(const ColumnId& a, std::string_view b) { return a.str() != b; }
  friend bool operator==(std::string_view a, const ColumnId& b) { return a == b.str(); }
  friend bool operator!=(std::string_view a, const ColumnId& b) { return a != b.str(); }
  friend bool operator==(const ColumnId& a, const std::string& b) { return a.str() == b; }
  friend bool operator!=(const ColumnId& a, const std::string& b) { return a.str() != b; }
  friend bool operator==(const std::string& a, const ColumnId& b) { return a == b.str(); }
  friend bool operator!=(const std::string& a, const ColumnId& b) { return a != b.str(); }
  friend bool operator==(const ColumnId& a, const char* b) { return a.str() == b; }
  friend bool operator!=(const ColumnId& a, const char* b) { return a.str() != b; }
  friend std::string operator+(std::string_view a, const ColumnId& b) {
    return std::string(a) + b.str();
  }

 private:
  struct Text {
    explicit Text(std::string s) : text(std::move(s)), hash(std::hash<std::string_view>{}(text)) {}
    std::string text;
    size_t hash;
  };
  static const Text& none() {
    static const Text none{std::string()};
    return none;
  }
  std::shared_ptr<const Text> text_;
};

}  // namespace rfguard
