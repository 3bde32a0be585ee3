#include "verifier/plan_sql.h"

#include <algorithm>
#include <functional>
#include <map>

#include "verifier/plan_sql_printer.h"
#include "verifier/sql_forms.h"

namespace rfguard {

namespace plan_sql {

std::string Printer::cols(const PlanNode& n) {
  std::string s;
  for (size_t i = 0; i < n.output.size(); ++i) s += (i ? ", " : "") + q(n.output[i].id);
  return s.empty() ? "NULL" : s;
}

std::string Printer::consumer(int id, const Expr& target,
                              const std::map<std::string, std::string>& raw) {
  std::string accepted = content(id, target, raw);
  auto it = producers.find(id);
  if (it == producers.end() || !it->second.second->acceptNull) return accepted;
  rename = raw;
  std::string t = ex(target);
  rename.clear();
  return "(" + t + " IS NULL OR " + accepted + ")";
}

bool Printer::waitsOnItself(int id) {
  if (auto c = cyclic.find(id); c != cyclic.end()) return c->second;
  std::vector<int> seen, work{id};
  bool found = false;
  while (!work.empty() && !found) {
    auto it = producers.find(work.back());
    work.pop_back();
    if (it == producers.end()) continue;
    const int input = filterBuildInput(*it->second.first, *it->second.second);
    if (input < 0) continue;
    forEachNode(*it->second.first->children[static_cast<size_t>(input)], [&](const PlanNode& x) {
      for (const auto& t : x.runtimeFilterTargets) {
        found = found || t.id == id;
        if (std::find(seen.begin(), seen.end(), t.id) == seen.end())
          seen.push_back(t.id), work.push_back(t.id);
      }
    });
  }
  return cyclic[id] = found;
}

std::string Printer::content(int id, const Expr& target,
                             const std::map<std::string, std::string>& raw) {
  const std::string worker = scanWorker;  // the build side's scans below set their own
  auto it = producers.find(id);
  if (it == producers.end()) return fail("RF" + std::to_string(id) + " has no producer"), "1";
  const auto& [join, rf] = it->second;
  // A join's build side, or the input of a set operation that builds the filter.
  const int input = filterBuildInput(*join, *rf);
  if (input < 0)
    return fail(join->op == PlanOp::Limit ? "a TopN filter" : "a filter of no one input's keys"),
           "1";
  rename = raw;
  std::string t = ex(target);
  rename.clear();
  std::string b = ex(*rf->build), build = node(*join->children[static_cast<size_t>(input)]);
  // Each consumer repeats its producer's build side, which holds its own consumers:
  // nested filters can make the text grow geometrically.
  if (build.size() > (64 << 10)) return fail("the filtered query's text grows too large"), "1";
  std::string a = fresh();
  if (!isEquality(rf->op)) {
    std::string agg = rf->op == CmpOp::Lt || rf->op == CmpOp::Le ? "max" : "min";
    return "(" + t + " " + cmpSpelling(rf->op) + " (SELECT " + agg + "(" + b + ") FROM (" + build +
           ") AS " + a + "))";
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
  if (f.content == rt::Content::Workers && rt::localFilterPerWorker(*join, *rf)) {
    // A row passes only the keys shuffled to its worker: an integer k to k mod 2
    // (rt::workerOfKey).
    if (!target.type.isInteger() || worker.empty())
      return fail("a per-worker local filter over a key that is not an integer"), "1";
    const std::string n = std::to_string(rt::kWorkers);
    in = "(" + in + " AND ((" + t + " % " + n + ") + " + n + ") % " + n + " = " + worker + ")";
  }
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

std::string Printer::bagSetOperation(const PlanNode& n) {
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

std::string Printer::node(const PlanNode& n) {
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
      // The row's worker (rt::Content::Workers): by its distribution key's value,
      // else by its position in insertion order, which both engines' rowids follow
      // from their first (SQLite's from 1, DuckDB's from where earlier rows ended).
      const std::string k = std::to_string(rt::kWorkers);
      scanWorker =
          "(" + q(n.alias) + ".rowid - (SELECT min(rowid) FROM " + q(n.table) + ")) % " + k;
      if (!n.distributionKey.empty()) {
        const std::string id = n.alias + "." + n.distributionKey;
        auto c = std::find_if(n.tableColumns.begin(), n.tableColumns.end(),
                              [&](const Column& col) { return col.id == id; });
        scanWorker = c != n.tableColumns.end() && c->type.isInteger()
                         ? "coalesce(((" + raw[id] + " % " + k + ") + " + k + ") % " + k + ", 0)"
                         : "";
      }
      if (f.apply)
        for (const auto& t : n.runtimeFilterTargets)
          if (f.only.empty() || f.only.count(t.id)) {
            // A filter in a wait cycle: a non-blocking one never arrives (and a
            // blocking one never lets the plan run, which the evaluator reports).
            auto it = producers.find(t.id);
            if (std::find(writing.begin(), writing.end(), t.id) != writing.end() ||
                (it != producers.end() && it->second.second->nonBlocking && waitsOnItself(t.id)))
              continue;
            writing.push_back(t.id);
            std::string c = consumer(t.id, *t.target, raw);
            writing.pop_back();
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
        return "SELECT * FROM (" + l + ") AS " + la + " WHERE " + exists + " (SELECT 1 FROM (" + r +
               ") AS " + ra + " WHERE " + (info.nullAware ? "(" + on + ") IS NOT FALSE" : on) + ")";
      if (!info.outputs[0])
        return "SELECT * FROM (" + r + ") AS " + ra + " WHERE " + exists + " (SELECT 1 FROM (" + l +
               ") AS " + la + " WHERE " + (info.nullAware ? "(" + on + ") IS NOT FALSE" : on) + ")";
      const char* kind = info.hasCondition ? info.sql : "JOIN";  // CROSS: JOIN ... ON 1
      return "SELECT * FROM (" + l + ") AS " + la + " " + kind + " (" + r + ") AS " + ra + " ON " +
             on;
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
          // An integer literal key is a constant (Calcite's GROUP BY 2), not a position.
          const Expr& key = *n.exprs[i].expr;
          const bool literal = key.kind == ExprKind::Literal && !key.isNull;
          if (in)
            group += (group.empty() ? "" : ", ") +
                     (literal ? "CAST(" + ex(key) + " AS BIGINT)" : ex(key));
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
      return "SELECT * FROM (" + node(*src) + ") AS " + fresh() + " ORDER BY " + order + " LIMIT " +
             (n.limit ? std::to_string(*n.limit) : "9223372036854775807") + " OFFSET " +
             std::to_string(n.offset);
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
        // A row of no columns (SELECT without FROM) is a row of a column no one reads.
        if (sel.empty()) sel = "1 AS \"rfguard_row\"";
        s += (s.empty() ? "" : " UNION ALL ") + ("SELECT " + sel);
      }
      if (s.empty()) {
        for (const auto& c : n.outNames) s += (s.empty() ? "SELECT " : ", ") + ("NULL AS " + q(c));
        s += " WHERE FALSE";
      }
      return "SELECT * FROM (" + s + ") AS " + fresh();
    }
  }
  return "";
}

}  // namespace plan_sql

using plan_sql::Printer;
using plan_sql::q;

std::optional<std::string> planToSqlite(const PlanNode& root, const SqlFilters& filters,
                                        std::string* why) {
  Printer p{filters, "", 0, {}, {}, {}, {}, {}};
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
  // SQLite's parser stack holds some 15 nested derived tables (an unrolled
  // WITH RECURSIVE nests deeper): then the plan has no SQLite form.
  if (!filters.spelling && p.why.empty() && !sqliteParses(sql))
    p.fail("a plan nested deeper than SQLite's parser takes");
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

}  // namespace rfguard
