// Doris's shape plans imported into rfguard's plan JSON. Each operator line
// becomes a plan node (or, for an operator that changes no rows, none); each
// `build RFs:RFn src->[dst]` at a join becomes a runtime filter there, and
// each `apply RFs: RFn` at a scan a target of it. What the shape text does not
// print (sort keys, group keys, aggregates, window functions) is inferred
// where it can be and listed as a loss where it changes what is judged.
#include "engines/doris/shape_import.h"

#include <memory>

#include "engines/doris/import_state.h"
#include "engines/plan_document.h"
#include "ir/printers.h"

namespace rfguard::doris_import {

bool Importer::run(const ShapeNode& root, Json& plan) {
  collectFilters(root);
  nextFresh_ = (rfs_.empty() ? 0 : rfs_.rbegin()->first) + 2;
  auto b = build(root, {});
  if (!b) return false;
  for (const auto& [id, spec] : rfs_)
    if (!consumed_.count(id))
      q_.losses.push_back({where(*spec.join),
                           "RF" + std::to_string(id) + " is applied at no scan the plan prints"});
  plan = std::move(b->node);
  if (!plan.is_null()) removeDropped(plan);
  if (plan.is_null()) {
    diags_.error(file_, {root.line, root.col}, "a plan without a single operator to import");
    return false;
  }
  return true;
}

bool Importer::error(const ShapeNode& n, const std::string& m) {
  diags_.error(file_, {n.line, n.col}, m);
  return false;
}

int Importer::newId(const ShapeNode& n) {
  q_.sourcePointer[next_] = where(n);
  return next_++;
}

void Importer::collectFilters(const ShapeNode& n) {
  // hashAgg[LOCAL] under a hashAgg[GLOBAL] (through an exchange) is the
  // first phase of one aggregation; alone it is the whole of it.
  if (n.text.rfind("hashAgg[GLOBAL]", 0) == 0 && n.children.size() == 1) {
    const ShapeNode* c = n.children[0].get();
    if (headOf(c->text) == "PhysicalDistribute" && c->children.size() == 1)
      c = c->children[0].get();
    if (c->text.rfind("hashAgg[LOCAL]", 0) == 0) partial_.insert(c);
  }
  const std::string head = headOf(n.text);
  if ((head == "PhysicalCteProducer" || head == "CteProducer") && n.children.size() == 1)
    ctes_.emplace(cteIdOf(n), n.children[0].get());  // a second one is an error where read
  // A set operation's filters (Doris's RuntimeFilterV2, also at a join):
  // `RFV2: RF6[src->dst] RF7[src->dst]`, the values of its first input's
  // column into the other inputs; `build RFs:` in the same form, as at joins
  // in older plans.
  const bool join = head == "hashJoin" || head == "NestedLoopJoin";
  for (const char* key : {"RFV2:", "build RFs:"}) {
    const size_t at = n.text.find(key);
    // A scan's `RFV2: RF6` applies a filter (appliedList).
    if (at == std::string::npos || head.find("Scan") != std::string::npos) continue;
    const std::string list = n.text.substr(at + std::string(key).size());
    const bool bracketed = std::string(key) == "RFV2:" || !join;
    for (const auto& item : splitTop(list, bracketed ? ' ' : ';')) {
      if (bracketed && (item == "(ignored)" || item.empty())) continue;
      // RF4 s_nationkey->[c_nationkey] | RF0 c_custkey->o_custkey | RF4 s->[a,b] | RF6[s->d]
      const size_t sp = bracketed ? item.find('[') : item.find(' ');
      const size_t arrow = item.find("->");
      if (item.rfind("RF", 0) != 0 || sp == std::string::npos || arrow == std::string::npos ||
          arrow < sp || (bracketed && item.back() != ']')) {
        loss(n, "cannot read the runtime filter \"" + item + "\"");
        continue;
      }
      int id = -1;
      try {
        id = std::stoi(item.substr(2, sp - 2));
      } catch (const std::exception&) {
      }
      if (id < 0 || id > 1000000 || rfs_.count(id)) {
        loss(n, "cannot read the runtime filter \"" + item + "\" (its id)");
        continue;
      }
      RfSpec s;
      s.src = trim(item.substr(sp + 1, arrow - sp - 1));
      std::string dst = trim(item.substr(arrow + 2));
      if (bracketed) dst.pop_back();  // RF6[src->dst]
      if (!dst.empty() && dst.front() == '[' && dst.back() == ']')
        dst = dst.substr(1, dst.size() - 2);
      for (const auto& d : splitTop(dst, ',')) s.dsts.push_back(d);
      s.join = &n;
      if (!join && !isSetOperation(n)) {
        loss(n, "the runtime filter " + item + " is built by " + head +
                    ", which rfguard does not model as a producer: left out, with its targets");
        rfs_[id] = s;
        consumed_.insert(id);
        dropTargets(id);
        continue;
      }
      rfs_[id] = s;
    }
  }
  for (const auto& c : n.children) collectFilters(*c);
}

std::optional<Importer::Built> Importer::build(const ShapeNode& n,
                                               const std::set<std::string>& wanted) {
  const std::string head = headOf(n.text);
  if (head == "PhysicalOlapScan" || head == "PhysicalLazyMaterializeOlapScan") {
    if (!n.children.empty()) return error(n, "a scan with inputs"), std::nullopt;
    return scan(n);
  }
  if (++built_ > kMaxImported)
    return error(n, "too large to import: more than " + std::to_string(kMaxImported) +
                        " operators and columns they output (each CTE consumer imports its "
                        "producer's operators again)"),
           std::nullopt;
  if (head == "PhysicalCteAnchor") return cteAnchor(n, wanted);
  if (head == "PhysicalCteConsumer") return cteConsumer(n, wanted);
  if (head == "PhysicalCteProducer" || head == "CteProducer")
    return error(n, "a CTE producer that is not the first input of its CTE anchor"), std::nullopt;
  std::set<std::string> names = wanted;
  const auto own = namesIn(n.text);
  names.insert(own.begin(), own.end());
  if (isSetOperation(n)) return setOperation(n, names);
  std::vector<Built> kids;
  for (size_t i = 0; i < n.children.size(); ++i) {
    // Below a join, a name goes to the one input that provides it; a name
    // both provide is left to the resolver, which says when it is ambiguous.
    std::set<std::string> mine;
    for (const auto& name : names) {
      if (name.rfind(kAggregateMark, 0) == 0 || name.rfind(kWindowMark, 0) == 0) {
        // the aggregate or window below that computes it
        mine.insert(name);
        continue;
      }
      bool here = provides(*n.children[i]).count(name) > 0, elsewhere = false;
      for (size_t j = 0; j < n.children.size(); ++j)
        if (j != i && provides(*n.children[j]).count(name)) elsewhere = true;
      if (n.children.size() == 1 || (here && !elsewhere)) mine.insert(name);
      // A name no input's scans provide may be a set operation's column or a
      // mark join's mark below.
      if (!here && !elsewhere && madeBelow(*n.children[i])) mine.insert(name);
      if (here && elsewhere) unrouted_.insert(name);  // for the CTEs below (import_cte.cpp)
    }
    auto k = build(*n.children[i], mine);
    if (!k) return std::nullopt;
    built_ += static_cast<long>(k->cols.size());
    kids.push_back(std::move(*k));
  }
  if (isMarkJoin(n) && kids.size() == 2) return markJoin(n, kids, names);
  if (head == "hashJoin" || head == "NestedLoopJoin") return join(n, kids);
  if (kids.size() != 1) {
    // A set operation (the shape prints none of its columns) or an operator
    // rfguard does not know, of several inputs: some of their rows.
    return someRowsOf(n, kids,
                      head + " of " + std::to_string(kids.size()) +
                          " inputs, whose columns the shape plan does not tie to its inputs': "
                          "imported as an operator that returns some of their rows, without "
                          "columns");
  }
  Built& child = kids[0];
  // Operators that change no rows: the result sink, exchanges, sorts (their
  // order is not a bag's), a partial aggregate (its global one follows),
  // a lazy materialisation (it reads columns late).
  if (head == "PhysicalResultSink" || head == "PhysicalDistribute" || head == "PhysicalQuickSort" ||
      head == "PhysicalLazyMaterialize" || (head == "hashAgg" && partial_.count(&n)))
    return std::move(child);
  if (head == "PhysicalProject") return project(n, std::move(child));
  if (head == "filter") return filter(n, std::move(child));
  if (head == "hashAgg") return aggregate(n, std::move(child), wanted);
  if (head == "PhysicalWindow")
    if (auto w = window(n, child, wanted)) return w;
  // TopN prints neither its keys nor its count: a limit that may cut any
  // rows. A PhysicalWindow whose functions the operators above do not print
  // readably, and any other operator rfguard does not know: kept as an
  // operator that may cut any rows, and said.
  if (head != "PhysicalTopN")
    loss(n, head == "PhysicalWindow"
                ? "a window operator whose functions the operators above do not print (or not "
                  "readably): imported as an operator that may cut any rows"
                : "an operator rfguard does not know (" + head +
                      "): imported as one that may cut any rows");
  Built out;
  out.node = Json{{"id", newId(n)},
                  {"op", "limit"},
                  {"unprinted", true},
                  {"children", {std::move(child.node)}}};
  out.cols = std::move(child.cols);
  out.same = std::move(child.same);
  return out;
}

void Importer::removeDropped(Json& node) {
  if (auto t = node.find("runtime_filter_targets"); t != node.end()) {
    Json kept = Json::array();
    for (const auto& x : *t)
      if (!dropped_.count(x["id"].get<int>())) kept.push_back(x);
    if (kept.empty())
      node.erase("runtime_filter_targets");
    else
      *t = kept;
  }
  for (auto& c : node["children"]) removeDropped(c);
}

bool importShapePlans(const std::vector<ShapeQuery>& queries, const std::string& file,
                      const Catalog& schema, nlohmann::json& doc,
                      std::vector<engine::ImportedQuery>& out, Diagnostics& diags) {
  Json qs = Json::array();
  std::map<std::string, TableDef> tables;
  std::set<std::string> names;
  bool ok = true;
  for (const auto& sq : queries) {
    std::string name = sq.name;
    for (int k = 2; !names.insert(name).second; ++k) name = sq.name + "_" + std::to_string(k);
    engine::ImportedQuery q;
    q.name = name;
    auto imp = std::make_unique<Importer>(schema, file, q, diags);
    Json plan;
    if (!imp->run(*sq.root, plan)) {
      ok = false;
      continue;
    }
    if (imp->readsCtes()) {
      // Again, each CTE's copies outputting the columns any consumer reads.
      auto wanted = imp->cteColumns();
      q = engine::ImportedQuery{};
      q.name = name;
      imp = std::make_unique<Importer>(schema, file, q, diags);
      imp->cteWanted = std::move(wanted);
      plan = Json();
      if (!imp->run(*sq.root, plan)) {
        ok = false;
        continue;
      }
    }
    qs.push_back({{"name", q.name}, {"plan", plan}});
    out.push_back(std::move(q));
    engine::mergeTables(tables, imp->usedTables);
  }
  doc = engine::planDocument(schema, tables, std::move(qs));
  return ok;
}

}  // namespace rfguard::doris_import
