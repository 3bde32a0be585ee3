// Which join each dynamic filter came from. Trino prints a dynamic filter at
// its consumer only, by the consumer's symbol, without the filter's id or the
// join's condition. Its producer is a join above with the consumer on its
// probe side, whose condition compares the symbol (or one equal to it) with
// a key of its build side: first the joins whose probe exchange hashes the
// symbol itself (the key is printed), then, nearest first, the joins whose
// build side has a column of the symbol's name or one a declared foreign key
// pairs with the consumer's column. A symbol filtered n times is
// attributed to n different joins. Where more joins qualify than the symbol
// has filters, the choice is said (an ambiguity).
#include "engines/trino/import_state.h"
#include "ir/comparison.h"

#include <algorithm>

namespace rfguard::trino_import {

namespace {

bool isJoin(const PlanOp& n) {
  return n.kind == OpKind::Join || n.kind == OpKind::CrossJoin || n.kind == OpKind::SemiJoin;
}

/// The keys of the first hash exchange at the top of `n` (through exchanges only).
std::vector<std::string> hashKeys(const PlanOp* n) {
  while (n && (n->kind == OpKind::RemoteExchange || n->kind == OpKind::LocalExchange)) {
    if (n->exchangeType == "REPARTITION" && !n->symbols.empty()) return n->symbols;
    n = n->inputs.size() == 1 ? n->inputs[0].get() : nullptr;
  }
  return {};
}

}  // namespace

std::string filterOp(const std::string& op) {
  static const std::map<std::string, std::string> kOps = {
      {"EQUAL", "="},        {"IS_NOT_DISTINCT_FROM", "<=>"},
      {"LESS_THAN", "<"},    {"LESS_THAN_OR_EQUAL", "<="},
      {"GREATER_THAN", ">"}, {"GREATER_THAN_OR_EQUAL", ">="},
  };
  auto it = kOps.find(op);
  return it == kOps.end() ? "" : it->second;
}

ExchangeKeys Importer::exchangeKeys(const PlanOp& join) const {
  ExchangeKeys k;
  if (join.distribution != "PARTITIONED" || join.inputs.size() != 2) return k;
  k.probe = hashKeys(join.inputs[0].get());
  k.build = hashKeys(join.inputs[1].get());
  if (k.probe.empty() || k.probe.size() != k.build.size()) return k;
  if (k.probe.size() == 1) {
    k.pairs.push_back({k.probe[0], k.build[0]});
    return k;
  }
  // Trino sorts the printed keys: pair them by the column name they carry.
  for (const auto& p : k.probe) {
    std::vector<std::string> same;
    for (const auto& b : k.build)
      if (baseName(b) == baseName(p)) same.push_back(b);
    if (same.size() == 1) k.pairs.push_back({p, same[0]});
  }
  return k;
}

void Importer::attribute(const PlanOp& n) {
  if (n.kind == OpKind::DynamicFilter) attributeFilterLine(n);
  for (const auto& in : n.inputs) attribute(*in);
}

void Importer::attributeFilterLine(const PlanOp& df) {
  std::map<std::string, std::set<const PlanOp*>> used;  // symbol -> joins taken on this line
  for (const auto& item : df.filters) {
    const std::string label = item.symbol + "::" + item.op;
    const std::string op = filterOp(item.op);
    if (op.empty()) {
      loss(df, "dynamic filter " + label + ": an operator rfguard does not know: left out");
      continue;
    }
    const auto target = owner(item.symbol);
    if (!target) {
      loss(df, "dynamic filter " + label + ": which column " + item.symbol +
                   " is the plan does not tell: left out");
      continue;
    }
    engine::ImportedFilter rec;
    rec.scanPointer = where(*target->scan);
    rec.column = columnId(*target);
    rec.kinds = {"in", "min_max"};
    q_.dynamicFilters.push_back(rec);
    const size_t index = q_.dynamicFilters.size() - 1;
    // The joins above with this line on their probe side, nearest first.
    std::vector<const PlanOp*> exact, named, any;
    const PlanOp* from = &df;
    for (const PlanOp* j = df.parent; j; from = j, j = j->parent) {
      if (!isJoin(*j) || j->inputs.size() != 2 || j->inputs[0].get() != from) continue;
      candidates_[index].push_back(j);
      if (used[item.symbol].count(j)) continue;
      const ExchangeKeys keys = exchangeKeys(*j);
      if (std::count(keys.probe.begin(), keys.probe.end(), item.symbol))
        exact.push_back(j);
      else if (!columnsNamed(item.symbol, *j->inputs[1]).empty() ||
               !keyPartners(*target, *j->inputs[1]).empty())
        named.push_back(j);
      else
        any.push_back(j);
    }
    const PlanOp* join = !exact.empty() ? exact[0] : !named.empty() ? named[0] : nullptr;
    if (!join) {
      loss(df, "dynamic filter " + label +
                   (comparisonNamed(op)->equality || any.empty()
                        ? ": no join above compares it with a key of its build side: left out"
                        : ": its build side's value is computed by an operator the plan does "
                          "not print (the join at line " +
                              std::to_string(any[0]->line) + "): left out"));
      continue;
    }
    used[item.symbol].insert(join);
    const int filtersOfSymbol =
        static_cast<int>(std::count_if(df.filters.begin(), df.filters.end(),
                                       [&](const DfItem& f) { return f.symbol == item.symbol; }));
    // The filters of this symbol on this line not yet attributed, this one included.
    const int left = filtersOfSymbol - static_cast<int>(used[item.symbol].size()) + 1;
    if (exact.empty() && static_cast<int>(named.size()) > left) {
      std::string lines;
      for (const PlanOp* j : named) lines += (lines.empty() ? "" : ", ") + std::to_string(j->line);
      ambiguity(df, "dynamic filter " + label + " may come from the joins at lines " + lines +
                        ": attributed to the nearest (line " + std::to_string(join->line) + ")");
    }
    // The build side's key: the exchange's pair, else the column of the
    // symbol's name on the build side nearest the join.
    std::optional<ScanColumn> build;
    for (const auto& [p, b] : exchangeKeys(*join).pairs)
      if (p == item.symbol) build = owner(b);
    if (!build) {
      auto cols = columnsNamed(item.symbol, *join->inputs[1]);
      for (const auto& c : keyPartners(*target, *join->inputs[1]))
        if (!std::count(cols.begin(), cols.end(), c)) cols.push_back(c);
      // The build side's hash keys, printed without the probe side's: the key is one of them.
      std::vector<ScanColumn> hashed;
      for (const auto& b : exchangeKeys(*join).build)
        if (auto o = owner(b); o && std::count(cols.begin(), cols.end(), *o)) hashed.push_back(*o);
      if (!hashed.empty()) cols = hashed;
      std::stable_sort(cols.begin(), cols.end(), [&](const ScanColumn& a, const ScanColumn& b) {
        return depth_.at(a.scan) < depth_.at(b.scan);
      });
      if (cols.empty()) {
        loss(df, "dynamic filter " + label + ": the build key of the join at line " +
                     std::to_string(join->line) + " is not printed: left out");
        continue;
      }
      if (cols.size() > 1) {
        std::string which;
        for (const auto& c : cols) which += (which.empty() ? "" : ", ") + columnId(c);
        ambiguity(df, "dynamic filter " + label + ": the build key of the join at line " +
                          std::to_string(join->line) + " may be any of " + which +
                          ": taken as the nearest, " + columnId(cols[0]));
      }
      build = cols[0];
    }
    Attribution a;
    a.join = join;
    a.at = &df;
    a.item = item;
    a.item.op = op;
    a.target = *target;
    a.build = *build;
    a.record = index;
    attributed_.push_back(a);
    const auto key = std::make_tuple(join, *build, op);
    if (!filterIds_.count(key)) {
      const int id = static_cast<int>(filterIds_.size()) + 1;
      filterIds_[key] = id;
    }
  }
}

}  // namespace rfguard::trino_import
