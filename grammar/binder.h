#pragma once
// Internal to grammar/: turns ANTLR parse trees into IR plans.
#include <algorithm>
#include <map>
#include <memory_resource>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <type_traits>
#include <typeinfo>

#include "RfSqlParser.h"
#include "grammar/sql.h"
#include "ir/catalog.h"
#include "ir/diagnostics.h"
#include "ir/plan.h"
#include "ir/stack_arena.h"

namespace rfguard {

/// `ctx` as the labelled alternative T of its rule (`# predicated` in the
/// grammar), or nullptr. Alternatives are leaf classes, so comparing type ids
/// answers what dynamic_cast would, without walking ANTLR's context hierarchy
/// (dynamic_cast was a sixth of the binder's time). The generated parser and
/// the binder are linked into one library, where the linker keeps one copy of
/// each context class's type_info: comparing addresses is exact, and spares
/// type_info::operator=='s strcmp of mangled names on every miss.
template <typename T, typename Rule>
T* alt(Rule* ctx) {
  static_assert(std::is_base_of_v<Rule, T> && !std::is_same_v<Rule, T>,
                "alt<T> names a labelled alternative of the context's rule");
  return ctx && &typeid(*ctx) == &typeid(T) ? static_cast<T*>(ctx) : nullptr;
}

/// Operand `i` of a list rule written `first=x (ops+=... rest+=x)*` (expr,
/// valueExpr, queryExpr): a lone operand fills no vector.
template <typename Ctx>
auto operandOf(Ctx* ctx, size_t i) {
  return i == 0 ? ctx->first : ctx->rest[i - 1];
}
template <typename Ctx>
size_t operandCount(Ctx* ctx) {
  return ctx->rest.size() + 1;
}

/// A column visible under a relation alias in a FROM scope.
struct RelColumn {
  std::string name;  ///< the name SQL uses
  ColumnId id;       ///< the plan column id
  Type type;
  bool nullable = true;
};

/// A relation visible in a FROM scope.
struct RelScope {
  std::string alias;
  std::vector<RelColumn> columns;
};

/// The names visible to expressions of one query block.
struct Scope {
  std::vector<RelScope> rels;
  std::map<std::string, ExprPtr> merged;  ///< USING columns, by name
  const Scope* outer = nullptr;           ///< enclosing block, for correlated references
  /// What `SELECT *` lists once a join USING (or NATURAL) merged columns:
  /// each merged column once, first, then the others (SQL's order); empty:
  /// every column of `rels`, in order.
  std::vector<std::pair<std::string, ExprPtr>> star;
};

/// A node of `op` over `children` at `loc`; the caller fills in the rest and
/// computes its output.
inline PlanPtr planNode(PlanOp op, std::vector<PlanPtr> children, SourceLoc loc) {
  auto n = makePooled<PlanNode>();
  n->op = op;
  n->children = std::move(children);
  n->loc = loc;
  return n;
}

/// True when `e` is boolean, or of a type not known yet (a bare NULL).
inline bool isBooleanish(const Expr& e) {
  return e.type.kind == TypeKind::Boolean || e.type.kind == TypeKind::Unknown;
}

/// The columns `SELECT *` lists over `scope` (its star, else its relations' columns).
std::vector<std::pair<std::string, ExprPtr>> starItems(const Scope& scope);

/// A bound query with the names SQL uses for its output columns.
struct BoundRel {
  PlanPtr plan;
  std::vector<std::string> names;
};

/// Per-block state while binding expressions.
struct BlockState {
  bool allowAggregates = false;
  bool allowWindows = false;
  std::vector<WindowCall>* windows = nullptr;  ///< window calls met so far
  std::string windowQualifier;
};

/// A CTE visible by name.
struct CteDef {
  std::string name;
  std::vector<std::string> columns;
  rfsql::RfSqlParser::QueryContext* query = nullptr;
  bool active = false;     ///< its body is being bound: a reference now is not to it
  bool recursive = false;  ///< under WITH RECURSIVE (grammar/bind_recursive.cpp)
  int level = -1;  ///< while a step binds: the level a reference reads; -1: the whole recursion
  /// Per step being bound, the plans its references to the query read.
  std::vector<std::vector<const PlanNode*>> readings;
};

/// WITH RECURSIVE is unrolled to this many steps after its first query
/// (grammar/bind_recursive.cpp); a database that needs more is not compared.
inline constexpr int kRecursionSteps = 5;

/// The names taken in one list (a select list's, an aggregate's outputs), the
/// set's nodes in a buffer inside it while they fit: a list of a few dozen
/// names costs no allocation but long names' own.
struct LocalNames {
  StackArena<2048> arena;
  std::pmr::set<std::string> names{&arena.memory};
};

class Binder;
/// Parses a view's stored SQL and binds it with `b` (defined beside the parser).
BoundRel bindView(Binder& b, const ViewDef& view, const std::string& hint);

/// Binds one statement at a time; reports only the first error of a statement.
class Binder {
 public:
  Binder(Catalog& catalog, Diagnostics& diags, std::string file, SourceLoc offset = {});

  /// Applies CREATE TABLE to the catalog.
  void bindCreateTable(rfsql::RfSqlParser::CreateTableContext* ctx);
  /// Adds a FOREIGN KEY of `columns` to `t` (false after an error).
  bool bindForeignKey(TableDef& t,
                      const std::vector<rfsql::RfSqlParser::IdentifierContext*>& columns,
                      rfsql::RfSqlParser::ReferencesContext* ref);
  /// Adds a CHECK constraint to `t` (false after an error).
  bool bindCheck(TableDef& t, rfsql::RfSqlParser::ExprContext* check);
  /// Applies CREATE VIEW to the catalog; `sql` is the text of its query.
  void bindCreateView(rfsql::RfSqlParser::CreateViewContext* ctx, const std::string& sql,
                      SourceLoc queryLoc);
  /// Binds a top-level query; null on error.
  PlanPtr bindTopQuery(rfsql::RfSqlParser::QueryContext* ctx);
  /// True when an error was reported.
  bool failed() const { return failed_; }

  // ---- used by the bind_*.cpp parts
  BoundRel bindQuery(rfsql::RfSqlParser::QueryContext* ctx, const Scope* outer,
                     const std::string& qualifierHint);
  BoundRel bindQueryExpr(rfsql::RfSqlParser::QueryExprContext* ctx, const Scope* outer,
                         const std::string& qualifierHint,
                         rfsql::RfSqlParser::OrderByContext* orderBy,
                         rfsql::RfSqlParser::LimitClauseContext* limit);
  BoundRel bindQuerySpec(rfsql::RfSqlParser::QuerySpecContext* ctx, const Scope* outer,
                         const std::string& qualifierHint,
                         rfsql::RfSqlParser::OrderByContext* orderBy,
                         rfsql::RfSqlParser::LimitClauseContext* limit);
  /// A query spec's FROM clause: its items cross-joined (a SELECT without FROM
  /// reads one empty row), their tables added to `scope`.
  PlanPtr bindFrom(rfsql::RfSqlParser::QuerySpecContext* ctx, const Scope* outer, Scope& scope);
  /// The select list's names and expressions, stars expanded.
  using SelectItems = std::vector<std::pair<std::string, ExprPtr>>;
  SelectItems bindSelectItems(rfsql::RfSqlParser::QuerySpecContext* ctx, const Scope& scope,
                              BlockState& block);
  /// An ORDER BY key of a query spec: a select-list item, or an expression.
  struct OrderKey {
    rfsql::RfSqlParser::SortItemContext* ctx;
    int item = -1;  ///< select-list index, or -1 for an expression
    ExprPtr expr;
  };
  std::vector<OrderKey> bindOrderKeys(rfsql::RfSqlParser::OrderByContext* orderBy,
                                      const SelectItems& items, const Scope& scope,
                                      BlockState& block);
  /// The select list projected over `plan` (with the ORDER BY expressions it
  /// lacks, dropped again after sorting), DISTINCT, ORDER BY and LIMIT.
  BoundRel projectSelectList(rfsql::RfSqlParser::QuerySpecContext* ctx, PlanPtr plan,
                             const std::string& hint, const SelectItems& items,
                             const std::vector<OrderKey>& order,
                             rfsql::RfSqlParser::LimitClauseContext* limit);
  BoundRel foldSetOperations(rfsql::RfSqlParser::QueryExprContext* ctx, size_t& i, int minPrec,
                             const Scope* outer, const std::string& hint);
  BoundRel orderOverOutput(BoundRel rel, rfsql::RfSqlParser::OrderByContext* orderBy,
                           rfsql::RfSqlParser::LimitClauseContext* limit);
  PlanPtr bindGrouping(rfsql::RfSqlParser::QuerySpecContext* ctx, PlanPtr input, const Scope& scope,
                       std::vector<ExprPtr*> exprs, std::vector<WindowCall>& windows,
                       const std::vector<std::pair<std::string, ExprPtr>>& items);
  PlanPtr bindRelation(rfsql::RfSqlParser::RelationContext* ctx, Scope& scope);
  PlanPtr bindJoin(PlanPtr left, rfsql::RfSqlParser::JoinClauseContext* ctx, Scope& scope);
  PlanPtr bindRelationPrimary(rfsql::RfSqlParser::RelationPrimaryContext* ctx, Scope& scope);
  PlanPtr bindParenRelation(rfsql::RfSqlParser::ParenRelationPrimaryContext* ctx, Scope& scope);
  /// One operand of a set operation.
  BoundRel bindOperand(rfsql::RfSqlParser::QueryPrimaryContext* qp, const Scope* outer,
                       const std::string& hint);
  /// WITH RECURSIVE query `cte` unrolled (grammar/bind_recursive.cpp), and one level of it.
  BoundRel bindRecursion(size_t cte, const std::string& alias, antlr4::ParserRuleContext* at);
  BoundRel bindRecursionLevel(size_t cte, int level, antlr4::ParserRuleContext* at);
  /// LATERAL (grammar/bind_lateral.cpp): the derived table bound with `left`,
  /// the relations left of it (null: none), as an enclosing block.
  PlanPtr bindLateral(rfsql::RfSqlParser::LateralPrimaryContext* ctx, Scope& scope,
                      const Scope* left);
  /// `left` joined to `sub`, a LATERAL derived table that may read its columns.
  PlanPtr lateralJoin(PlanPtr left, PlanPtr sub, JoinType type, ExprPtr on,
                      antlr4::ParserRuleContext* at);
  PlanPtr bindTableRef(rfsql::RfSqlParser::TableRefContext* ctx, Scope& scope);
  ExprPtr bindExpr(rfsql::RfSqlParser::ExprContext* ctx, const Scope& scope, BlockState& block);
  /// An operand folded so far, with the token it starts at (its location).
  struct Folded {
    ExprPtr e;
    antlr4::Token* start;
  };
  /// Folds the terms of `ctx` from term `i` while their operators bind at
  /// least as tightly as `minPrec` (AND over OR), left to right.
  Folded foldBoolean(rfsql::RfSqlParser::ExprContext* ctx, size_t& i, int minPrec,
                     const Scope& scope, BlockState& block);
  ExprPtr bindBoolean(rfsql::RfSqlParser::BooleanTermContext* ctx, const Scope& scope,
                      BlockState& block);
  /// `x = ANY / SOME (q)` as IN, `x <> ALL (q)` as NOT IN; others refused.
  ExprPtr bindQuantified(const ExprPtr& left, rfsql::RfSqlParser::ComparisonContext* c,
                         const Scope& scope);
  /// `x IS [NOT] TRUE | FALSE | UNKNOWN` as coalesce / IS NULL.
  ExprPtr bindTruthTest(const ExprPtr& left, rfsql::RfSqlParser::IsPredicateContext* is);
  ExprPtr bindPredicate(ExprPtr left, rfsql::RfSqlParser::PredicateContext* ctx, const Scope& scope,
                        BlockState& block);
  /// The items of a row value, `(a, b)` or `ROW(a, b)`, when `ctx` is one;
  /// else none (bind_rows.cpp).
  static std::vector<rfsql::RfSqlParser::ExprContext*> rowItems(
      rfsql::RfSqlParser::PrimaryExprContext* ctx);
  /// A predicate whose left operand is a row value: comparisons of its items
  /// (=, <>, <=>, IN, NOT IN, IS [NOT] NULL), with SQL's NULL semantics.
  ExprPtr bindRowPredicate(rfsql::RfSqlParser::PredicatedContext* ctx,
                           const std::vector<rfsql::RfSqlParser::ExprContext*>& items,
                           const Scope& scope, BlockState& block);
  /// `(a, b) IN (subquery)`: TRUE when a row equals, NULL when none differs
  /// for sure, else FALSE.
  ExprPtr rowInSubquery(const std::vector<ExprPtr>& left, rfsql::RfSqlParser::QueryContext* sub,
                        const Scope& scope, SourceLoc loc);
  /// The rows of `q` when it is a VALUES list alone (no WITH, set operation,
  /// ORDER BY or LIMIT): `x IN (VALUES (1), (2))` is `x IN (1, 2)`.
  static const std::vector<rfsql::RfSqlParser::ValuesRowContext*>* bareValues(
      rfsql::RfSqlParser::QueryContext* q);
  /// Constant rows (VALUES): a Values node whose columns are `qualifier.name`
  /// for `names`, or column1, column2, ... where `names` is empty.
  BoundRel bindValuesRows(const std::vector<rfsql::RfSqlParser::ValuesRowContext*>& rows,
                          const std::string& qualifier, const std::vector<std::string>& names,
                          antlr4::ParserRuleContext* at, const Scope* outer);
  /// A value expression: a valueExpr, or the operands of a predicated term
  /// (the grammar has them inline). Defined in bind_expr.cpp, its only user.
  template <typename Ctx>
  ExprPtr bindValue(Ctx* ctx, const Scope& scope, BlockState& block);
  /// As foldBoolean, for * / % over + - over ||.
  template <typename Ctx>
  Folded foldValue(Ctx* ctx, size_t& i, int minPrec, const Scope& scope, BlockState& block);
  ExprPtr arithmetic(const std::string& op, const Folded& left, const Folded& right);
  /// `l op r` for / and %, by the dialect's rules of division (ir/dialect.h).
  ExprPtr divide(const std::string& op, ExprPtr l, ExprPtr r, SourceLoc loc);
  ExprPtr bindPrimary(rfsql::RfSqlParser::PrimaryExprContext* ctx, const Scope& scope,
                      BlockState& block);
  /// A call; `filter` is an aggregate's FILTER (WHERE ...) condition, bound.
  ExprPtr bindFunction(rfsql::RfSqlParser::PrimaryExprContext* ctx, const std::string& name,
                       std::vector<ExprPtr> args, bool distinct, bool star,
                       rfsql::RfSqlParser::OverContext* over, const Scope& scope, BlockState& block,
                       ExprPtr filter = nullptr);
  ExprPtr resolveColumn(const std::string* qualifier, const std::string& name, SourceLoc loc,
                        const Scope& scope);
  ExprPtr call(const std::string& name, std::vector<ExprPtr> args, SourceLoc loc);
  ExprPtr cast(ExprPtr e, Type t, SourceLoc loc);
  PlanPtr bindSortAndLimit(PlanPtr plan, const std::vector<SortKey>& keys,
                           rfsql::RfSqlParser::LimitClauseContext* limit);
  SortKey bindSortItem(rfsql::RfSqlParser::SortItemContext* ctx, ExprPtr e);
  /// A window frame, checked as PostgreSQL does; nothing after reporting an error.
  std::optional<WindowFrame> bindFrame(rfsql::RfSqlParser::WindowFrameContext* ctx,
                                       const std::vector<SortKey>& orderBy);

  /// Records an error unless this statement already has one.
  void error(antlr4::ParserRuleContext* ctx, const std::string& message);
  void error(antlr4::Token* tok, const std::string& message);
  void error(SourceLoc loc, const std::string& message);
  SourceLoc locOf(antlr4::ParserRuleContext* ctx) const;
  SourceLoc locOf(antlr4::Token* tok) const;
  /// An alias or qualifier not used before in this plan ("x", "x_2"...).
  std::string uniqueQualifier(const std::string& base);
  /// Gives back a qualifier from uniqueQualifier() that ended up unused.
  void releaseQualifier(const std::string& name);
  /// The identifier as SQL names it: unquoted ones lower-cased, quotes removed.
  static std::string identText(rfsql::RfSqlParser::IdentifierContext* ctx);
  /// A rule's text as ANTLR's getText() gives it for a parse tree: its tokens'
  /// texts joined, without the whitespace and comments between them. The
  /// parser builds no tree (the binder reads labelled fields): the texts come
  /// from `tokens`.
  std::string text(antlr4::ParserRuleContext* ctx) const;

  /// The statement's tokens, for text().
  antlr4::TokenStream* tokens = nullptr;

  Catalog& catalog;
  Diagnostics& diags;
  std::string file;

 private:
  friend BoundRel bindView(Binder& b, const ViewDef& view, const std::string& hint);
  SourceLoc offset_;
  bool failed_ = false;
  LocalNames qualifiers_;  ///< a statement's few dozen qualifiers cost no allocation
  /// Per base name, the suffix to try first: a query that expands a WITH query
  /// into 5,000 scans named `x` made uniqueQualifier quadratic (seconds).
  std::pmr::unordered_map<std::string, int> qualifierNext_{&qualifiers_.arena.memory};
  std::vector<CteDef> ctes_;

 public:
  std::vector<CteDef>& ctes() { return ctes_; }
  int viewDepth = 0;
  int cteDepth = 0;                    ///< WITH queries being bound, one inside another
  size_t relations = 0;                ///< table references bound in this statement
  SqlLimits limits;                    ///< maxRelations and maxCteDepth are read here
  Dialect dialect = Dialect::Default;  ///< where engines read SQL differently (ir/dialect.h)
  /// The comma items of FROM left of the one being bound, which a LATERAL
  /// first in it reads (bindFrom sets it, the first relation takes it).
  const Scope* lateralLeft = nullptr;
};

/// An integer literal used as a select-list position (ORDER BY 2, GROUP BY 1):
/// its value, 0 when it has more digits than any select list has items;
/// nullopt when `text` is not all digits.
std::optional<size_t> positionLiteral(const std::string& text);

/// Makes the name unique among `taken` by appending _2, _3..., trying suffixes
/// from `from` (2 when less) and leaving it past the one taken. Valid while
/// names are only added to `taken`: the suffixes below `from` stay taken (reset
/// `from` when a name is removed).
template <class Set>
std::string uniqueName(const std::string& base, Set& taken, int& from) {
  if (taken.insert(base).second) return base;  // the usual case: one search
  int i = std::max(from, 2);
  std::string name = base + "_" + std::to_string(i);
  while (!taken.insert(name).second) name = base + "_" + std::to_string(++i);
  from = i + 1;
  return name;
}
/// The same from _2.
inline std::string uniqueName(const std::string& base, LocalNames& taken) {
  int from = 2;
  return uniqueName(base, taken.names, from);
}

}  // namespace rfguard
