// Is this JSON DuckDB's profile or EXPLAIN output? Decided from the top-level
// keys of the first plan object with a streaming (SAX) read that stops as soon
// as they are known: `rfguard lint` asks this of every JSON file it is given,
// and a full parse here cost a third of linting rfguard's own plan files.
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "engines/duckdb/plan_import.h"

namespace rfguard::duckdb_import {

namespace {

/// Collects the keys of the first object at the top level (or, for an array,
/// of its first element) and stops the read when that object ends.
class FirstObjectKeys : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::set<std::string> keys;
  bool complete = false;  ///< the object was read to its end
  bool object = false;    ///< the first plan value is an object

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    if (depth_ == target())
      object = true, inTarget_ = true;
    else if (depth_ < target())
      return stop();
    ++depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (inTarget_ && depth_ == target() + 1) {
      keys.insert(k);
      if (k == "format") return stop();  // rfguard's own document: decided
    }
    return true;
  }
  bool end_object() override {
    --depth_;
    if (inTarget_ && depth_ == target()) {
      complete = true;
      return stop();
    }
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth_ == 0 && !started_)
      array_ = true;
    else if (depth_ <= target())
      return stop();  // the first plan value is not an object
    started_ = true;
    ++depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    return depth_ > target() || stop();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  size_t target() const { return array_ ? 1 : 0; }
  bool value() { return depth_ > target() || stop(); }  // a scalar where the object should be
  bool stop() { return false; }
  size_t depth_ = 0;
  bool array_ = false, started_ = false, inTarget_ = false;
};

}  // namespace

bool looksLikeDuckDbJson(const std::string& text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string::npos || (text[i] != '{' && text[i] != '[')) return false;
  FirstObjectKeys sax;
  nlohmann::json::sax_parse(text, &sax);
  const auto& k = sax.keys;
  if (!sax.object || k.count("format")) return false;  // rfguard's own
  const bool duck = k.count("children") && (k.count("query_name") || k.count("operator_type") ||
                                            k.count("operator_name") || k.count("extra_info") ||
                                            k.count("cumulative_cardinality"));
  // As before, text that is not JSON at all is not DuckDB's.
  return duck && nlohmann::json::accept(text);
}

}  // namespace rfguard::duckdb_import
