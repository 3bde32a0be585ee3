#pragma once
// Shared by the Doris import tests: a schema of TPC-H's tables with the
// columns the tests' plans name, a plan imported into a session, its losses.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engines/adapter.h"
#include "engines/doris/adapter.h"
#include "grammar/sql.h"
#include "pipeline/session.h"

namespace rfguard::doris_test {

inline const char* kSchema =
    "CREATE TABLE nation (n_nationkey int NOT NULL, n_name varchar(25));"
    "CREATE TABLE supplier (s_suppkey int NOT NULL, s_nationkey int);"
    "CREATE TABLE partsupp (ps_partkey int, ps_suppkey int, ps_availqty int);"
    "CREATE TABLE lineitem (l_orderkey int, l_suppkey int, l_quantity decimal(15,2));";

inline Session load(const std::string& plan, Diagnostics& d, bool ok = true) {
  SessionOptions so;
  std::vector<Query> none;
  REQUIRE(loadSql(kSchema, "schema.sql", so.schema, none, d));
  so.given = GivenPlans::Json;
  Session s(so);
  CHECK_MESSAGE(s.loadEngine(plan, "p.out", engine::dorisAdapter(), d) == ok, d.render());
  return s;
}

inline std::string lossesOf(const QueryRun& q) {
  std::string out;
  for (const auto& l : q.imported->losses) out += l.pointer + ": " + l.message + "\n";
  return out;
}

}  // namespace rfguard::doris_test
