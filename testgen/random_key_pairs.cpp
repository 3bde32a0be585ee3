// Random pairs for the normal form's key and name laws (testgen/random_queries.h):
// a query over a keyed schema and a rewrite that adds a join, a GROUP BY or a
// DISTINCT or a derived table, or renames a table, each sound or with its side
// condition broken.
#include <string>
#include <vector>

#include "testgen/random_queries.h"

namespace rfguard {

std::string randomKeySchema() {
  return "CREATE TABLE d (dk int PRIMARY KEY, dn int);\n"
         "CREATE TABLE e (ek int PRIMARY KEY, ed int NOT NULL REFERENCES d (dk),"
         " ef int REFERENCES d (dk), ev int);\n"
         "CREATE TABLE u (uk int UNIQUE, uv int);\n";
}

std::pair<std::string, std::string> randomKeyPair(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](const std::vector<std::string>& xs) {
    return xs[static_cast<size_t>(randomBelow(rng, static_cast<int>(xs.size())))];
  };
  // Aliases, so that renaming is part of every pair.
  const std::string a = pick({"e", "x", "emp"}), b = pick({"e", "y", "emp"});
  const std::string where =
      randomBelow(rng, 2) ? "" : " WHERE %.ev " + pick({"> 1", "IS NULL", "= %.ek"});
  auto in = [](std::string s, const std::string& alias) {
    for (size_t at; (at = s.find('%')) != std::string::npos;) s.replace(at, 1, alias);
    return s;
  };
  const std::string from = [&](const std::string& alias) {
    return "e" + (alias == "e" ? std::string() : " " + alias);
  }(a);
  const std::string original = in("SELECT %.ek, %.ev FROM " + from + where, a);
  const std::string other = "e" + (b == "e" ? std::string() : " " + b);
  const std::string w = in(where, b);
  std::string rewritten;
  switch (randomBelow(rng, 9)) {
    case 8: {  // set operations: inputs swapped, a filter pushed in, nested ones flattened
      const std::string op =
          pick({"UNION ALL", "UNION", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"});
      const std::string inner = pick({"UNION ALL", "UNION", "INTERSECT", "EXCEPT"});
      const std::string x = in("SELECT %.ek, %.ev FROM " + from, a), y = "SELECT dk, dn FROM d",
                        z = "SELECT uk, uv FROM u";
      switch (randomBelow(rng, 3)) {
        case 0:
          return {x + " " + op + " " + y + ";", y + " " + op + " " + in(x, a) + ";"};
        case 1: {
          const std::string p = pick({"> 1", "IS NULL"});
          const bool both = randomBelow(rng, 3) > 0;
          return {"SELECT s.ek, s.ev FROM (" + x + " " + op + " " + y + ") s WHERE s.ev " + p + ";",
                  x + " WHERE " + a + ".ev " + p + " " + op + " " + y +
                      (both ? " WHERE dn " + p : "") + ";"};
        }
        default:
          return {x + " " + op + " (" + y + " " + inner + " " + z + ");",
                  z + " " + op + " " + x + " " + op + " " + y + ";"};
      }
    }
    case 6: {  // a derived table, read through or not
      const std::string col = pick({"ev", "ev", "ed"});
      rewritten = in("SELECT s.ek, s.ev FROM (SELECT %.ek, %." + col + " AS ev FROM " + other +
                         ") s" + (where.empty() ? "" : " WHERE s.ev " + pick({"> 1", "IS NULL"})),
                     b);
      return {in("SELECT %.ek, %.ev FROM " + from + (where.empty() ? "" : " WHERE %.ev ") +
                     (where.empty() ? "" : rewritten.substr(rewritten.rfind("s.ev ") + 5)),
                 a) +
                  ";",
              rewritten + ";"};
    }
    case 7: {  // grouped by a derived table's column, or by another column
      const std::string col = pick({"ed", "ed", "ef"});
      const std::string agg = pick({"count(*)", "max(s.v)", "sum(s.v)"});
      const std::string original2 =
          in("SELECT %.ed AS d, " + (agg == "count(*)" ? agg : agg.substr(0, 4) + "%.ev)") +
                 " AS n FROM " + from + " GROUP BY %.ed",
             a);
      rewritten = in("SELECT s.d, " + agg + " AS n FROM (SELECT %." + col +
                         " AS d, %.ev AS v FROM " + other + ") s GROUP BY s.d",
                     b);
      return {original2 + ";", rewritten + ";"};
    }
    case 0: {  // an inner join to d: sound only on ed, the NOT NULL reference
      const std::string col = pick({"ed", "ed", "ef", "ev"});
      std::string on = in("%." + col + " = d.dk", b);
      if (randomBelow(rng, 4) == 0) on = in("%." + pick({"ev", "ek"}) + " = d.dk AND ", b) + on;
      rewritten = in("SELECT %.ek, %.ev FROM " + other + " JOIN d ON " + on + w, b);
      break;
    }
    case 1: {  // the same join written in WHERE
      const std::string col = pick({"ed", "ef"});
      rewritten = in("SELECT %.ek, %.ev FROM " + other + ", d WHERE %." + col + " = d.dk" +
                         (w.empty() ? "" : " AND" + w.substr(6)),
                     b);
      break;
    }
    case 2: {  // a LEFT join on a key (sound), on no key (not)
      const std::string join = pick({"d ON %.ev = d.dk", "d ON %.ef = d.dk", "d ON %.ev = d.dn",
                                     "u ON %.ev = u.uv", "d ON %.ed = d.dk AND d.dn > 0"});
      rewritten = in("SELECT %.ek, %.ev FROM " + other + " LEFT JOIN " + join + w, b);
      break;
    }
    case 3: {  // GROUP BY a key (sound) or not
      const std::string key = pick({"ek", "ek", "ed", "ev"});
      const std::string agg = pick({"max(%.ev)", "min(%.ev)", "count(*)", "sum(%.ev)"});
      rewritten = in("SELECT %.ek, " + agg + " AS ev FROM " + other + w + " GROUP BY %." + key +
                         (key == "ek" ? "" : ", %.ek"),
                     b);
      if (key != "ek" && randomBelow(rng, 2))
        rewritten =
            in("SELECT max(%.ek) AS ek, " + agg + " AS ev FROM " + other + w + " GROUP BY %." + key,
               b);
      break;
    }
    case 4:  // DISTINCT over a key (sound) or over a column that is none
      rewritten = randomBelow(rng, 3) ? in("SELECT DISTINCT %.ek, %.ev FROM " + other + w, b)
                                      : in("SELECT DISTINCT %.ed AS ek, %.ev FROM " + other + w, b);
      break;
    default:  // a self-join through the reference, its aliases either way round
      rewritten = in("SELECT %.ek, %.ev FROM " + other + " JOIN e z ON %.ek = z.ek" + w, b);
      break;
  }
  return {original + ";", rewritten + ";"};
}

}  // namespace rfguard
