// The search space: only the columns the plan reads vary, over NULL (when
// nullable), the constants of the column's value class (with neighbours when
// the class compares by order) and a few fresh values; other columns hold a
// distinct tag per row, the most telling choice for a bag comparison.
#include "verifier/search_space.h"

#include <algorithm>
#include <functional>
#include <set>

#include "ir/comparison.h"
#include "ir/type_range.h"
#include "verifier/value_classes.h"

namespace rfguard {

namespace {

enum class Cls { Int, Date, Real, Text, Bool, Other };

Cls classOf(const Type& t) {
  if (t.kind == TypeKind::Boolean) return Cls::Bool;
  if (t.kind == TypeKind::Date) return Cls::Date;
  if (t.isInteger()) return Cls::Int;
  if (t.isNumeric()) return Cls::Real;
  if (t.isString()) return Cls::Text;
  return Cls::Other;
}

void exprs(const PlanNode& n, const std::function<void(const Expr&, bool bareProject)>& f) {
  forEachExpr(
      n, [&](const ExprPtr& e) { f(*e, n.op == PlanOp::Project && e->kind == ExprKind::Column); });
  for (const auto& rf : n.runtimeFilters) {
    f(*rf.probe, false);
    f(*rf.build, false);
  }
  for (const auto& t : n.runtimeFilterTargets) f(*t.target, false);
  // A CHECK constraint's columns vary and its constants are values to try.
  for (const auto& c : n.checks) f(*c, false);
}

/// A number (or date) plus d: the neighbours of a constant compared by order.
rt::Value shifted(const rt::Value& v, int d) {
  return std::holds_alternative<int64_t>(v) ? rt::Value(std::get<int64_t>(v) + d)
                                            : rt::Value(std::get<double>(v) + d);
}

/// The constants of a value class a column of class `k` can hold, with their
/// neighbours when the class compares by order.
/// Adds to an integer domain each value's images under the class's arithmetic
/// (v + c and v - c per offset, v * c and v / c per factor), once: t1.id + 5 =
/// t2.uid needs an id and a uid 5 apart, which fresh values never are.
void withImages(const ValueClass& vc, std::vector<rt::Value>& domain) {
  if (vc.offsets.empty() && vc.factors.empty()) return;
  std::set<std::string> seen;
  for (const auto& v : domain) seen.insert(rt::valueKey(v));
  const size_t n = domain.size();
  auto add = [&](int64_t x) {
    rt::Value w(x);
    if (seen.insert(rt::valueKey(w)).second) domain.push_back(w);
  };
  for (size_t i = 0; i < n; ++i) {
    // By value: add() grows `domain`, which would move the element read here.
    const auto* at = std::get_if<int64_t>(&domain[i]);
    if (!at || std::llabs(*at) > (int64_t{1} << 40)) continue;  // far from overflow
    const int64_t x = *at;
    for (int64_t c : vc.offsets) add(x + c), add(x - c);
    for (int64_t c : vc.factors)
      if (c != 0 && std::llabs(c) < (int64_t{1} << 20)) {
        add(x * c);
        if (x % c == 0) add(x / c);
      }
  }
}

std::vector<rt::Value> classDomain(const ValueClass& vc, Cls k) {
  std::vector<rt::Value> out;
  std::set<std::string> seen;
  auto add = [&](const rt::Value& v) {
    if (seen.insert(rt::valueKey(v)).second) out.push_back(v);
  };
  for (const auto& v : vc.constants) {
    if (k == Cls::Real && std::holds_alternative<int64_t>(v))
      add(rt::Value(static_cast<double>(std::get<int64_t>(v))));
    else if ((k == Cls::Real && std::holds_alternative<double>(v)) ||
             ((k == Cls::Int || k == Cls::Date) && std::holds_alternative<int64_t>(v)) ||
             (k == Cls::Text && std::holds_alternative<std::string>(v)))
      add(v);
  }
  if (vc.ranges && (k == Cls::Int || k == Cls::Date || k == Cls::Real))
    for (size_t i = 0, n = out.size(); i < n; ++i)
      for (int d : {-1, 1}) add(shifted(out[i], d));
  return out;
}

}  // namespace

SearchSpace::SearchSpace(const std::vector<const PlanNode*>& plans, int fresh, int keyValues)
    : constraints(plans) {
  std::map<Cls, std::set<std::string>> seenConst;
  std::map<Cls, std::vector<rt::Value>> constants;
  bool ranges = false;
  std::set<std::string> relevant;
  bool allRelevant = false;
  std::vector<const PlanNode*> scans;
  std::vector<const PlanNode*> all;
  for (const PlanNode* p : plans) forEachNode(*p, [&](const PlanNode& n) { all.push_back(&n); });
  for (const PlanNode* n : all) {
    if (n->op == PlanOp::Scan) scans.push_back(n);
    if (n->op == PlanOp::Limit) {
      std::string text = n->limit ? "LIMIT " + std::to_string(*n->limit) : "";
      if (n->offset)
        text += (text.empty() ? "" : " ") + std::string("OFFSET ") + std::to_string(n->offset);
      std::vector<std::string> below;
      forEachNode(*n, [&](const PlanNode& x) {
        if (x.op == PlanOp::Scan && std::find(below.begin(), below.end(), x.table) == below.end())
          below.push_back(x.table);
      });
      limits.push_back(
          {n->id, n->limit.value_or(0) + n->offset, text + " at #" + std::to_string(n->id), below});
    }
    if ((n->op == PlanOp::Union && !n->all) || n->op == PlanOp::Intersect ||
        n->op == PlanOp::Except)
      allRelevant = true;
    // Sort keys, window orders and min/max compare by order too (ValueClasses::ordered):
    // the constants' neighbours are no fresh values.
    if (n->op == PlanOp::Sort || n->op == PlanOp::Window) ranges = true;
    for (const auto& a : n->aggs) ranges = ranges || a.func == "min" || a.func == "max";
    exprs(*n, [&](const Expr& e, bool bare) {
      std::function<void(const Expr&)> visit = [&](const Expr& x) {
        if (x.kind == ExprKind::Literal && !x.isNull) {
          std::string err;
          auto v = rt::literalValue(x, &err);
          Cls c = classOf(x.type);
          if (v && c != Cls::Other && x.type.kind != TypeKind::Interval &&
              seenConst[c].insert(rt::valueKey(*v)).second)
            constants[c].push_back(*v);
        }
        if (const ComparisonInfo* cmp = comparisonOf(x); cmp && cmp->order) ranges = true;
        for (const auto& a : x.args) visit(*a);
      };
      visit(e);
      if (!bare)
        for (const auto& c : freeColumnsOf(e)) relevant.insert(c);
    });
  }
  // A foreign key between two tables of the space: its columns and the
  // referenced ones vary, or no child row would ever find its parent.
  for (const PlanNode* s : scans)
    for (const auto& fk : s->foreignKeys)
      for (const PlanNode* parent : scans)
        if (parent->table == fk.refTable) {
          for (const auto& c : fk.columns) relevant.insert(c);
          for (const auto& c : fk.refColumns) relevant.insert(parent->alias + "." + c);
        }
  // Lineage backwards: a read output column makes its sources read.
  for (bool changed = true; changed;) {
    changed = false;
    auto add = [&](const std::string& id) { changed = relevant.insert(id).second || changed; };
    for (const PlanNode* n : all) {
      if (n->op == PlanOp::Project)
        for (const auto& ne : n->exprs)
          if (relevant.count(ne.name))
            for (const auto& c : columnsOf(*ne.expr)) add(c);
      if (n->op == PlanOp::Union || n->op == PlanOp::Intersect || n->op == PlanOp::Except)
        for (size_t i = 0; i < n->outNames.size(); ++i)
          if (relevant.count(n->outNames[i]))
            for (const auto& c : n->children)
              if (i < c->output.size()) add(c->output[i].id);
    }
  }
  // Neighbours for range comparisons, then fresh values not among the constants.
  if (ranges)
    for (Cls c : {Cls::Int, Cls::Date, Cls::Real}) {
      auto base = constants[c];
      for (const auto& v : base)
        for (int d : {-1, 1}) {
          rt::Value w = shifted(v, d);
          if (seenConst[c].insert(rt::valueKey(w)).second) constants[c].push_back(w);
        }
    }
  std::map<Cls, std::vector<rt::Value>> pool;
  for (Cls c : {Cls::Int, Cls::Date, Cls::Real, Cls::Text}) {
    for (int64_t i = 1; static_cast<int>(pool[c].size()) < fresh; ++i) {
      rt::Value v = c == Cls::Text   ? rt::Value("f" + std::to_string(i))
                    : c == Cls::Real ? rt::Value(static_cast<double>(i) + 0.5)
                    : c == Cls::Date ? rt::Value(static_cast<int64_t>(10000 + i))
                                     : rt::Value(i);
      if (!seenConst[c].count(rt::valueKey(v))) pool[c].push_back(v);
    }
  }
  const ValueClasses classes(all);
  std::set<std::string> done;
  for (const PlanNode* s : scans) {
    if (!done.insert(s->table).second) continue;
    TableSpec t;
    t.name = s->table;
    size_t count = 1;
    for (const auto& col : s->tableColumns) {
      ColumnSpec c;
      c.name = col.id.substr(s->alias.size() + 1);
      c.type = col.type;
      for (const PlanNode* other : scans)
        if (other->table == s->table)
          c.varies = c.varies || allRelevant || relevant.count(other->alias + "." + c.name);
      Cls k = classOf(col.type);
      if (c.varies) {
        for (const auto& v : pool[k]) c.domain.push_back(v);
        if (k == Cls::Bool) c.domain = {rt::boolean(false), rt::boolean(true)};
        for (const auto& v : classDomain(classes.of(col.id), k)) c.domain.push_back(v);
        withImages(classes.of(col.id), c.domain);
        if (k == Cls::Int || k == Cls::Date) {  // only values the column can hold
          const std::pair<int64_t, int64_t> range = integerRange(col.type);
          c.domain.erase(std::remove_if(c.domain.begin(), c.domain.end(),
                                        [&range](const rt::Value& v) {
                                          const auto* x = std::get_if<int64_t>(&v);
                                          return x && (*x < range.first || *x > range.second);
                                        }),
                         c.domain.end());
        }
        if (col.nullable) c.domain.push_back(rt::null());
        if (c.domain.empty()) c.domain.push_back(rt::null());
        count *= c.domain.size();
      }
      t.columns.push_back(c);
    }
    auto indexOf = [&](const ColumnId& id) {
      for (size_t i = 0; i < t.columns.size(); ++i)
        if (s->alias + "." + t.columns[i].name == id) return i;
      return t.columns.size();
    };
    for (const auto& id : s->primaryKey) t.key.push_back(indexOf(id));
    for (const auto& set : s->uniqueKeys) {
      std::vector<size_t> cols;
      for (const auto& id : set) cols.push_back(indexOf(id));
      t.unique.push_back(std::move(cols));
    }
    // Enough distinct keys for a table of keyValues rows: a key column that does
    // not vary takes a distinct tag per row; else widen the first varying one
    // with values outside every pool (no symmetry is assumed among them). A
    // UNIQUE set may repeat NULL, but n rows of distinct values must exist too.
    std::vector<std::vector<size_t>> keySets = t.unique;
    if (!t.key.empty()) keySets.push_back(t.key);
    for (const auto& set : keySets) {
      bool tagged = false;
      double keys = 1;
      for (size_t i : set) {
        tagged = tagged || !t.columns[i].varies;
        size_t values = 0;
        for (const auto& v : t.columns[i].domain) values += !rt::isNull(v);
        keys *= static_cast<double>(values);
      }
      for (int extra = 1; !tagged && keys < keyValues; ++extra) {
        ColumnSpec& c = t.columns[set[0]];
        const Cls k = classOf(c.type);
        if (k == Cls::Bool) break;  // two values, no more
        const rt::Value v = k == Cls::Text   ? rt::Value("k" + std::to_string(extra))
                            : k == Cls::Real ? rt::Value(2e6 + extra + 0.25)
                                             : rt::Value(int64_t{2000000} + extra);
        bool present = false;
        for (const auto& w : c.domain) present = present || rt::valueKey(w) == rt::valueKey(v);
        if (present) continue;
        count = count / c.domain.size() * (c.domain.size() + 1);
        size_t values = 0;
        for (const auto& w : c.domain) values += !rt::isNull(w);
        keys = keys / static_cast<double>(values) * static_cast<double>(values + 1);
        c.domain.push_back(v);
      }
    }
    if (count > 20000) {
      error = "table " + t.name + " has " + std::to_string(count) +
              " possible rows over the columns the plan reads: too many to enumerate";
      return;
    }
    // Every tuple of the varying columns, first values varying slowest.
    std::vector<size_t> at(t.columns.size(), 0);
    for (size_t n = 0; n < count; ++n) {
      std::vector<rt::Value> opt;
      uint32_t mask = 0;
      size_t rem = n;
      for (size_t i = t.columns.size(); i-- > 0;) {
        const ColumnSpec& c = t.columns[i];
        if (!c.varies) continue;
        size_t j = rem % c.domain.size();
        rem /= c.domain.size();
        at[i] = j;
      }
      for (size_t i = 0; i < t.columns.size(); ++i) {
        const ColumnSpec& c = t.columns[i];
        if (!c.varies) continue;
        opt.push_back(c.domain[at[i]]);
        Cls k = classOf(c.type);
        const auto& p = pool[k];
        for (size_t f = 0; f < p.size(); ++f)
          if (k != Cls::Bool && rt::compare(p[f], c.domain[at[i]]) == 0 &&
              p[f].index() == c.domain[at[i]].index())
            mask |= 1u << (static_cast<unsigned>(k) * 4 + f);
      }
      t.options.push_back(opt);
      t.freshMask.push_back(mask);
    }
    tables.push_back(std::move(t));
  }
  for (const auto& [c, vs] : pool) extras.insert(extras.end(), vs.begin(), vs.end());
  for (const auto& [c, vs] : constants) extras.insert(extras.end(), vs.begin(), vs.end());
}

bool SearchSpace::canonical(const std::vector<std::vector<int>>& choice) const {
  uint32_t mask = pinnedFresh;
  for (size_t t = 0; t < tables.size(); ++t)
    for (int o : choice[t]) mask |= tables[t].freshMask[static_cast<size_t>(o)];
  for (unsigned c = 0; c < 6; ++c) {
    uint32_t m = (mask >> (c * 4)) & 0xF;
    if (m & (m + 1)) return false;  // not a prefix f0..fk-1
  }
  return true;
}

void SearchSpace::fill(const std::vector<std::vector<int>>& choice, rt::Database& db) const {
  int64_t tag = 0;
  for (size_t t = 0; t < tables.size(); ++t) {
    const TableSpec& spec = tables[t];
    rt::Table& out = db[spec.name];
    if (out.columns.empty())
      for (const auto& c : spec.columns) out.columns.push_back(c.name);
    // The rows are overwritten in place: the previous database's rows keep their storage.
    out.rows.resize(choice[t].size());
    for (size_t r = 0; r < choice[t].size(); ++r) {
      const auto& opt = spec.options[static_cast<size_t>(choice[t][r])];
      rt::Row& row = out.rows[r];
      row.resize(spec.columns.size());
      size_t v = 0;
      ++tag;
      for (size_t i = 0; i < spec.columns.size(); ++i) {
        const auto& c = spec.columns[i];
        if (c.varies) {
          row[i] = opt[v++];
          continue;
        }
        // A distinct tag per row, so that the bags tell rows apart.
        Cls k = classOf(c.type);
        row[i] = k == Cls::Text                    ? rt::Value("t" + std::to_string(tag))
                 : k == Cls::Real                  ? rt::Value(1e6 + static_cast<double>(tag))
                 : k == Cls::Int || k == Cls::Date ? rt::Value(int64_t{1000000} + tag)
                 : k == Cls::Bool                  ? rt::boolean(tag % 2)
                                                   : rt::null();
      }
    }
  }
}

uint32_t SearchSpace::freshUsedBy(const rt::Database& db) const {
  uint32_t mask = 0;
  for (const TableSpec& spec : tables) {
    auto table = db.find(spec.name);
    if (table == db.end()) continue;
    for (const rt::Row& row : table->second.rows)
      for (size_t o = 0; o < spec.options.size(); ++o) {
        bool same = true;
        size_t v = 0;
        for (size_t c = 0; same && c < spec.columns.size(); ++c)
          if (spec.columns[c].varies) {
            const rt::Value& want = spec.options[o][v++];
            same = want.index() == row[c].index() &&
                   (rt::isNull(want) || rt::compare(want, row[c]) == 0);
          }
        if (same) {
          mask |= spec.freshMask[o];
          break;
        }
      }
  }
  return mask;
}

void SearchSpace::keepTables(const std::function<bool(const std::string& table)>& keep) {
  tables.erase(std::remove_if(tables.begin(), tables.end(),
                              [&](const TableSpec& t) { return !keep(t.name); }),
               tables.end());
  constraints.keepTables(keep);
}

std::string SearchSpace::domainText() const {
  bool null = false;
  std::vector<rt::Value> values;
  std::set<std::string> seen;
  for (const auto& t : tables)
    for (const auto& c : t.columns) {
      if (!c.varies) continue;
      for (const auto& v : c.domain) {
        if (rt::isNull(v)) {
          null = true;
          continue;
        }
        if (seen.insert(rt::valueKey(v)).second) values.push_back(v);
      }
    }
  std::stable_sort(values.begin(), values.end(), [](const rt::Value& a, const rt::Value& b) {
    const bool sa = std::holds_alternative<std::string>(a),
               sb = std::holds_alternative<std::string>(b);
    if (sa != sb) return sb;
    return *rt::compare(a, b) < 0;
  });
  constexpr size_t kShown = 16;
  std::string out = "{";
  if (null) out += "NULL";
  for (size_t i = 0; i < values.size() && i < kShown; ++i) {
    if (out.size() > 1) out += ", ";
    out += rt::sqlLiteral(values[i], Type{});
  }
  if (values.size() > kShown) out += ", and " + std::to_string(values.size() - kShown) + " more";
  return out + "}";
}

}  // namespace rfguard
