// CREATE TABLE and CREATE VIEW.
#include "grammar/binder.h"
#include "grammar/literals.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

namespace {

bool setOption(TableDef& t, const std::string& key, P::LiteralContext* value, Binder& b) {
  std::string text = b.text(value);
  // The literal is one token, or MINUS INTEGER_VALUE.
  const size_t first = value->getStart()->getType();
  const bool natural = first == P::INTEGER_VALUE;
  if (key == "rows") {
    if (!natural || text.size() > 18) {
      b.error(value, "rows must be a non-negative integer");
      return false;
    }
    t.rows = std::stoll(text);
    return true;
  }
  if (key == "runtime_filter") {
    if (first != P::TRUE && first != P::FALSE) {
      b.error(value, "runtime_filter must be true or false");
      return false;
    }
    t.runtimeFilter = first == P::TRUE;
    return true;
  }
  if (key == "distribution_key") {
    std::string col = first == P::STRING ? unquote(text, '\'')
                      : value->name      ? Binder::identText(value->name)
                                         : "";
    if (col.empty() || t.columnIndex(col) < 0) {
      b.error(value, "distribution_key must name a column of " + t.name);
      return false;
    }
    t.distributionKey = col;
    return true;
  }
  if (key.rfind("ndv_", 0) == 0) {
    int col = t.columnIndex(key.substr(4));
    if (col < 0) {
      b.error(value, key + ": " + t.name + " has no column " + key.substr(4));
      return false;
    }
    if (!natural || text.size() > 18) {
      b.error(value, key + " must be a non-negative integer");
      return false;
    }
    t.columns[col].ndv = std::stoll(text);
    return true;
  }
  b.error(value->getStart(),
          "unknown table option " + key +
              " (expected rows, runtime_filter, distribution_key or ndv_<column>)");
  return false;
}

}  // namespace

bool Binder::bindForeignKey(TableDef& t, const std::vector<P::IdentifierContext*>& columns,
                            P::ReferencesContext* ref) {
  ForeignKey fk;
  for (auto* id : columns) {
    if (t.columnIndex(identText(id)) < 0)
      return error(id, "foreign key column " + identText(id) + " is not defined"), false;
    fk.columns.push_back(identText(id));
  }
  fk.refTable = identText(ref->table);
  // A table may reference itself (a manager's id among the employees').
  const TableDef* parent = fk.refTable == t.name ? &t : catalog.table(fk.refTable);
  if (!parent)
    return error(ref->table, "referenced table " + fk.refTable + " is not defined"), false;
  const std::vector<std::string> pk = parent->primaryKeyColumns();
  if (ref->columns.empty()) {
    if (pk.empty())
      return error(ref->table, fk.refTable + " has no primary key: name the referenced columns"),
             false;
    fk.refColumns = pk;
  }
  for (auto* id : ref->columns) {
    if (parent->columnIndex(identText(id)) < 0)
      return error(id, fk.refTable + " has no column " + identText(id)), false;
    fk.refColumns.push_back(identText(id));
  }
  if (fk.refColumns.size() != fk.columns.size())
    return error(ref, "the foreign key has " + std::to_string(fk.columns.size()) +
                          " columns but references " + std::to_string(fk.refColumns.size())),
           false;
  // As SQL requires: the referenced columns are a key, so a row references one row.
  if (!parent->isKey(fk.refColumns))
    return error(ref, "the referenced columns of " + fk.refTable +
                          " are not its primary key or a UNIQUE set"),
           false;
  for (size_t i = 0; i < fk.columns.size(); ++i) {
    const Type& a = t.columns[static_cast<size_t>(t.columnIndex(fk.columns[i]))].type;
    const Type& b =
        parent->columns[static_cast<size_t>(parent->columnIndex(fk.refColumns[i]))].type;
    if (a.isString() != b.isString() || a.isNumeric() != b.isNumeric())
      return error(ref, "foreign key column " + fk.columns[i] + " (" + a.toString() +
                            ") cannot reference " + fk.refTable + "." + fk.refColumns[i] + " (" +
                            b.toString() + ")"),
             false;
  }
  t.foreignKeys.push_back(std::move(fk));
  return true;
}

bool Binder::bindCheck(TableDef& t, P::ExprContext* check) {
  // The table's columns under its own name; a column's id is its bare name.
  Scope scope;
  RelScope rel{t.name, {}};
  for (const auto& c : t.columns)
    rel.columns.push_back({c.name, ColumnId(c.name), c.type, c.nullable});
  scope.rels.push_back(std::move(rel));
  BlockState block;  // no aggregates, no windows
  ExprPtr e = bindExpr(check, scope, block);
  if (failed()) return false;
  if (hasSubquery(*e)) return error(check, "a CHECK constraint cannot hold a subquery"), false;
  if (!isDeterministic(*e)) return error(check, "a CHECK constraint must be deterministic"), false;
  if (e->type.kind != TypeKind::Boolean && !(e->kind == ExprKind::Literal && e->isNull))
    return error(check, "a CHECK constraint is a condition, not " + e->type.toString()), false;
  t.checks.push_back(std::move(e));
  return true;
}

void Binder::bindCreateTable(P::CreateTableContext* ctx) {
  TableDef t;
  // Bound once every column is known: a constraint may name a later column.
  std::vector<std::pair<std::vector<P::IdentifierContext*>, P::ReferencesContext*>> refs;
  std::vector<P::ExprContext*> checks;
  t.name = identText(ctx->name);
  t.loc = locOf(ctx);
  for (auto* el : ctx->elements) {
    if (auto* cd = el->column) {
      ColumnDef c;
      c.name = identText(cd->name);
      if (t.columnIndex(c.name) >= 0) return error(cd, "column " + c.name + " is defined twice");
      auto type = parseType(typeText(cd->type));
      if (!type) return error(cd->type, "unknown type " + text(cd->type));
      c.type = *type;
      for (auto* k : cd->constraints) {
        if (alt<P::NotNullConstraintContext>(k)) c.nullable = false;
        if (alt<P::PrimaryKeyConstraintContext>(k)) c.primaryKey = true, c.nullable = false;
        if (alt<P::UniqueConstraintContext>(k)) t.uniqueKeys.push_back({c.name});
        if (auto* r = alt<P::ReferencesConstraintContext>(k)) refs.push_back({{cd->name}, r->ref});
        if (auto* ch = alt<P::CheckConstraintContext>(k)) checks.push_back(ch->check);
      }
      t.columns.push_back(c);
      continue;
    }
    if (el->ref) {
      refs.push_back({el->fk, el->ref});
      continue;
    }
    if (el->check) {
      checks.push_back(el->check);
      continue;
    }
    if (!el->unique.empty()) {
      std::vector<std::string> key;
      for (auto* id : el->unique) {
        if (t.columnIndex(identText(id)) < 0)
          return error(id, "unique column " + identText(id) + " is not defined");
        key.push_back(identText(id));
      }
      t.uniqueKeys.push_back(std::move(key));
      continue;
    }
    for (auto* id : el->keys) {
      int i = t.columnIndex(identText(id));
      if (i < 0) return error(id, "primary key column " + identText(id) + " is not defined");
      t.columns[i].primaryKey = true;
      t.columns[i].nullable = false;
    }
  }
  for (auto* opt : ctx->opts)
    if (!setOption(t, identText(opt->key), opt->value, *this)) return;
  if (catalog.table(t.name) || catalog.view(t.name))
    return error(ctx->name, "relation " + t.name + " already exists");
  for (const auto& [columns, ref] : refs)
    if (!bindForeignKey(t, columns, ref)) return;
  for (auto* check : checks)
    if (!bindCheck(t, check)) return;
  catalog.addTable(std::move(t));
}

void Binder::bindCreateView(P::CreateViewContext* ctx, const std::string& sql, SourceLoc queryLoc) {
  ViewDef v;
  v.name = identText(ctx->name);
  for (auto* id : ctx->columns) v.columnNames.push_back(identText(id));
  v.sql = sql;
  v.file = file;
  v.loc = queryLoc;
  if (catalog.table(v.name) || catalog.view(v.name))
    return error(ctx->name, "relation " + v.name + " already exists");
  // Bind the body once now so that its errors point at the definition.
  BoundRel body = bindQuery(ctx->body, nullptr, v.name);
  if (failed()) return;
  if (!v.columnNames.empty() && v.columnNames.size() != body.plan->output.size())
    return error(ctx->name, "view " + v.name + " names " + std::to_string(v.columnNames.size()) +
                                " columns but its query returns " +
                                std::to_string(body.plan->output.size()));
  catalog.addView(std::move(v));
}

}  // namespace rfguard
