// Set operations of a shape plan: PhysicalUnion, PhysicalIntersect and
// PhysicalExcept print none of their columns. Their columns are rebuilt from
// what ties an output position to each input's column: the filters the set
// operation builds (`PhysicalExcept RFV2: RF6[c_last_name->c_last_name]`: the
// first input's c_last_name and the column of that name in the input whose
// scan applies RF6), a name every input provides, and a join filter above
// whose targets name one column in each input (`RF0 d_date_sk->
// [cs_sold_date_sk,ws_sold_date_sk]` on `date_dim.d_date_sk =
// wscs.sold_date_sk`). Each input is then narrowed to those columns, in order.
#include <algorithm>

#include "engines/doris/import_state.h"

namespace rfguard::doris_import {

namespace {

/// The conjuncts of the hash condition a join line prints
/// (`hashCondition=((a = b) and (c = d))`), as text.
std::vector<std::string> hashConjuncts(const std::string& text) {
  const size_t at = text.find("hashCondition=");
  if (at == std::string::npos) return {};
  const size_t from = at + std::string("hashCondition=").size();
  const size_t end = text.find(" otherCondition=", from);
  const std::string cond = text.substr(from, end == std::string::npos ? end : end - from);
  std::vector<std::string> out;
  for (size_t p = 0, q; p <= cond.size(); p = q + 5) {
    q = cond.find(" and ", p);
    if (q == std::string::npos) q = cond.size();
    out.push_back(cond.substr(p, q - p));
  }
  return out;
}

}  // namespace

bool Importer::isSetOperation(const ShapeNode& n) {
  const std::string head = headOf(n.text);
  return (head == "PhysicalUnion" || head == "PhysicalIntersect" || head == "PhysicalExcept") &&
         n.children.size() >= 2;
}

Importer::Built Importer::someRowsOf(const ShapeNode& n, std::vector<Built>& kids,
                                     const std::string& why) {
  loss(n, why);
  std::vector<Json> ins;
  for (auto& k : kids) ins.push_back(std::move(k.node));
  Built out;
  out.node = engine::opaqueOfInputs(std::move(ins), [&] { return newId(n); });
  return out;
}

bool Importer::madeBelow(const ShapeNode& n) {
  auto it = madeBelow_.find(&n);
  if (it != madeBelow_.end()) return it->second;
  bool found = isSetOperation(n) || isMarkJoin(n);
  for (const auto& c : n.children) found = found || madeBelow(*c);
  return madeBelow_[&n] = found;
}

std::optional<Importer::Built> Importer::setOperation(const ShapeNode& n,
                                                      const std::set<std::string>& names) {
  const std::string head = headOf(n.text);
  const size_t inputs = n.children.size();
  struct Position {
    std::string out;              ///< its name above (the first input's column's)
    std::vector<std::string> in;  ///< per input, the name of its column there
    std::string how;              ///< what tied it, for the loss
  };
  std::vector<Position> pos;
  auto at = [&](const std::string& out) -> Position* {
    for (auto& p : pos)
      if (p.out == out) return &p;
    return nullptr;
  };
  // The filters this operator builds: the first input's values at one
  // position, into the input whose scan applies it.
  // (An input other than the first, else the first: a filter into the input
  // it is built from is imported as printed, and the verifier says what is wrong.)
  std::map<int, size_t> into;  // Doris id -> the input it filters
  for (const auto& [rf, s] : rfs_) {
    if (s.join != &n) continue;
    for (size_t i = 1; i <= inputs && !into.count(rf); ++i)
      if (appliedBelow(*n.children[i % inputs], rf)) into[rf] = i % inputs;
    if (!into.count(rf) || s.dsts.size() != 1) continue;  // said below
    Position* p = at(lastPart(s.src));
    if (!p) {
      pos.push_back({lastPart(s.src), std::vector<std::string>(inputs), "RF" + std::to_string(rf)});
      p = &pos.back();
      p->in[0] = s.src;
    }
    if (p->in[into[rf]].empty()) p->in[into[rf]] = s.dsts[0];
  }
  // A name an input lacks: the column of that name it provides.
  for (auto& p : pos)
    for (size_t i = 0; i < inputs; ++i)
      if (p.in[i].empty() && provides(*n.children[i]).count(p.out)) p.in[i] = p.out;
  // The names the operators above read: each input's column of that name, or
  // the targets of a join filter above keyed on it, one in each input.
  for (const auto& name : names) {
    if (name.rfind(kAggregateMark, 0) == 0 || name.rfind(kWindowMark, 0) == 0) continue;
    const std::string bare = lastPart(name);
    if (at(bare)) continue;
    Position p{bare, std::vector<std::string>(inputs), "its name"};
    for (size_t i = 0; i < inputs; ++i) {
      const auto& has = provides(*n.children[i]);
      if (has.count(name))
        p.in[i] = name;
      else if (has.count(bare))
        p.in[i] = bare;
    }
    if (std::any_of(p.in.begin(), p.in.end(), [](const auto& s) { return s.empty(); })) {
      for (const auto& [rf, s] : rfs_) {
        // A join above whose hash condition compares the name with the filter's key.
        bool compared = false;
        for (const auto& c : hashConjuncts(s.join->text)) {
          const auto read = namesIn(c);
          compared = compared || (read.count(name) && read.count(lastPart(s.src)));
        }
        if (holds(n, s.join) || !compared) continue;
        std::vector<std::string> in(inputs);
        for (size_t i = 0; i < inputs; ++i)
          for (const auto& d : s.dsts)
            if (in[i].empty() && provides(*n.children[i]).count(lastPart(d)) &&
                appliedBelow(*n.children[i], rf))
              in[i] = lastPart(d);
        if (std::none_of(in.begin(), in.end(), [](const auto& x) { return x.empty(); })) {
          p.in = in;
          p.how = "RF" + std::to_string(rf) + "'s targets";
          break;
        }
      }
    }
    if (std::none_of(p.in.begin(), p.in.end(), [](const auto& s) { return s.empty(); }))
      pos.push_back(std::move(p));
  }
  // Each input, asked for its columns of the positions, then narrowed to them.
  std::vector<Built> kids;
  for (size_t i = 0; i < inputs; ++i) {
    std::set<std::string> mine;
    for (const auto& p : pos) mine.insert(p.in[i]);
    auto k = build(*n.children[i], mine);
    if (!k) return std::nullopt;
    built_ += static_cast<long>(k->cols.size());
    kids.push_back(std::move(*k));
  }
  std::vector<std::vector<std::string>> ids;  // per kept position, per input: a column id
  std::vector<const Position*> kept;
  for (const auto& p : pos) {
    std::vector<std::string> cols;
    std::string why;
    for (size_t i = 0; i < inputs && why.empty(); ++i)
      if (auto c = over(kids[i].cols, &kids[i].same)(p.in[i], why)) cols.push_back(c->id);
    if (!why.empty()) {
      loss(n, "cannot tie the column " + p.out + " of " + head + " to its inputs (" + why +
                  "): left out");
      continue;
    }
    ids.push_back(std::move(cols));
    kept.push_back(&p);
  }
  const char* op = head == "PhysicalUnion"       ? "union"
                   : head == "PhysicalIntersect" ? "intersect"
                                                 : "except";
  if (kept.empty()) {
    // No column tied: some of the inputs' rows, and the filters built here are left out.
    for (const auto& [rf, s] : rfs_)
      if (s.join == &n) consumed_.insert(rf), dropTargets(rf);
    return someRowsOf(n, kids,
                      head + " of " + std::to_string(inputs) +
                          " inputs, none of whose columns the plan ties to its inputs': imported "
                          "as an operator that returns some of their rows, without columns");
  }
  const int id = newId(n);
  Built out;
  Json columns = Json::array(), children = Json::array();
  std::string tied;
  for (size_t p = 0; p < kept.size(); ++p) {
    Col c;
    c.id = "s" + std::to_string(id) + "." + std::to_string(p) + "_" + alnum(kept[p]->out);
    c.name = kept[p]->out;
    for (const auto& k : kids[0].cols)
      if (k.id == ids[p][0]) c.type = k.type;
    columns.push_back(c.id);
    out.cols.push_back(c);
    tied += (tied.empty() ? "" : ", ") + kept[p]->out + " by " + kept[p]->how;
  }
  // Input i's column of position p, as the narrowing projection names it.
  auto inputColumn = [&](size_t i, size_t p) { return out.cols[p].id + ".in" + std::to_string(i); };
  for (size_t i = 0; i < inputs; ++i) {
    Json exprs = Json::array();
    for (size_t p = 0; p < kept.size(); ++p)
      exprs.push_back({{"name", inputColumn(i, p)}, {"expr", {{"column", ids[p][i]}}}});
    children.push_back(Json{{"id", newId(n)},
                            {"op", "project"},
                            {"exprs", exprs},
                            {"children", {std::move(kids[i].node)}}});
  }
  Json node = {{"id", id}, {"op", op}, {"all", head == "PhysicalUnion"}, {"columns", columns}};
  // The filters built here: Doris makes them null-aware (RuntimeFilter.toThrift
  // sets null_aware for a SetOperationNode's), as the set operation matches a
  // NULL with a NULL.
  Json filters = Json::array();
  for (const auto& [rf, s] : rfs_) {
    if (s.join != &n) continue;
    size_t p = kept.size();
    for (size_t k = 0; k < kept.size(); ++k)
      if (kept[k]->out == lastPart(s.src) && kept[k]->in[0] == s.src) p = k;
    if (!into.count(rf) || p == kept.size()) {
      loss(n, "RF" + std::to_string(rf) + " " + s.src +
                  (into.count(rf) ? "" : " is applied in no other input, or") +
                  " is not a column the plan ties to each input: left out");
      consumed_.insert(rf);
      dropTargets(rf);
      continue;
    }
    filters.push_back({{"id", rfId(rf)},
                       {"build", {{"column", inputColumn(0, p)}}},
                       {"probe", {{"column", inputColumn(into[rf], p)}}},
                       {"op", "="},
                       {"null_allowed", true},
                       {"kinds", kKinds}});
    for (size_t i : pendingTargets_[rfId(rf)]) q_.dynamicFilters[i].producers = {id};
  }
  if (!filters.empty()) node["runtime_filters"] = filters;
  node["children"] = std::move(children);
  out.node = std::move(node);
  loss(n, head + " prints none of its columns: imported with the " + std::to_string(kept.size()) +
              " the plan ties to its inputs (" + tied + "), each input narrowed to them" +
              (head == "PhysicalUnion"
                   ? "; as UNION ALL (Doris plans UNION DISTINCT as an aggregate above it)"
                   : "; as DISTINCT") +
              "; Doris's other columns are left out");
  return out;
}

}  // namespace rfguard::doris_import
