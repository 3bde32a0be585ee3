#include "verifier/plan_sql.h"

#include <functional>
#include <map>

#include "verifier/sql_forms.h"

namespace rfguard {

namespace {

std::string q(const std::string& id) {
  return sqlIdentifier(id);
}

/// A LIKE pattern as a GLOB (case-sensitive in SQLite as in SQL): % and _
/// become * and ?, GLOB's own * ? [ are bracketed; nullopt for a malformed escape.
std::optional<std::string> likeToGlob(const std::string& like, const std::string& escape) {
  if (escape.size() > 1) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < like.size(); ++i) {
    char c = like[i];
    if (!escape.empty() && c == escape[0]) {
      if (++i == like.size()) return std::nullopt;
      c = like[i];
    } else if (c == '%') {
      out += '*';
      continue;
    } else if (c == '_') {
      out += '?';
      continue;
    }
    if (c == '*' || c == '?' || c == '[')
      out += std::string("[") + c + "]";
    else
      out += c;
  }
  return out;
}

struct Printer {
  const SqlFilters& f;
  std::string why;
  int alias = 0;
  std::map<int, std::pair<const PlanNode*, const RuntimeFilter*>> producers;
  std::map<std::string, std::string> rename;  ///< column id -> "alias"."col" inside a scan

  std::string fresh() { return "t" + std::to_string(++alias); }
  bool fail(const std::string& w) {
    if (why.empty()) why = w;
    return false;
  }

  std::string lit(const Expr& e) {
    if (e.isNull) return "NULL";
    std::string err;
    auto v = rt::literalValue(e, &err);
    if (!v) return fail(err), "NULL";
    if (e.type.kind == TypeKind::Date) return std::to_string(std::get<int64_t>(*v));
    if (e.type.kind == TypeKind::Interval) return fail("interval arithmetic"), "NULL";
    return rt::sqlLiteral(*v, e.type);
  }

  std::string ex(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Column: {
        auto it = rename.find(e.name);
        return it == rename.end() ? q(e.name) : it->second;
      }
      case ExprKind::Literal:
        return lit(e);
      case ExprKind::Cast: {
        const Type& t = e.type;
        std::string to = t.isString()    ? "VARCHAR"
                         : t.isInteger() ? "BIGINT"
                         : t.isNumeric() ? "DOUBLE"
                                         : "";
        if (to.empty()) return fail("CAST to " + t.toString()), "NULL";
        return "CAST(" + ex(*e.args[0]) + " AS " + to + ")";
      }
      case ExprKind::Subquery: {
        std::string sub = node(*e.plan);
        if (e.subquery == SubqueryKind::Exists) return "EXISTS (" + sub + ")";
        if (e.subquery == SubqueryKind::Scalar) return "(" + sub + ")";
        return "(" + ex(*e.args[0]) + " IN (" + sub + "))";
      }
      case ExprKind::Call:
        break;
    }
    const std::string& n = e.name;
    const bool duck = f.dialect == SqlDialect::DuckDb;
    if ((n == "+" || n == "-") && e.type.kind == TypeKind::Date && e.args.size() == 2)
      for (size_t i = 0; i < 2; ++i)
        if (e.args[i]->type.kind == TypeKind::Interval && e.args[i]->kind == ExprKind::Literal) {
          const std::string d = ex(*e.args[1 - i]);
          const int sign = n == "+" ? 1 : -1;
          return duck ? duckDateShift(d, e.args[i]->value, sign)
                      : sqliteDateShift(d, e.args[i]->value, sign);
        }
    std::vector<std::string> a;
    for (const auto& x : e.args) a.push_back(ex(*x));
    auto join = [&](const std::string& sep) {
      std::string s;
      for (size_t i = 0; i < a.size(); ++i) s += (i ? sep : "") + a[i];
      return s;
    };
    static const std::map<std::string, std::string> kInfix = {
        {"and", " AND "},
        {"or", " OR "},
        {"=", " = "},
        {"<>", " <> "},
        {"<", " < "},
        {"<=", " <= "},
        {">", " > "},
        {">=", " >= "},
        {"+", " + "},
        {"-", " - "},
        {"*", " * "},
        {"/", " / "},
        {"%", " % "},
        {"||", " || "},
        {"<=>", " IS NOT DISTINCT FROM "},
        {"is_distinct_from", " IS DISTINCT FROM "}};
    // Integer division truncates (the evaluator, SQLite); DuckDB's `/` divides
    // exactly, so write the truncation out: a - a % b is a multiple of b.
    if (n == "/" && a.size() == 2 && e.type.isInteger())
      return "CAST((" + a[0] + " - " + a[0] + " % " + a[1] + ") / " + a[1] + " AS BIGINT)";
    // LIKE is case-sensitive: SQLite's ignores ASCII case, so a constant pattern
    // becomes a GLOB there, and any other needs case_sensitive_like (the oracle
    // sets it; a script says so). ILIKE compares lower-cased sides.
    // SQLite has no SIMILAR TO or regexp_matches.
    if (n == "like" && !duck && e.args[1]->kind == ExprKind::Literal && !e.args[1]->isNull &&
        (a.size() < 3 || (e.args[2]->kind == ExprKind::Literal && !e.args[2]->isNull)))
      if (auto glob = likeToGlob(e.args[1]->value, a.size() > 2 ? e.args[2]->value : ""))
        return "(" + a[0] + " GLOB " +
               rt::sqlLiteral(rt::Value(*glob), Type::of(TypeKind::Varchar)) + ")";
    if (n == "like" || n == "ilike") {
      std::string s =
          n == "like" ? a[0] + " LIKE " + a[1] : "lower(" + a[0] + ") LIKE lower(" + a[1] + ")";
      return "(" + s + (a.size() > 2 ? " ESCAPE " + a[2] : "") + ")";
    }
    if (duck && n == "similar_to")
      return "(" + a[0] + " SIMILAR TO " + a[1] + (a.size() > 2 ? " ESCAPE " + a[2] : "") + ")";
    if (duck && n == "regexp_matches") return "regexp_matches(" + join(", ") + ")";
    if (n == "similar_to" || n == "regexp_matches") return fail(n + " (no SQLite form)"), "NULL";
    if (n == "starts_with") return "(substr(" + a[0] + ", 1, length(" + a[1] + ")) = " + a[1] + ")";
    if (n == "ends_with")
      return "(length(" + a[1] + ") = 0 OR substr(" + a[0] + ", -length(" + a[1] + ")) = " + a[1] +
             ")";
    if (n == "strpos") return "instr(" + a[0] + ", " + a[1] + ")";
    if (n == "date_trunc") {
      const std::string part = e.args[0]->kind == ExprKind::Literal ? e.args[0]->value : "";
      const char* start = part == "year"    ? "'start of year'"
                          : part == "month" ? "'start of month'"
                                            : nullptr;
      if (part == "day") return a[1];
      if (duck && e.args[1]->type.kind == TypeKind::Date &&
          (part == "year" || part == "quarter" || part == "month" || part == "week"))
        return "(CAST(date_trunc('" + part + "', " + duckDate(a[1]) + ") AS DATE) - " + kDuckEpoch +
               ")";
      if (!start || e.args[1]->type.kind != TypeKind::Date)
        return fail("date_trunc to " + (part.empty() ? std::string("a computed part") : part)),
               "NULL";
      return "CAST(julianday(date(" + a[1] + " * 86400, 'unixepoch', " + start +
             ")) - 2440587.5 AS INTEGER)";
    }
    if (auto it = kInfix.find(n); it != kInfix.end()) {
      return "(" + join(it->second) + ")";
    }
    if (n == "not") return "(NOT " + a[0] + ")";
    if (n == "negate") return "(-" + a[0] + ")";
    if (n == "is_null") return "(" + a[0] + " IS NULL)";
    if (n == "is_not_null") return "(" + a[0] + " IS NOT NULL)";
    if (n == "in") {
      std::vector<std::string> rest(a.begin() + 1, a.end());
      std::string s;
      for (size_t i = 0; i < rest.size(); ++i) s += (i ? ", " : "") + rest[i];
      return "(" + a[0] + " IN (" + s + "))";
    }
    if (n == "case") {
      std::string s = "CASE";
      size_t i = 0;
      for (; i + 1 < a.size(); i += 2) s += " WHEN " + a[i] + " THEN " + a[i + 1];
      if (i < a.size()) s += " ELSE " + a[i];
      return s + " END";
    }
    if (n == "concat") {
      std::string s;
      for (size_t i = 0; i < a.size(); ++i) s += (i ? " || " : "") + ("coalesce(" + a[i] + ", '')");
      return "(" + s + ")";
    }
    if (n == "row") return "(" + join(", ") + ")";
    if (n == "nvl") return "ifnull(" + join(", ") + ")";
    if (n == "substring") return "substr(" + join(", ") + ")";
    if (n == "extract") {
      std::string field = e.args[0]->value;
      std::string fmt = field == "year"    ? "%Y"
                        : field == "month" ? "%m"
                        : field == "day"   ? "%d"
                                           : "";
      if (fmt.empty()) return fail("extract of " + field), "NULL";
      if (duck) return "CAST(extract(" + field + " FROM " + duckDate(a[1]) + ") AS BIGINT)";
      return "CAST(strftime('" + fmt + "', " + a[1] + " * 86400, 'unixepoch') AS INTEGER)";
    }
    for (const char* same :
         {"coalesce", "ifnull", "nullif", "abs", "round", "upper", "lower", "trim", "length"})
      if (n == same) return n + "(" + join(", ") + ")";
    fail("function " + n);
    return "NULL";
  }

  std::string cols(const PlanNode& n) {
    std::string s;
    for (size_t i = 0; i < n.output.size(); ++i) s += (i ? ", " : "") + q(n.output[i].id);
    return s.empty() ? "NULL" : s;
  }

  /// A consumer: `target` accepted by filter `id`'s content (and every NULL, for a
  /// filter that accepts NULL).
  std::string consumer(int id, const Expr& target, const std::map<std::string, std::string>& raw) {
    std::string accepted = content(id, target, raw);
    auto it = producers.find(id);
    if (it == producers.end() || !it->second.second->acceptNull) return accepted;
    rename = raw;
    std::string t = ex(target);
    rename.clear();
    return "(" + t + " IS NULL OR " + accepted + ")";
  }

  std::string content(int id, const Expr& target, const std::map<std::string, std::string>& raw) {
    auto it = producers.find(id);
    if (it == producers.end()) return fail("RF" + std::to_string(id) + " has no producer"), "1";
    const auto& [join, rf] = it->second;
    if (join->op != PlanOp::Join) return fail("a TopN filter"), "1";
    rename = raw;
    std::string t = ex(target);
    rename.clear();
    std::string b = ex(*rf->build), build = node(*join->children[1]);
    // Each consumer repeats its producer's build side, which holds its own consumers:
    // nested filters can make the text grow geometrically.
    if (build.size() > (64 << 10)) return fail("the filtered query's text grows too large"), "1";
    std::string a = fresh();
    if (!isEquality(rf->op)) {
      std::string agg = rf->op == CmpOp::Lt || rf->op == CmpOp::Le ? "max" : "min";
      return "(" + t + " " + cmpSpelling(rf->op) + " (SELECT " + agg + "(" + b + ") FROM (" +
             build + ") AS " + a + "))";
    }
    if (isComposite(*rf->build)) {
      // A composite key (k1, k2...): a row value IN the build side's key columns.
      // A NULL part matches nothing, in SQLite as in the evaluator; the evaluator's
      // false-positive key is a scalar no tuple equals, so that content is exact.
      if (rf->nullAllowed) return fail("a null-safe composite filter"), "1";
      if (f.content == rt::Content::MinMax)
        return fail("MinMax content over a composite key (runtimes build none)"), "1";
      std::string parts;
      for (const auto& p : rf->build->args) parts += (parts.empty() ? "" : ", ") + ex(*p);
      return "(" + t + " IN (SELECT " + parts + " FROM (" + build + ") AS " + a + "))";
    }
    std::string nullPart = rf->nullAllowed
                               ? " OR (" + t + " IS NULL AND EXISTS (SELECT 1 FROM (" + build +
                                     ") AS " + fresh() + " WHERE " + b + " IS NULL))"
                               : "";
    if (f.content == rt::Content::MinMax)
      return "((" + t + " BETWEEN (SELECT min(" + b + ") FROM (" + build + ") AS " + a +
             ") AND (SELECT max(" + b + ") FROM (" + build + ") AS " + fresh() + "))" + nullPart +
             ")";
    std::string in = "(" + t + " IN (SELECT " + b + " FROM (" + build + ") AS " + a + "))";
    if (rf->nullAllowed)
      in = "EXISTS (SELECT 1 FROM (" + build + ") AS " + a + " WHERE " + b +
           " IS NOT DISTINCT FROM " + t + ")";
    if (f.content == rt::Content::FalsePositive) {
      // The evaluator adds the first candidate absent from the build domain; SQL picks it the same
      // way.
      std::string alt;
      const bool text = rf->build->type.isString();
      for (const auto& x : f.extras) {
        if (std::holds_alternative<std::string>(x) != text) continue;
        std::string lx = rt::sqlLiteral(x, Type::of(text ? TypeKind::Varchar : TypeKind::Int));
        alt += "WHEN " + lx + " NOT IN (SELECT " + b + " FROM (" + build + ") AS " + fresh() +
               " WHERE " + b + " IS NOT NULL) THEN " + lx + " ";
      }
      if (!alt.empty()) in = "(" + in + " OR " + t + " = CASE " + alt + "END)";
    }
    return "(" + in + ")";
  }

  /// INTERSECT ALL / EXCEPT ALL over the children, columns named by outNames.
  std::string bagSetOperation(const PlanNode& n) {
    std::vector<std::string> parts, cols;
    for (const auto& c : n.outNames) cols.push_back(q(c));
    for (const auto& c : n.children) {
      std::string sel;
      for (size_t i = 0; i < n.outNames.size() && i < c->output.size(); ++i)
        sel += (sel.empty() ? "" : ", ") + q(c->output[i].id) + " AS " + q(n.outNames[i]);
      parts.push_back("SELECT " + sel + " FROM (" + node(*c) + ") AS " + fresh());
    }
    return sqliteBagSetOperation(n.op == PlanOp::Intersect, cols, parts, [&] { return fresh(); });
  }

  std::string node(const PlanNode& n) {
    switch (n.op) {
      case PlanOp::Scan: {
        // One level: the table under its alias, consumers over its raw columns.
        std::map<std::string, std::string> raw;
        for (const auto& c : n.tableColumns)
          raw[c.id] = q(n.alias) + "." + q(c.id.substr(n.alias.size() + 1));
        std::string sel;
        for (const auto& c : n.output)
          sel += (sel.empty() ? "" : ", ") + raw[c.id] + " AS " + q(c.id);
        std::string where;
        if (f.apply)
          for (const auto& t : n.runtimeFilterTargets)
            if (f.only.empty() || f.only.count(t.id)) {
              std::string c = consumer(t.id, *t.target, raw);
              where += (where.empty() ? " WHERE " : " AND ") + c;
            }
        return "SELECT " + (sel.empty() ? "NULL" : sel) + " FROM " + q(n.table) + " AS " +
               q(n.alias) + where;
      }
      case PlanOp::Filter:
        return "SELECT * FROM (" + node(*n.children[0]) + ") AS " + fresh() + " WHERE " +
               ex(*n.predicate);
      case PlanOp::Project: {
        std::string s;
        for (const auto& ne : n.exprs)
          s += (s.empty() ? "" : ", ") + ex(*ne.expr) + " AS " + q(ne.name);
        return "SELECT " + (s.empty() ? "NULL" : s) + " FROM (" + node(*n.children[0]) + ") AS " +
               fresh();
      }
      case PlanOp::Join: {
        std::string l = node(*n.children[0]), r = node(*n.children[1]);
        std::string la = fresh(), ra = fresh();
        std::string on = n.predicate ? ex(*n.predicate) : "TRUE";
        const auto& info = joinInfo(n.joinType);
        const char* exists = info.keepsMatched ? "EXISTS" : "NOT EXISTS";
        if (!info.outputs[1])  // semi / anti: the left rows with (or without) a match
          return "SELECT * FROM (" + l + ") AS " + la + " WHERE " + exists + " (SELECT 1 FROM (" +
                 r + ") AS " + ra + " WHERE " +
                 (info.nullAware ? "(" + on + ") IS NOT FALSE" : on) + ")";
        if (!info.outputs[0])
          return "SELECT * FROM (" + r + ") AS " + ra + " WHERE " + exists + " (SELECT 1 FROM (" +
                 l + ") AS " + la + " WHERE " +
                 (info.nullAware ? "(" + on + ") IS NOT FALSE" : on) + ")";
        const char* kind = info.hasCondition ? info.sql : "JOIN";  // CROSS: JOIN ... ON 1
        return "SELECT * FROM (" + l + ") AS " + la + " " + kind + " (" + r + ") AS " + ra +
               " ON " + on;
      }
      case PlanOp::Aggregate: {
        std::vector<std::vector<int>> sets = n.groupingSets;
        if (sets.empty()) {
          sets.emplace_back();
          for (size_t i = 0; i < n.exprs.size(); ++i) sets.back().push_back(static_cast<int>(i));
        }
        std::string child = node(*n.children[0]), out;
        for (const auto& set : sets) {
          std::string sel, group;
          for (size_t i = 0; i < n.exprs.size(); ++i) {
            bool in = std::find(set.begin(), set.end(), static_cast<int>(i)) != set.end();
            sel += (sel.empty() ? "" : ", ") + (in ? ex(*n.exprs[i].expr) : "NULL") + " AS " +
                   q(n.exprs[i].name);
            if (in) group += (group.empty() ? "" : ", ") + ex(*n.exprs[i].expr);
          }
          for (const auto& a : n.aggs) {
            std::string call;
            if (a.func == "grouping") {
              auto bits = groupingBits(n, a, set);  // a constant in each set's SELECT
              if (!bits) fail("grouping() of an expression that is not a key");
              call = std::to_string(bits.value_or(0));
            } else {
              call = aggregateCall(a.func, a.args.empty() ? "*" : ex(*a.args[0]), a.distinct, "");
            }
            sel += (sel.empty() ? "" : ", ") + call + " AS " + q(a.name);
          }
          out += (out.empty() ? "" : " UNION ALL ") + std::string("SELECT ") + sel + " FROM (" +
                 child + ") AS " + fresh() + (group.empty() ? "" : " GROUP BY " + group);
        }
        return "SELECT * FROM (" + out + ") AS " + fresh();
      }
      case PlanOp::Window: {
        std::string sel = "*";
        for (const auto& w : n.windows) {
          std::string over, order;
          for (const auto& p : w.partitionBy)
            over += (over.empty() ? "PARTITION BY " : ", ") + ex(*p);
          for (const auto& k : w.orderBy)
            order += (order.empty() ? " ORDER BY " : ", ") + ex(*k.expr) +
                     (k.ascending ? " ASC" : " DESC") +
                     (k.nullsFirst ? " NULLS FIRST" : " NULLS LAST");
          // row_number and ROWS frames see the order among ORDER BY ties, which
          // SQL leaves open: the evaluator breaks ties by the input row (each
          // column ascending, NULLs first), and so does this form.
          if (w.func == "row_number" || (w.frame && w.frame->rows))
            for (const auto& c : n.children[0]->output)
              order += (order.empty() ? " ORDER BY " : ", ") + q(c.id) + " ASC NULLS FIRST";
          const std::string frame = w.frame ? " " + frameSql(*w.frame) : "";
          std::string arg = w.args.empty() ? (w.func == "count" ? "*" : "") : ex(*w.args[0]);
          sel += ", " + aggregateCall(w.func, arg, false, " OVER (" + over + order + frame + ")") +
                 " AS " + q(w.name);
        }
        return "SELECT " + sel + " FROM (" + node(*n.children[0]) + ") AS " + fresh();
      }
      case PlanOp::Sort:
        return node(*n.children[0]);  // order matters only under a LIMIT, which writes its own
      case PlanOp::Limit: {
        const PlanNode& in = *n.children[0];
        for (const auto& rf : n.runtimeFilters)
          if (f.apply && (f.only.empty() || f.only.count(rf.id))) fail("a TopN filter");
        std::string order;
        const PlanNode* src = &in;
        if (in.op == PlanOp::Sort) {
          for (const auto& k : in.sortKeys)
            order += (order.empty() ? "" : ", ") + ex(*k.expr) + (k.ascending ? " ASC" : " DESC") +
                     (k.nullsFirst ? " NULLS FIRST" : " NULLS LAST");
          src = in.children[0].get();
        }
        for (const auto& c : n.output) order += (order.empty() ? "" : ", ") + q(c.id) + " ASC";
        return "SELECT * FROM (" + node(*src) + ") AS " + fresh() + " ORDER BY " + order +
               " LIMIT " + (n.limit ? std::to_string(*n.limit) : "9223372036854775807") +
               " OFFSET " + std::to_string(n.offset);
      }
      case PlanOp::Union:
      case PlanOp::Intersect:
      case PlanOp::Except: {
        if (n.all && n.op != PlanOp::Union) return bagSetOperation(n);
        const char* op = n.op == PlanOp::Union       ? (n.all ? " UNION ALL " : " UNION ")
                         : n.op == PlanOp::Intersect ? " INTERSECT "
                                                     : " EXCEPT ";
        std::string s;
        for (const auto& c : n.children) {
          std::string sel;
          for (size_t i = 0; i < n.outNames.size() && i < c->output.size(); ++i)
            sel += (sel.empty() ? "" : ", ") + q(c->output[i].id) + " AS " + q(n.outNames[i]);
          s += (s.empty() ? "" : op) + ("SELECT " + sel + " FROM (" + node(*c) + ") AS " + fresh());
        }
        return "SELECT * FROM (" + s + ") AS " + fresh();
      }
      case PlanOp::Values: {
        std::string s;
        for (const auto& r : n.rows) {
          std::string sel;
          for (size_t i = 0; i < r.size(); ++i)
            sel += (sel.empty() ? "" : ", ") + ex(*r[i]) + " AS " + q(n.outNames[i]);
          s += (s.empty() ? "" : " UNION ALL ") + ("SELECT " + sel);
        }
        if (s.empty()) {
          for (const auto& c : n.outNames)
            s += (s.empty() ? "SELECT " : ", ") + ("NULL AS " + q(c));
          s += " WHERE FALSE";
        }
        return "SELECT * FROM (" + s + ") AS " + fresh();
      }
    }
    return "";
  }
};

}  // namespace

std::optional<std::string> planToSqlite(const PlanNode& root, const SqlFilters& filters,
                                        std::string* why) {
  Printer p{filters, "", 0, {}, {}};
  std::function<void(const PlanNode&)> collect = [&](const PlanNode& n) {
    for (const auto& f : n.runtimeFilters) p.producers[f.id] = {&n, &f};
    for (const auto& c : n.children) collect(*c);
  };
  collect(root);
  // A root ORDER BY (under a projection and a LIMIT) orders the script's result
  // too: the equivalence check compares results in that order.
  const PlanNode* project = root.op == PlanOp::Project ? &root : nullptr;
  const PlanNode* below = project ? project->children[0].get() : &root;
  const PlanNode* limit = below->op == PlanOp::Limit ? below : nullptr;
  const PlanNode* sort = limit ? limit->children[0].get() : below;
  std::string sql;
  if (sort->op == PlanOp::Sort && (project || !limit)) {
    std::string order, sel;
    for (const auto& k : sort->sortKeys)
      order += (order.empty() ? "" : ", ") + p.ex(*k.expr) + (k.ascending ? " ASC" : " DESC") +
               (k.nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    if (project)
      for (const auto& ne : project->exprs)
        sel += (sel.empty() ? "" : ", ") + p.ex(*ne.expr) + " AS " + q(ne.name);
    const std::string from = limit ? p.node(*limit) : p.node(*sort->children[0]);
    sql = "SELECT " + (sel.empty() ? std::string("*") : sel) + " FROM (" + from + ") AS " +
          p.fresh() + " ORDER BY " + order;
  } else {
    sql = p.node(root);
  }
  if (!p.why.empty()) {
    if (why) *why = p.why;
    return std::nullopt;
  }
  return sql;
}

std::string sqlIdentifier(const std::string& id) {
  std::string out = "\"";
  for (char c : id) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void collectSqlTypes(const PlanNode& plan, SqlTableTypes& out) {
  forEachNode(plan, [&](const PlanNode& n) {
    if (n.op != PlanOp::Scan) return;
    for (const auto& c : n.tableColumns) {
      const Type& t = c.type;
      const char* sql = t.kind == TypeKind::Boolean                 ? "BOOLEAN"
                        : t.isInteger() || t.kind == TypeKind::Date ? "BIGINT"
                        : t.isNumeric()                             ? "DOUBLE"
                        : t.isString() || t.isTemporal()            ? "VARCHAR"
                                                                    : nullptr;
      if (sql) out[n.table][c.id.substr(n.alias.size() + 1)] = sql;
    }
  });
}

std::string databaseToSql(const rt::Database& db, const SqlTableTypes& types, bool create) {
  std::string out;
  for (const auto& [name, t] : db) {
    auto known = types.find(name);
    std::string cols;
    for (const auto& c : t.columns) {
      cols += (cols.empty() ? "" : ", ") + q(c);
      if (known == types.end()) continue;
      if (auto it = known->second.find(c); it != known->second.end()) cols += " " + it->second;
    }
    if (create) out += "CREATE TABLE " + q(name) + " (" + cols + ");\n";
    for (const auto& r : t.rows) {
      std::string vals;
      for (const auto& v : r)
        vals +=
            (vals.empty() ? "" : ", ") + rt::sqlLiteral(v, std::holds_alternative<std::string>(v)
                                                               ? Type::of(TypeKind::Varchar)
                                                               : Type::of(TypeKind::Int));
      out += "INSERT INTO " + q(name) + " VALUES (" + vals + ");\n";
    }
  }
  return out;
}

std::string databaseToSqlite(const rt::Database& db) {
  return databaseToSql(db, {});
}

}  // namespace rfguard
