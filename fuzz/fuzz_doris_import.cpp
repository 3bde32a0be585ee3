// Doris's shape plan text -> import -> verify -> lint in every output format.
// Every error names the file and a line; whatever imports reads back as plan
// JSON and verifies without a crash, whatever the text holds.
#include <cstdint>
#include <sstream>

#include "engines/doris/adapter.h"
#include "fuzz/fuzz_util.h"
#include "grammar/sql.h"
#include "pipeline/session.h"
#include "tools/cli/lint.h"

using rfguard::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  // TPC-H's tables, so that the seeds' scans and conditions resolve.
  static const rfguard::Catalog schema = [] {
    rfguard::Catalog c;
    std::vector<rfguard::Query> none;
    rfguard::Diagnostics d;
    rfguard::loadSql(
        "CREATE TABLE nation (n_nationkey int, n_name varchar(25), n_regionkey int);"
        "CREATE TABLE region (r_regionkey int, r_name varchar(25));"
        "CREATE TABLE supplier (s_suppkey int, s_nationkey int, s_comment varchar(101));"
        "CREATE TABLE partsupp (ps_partkey int, ps_suppkey int, ps_availqty int);"
        "CREATE TABLE lineitem (l_orderkey int, l_partkey int, l_suppkey int, "
        "l_quantity decimal(15,2), l_shipdate date);"
        "CREATE TABLE orders (o_orderkey int, o_custkey int, o_orderdate date);",
        "schema.sql", c, none, d);
    return c;
  }();
  rfguard::SessionOptions so;
  so.schema = schema;
  rfguard::Session session(so);
  rfguard::Diagnostics diags;
  bool ok = session.loadEngine(text, "fuzz.out", rfguard::engine::dorisAdapter(), diags);
  const std::string errors = diags.render();
  require(ok || !errors.empty(), "an import failure without an error", text);
  rfguard::fuzz::requireLocatedErrors(errors, "fuzz.out");
  session.run();
  for (const auto& q : session.queries()) {
    require(q.imported != nullptr, "an imported query without its import record", "");
    for (const auto& f : session.verify(q)) session.siteOf(q, f);
  }
  std::string path = rfguard::fuzz::writeInput(data, size, ".out");
  for (const char* format : {"text", "json", "sarif"}) {
    rfguard::LintArgs args;
    args.files = {path};
    args.format = format;
    args.input.from = "doris";
    std::ostringstream out, err;
    int rc = rfguard::runLint(args, out, err);
    require(rc >= 0 && rc <= 2, "lint exit code outside 0..2", err.str());
  }
  return 0;
}
