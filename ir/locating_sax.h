#pragma once
// Internal to ir/: the SAX handler that reads plan JSON into a DOM, remembering
// where a syntax error happened and refusing nesting that the recursive reader,
// verifier and printers could not take.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rfguard {

/// Plan JSON nested deeper than this is refused before it is read: the reader,
/// the verifier and the printers recurse over plans and expressions (a plan
/// node takes two levels, an object and its "children" array).
inline constexpr size_t kMaxJsonDepth = 2048;
/// A plan JSON document's text, at most (its DOM takes several times as much).
inline constexpr size_t kMaxJsonBytes = size_t{256} << 20;

/// The DOM parser, but remembering where a syntax error happened and refusing
/// nesting deeper than kMaxJsonDepth (with the JSON pointer of the value).
struct LocatingSax : nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
  using Json = nlohmann::json;
  using Base = nlohmann::detail::json_sax_dom_parser<Json>;
  explicit LocatingSax(Json& j) : Base(j, false) {}
  size_t errorPos = 0;
  std::string errorText;
  std::string errorPointer;  ///< where the refused value would have gone
  std::string tooDeep;       ///< the pointer of the first value nested too deep

  /// One open object or array: its key so far, or the index of its next element.
  struct Level {
    bool array = false;
    size_t index = 0;
    std::string key;
    bool keyed = false;  ///< an object's key read, its value not begun
  };
  std::vector<Level> path;

  /// A value begins: an array's element index advances.
  void value() {
    if (!path.empty() && path.back().array) ++path.back().index;
    if (!path.empty()) path.back().keyed = false;
  }
  /// The pointer of the value being read, whose level has begun (`value()`).
  std::string pointer() const { return pointerOf(path.size()); }
  /// The pointer of the first `levels` open levels' current values.
  std::string pointerOf(size_t levels) const {
    std::string p;
    for (size_t i = 0; i < levels; ++i)
      p += "/" + (path[i].array ? std::to_string(path[i].index - 1) : escapePointer(path[i].key));
    return p;
  }
  bool open(bool array) {
    value();
    if (path.size() >= kMaxJsonDepth) {
      tooDeep = pointer();
      return false;
    }
    path.push_back({array, 0, {}});
    return true;
  }
  static std::string escapePointer(const std::string& k) {
    std::string out;
    for (char c : k) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return out;
  }

  bool null() { return value(), Base::null(); }
  bool boolean(bool v) { return value(), Base::boolean(v); }
  bool number_integer(Json::number_integer_t v) { return value(), Base::number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return value(), Base::number_unsigned(v); }
  bool number_float(Json::number_float_t v, const std::string& s) {
    return value(), Base::number_float(v, s);
  }
  bool string(std::string& v) { return value(), Base::string(v); }
  bool binary(Json::binary_t& v) { return value(), Base::binary(v); }
  bool start_object(std::size_t n) { return open(false) && Base::start_object(n); }
  bool start_array(std::size_t n) { return open(true) && Base::start_array(n); }
  bool key(std::string& k) {
    path.back().key = k;
    path.back().keyed = true;
    return Base::key(k);
  }
  bool end_object() {
    path.pop_back();
    return Base::end_object();
  }
  bool end_array() {
    path.pop_back();
    return Base::end_array();
  }
  bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception& ex) {
    // Where the refused value would have gone: the innermost array's next
    // element (not begun, so its index has not advanced), the value of the
    // key just read, or the object itself once its last value was complete.
    errorPointer = path.empty() ? "" : pointerOf(path.size() - 1);
    if (!path.empty()) {
      const Level& l = path.back();
      if (l.array)
        errorPointer += "/" + std::to_string(l.index);
      else if (l.keyed)
        errorPointer += "/" + escapePointer(l.key);
    }
    errorPos = pos;
    errorText = ex.what();
    return false;
  }
};

}  // namespace rfguard
