// CREATE TABLE and CREATE VIEW.
#include "grammar/binder.h"
#include "grammar/literals.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

namespace {

bool setOption(TableDef& t, const std::string& key, P::LiteralContext* value, Binder& b) {
  std::string text = value->getText();
  if (key == "rows") {
    if (!value->INTEGER_VALUE() || value->MINUS() || text.size() > 18) {
      b.error(value, "rows must be a non-negative integer");
      return false;
    }
    t.rows = std::stoll(text);
    return true;
  }
  if (key == "runtime_filter") {
    if (!value->TRUE() && !value->FALSE()) {
      b.error(value, "runtime_filter must be true or false");
      return false;
    }
    t.runtimeFilter = value->TRUE() != nullptr;
    return true;
  }
  if (key == "distribution_key") {
    std::string col = value->STRING()       ? unquote(text, '\'')
                      : value->identifier() ? Binder::identText(value->identifier())
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
    if (!value->INTEGER_VALUE() || value->MINUS() || text.size() > 18) {
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

void Binder::bindCreateTable(P::CreateTableContext* ctx) {
  TableDef t;
  t.name = identText(ctx->name);
  t.loc = locOf(ctx);
  for (auto* el : ctx->tableElement()) {
    if (auto* cd = el->columnDef()) {
      ColumnDef c;
      c.name = identText(cd->identifier());
      if (t.columnIndex(c.name) >= 0) return error(cd, "column " + c.name + " is defined twice");
      auto type = parseType(typeText(cd->typeName()));
      if (!type) return error(cd->typeName(), "unknown type " + cd->typeName()->getText());
      c.type = *type;
      for (auto* k : cd->columnConstraint()) {
        if (alt<P::NotNullConstraintContext>(k)) c.nullable = false;
        if (alt<P::PrimaryKeyConstraintContext>(k)) c.primaryKey = true, c.nullable = false;
      }
      t.columns.push_back(c);
      continue;
    }
    for (auto* id : el->identifier()) {
      int i = t.columnIndex(identText(id));
      if (i < 0) return error(id, "primary key column " + identText(id) + " is not defined");
      t.columns[i].primaryKey = true;
      t.columns[i].nullable = false;
    }
  }
  for (auto* opt : ctx->tableOption())
    if (!setOption(t, identText(opt->identifier()), opt->literal(), *this)) return;
  if (catalog.table(t.name) || catalog.view(t.name))
    return error(ctx->name, "relation " + t.name + " already exists");
  catalog.addTable(std::move(t));
}

void Binder::bindCreateView(P::CreateViewContext* ctx, const std::string& sql, SourceLoc queryLoc) {
  auto ids = ctx->identifier();
  ViewDef v;
  v.name = identText(ids[0]);
  for (size_t i = 1; i < ids.size(); ++i) v.columnNames.push_back(identText(ids[i]));
  v.sql = sql;
  v.file = file;
  v.loc = queryLoc;
  if (catalog.table(v.name) || catalog.view(v.name))
    return error(ids[0], "relation " + v.name + " already exists");
  // Bind the body once now so that its errors point at the definition.
  BoundRel body = bindQuery(ctx->query(), nullptr, v.name);
  if (failed()) return;
  if (!v.columnNames.empty() && v.columnNames.size() != body.plan->output.size())
    return error(ids[0], "view " + v.name + " names " + std::to_string(v.columnNames.size()) +
                             " columns but its query returns " +
                             std::to_string(body.plan->output.size()));
  catalog.addView(std::move(v));
}

}  // namespace rfguard
