#pragma once
// rfguard's public C++ API, for optimizers that call it in-process.
//
//   auto plans = rfguard::api::Plans::fromSql(text, "q.sql", &errors);
//   plans->normalize();
//   plans->planRuntimeFilters(rfguard::api::Profile::Sound);
//   for (const auto& f : plans->verify()) ...
//   std::string json = plans->render(rfguard::api::Format::Json);
//
// Only standard-library types cross this boundary, and nothing here throws:
// bad input gives std::nullopt and located error messages.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#if defined(RFGUARD_BUILDING_LIBRARY)
#define RFGUARD_API __attribute__((visibility("default")))
#else
#define RFGUARD_API
#endif

namespace rfguard::api {

/// The placement policy: the sound rules, or what an engine does (gaps included).
enum class Profile { Sound, Doris, StarRocks, Trino };

/// Output formats of Plans::render.
enum class Format { Text, Json, Dot };

/// One verifier finding (codes: docs/findings.md).
struct VerifierFinding {
  std::string query;     ///< the query's name
  std::string code;      ///< stable, kebab-case, e.g. "unsafe-null-generating-side"
  std::string severity;  ///< "error" or "warning"
  std::string message;
  int filter = 0;          ///< the runtime filter's id
  std::vector<int> nodes;  ///< plan node ids: producer, consumer, culprit
  int line = 0;            ///< SQL position of the node, 0 when unknown
  int column = 0;
};

/// A catalog and its bound queries, loaded from SQL or plan JSON. Copies share
/// their plans; clone() makes an independent one.
class RFGUARD_API Plans {
 public:
  /// Loads a SQL script (CREATE TABLE / VIEW and queries). On bad input returns
  /// nullopt and appends "file:line:col: error: ..." lines to `errors` (if given).
  static std::optional<Plans> fromSql(const std::string& text, const std::string& file,
                                      std::vector<std::string>* errors = nullptr);
  /// Loads a plan JSON document (docs/plan-json.md), with any placement it carries.
  /// On bad input returns nullopt and appends "file: error at /pointer: ..." lines.
  static std::optional<Plans> fromJson(const std::string& text, const std::string& file,
                                       std::vector<std::string>* errors = nullptr);

  /// An independent deep copy (to compare placements of several profiles).
  Plans clone() const;
  /// Number of queries.
  size_t size() const;
  /// The name of query `i`.
  std::string name(size_t i) const;

  /// Normalises every plan (decorrelation, predicate pushdown, outer-join
  /// simplification...). Plans from SQL need this before planning filters.
  void normalize();
  /// Replaces every plan's runtime filters with the profile's placement; returns
  /// the number of consumers placed over all queries.
  size_t planRuntimeFilters(Profile profile = Profile::Sound, bool composite = false);
  /// Verifies every plan's placement: closure and safety. Empty when all is safe.
  std::vector<VerifierFinding> verify() const;
  /// Every plan as text, one plan JSON document, or Graphviz DOT.
  std::string render(Format format = Format::Text) const;

 private:
  struct Impl;
  explicit Plans(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;
};

/// The library's version, e.g. "0.1.0".
RFGUARD_API const char* version();

}  // namespace rfguard::api
