// The normal form's laws for the rule families the suites of issue 49 left
// unproven (verifier/normal_form.h): conjuncts across INTERSECT and EXCEPT,
// repeated set-operation inputs, conjuncts implied into the other input of
// LEFT, semi and anti joins, LEFT joins reassociated, group keys fixed by a
// filter, IN over fixed rows, inner joins on a key as semi joins. Each proven
// pair names its law; each law's side condition, dropped, leaves no proof and
// a counterexample for the search.
#include <doctest/doctest.h>

#include "normal_form_support.h"

#include <string>
#include <vector>

using namespace rfguard;

namespace {

const std::string kSchema =
    "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, w int); CREATE TABLE c (k int, x "
    "int);\n";

/// Each pair is proven, the proof naming `law`.
void proven(const std::vector<const char*>& pairs, const char* law) {
  for (const char* text : pairs) {
    const std::string sql = text;
    CAPTURE(sql);
    const std::string why = testing::proofOver(kSchema, sql);
    CAPTURE(why);
    CHECK(why.find(law) != std::string::npos);
  }
}

void refuted(const std::vector<const char*>& pairs) {
  testing::refutedOver(kSchema, pairs);
}

}  // namespace

TEST_CASE(
    "normal form: an INTERSECT input's conjuncts filter the others, EXCEPT's first its others") {
  const char* law = "conjuncts of one INTERSECT input filtering the others";
  proven(
      {
          "SELECT k FROM a WHERE k > 0 INTERSECT SELECT k FROM b;"
          "SELECT * FROM (SELECT k FROM a INTERSECT SELECT k FROM b) u WHERE k > 0;",
          // From the second input into the first.
          "SELECT k FROM a INTERSECT SELECT k FROM b WHERE k > 0;"
          "SELECT k FROM a WHERE k > 0 INTERSECT SELECT k FROM b WHERE k > 0;",
          "SELECT k FROM a WHERE k > 0 INTERSECT ALL SELECT k FROM b;"
          "SELECT k FROM a WHERE k > 0 INTERSECT ALL SELECT k FROM b WHERE k > 0;",
          "SELECT k FROM a WHERE k > 1 EXCEPT SELECT k FROM b;"
          "SELECT k FROM a WHERE k > 1 EXCEPT SELECT k FROM b WHERE k > 1;",
          "SELECT k FROM a WHERE k > 1 EXCEPT ALL SELECT k FROM b;"
          "SELECT k FROM a WHERE k > 1 EXCEPT ALL SELECT k FROM b WHERE k > 1;",
          // A filter over EXCEPT goes into both inputs; filtering the first is enough.
          "SELECT * FROM (SELECT k FROM a EXCEPT SELECT k FROM b) u WHERE k > 1;"
          "SELECT k FROM a WHERE k > 1 EXCEPT SELECT k FROM b;",
          // Through group keys: the filter below the aggregate holds of its rows.
          "SELECT k FROM (SELECT k FROM a WHERE k > 1 GROUP BY k) g EXCEPT SELECT k FROM b;"
          "SELECT k FROM (SELECT k FROM a WHERE k > 1 GROUP BY k) g EXCEPT SELECT k FROM b WHERE "
          "k > 1;",
      },
      law);
  refuted({
      // EXCEPT's second input's conjuncts say nothing of the first.
      "SELECT k FROM a EXCEPT SELECT k FROM b WHERE k > 1;"
      "SELECT k FROM a WHERE k > 1 EXCEPT SELECT k FROM b WHERE k > 1;",
      // UNION keeps the rows of either input.
      "SELECT k FROM a WHERE k > 0 UNION SELECT k FROM b;"
      "SELECT k FROM a WHERE k > 0 UNION SELECT k FROM b WHERE k > 0;",
      // Another column's conjunct is not the same position's.
      "SELECT k, v FROM a WHERE v > 0 INTERSECT SELECT k, w FROM b;"
      "SELECT k, v FROM a WHERE v > 0 INTERSECT SELECT k, w FROM b WHERE k > 0;",
  });
}

TEST_CASE("normal form: a UNION or INTERSECT input that repeats another goes") {
  const char* law = "an input of UNION or INTERSECT that repeats another dropped";
  proven(
      {
          "SELECT k FROM a UNION SELECT k FROM a; SELECT DISTINCT k FROM a;",
          // Aliases and column names aside.
          "SELECT x.k AS z FROM a x UNION SELECT y.k FROM a y; SELECT DISTINCT k FROM a;",
          "SELECT k FROM a INTERSECT SELECT k FROM a; SELECT DISTINCT k FROM a;",
          "SELECT k FROM a UNION SELECT k FROM b UNION SELECT k FROM a;"
          "SELECT k FROM b UNION SELECT k FROM a;",
      },
      law);
  refuted({
      "SELECT k FROM a UNION ALL SELECT k FROM a; SELECT DISTINCT k FROM a;",
      "SELECT k FROM a UNION SELECT v FROM a; SELECT DISTINCT k FROM a;",
      "SELECT k FROM a UNION SELECT k FROM a WHERE v > 0; SELECT k FROM a WHERE v > 0;",
  });
}

TEST_CASE("normal form: conjuncts implied into the other input of LEFT, semi and anti joins") {
  const char* law = "conjuncts implied through the ON equalities of LEFT, semi and anti joins";
  proven(
      {
          "SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k WHERE a.k > 3;"
          "SELECT a.k, b.w FROM (SELECT * FROM a WHERE k > 3) a LEFT JOIN (SELECT * FROM b WHERE "
          "k > 3) b ON a.k = b.k;",
          "SELECT a.v FROM a WHERE a.k > 3 AND EXISTS (SELECT 1 FROM b WHERE b.k = a.k);"
          "SELECT a.v FROM a WHERE a.k > 3 AND EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.k > "
          "3);",
          "SELECT a.v FROM a WHERE a.k > 3 AND NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k);"
          "SELECT a.v FROM a WHERE a.k > 3 AND NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND "
          "b.k > 3);",
      },
      law);
  refuted({
      // Without the equality on the conjunct's column.
      "SELECT a.k, b.w FROM a LEFT JOIN b ON a.v = b.k WHERE a.k > 3;"
      "SELECT a.k, b.w FROM a LEFT JOIN (SELECT * FROM b WHERE k > 3) b ON a.v = b.k WHERE a.k "
      "> 3;",
      // NOT IN: a NULL of the other input counts unmatched.
      "SELECT a.v FROM a WHERE a.k > 3 AND a.k NOT IN (SELECT k FROM b);"
      "SELECT a.v FROM a WHERE a.k > 3 AND a.k NOT IN (SELECT k FROM b WHERE k > 3);",
      // The other input preserved: a RIGHT join keeps b's rows.
      "SELECT a.k, b.w FROM (SELECT * FROM a WHERE k > 3) a RIGHT JOIN b ON a.k = b.k;"
      "SELECT a.k, b.w FROM (SELECT * FROM a WHERE k > 3) a RIGHT JOIN (SELECT * FROM b WHERE k "
      "> 3) b ON a.k = b.k;",
  });
}

TEST_CASE("normal form: right-nested LEFT joins are left-deep where q rejects the middle's NULLs") {
  const char* law = "A LEFT JOIN (B LEFT JOIN C ON q) as (A LEFT JOIN B) LEFT JOIN C ON q";
  proven(
      {
          "SELECT a.v, b.w, c.x FROM a LEFT JOIN (b LEFT JOIN c ON b.w = c.k) ON a.k = b.k;"
          "SELECT a.v, b.w, c.x FROM (a LEFT JOIN b ON a.k = b.k) LEFT JOIN c ON b.w = c.k;",
          "SELECT * FROM a LEFT JOIN (b LEFT JOIN c ON b.k = c.k AND c.x > 0) ON a.v = b.w;"
          "SELECT * FROM (a LEFT JOIN b ON a.v = b.w) LEFT JOIN c ON b.k = c.k AND c.x > 0;",
      },
      law);
  refuted({
      // q true on B's NULLs: the left-deep form joins C to a padded row.
      "SELECT a.v, b.w, c.x FROM a LEFT JOIN (b LEFT JOIN c ON c.k IS NULL OR b.w = c.k) ON a.k = "
      "b.k;"
      "SELECT a.v, b.w, c.x FROM (a LEFT JOIN b ON a.k = b.k) LEFT JOIN c ON c.k IS NULL OR b.w = "
      "c.k;",
  });
}

TEST_CASE("normal form: a group key a filter below fixes to a literal is that literal") {
  const char* law = "group keys that a filter below fixes to a literal";
  proven(
      {
          "SELECT k, v, count(*) FROM a WHERE k = 1 GROUP BY k, v;"
          "SELECT 1, v, count(*) FROM a WHERE k = 1 GROUP BY v;",
          "SELECT v, k, sum(k) FROM a WHERE 2 = k AND v > 0 GROUP BY v, k;"
          "SELECT v, 2, sum(k) FROM a WHERE k = 2 AND v > 0 GROUP BY v;",
      },
      law);
  refuted({
      // Not an equality: two values of k in one group.
      "SELECT k, v, count(*) FROM a WHERE k >= 1 GROUP BY k, v;"
      "SELECT 1, v, count(*) FROM a WHERE k >= 1 GROUP BY v;",
      // The last key stays: over no row GROUP BY k returns none, no GROUP BY one.
      "SELECT k, count(*) FROM a WHERE k = 1 GROUP BY k;"
      "SELECT 1, count(*) FROM a WHERE k = 1;",
  });
}

TEST_CASE("normal form: IN over a subquery of fixed rows is the IN list") {
  const char* law = "IN lists and IN over fixed rows as ORs";
  proven(
      {
          "SELECT k FROM a WHERE v IN (1, 2); SELECT k FROM a WHERE v IN (SELECT 1 UNION ALL "
          "SELECT 2);",
          "SELECT k FROM a WHERE v IN (1, 2); SELECT k FROM a WHERE v IN (VALUES (2), (1), (2));",
          // NOT IN with a NULL among the values: NULL for every v but 1's FALSE.
          "SELECT k FROM a WHERE v NOT IN (1, NULL);"
          "SELECT k FROM a WHERE v NOT IN (SELECT 1 UNION SELECT NULL);",
          "SELECT k, v IN (3, 4) FROM a; SELECT k, v IN (SELECT x + 3 FROM (VALUES (0), (1)) t(x)) "
          "FROM a;",
      },
      law);
  refuted({
      // Rows of a table are not fixed.
      "SELECT k FROM a WHERE v IN (1); SELECT k FROM a WHERE v IN (SELECT k FROM b WHERE k = 1);",
      "SELECT k FROM a WHERE v IN (1, 2); SELECT k FROM a WHERE v IN (SELECT 1 UNION ALL SELECT k "
      "FROM b);",
  });
}

TEST_CASE("normal form: an inner join on a key of an input nothing reads is a semi join") {
  const char* law = "inner joins on a key of an input nothing else reads as semi joins";
  proven(
      {
          "SELECT a.v FROM a WHERE a.k IN (SELECT k FROM b);"
          "SELECT a.v FROM a JOIN (SELECT DISTINCT k FROM b) t ON a.k = t.k;",
          "SELECT a.v FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.w > 0);"
          "SELECT a.v FROM a JOIN (SELECT k FROM b WHERE w > 0 GROUP BY k) t ON t.k = a.k;",
          // The join written in WHERE, the key's filter above the join.
          "SELECT a.v FROM a, (SELECT DISTINCT k FROM b) t WHERE a.k = t.k AND t.k > 2;"
          "SELECT a.v FROM a WHERE a.k IN (SELECT k FROM b WHERE k > 2);",
      },
      law);
  refuted({
      // No key: two matching rows return a row twice.
      "SELECT a.v FROM a WHERE a.k IN (SELECT k FROM b);"
      "SELECT a.v FROM a JOIN b ON a.k = b.k;",
      // Half a key.
      "SELECT a.v FROM a WHERE a.k IN (SELECT k FROM b);"
      "SELECT a.v FROM a JOIN (SELECT DISTINCT k, w FROM b) t ON a.k = t.k;",
  });
}

TEST_CASE("normal form: inner joins of three inputs keep their orders' forms equal") {
  // The semi-join law needs a block of two inputs: in (a JOIN t) JOIN c the
  // form must not depend on which join reads t.
  std::string why;
  CHECK(testing::proved(
      "SELECT a.v FROM (a JOIN (SELECT DISTINCT k FROM b) t ON a.k = t.k) JOIN c ON c.x = t.k;"
      "SELECT a.v FROM (a JOIN c ON c.x = a.k) JOIN (SELECT DISTINCT k FROM b) t ON a.k = t.k;",
      &why));
  CAPTURE(why);
  CHECK(why.find("inner joins reordered") != std::string::npos);
}

TEST_CASE("normal form: a GROUP BY of sums over UNION ALL of GROUP BYs is one GROUP BY") {
  const char* law = "GROUP BY of sums, mins, maxes over UNION ALL of GROUP BYs";
  proven(
      {
          "SELECT k, sum(v) FROM (SELECT k, v FROM a UNION ALL SELECT k, w FROM b) u GROUP BY k;"
          "SELECT k, sum(s) FROM (SELECT k, sum(v) AS s FROM a GROUP BY k UNION ALL SELECT k, "
          "sum(w) AS s FROM b GROUP BY k) u GROUP BY k;",
          // Min of mins; a sum of counts is the count; without keys.
          "SELECT min(v), count(*) FROM (SELECT v FROM a UNION ALL SELECT w FROM b) u;"
          "SELECT min(m), sum(c) FROM (SELECT min(v) AS m, count(*) AS c FROM a UNION ALL SELECT "
          "min(w), count(*) FROM b) u;",
          "SELECT k, max(v), count(v) FROM (SELECT k, v FROM a UNION ALL SELECT k, w FROM b) u "
          "GROUP BY k;"
          "SELECT k, max(m), sum(c) FROM (SELECT k, max(v) AS m, count(v) AS c FROM a GROUP BY k "
          "UNION ALL SELECT k, max(w), count(w) FROM b GROUP BY k) u GROUP BY k;",
      },
      law);
  refuted({
      // The outer count counts groups, not rows.
      "SELECT k, count(*) FROM (SELECT k, v FROM a UNION ALL SELECT k, w FROM b) u GROUP BY k;"
      "SELECT k, count(s) FROM (SELECT k, sum(v) AS s FROM a GROUP BY k UNION ALL SELECT k, "
      "sum(w) AS s FROM b GROUP BY k) u GROUP BY k;",
      // An input without the keys: b's sum lands on one key.
      "SELECT k, sum(v) FROM (SELECT k, v FROM a UNION ALL SELECT k, w FROM b) u GROUP BY k;"
      "SELECT k, sum(s) FROM (SELECT k, sum(v) AS s FROM a GROUP BY k UNION ALL SELECT max(k), "
      "sum(w) AS s FROM b) u GROUP BY k;",
      // An average of averages.
      "SELECT k, avg(v) FROM (SELECT k, v FROM a UNION ALL SELECT k, w FROM b) u GROUP BY k;"
      "SELECT k, avg(s) FROM (SELECT k, avg(v) AS s FROM a GROUP BY k UNION ALL SELECT k, "
      "avg(w) AS s FROM b GROUP BY k) u GROUP BY k;",
  });
}

TEST_CASE(
    "normal form: DISTINCT over a semi (anti) join on all its columns is INTERSECT (EXCEPT)") {
  const std::string schema =
      "CREATE TABLE n (k int NOT NULL, w int NOT NULL); CREATE TABLE m (k int NOT NULL, w int "
      "NOT NULL); CREATE TABLE a (k int, v int); CREATE TABLE b (k int, w int);\n";
  const char* law = "DISTINCT over a semi (anti) join that matches all its columns";
  for (const char* text : {
           "SELECT k FROM n INTERSECT SELECT k FROM m;"
           "SELECT DISTINCT k FROM n WHERE k IN (SELECT k FROM m);",
           "SELECT k FROM n EXCEPT SELECT k FROM m;"
           "SELECT DISTINCT k FROM n WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.k = n.k);",
           "SELECT k, w FROM n WHERE w > 0 INTERSECT SELECT w, k FROM m WHERE k < 5;"
           "SELECT DISTINCT k, w FROM n WHERE w > 0 AND EXISTS (SELECT 1 FROM m WHERE m.w = n.k "
           "AND m.k = n.w AND m.k < 5);",
           // NULL-safe equalities over nullable columns.
           "SELECT k FROM a EXCEPT SELECT k FROM b;"
           "SELECT DISTINCT k FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k IS NOT DISTINCT "
           "FROM a.k);",
       }) {
    const std::string sql = text;
    CAPTURE(sql);
    CHECK(testing::proofOver(schema, sql).find(law) != std::string::npos);
  }
  testing::refutedOver(
      schema,
      {
          // Nullable columns: `=` never matches NULL, the set operations do.
          "SELECT k FROM a INTERSECT SELECT k FROM b;"
          "SELECT DISTINCT k FROM a WHERE k IN (SELECT k FROM b);",
          "SELECT k FROM a EXCEPT SELECT k FROM b;"
          "SELECT DISTINCT k FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k);",
          // Not every column matched.
          "SELECT k, w FROM n INTERSECT SELECT k, w FROM m;"
          "SELECT DISTINCT k, w FROM n WHERE EXISTS (SELECT 1 FROM m WHERE m.k = n.k);",
          // NOT NULL columns NULL-padded by outer joins: `=` matches no NULL,
          // INTERSECT matches NULL with NULL.
          "SELECT DISTINCT m2.k FROM a LEFT JOIN m m2 ON a.k = m2.k WHERE EXISTS (SELECT 1 FROM "
          "b LEFT JOIN m m3 ON b.k = m3.k WHERE m3.k = m2.k);"
          "SELECT m2.k FROM a LEFT JOIN m m2 ON a.k = m2.k INTERSECT SELECT m3.k FROM b LEFT "
          "JOIN m m3 ON b.k = m3.k;",
          // Without the DISTINCT, the semi join keeps duplicates.
          "SELECT k FROM n INTERSECT SELECT k FROM m;"
          "SELECT k FROM n WHERE k IN (SELECT k FROM m);",
      });
}

TEST_CASE("normal form: an aggregate joined on its keys to a key of another input, over the join") {
  const std::string schema =
      "CREATE TABLE dept (deptno int PRIMARY KEY, name varchar(10));"
      "CREATE TABLE emp (empno int PRIMARY KEY, deptno int NOT NULL REFERENCES dept, sal int);"
      "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, w int);\n";
  const char* law = "an aggregate joined on all its keys to a key of another input";
  for (const char* text : {
           "SELECT d.deptno, d.name, count(*) FROM emp e JOIN dept d ON e.deptno = d.deptno GROUP "
           "BY d.deptno, d.name;"
           "SELECT d.deptno, d.name, t.c FROM (SELECT deptno, count(*) AS c FROM emp GROUP BY "
           "deptno) t JOIN dept d ON t.deptno = d.deptno;",
           "SELECT d.name, sum(e.sal) FROM emp e JOIN dept d ON e.deptno = d.deptno WHERE d.name "
           "<> 'x' GROUP BY d.deptno, d.name;"
           "SELECT d.name, t.s FROM dept d, (SELECT deptno, sum(sal) AS s FROM emp GROUP BY "
           "deptno) t WHERE d.deptno = t.deptno AND d.name <> 'x';",
           // Keys the join's equality makes one.
           "SELECT a.k, count(*) FROM a JOIN b ON a.k = b.k GROUP BY a.k;"
           "SELECT b.k, count(*) FROM a JOIN b ON b.k = a.k GROUP BY b.k;",
       }) {
    const std::string sql = text;
    CAPTURE(sql);
    const std::string why = testing::proofOver(schema, sql);
    CAPTURE(why);
    CHECK(why.find(law) != std::string::npos);
  }
  testing::refutedOver(
      schema,
      {
          // No key of b: two equal rows of b meet the group twice.
          "SELECT b.k, b.w, count(*) FROM a JOIN b ON a.k = b.k GROUP BY b.k, b.w;"
          "SELECT b.k, b.w, t.c FROM (SELECT k, count(*) AS c FROM a GROUP BY k) t JOIN b ON t.k = "
          "b.k;",
          // Not every key of the aggregate equated.
          "SELECT d.deptno, d.name, count(*) FROM emp e JOIN dept d ON e.deptno = d.deptno GROUP "
          "BY d.deptno, d.name;"
          "SELECT d.deptno, d.name, t.c FROM (SELECT deptno, sal, count(*) AS c FROM emp GROUP BY "
          "deptno, sal) t JOIN dept d ON t.deptno = d.deptno;",
          // Keys not equal: `>=` is no equality.
          "SELECT a.k, count(*) FROM a JOIN b ON a.k >= b.k GROUP BY a.k;"
          "SELECT b.k, count(*) FROM a JOIN b ON a.k >= b.k GROUP BY b.k;",
      });
}

TEST_CASE("binder: a NOT NULL column of a side an outer join pads is nullable above the join") {
  // The table says NOT NULL; the LEFT JOIN pads the column with NULL. Read as
  // NOT NULL, `x IS NOT DISTINCT FROM y` became `x = y` (the condition law
  // over inputs never NULL) and a pair of two padded rows told them apart.
  const std::string schema =
      "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, w int); CREATE TABLE m (k int NOT "
      "NULL, w int NOT NULL);\n";
  auto qs = testing::boundOver(
      schema,
      "SELECT m2.k + 0 AS x FROM a LEFT JOIN m m2 ON a.k = m2.k;"
      "SELECT m2.w FROM m m2 RIGHT JOIN a ON a.k = m2.k WHERE EXISTS (SELECT 1 FROM b WHERE "
      "b.k = m2.k);");
  REQUIRE(qs.size() == 2);
  CHECK(qs[0].plan->output[0].nullable);
  // A correlated reference to the padded side, in the subquery's filter.
  bool padded = false;
  forEachExpr(*qs[1].plan->children[0], [&](const ExprPtr& e) {
    if (e->kind != ExprKind::Subquery) return;
    forEachNode(*e->plan, [&](const PlanNode& n) {
      forEachExpr(n, [&](const ExprPtr& x) {
        for (const auto& arg : x->args)
          if (arg->kind == ExprKind::Column && arg->name == "m2.k") padded = arg->nullable;
      });
    });
  });
  CHECK(padded);
  testing::refutedOver(
      schema,
      {
          "SELECT t.x FROM (SELECT m2.k + 0 AS x FROM a LEFT JOIN m m2 ON a.k = m2.k) t JOIN "
          "(SELECT m3.k + 0 AS y FROM b LEFT JOIN m m3 ON b.k = m3.k) u ON t.x IS NOT DISTINCT "
          "FROM u.y;"
          "SELECT t.x FROM (SELECT m2.k + 0 AS x FROM a LEFT JOIN m m2 ON a.k = m2.k) t JOIN "
          "(SELECT m3.k + 0 AS y FROM b LEFT JOIN m m3 ON b.k = m3.k) u ON t.x = u.y;",
      });
}
