#pragma once
// Internal to ir/: the plan JSON reader, split over read_json*.cpp.
#include <map>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "ir/catalog.h"
#include "ir/diagnostics.h"
#include "ir/plan.h"

namespace rfguard {

/// Reads plan JSON values; the first error (with its JSON pointer) stops it.
class JsonReader {
 public:
  using Json = nlohmann::json;
  using Scope = std::map<std::string, Column>;

  JsonReader(Catalog& c, Diagnostics& d, std::string f)
      : catalog_(c), diags_(d), file_(std::move(f)) {}
  bool failed = false;

  /// Records an error unless one was recorded already.
  void error(const std::string& ptr, const std::string& msg);
  /// Checks that `j` is an object with no keys outside `keys`.
  bool allowed(const Json& j, const std::string& ptr, const std::vector<const char*>& keys);
  /// Escapes a key for use in a JSON pointer.
  static std::string escape(const std::string& key);
  /// The field `key` of type `type`, or nullptr (with an error if required or mistyped).
  const Json* field(const Json& j, const std::string& ptr, const char* key, Json::value_t type,
                    bool required = true);
  /// The integer field `key` when it is there and not negative (an error when
  /// negative), else `dflt`.
  long long nonNegative(const Json& j, const std::string& ptr, const char* key, long long dflt);
  /// A string field.
  std::string str(const Json& j, const std::string& ptr, const char* key, bool required = true);
  /// The "type" field parsed.
  std::optional<Type> type(const Json& j, const std::string& ptr);
  /// An expression whose columns must be in `scope`.
  ExprPtr expr(const Json& j, const std::string& ptr, const Scope& scope);
  /// An array of expressions.
  std::vector<ExprPtr> exprList(const Json& j, const std::string& ptr, const char* key,
                                const Scope& scope);
  /// An array of {"name", "expr"}.
  std::vector<NamedExpr> namedList(const Json& j, const std::string& ptr, const char* key,
                                   const Scope& scope);
  /// An array of sort keys.
  std::vector<SortKey> sortKeys(const Json& j, const std::string& ptr, const char* key,
                                const Scope& scope);
  /// A window frame {"unit", "start", "end"}, checked against the window's ORDER BY.
  WindowFrame frame(const Json& j, const std::string& ptr, const std::vector<SortKey>& orderBy);
  /// A plan node; `outer` holds columns of enclosing queries (for subqueries).
  PlanPtr node(const Json& j, const std::string& ptr, const Scope& outer);
  /// The runtime_filters of a join whose children are already read.
  void readRuntimeFilters(PlanNode& n, const Json& j, const std::string& ptr);
  /// The type-specific fields of a node whose children are already read.
  void nodeFields(PlanNode& n, const Json& j, const std::string& ptr, const Scope& scope);

  /// A catalog table's "foreign_keys" and "checks" into `t` (columns already read).
  void tableConstraints(const Json& tj, const std::string& ptr, TableDef& t);
  /// Checks that each foreign key of `t` references a table of the catalog by
  /// its primary key or a UNIQUE set (after every table is read).
  void foreignKeysResolved(const TableDef& t, const std::string& ptr);
  /// Reads the runtime_filter_targets of every node read, against the whole plan's columns.
  void readTargets(const PlanNode& root);

  struct Pending {
    PlanNode* node;
    const Json* json;
    std::string ptr;
  };
  std::vector<Pending> pending_;  ///< nodes whose targets are read after the whole plan
  Catalog& catalog_;
  Diagnostics& diags_;
  std::string file_;
  std::set<int> ids_;
  std::set<std::string> aliases_;
};

}  // namespace rfguard
