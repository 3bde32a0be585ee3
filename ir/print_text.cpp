#include <cstdio>
#include <functional>

#include "ir/printers.h"

namespace rfguard {

namespace {

std::string list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return "[" + out + "]";
}

std::string named(const NamedExpr& ne) {
  if (ne.expr->kind == ExprKind::Column && ne.expr->name == ne.name) return ne.name;
  return ne.name + " := " + exprToString(*ne.expr);
}

std::string aggText(const AggCall& a) {
  std::string args;
  for (const auto& e : a.args) args += (args.empty() ? "" : ", ") + exprToString(*e);
  if (a.args.empty() && a.func == "count") args = "*";
  return a.name + " := " + a.func + "(" + (a.distinct ? "DISTINCT " : "") + args + ")";
}

std::string windowText(const WindowCall& w) {
  std::vector<std::string> args, part, order;
  for (const auto& e : w.args) args.push_back(exprToString(*e));
  for (const auto& e : w.partitionBy) part.push_back(exprToString(*e));
  for (const auto& k : w.orderBy) order.push_back(sortKeyToString(k));
  if (args.empty() && w.func == "count") args.push_back("*");
  std::string a = list(args);
  std::string out = w.name + " := " + w.func + "(" + a.substr(1, a.size() - 2) + ") OVER (";
  if (!part.empty()) out += "PARTITION BY " + list(part).substr(1, list(part).size() - 2);
  if (!order.empty())
    out += std::string(part.empty() ? "" : " ") + "ORDER BY " +
           list(order).substr(1, list(order).size() - 2);
  if (w.frame) out += std::string(part.empty() && order.empty() ? "" : " ") + frameSql(*w.frame);
  return out + ")";
}

void collectSubqueries(const Expr& e, std::vector<const PlanNode*>& out) {
  if (e.kind == ExprKind::Subquery && e.plan) out.push_back(e.plan.get());
  for (const auto& a : e.args) collectSubqueries(*a, out);
}

void print(const PlanNode& n, int depth, std::string& out) {
  out += std::string(depth * 2, ' ') + nodeLabel(n);
  for (const auto& t : n.runtimeFilterTargets) out += "; " + targetToString(t);
  out += "\n";
  std::vector<const PlanNode*> subs;
  forEachExpr(n, [&](const ExprPtr& e) { collectSubqueries(*e, subs); });
  for (const auto* s : subs) {
    out += std::string(depth * 2 + 2, ' ') + "subquery:\n";
    print(*s, depth + 2, out);
  }
  for (const auto& c : n.children) print(*c, depth + 1, out);
}

}  // namespace

std::string sortKeyToString(const SortKey& k) {
  return exprToString(*k.expr) + (k.ascending ? " ASC" : " DESC") +
         (k.nullsFirst ? " NULLS FIRST" : " NULLS LAST");
}

std::string estimateText(double rows) {
  char buf[32];
  if (rows < 1) rows = rows > 0 ? 1 : 0;
  if (rows < 10000) {
    std::snprintf(buf, sizeof buf, "%.0f", rows);
  } else if (rows < 1e6) {
    std::snprintf(buf, sizeof buf, "%.1fK", rows / 1e3);
  } else if (rows < 1e9) {
    std::snprintf(buf, sizeof buf, "%.1fM", rows / 1e6);
  } else if (rows < 1e12) {
    std::snprintf(buf, sizeof buf, "%.1fG", rows / 1e9);
  } else {
    std::snprintf(buf, sizeof buf, "%.1e", rows);
  }
  return buf;
}

std::string nodeLabel(const PlanNode& n) {
  std::string head = std::string(1, static_cast<char>(std::toupper(opName(n.op)[0]))) +
                     (opName(n.op) + 1) + " #" + std::to_string(n.id);
  if (n.estimatedRows) {
    const std::string rows = estimateText(*n.estimatedRows);
    head += " (~" + rows + (rows == "1" ? " row)" : " rows)");
  }
  std::vector<std::string> parts;
  switch (n.op) {
    case PlanOp::Scan: {
      std::string out = head + " " + n.table + (n.alias != n.table ? " AS " + n.alias : "");
      std::vector<std::string> cols;
      for (const auto& c : n.scanColumns) cols.push_back(c.substr(c.str().find('.') + 1));
      out += " columns=" + list(cols);
      if (!n.runtimeFilterAllowed) out += " runtime_filter=false";
      return out;
    }
    case PlanOp::Filter:
      return head + " " + exprToString(*n.predicate);
    case PlanOp::Project:
      for (const auto& ne : n.exprs) parts.push_back(named(ne));
      return head + " " + list(parts);
    case PlanOp::Join: {
      std::string out = head + " " + joinInfo(n.joinType).sql +
                        (n.distribution != JoinDistribution::Unknown
                             ? std::string(" [") + joinDistributionName(n.distribution) + "]"
                             : std::string()) +
                        (n.predicate ? " ON " + exprToString(*n.predicate) : std::string());
      for (const auto& f : n.runtimeFilters) out += "; " + filterToString(f);
      return out;
    }
    case PlanOp::Aggregate: {
      for (const auto& k : n.exprs) parts.push_back(named(k));
      std::string out = head + " keys=" + list(parts);
      if (!n.groupingSets.empty()) {
        std::vector<std::string> sets;
        for (const auto& s : n.groupingSets) {
          std::vector<std::string> names;
          for (int i : s) names.push_back(n.exprs[i].name);
          sets.push_back("(" + list(names).substr(1, list(names).size() - 2) + ")");
        }
        out += " sets=" + list(sets);
      }
      std::vector<std::string> aggs;
      for (const auto& a : n.aggs) aggs.push_back(aggText(a));
      if (!aggs.empty()) out += " aggs=" + list(aggs);
      return out;
    }
    case PlanOp::Window:
      for (const auto& w : n.windows) parts.push_back(windowText(w));
      return head + " " + list(parts);
    case PlanOp::Sort:
      for (const auto& k : n.sortKeys) parts.push_back(sortKeyToString(k));
      return head + " " + list(parts);
    case PlanOp::Limit: {
      std::string out = head;
      if (n.limit) out += " limit=" + std::to_string(*n.limit);
      if (n.offset) out += " offset=" + std::to_string(n.offset);
      if (n.unprinted) out += " (count and offset not printed)";
      for (const auto& f : n.runtimeFilters) out += "; " + filterToString(f);
      return out;
    }
    case PlanOp::Union:
    case PlanOp::Intersect:
    case PlanOp::Except: {
      std::string out = head + (n.all ? " ALL " : " DISTINCT ") + list(n.outNames);
      for (const auto& f : n.runtimeFilters) out += "; " + filterToString(f);
      return out;
    }
    case PlanOp::Values: {
      std::vector<std::string> rows;
      for (const auto& r : n.rows) {
        std::vector<std::string> vals;
        for (const auto& e : r) vals.push_back(exprToString(*e));
        rows.push_back("(" + list(vals).substr(1, list(vals).size() - 2) + ")");
      }
      return head + " " + list(n.outNames) + " rows=" + list(rows);
    }
  }
  return head;
}

std::string planToText(const PlanNode& root) {
  std::string out;
  print(root, 0, out);
  return out;
}

}  // namespace rfguard
