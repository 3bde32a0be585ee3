#include "testgen/join_queries.h"

#include <algorithm>
#include <set>

#include "ir/random.h"

namespace rfguard {

namespace {

DiffRelation randomRelation(std::mt19937_64& rng, int alias) {
  DiffRelation r;
  r.alias = r.table = alias;
  r.other = randomBelow(rng, 6);
  r.limit = 1 + randomBelow(rng, 20);
  r.offset = randomBelow(rng, 10);
  const int shape = randomBelow(rng, 14);
  r.shape = shape <= 10 ? static_cast<DiffRelation::Shape>(shape + 1) : DiffRelation::Table;
  if (r.shape == DiffRelation::OffsetJoined)
    r.other = 2 + randomBelow(rng, 4);  // a small build side
  if (r.shape == DiffRelation::OffsetSmallest) r.offset = 1 + randomBelow(rng, 50);
  return r;
}

DiffKey randomKey(std::mt19937_64& rng) {
  const int k = randomBelow(rng, 7);
  return k <= 3 ? static_cast<DiffKey>(k + 1) : DiffKey::Plain;
}

std::string relationSql(const DiffRelation& r, DiffDialect d) {
  const std::string t = "t" + std::to_string(r.table), a = "r" + std::to_string(r.alias);
  const std::string other = "t" + std::to_string(r.other);
  const std::string rowid = d == DiffDialect::DuckDb ? "rowid" : "rid";
  const std::string total = " NULLS FIRST, " + rowid;  // ties broken: one valid result
  const std::string n = std::to_string(r.limit), m = std::to_string(r.offset);
  switch (r.shape) {
    case DiffRelation::Table:  // rfguard's t<i> has rid besides k, v: not in SELECT *
      return d == DiffDialect::DuckDb ? t + " AS " + a : "(SELECT k, v FROM " + t + ") AS " + a;
    case DiffRelation::GroupCount:
      return "(SELECT k, count(*) AS v FROM " + t + " GROUP BY k) AS " + a;
    case DiffRelation::Limit:
      return "(SELECT k, v FROM " + t + " ORDER BY v NULLS FIRST, k" + total + " LIMIT " + n +
             ") AS " + a;
    case DiffRelation::LimitOffset:
      return "(SELECT k, v FROM " + t + " ORDER BY v NULLS FIRST, k" + total + " LIMIT " + n +
             " OFFSET " + m + ") AS " + a;
    case DiffRelation::Offset:
      return "(SELECT k, v FROM " + t + " ORDER BY k NULLS FIRST, v" + total + " OFFSET " + m +
             ") AS " + a;
    case DiffRelation::UnionAll:
      return "(SELECT k, v FROM " + t + " UNION ALL SELECT k, v FROM " + other + ") AS " + a;
    case DiffRelation::Intersect:
      return "(SELECT k, v FROM " + t + " INTERSECT SELECT k, v FROM " + other + ") AS " + a;
    case DiffRelation::Except:
      return "(SELECT k, v FROM " + t + " EXCEPT SELECT k, v FROM " + other + ") AS " + a;
    case DiffRelation::DistinctMod3:
      return "(SELECT DISTINCT k, v % 3 AS v FROM " + t + ") AS " + a;
    case DiffRelation::OffsetSmallest:  // the OFFSET skips the smallest v, whatever their keys
      return "(SELECT k, v FROM " + t + " ORDER BY v NULLS FIRST, k" + total + " OFFSET " + m +
             ") AS " + a;
    case DiffRelation::OffsetJoined:  // rows that tie are equal: the bag is still one
      return "(SELECT x.k, x.v FROM " + t + " x JOIN " + other +
             " y ON x.k = y.k ORDER BY x.v NULLS FIRST, x.k NULLS FIRST, x." + rowid + " OFFSET " +
             m + ") AS " + a;
    case DiffRelation::OffsetDelayed:  // each row of t matches itself: all of t, once
      return "(SELECT x.k, x.v FROM " + t + " x " +
             (d == DiffDialect::DuckDb ? "SEMI JOIN " : "LEFT SEMI JOIN ") + t +
             " y ON x.k IS NOT DISTINCT FROM y.k ORDER BY x.v NULLS FIRST, x.k NULLS FIRST, x." +
             rowid + " OFFSET " + m + ") AS " + a;
  }
  return t + " AS " + a;
}

std::string keySql(DiffKey k, const std::string& c) {
  switch (k) {
    case DiffKey::Coalesce:
      return "coalesce(" + c + ", 0)";
    case DiffKey::CastBigint:
      return "cast(" + c + " AS bigint)";
    case DiffKey::PlusOne:
      return c + " + 1";
    case DiffKey::Abs:
      return "abs(" + c + ")";
    case DiffKey::Plain:
      break;
  }
  return c;
}

bool hidesRight(int type) {
  const std::string& t = diffJoinTypes()[static_cast<size_t>(type)];
  return t == "SEMI JOIN" || t == "ANTI JOIN";
}

/// Simplifications of one relation, simplest first.
std::vector<DiffRelation> simpler(const DiffRelation& r) {
  std::vector<DiffRelation> out;
  if (r.shape != DiffRelation::Table) {
    DiffRelation s = r;
    s.shape = DiffRelation::Table;
    out.push_back(s);
  }
  const bool limited = r.shape == DiffRelation::Limit || r.shape == DiffRelation::LimitOffset;
  if (limited && r.limit > 1) {
    DiffRelation s = r;
    s.limit = r.limit / 2;
    out.push_back(s);
  }
  const bool offset = r.shape == DiffRelation::LimitOffset || r.shape == DiffRelation::Offset ||
                      r.shape == DiffRelation::OffsetSmallest ||
                      r.shape == DiffRelation::OffsetJoined ||
                      r.shape == DiffRelation::OffsetDelayed;
  if (offset && r.offset > 0) {
    DiffRelation s = r;
    s.offset = r.offset / 2;
    out.push_back(s);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& diffJoinTypes() {
  static const std::vector<std::string> k = {"JOIN",      "LEFT JOIN", "RIGHT JOIN",
                                             "FULL JOIN", "SEMI JOIN", "ANTI JOIN"};
  return k;
}

const std::vector<std::string>& diffJoinOps() {
  static const std::vector<std::string> k = {"=", "IS NOT DISTINCT FROM", "<"};
  return k;
}

TableDef diffQueryTable(int i) {
  return diffQueryTable(i, TypeKind::Int, TypeKind::Int);
}

TableDef diffQueryTable(int i, TypeKind k, TypeKind v) {
  TableDef t;
  t.name = "t" + std::to_string(i);
  for (const auto& [name, type] : {std::pair{"k", k}, std::pair{"v", v}}) {
    ColumnDef col;
    col.name = name;
    col.type = Type::of(type);
    t.columns.push_back(col);
  }
  return t;
}

DiffQuery randomDiffQuery(std::mt19937_64& rng, int tables) {
  // Inner joins and `=` twice as likely as the others.
  static const int kJoinPick[] = {0, 0, 1, 2, 3, 4, 5};
  static const int kOpPick[] = {0, 0, 0, 1, 2};
  DiffQuery q;
  std::vector<int> visible{0};  // relations whose columns the join output still has
  q.first = randomRelation(rng, 0);
  for (int i = 1; i < tables; ++i) {
    DiffJoin j;
    j.type = kJoinPick[randomBelow(rng, 7)];
    j.left = visible[static_cast<size_t>(randomBelow(rng, static_cast<int>(visible.size())))];
    j.right = randomRelation(rng, i);
    j.leftKey = randomKey(rng);
    // A range condition only between small tables (t2 .. t5): over t0 or t1 it
    // would make a near cross product.
    const bool small = j.left >= 2 && i >= 2;
    j.op = kOpPick[randomBelow(rng, small ? 5 : 4)];
    j.rightKey = randomKey(rng);
    j.sameV = randomBelow(rng, 5) == 0;
    if (!hidesRight(j.type)) visible.push_back(i);
    q.joins.push_back(j);
  }
  if (randomBelow(rng, 5) == 0) {
    q.where = DiffQuery::NotIn;
    q.whereTable = randomBelow(rng, 6);
  } else if (randomBelow(rng, 4) == 0) {
    q.where = DiffQuery::VGreater;
    q.whereValue = randomBelow(rng, 20);
  }
  if (randomBelow(rng, 4) == 0) q.topN = 1 + randomBelow(rng, 50);
  return q;
}

std::string diffQueryRowsSql(const DiffQuery& q, DiffDialect d) {
  std::string from = relationSql(q.first, d);
  int visible = 1;  // relations whose two columns the output has
  for (const auto& j : q.joins) {
    const std::string left = "r" + std::to_string(j.left),
                      right = "r" + std::to_string(j.right.alias);
    const std::string type = diffJoinTypes()[static_cast<size_t>(j.type)];
    // rfguard spells DuckDB's SEMI and ANTI JOIN as Spark does.
    from += " " + (d == DiffDialect::RfGuard && hidesRight(j.type) ? "LEFT " + type : type) + " " +
            relationSql(j.right, d) + " ON " + keySql(j.leftKey, left + ".k") + " " +
            diffJoinOps()[static_cast<size_t>(j.op)] + " " + keySql(j.rightKey, right + ".k");
    if (j.sameV) from += " AND " + left + ".v = " + right + ".v";
    if (!hidesRight(j.type)) ++visible;
  }
  std::string where;
  if (q.where == DiffQuery::NotIn)
    where = " WHERE r0.k NOT IN (SELECT k FROM t" + std::to_string(q.whereTable) + ")";
  else if (q.where == DiffQuery::VGreater)
    where = " WHERE r0.v > " + std::to_string(q.whereValue);
  std::string body = "SELECT * FROM " + from + where;
  if (q.topN == 0) return body;
  // A TopN on top, totally ordered by every column.
  std::string order = "ALL NULLS FIRST";
  if (d == DiffDialect::RfGuard) {
    order.clear();
    for (int c = 1; c <= 2 * visible; ++c)
      order += (c > 1 ? ", " : "") + std::to_string(c) + " NULLS FIRST";
  }
  return "SELECT * FROM (" + body + ") s ORDER BY " + order + " LIMIT " + std::to_string(q.topN);
}

std::string diffQuerySql(const DiffQuery& q) {
  return "SELECT count(*) AS n, sum(hash(q)) AS h FROM (" +
         diffQueryRowsSql(q, DiffDialect::DuckDb) + ") q";
}

std::vector<DiffQuery> diffQuerySimplifications(const DiffQuery& q) {
  std::vector<DiffQuery> out;
  if (q.topN > 0) {
    DiffQuery s = q;
    s.topN = 0;
    out.push_back(s);
  }
  if (q.where != DiffQuery::None) {
    DiffQuery s = q;
    s.where = DiffQuery::None;
    out.push_back(s);
  }
  // A join whose relation no later condition reads goes, last first. r0 stays:
  // the WHERE reads it.
  for (size_t i = q.joins.size(); i-- > 0;) {
    const int alias = q.joins[i].right.alias;
    bool used = false;
    for (size_t k = i + 1; k < q.joins.size(); ++k) used = used || q.joins[k].left == alias;
    if (used) continue;
    DiffQuery s = q;
    s.joins.erase(s.joins.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(s);
  }
  for (const auto& r : simpler(q.first)) {
    DiffQuery s = q;
    s.first = r;
    out.push_back(s);
  }
  for (size_t i = 0; i < q.joins.size(); ++i) {
    const DiffJoin& j = q.joins[i];
    auto with = [&](auto change) {
      DiffQuery s = q;
      change(s.joins[i]);
      out.push_back(s);
    };
    for (const auto& r : simpler(j.right)) with([&](DiffJoin& x) { x.right = r; });
    if (j.sameV) with([](DiffJoin& x) { x.sameV = false; });
    if (j.leftKey != DiffKey::Plain) with([](DiffJoin& x) { x.leftKey = DiffKey::Plain; });
    if (j.rightKey != DiffKey::Plain) with([](DiffJoin& x) { x.rightKey = DiffKey::Plain; });
    if (j.op != 0) with([](DiffJoin& x) { x.op = 0; });
    // An inner join keeps every relation visible that was: later conditions stay valid.
    if (j.type != 0) with([](DiffJoin& x) { x.type = 0; });
  }
  if (q.topN > 1) {
    DiffQuery s = q;
    s.topN = q.topN / 2;
    out.push_back(s);
  }
  return out;
}

DiffQuery remapTables(DiffQuery q, const std::vector<int>& to) {
  auto map = [&](int& t) { t = to.at(static_cast<size_t>(t)); };
  auto relation = [&](DiffRelation& r) {
    map(r.table);
    map(r.other);
  };
  relation(q.first);
  for (auto& j : q.joins) relation(j.right);
  map(q.whereTable);
  return q;
}

std::vector<int> diffQueryTables(const DiffQuery& q) {
  std::set<int> t;
  auto add = [&](const DiffRelation& r) {
    t.insert(r.table);
    if (r.shape == DiffRelation::UnionAll || r.shape == DiffRelation::Intersect ||
        r.shape == DiffRelation::Except || r.shape == DiffRelation::OffsetJoined)
      t.insert(r.other);
  };
  add(q.first);
  for (const auto& j : q.joins) add(j.right);
  if (q.where == DiffQuery::NotIn) t.insert(q.whereTable);
  return {t.begin(), t.end()};
}

}  // namespace rfguard
