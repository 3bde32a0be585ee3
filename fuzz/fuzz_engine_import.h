#pragma once
// Shared by the engine-plan fuzz targets (fuzz_doris_import,
// fuzz_starrocks_import, fuzz_trino_import): an engine's plan text -> import -> verify -> lint
// in every output format. Every error names the file and a line; whatever
// imports reads back as plan JSON and verifies without a crash, whatever the
// text holds.
#include <cstdint>
#include <sstream>

#include "engines/adapter.h"
#include "fuzz/fuzz_util.h"
#include "grammar/sql.h"
#include "pipeline/session.h"
#include "tools/cli/lint.h"

namespace rfguard::fuzz {

/// The catalog of `ddl`'s CREATE TABLE statements.
inline Catalog catalogOf(const char* ddl) {
  Catalog c;
  std::vector<Query> none;
  Diagnostics d;
  loadSql(ddl, "schema.sql", c, none, d);
  return c;
}

/// TPC-H's tables (the columns the seeds read), so that scans and conditions resolve.
inline const Catalog& tpchSchema() {
  static const Catalog schema = catalogOf(
      "CREATE TABLE nation (n_nationkey int, n_name varchar(25), n_regionkey int);"
      "CREATE TABLE region (r_regionkey int, r_name varchar(25));"
      "CREATE TABLE supplier (s_suppkey int, s_name varchar(25), s_address varchar(40), "
      "s_nationkey int, s_comment varchar(101));"
      "CREATE TABLE customer (c_custkey int, c_phone varchar(15), c_acctbal decimal(15,2));"
      "CREATE TABLE part (p_partkey int, p_name varchar(55));"
      "CREATE TABLE partsupp (ps_partkey int, ps_suppkey int, ps_availqty int);"
      "CREATE TABLE lineitem (l_orderkey int, l_partkey int, l_suppkey int, "
      "l_quantity decimal(15,2), l_shipdate date, l_commitdate date, l_receiptdate date);"
      "CREATE TABLE orders (o_orderkey int, o_custkey int, o_orderdate date, "
      "o_orderstatus varchar(1));");
  return schema;
}

/// TPC-H as Trino's TPC-H connector names its columns (no table prefix).
inline const Catalog& trinoTpchSchema() {
  static const Catalog schema = catalogOf(
      "CREATE TABLE nation (nationkey bigint, name varchar(25), regionkey bigint);"
      "CREATE TABLE region (regionkey bigint, name varchar(25));"
      "CREATE TABLE supplier (suppkey bigint, name varchar(25), nationkey bigint);"
      "CREATE TABLE customer (custkey bigint, nationkey bigint, acctbal double);"
      "CREATE TABLE part (partkey bigint, name varchar(55));"
      "CREATE TABLE partsupp (partkey bigint, suppkey bigint, availqty int);"
      "CREATE TABLE lineitem (orderkey bigint, partkey bigint, suppkey bigint, "
      "quantity double, shipdate date);"
      "CREATE TABLE orders (orderkey bigint, custkey bigint, orderdate date);");
  return schema;
}

/// The body of an engine-plan fuzz target for `adapter`, its inputs written
/// as files with extension `ext` for lint, read over `schema`.
inline int fuzzEngineImport(const uint8_t* data, size_t size, const engine::Adapter& adapter,
                            const char* ext, const Catalog& schema = tpchSchema()) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const std::string name = std::string("fuzz") + ext;
  SessionOptions so;
  so.schema = schema;
  Session session(so);
  Diagnostics diags;
  bool ok = session.loadEngine(text, name, adapter, diags);
  const std::string errors = diags.render();
  require(ok || !errors.empty(), "an import failure without an error", text);
  requireLocatedErrors(errors, name);
  session.run();
  for (const auto& q : session.queries()) {
    require(q.imported != nullptr, "an imported query without its import record", "");
    for (const auto& f : session.verify(q)) session.siteOf(q, f);
  }
  std::string path = writeInput(data, size, ext);
  for (const char* format : {"text", "json", "sarif"}) {
    LintArgs args;
    args.files = {path};
    args.format = format;
    args.input.from = adapter.name();
    std::ostringstream out, err;
    int rc = runLint(args, out, err);
    require(rc >= 0 && rc <= 2, "lint exit code outside 0..2", err.str());
  }
  return 0;
}

}  // namespace rfguard::fuzz
