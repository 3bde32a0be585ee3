// Joins of a shape plan and the runtime filters each builds.
#include "engines/doris/import_state.h"
#include "ir/comparison.h"

#include <algorithm>
#include <functional>

namespace rfguard::doris_import {

namespace {

/// True when `x` is `a = b` of two columns (not `<=>`: NULLs never equal).
bool columnsEqual(const Json& x) {
  return equalityCall(x) && x["args"][0].contains("column") && x["args"][1].contains("column");
}

}  // namespace

bool equalityCall(const Json& x) {
  if (!x.contains("call") || !x["call"].is_string() || !x.contains("args") || x["args"].size() != 2)
    return false;
  const ComparisonInfo* cmp = comparisonNamed(x["call"].get<std::string>());
  return cmp && cmp->kind == Comparison::Eq;
}

void appendConjuncts(const Json& e, std::vector<Json>& out) {
  if (e.contains("call") && e["call"] == "and") {
    for (const auto& a : e["args"]) appendConjuncts(a, out);
    return;
  }
  out.push_back(e);
}

Json andOf(const std::vector<Json>& xs) {
  Json e = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) e = Json{{"call", "and"}, {"args", {e, xs[i]}}};
  return e;
}

bool Importer::appliedBelow(const ShapeNode& n, int rf, int depth) {
  for (const auto& applied : appliedList(n))
    if (applied.second == rf) return true;
  if (depth > kMaxShapeDepth) return false;  // a CTE that consumes itself: an error where read
  if (headOf(n.text) == "PhysicalCteConsumer")
    if (const ShapeNode* body = cteBody(n)) return appliedBelow(*body, rf, depth + 1);
  return std::any_of(n.children.begin(), n.children.end(),
                     [&](const auto& c) { return appliedBelow(*c, rf, depth + 1); });
}

std::optional<Importer::Built> Importer::join(const ShapeNode& n, std::vector<Built>& kids) {
  if (kids.size() != 2)
    return error(n, "a join with " + std::to_string(kids.size()) + " inputs"), std::nullopt;
  const std::string head = headOf(n.text);
  size_t end = 0;
  const std::string spec = balanced(n.text, n.text.find('['), end);
  const std::vector<std::string> words = splitTop(spec, ' ');
  const std::string type = words.empty() ? "" : joinType(words[0]);
  if (type.empty()) return error(n, "an unknown join type \"" + spec + "\""), std::nullopt;
  std::vector<Col> both = kids[0].cols;
  both.insert(both.end(), kids[1].cols.begin(), kids[1].cols.end());
  std::map<std::string, std::string> same = kids[0].same;
  same.insert(kids[1].same.begin(), kids[1].same.end());
  const Resolver resolve = over(both, &same);
  // Copies of one CTE joined with each other: `t1.k = t2.k` names a column
  // both inputs have, by qualifiers (the consumers' aliases) no operator
  // prints. Each qualifier is taken for one input, and an equality of such
  // columns of the same name is the probe's equal to the build's whichever
  // qualifier is whose: equality is symmetric. Any other use is left out.
  std::map<std::string, int> sideOf;  // qualifier -> input
  std::set<std::string> guessed;      // column ids resolved so
  const Resolver resolveHash = [&](const std::string& name,
                                   std::string& why) -> std::optional<ResolvedColumn> {
    auto r = resolve(name, why);
    const size_t dot = name.rfind('.');
    if (r || dot == std::string::npos) return r;
    std::string w;
    auto a = over(kids[0].cols, &kids[0].same)(name, w);
    auto b = over(kids[1].cols, &kids[1].same)(name, w);
    if (!a || !b) return r;
    const std::string q = name.substr(0, dot);
    auto it = sideOf.find(q);
    if (it == sideOf.end()) {
      if (sideOf.size() == 2) return r;
      it = sideOf.emplace(q, sideOf.empty() ? 0 : 1 - sideOf.begin()->second).first;
    }
    guessed.insert(it->second == 0 ? a->id : b->id);
    why.clear();
    return it->second == 0 ? a : b;
  };
  std::map<std::string, std::string> nameOf;  // column id -> its name
  for (const auto& c : both) nameOf[c.id] = c.name;
  const int id = newId(n);
  Json node = {{"id", id}, {"op", "join"}, {"join_type", type}};
  if (words.size() > 1 && !distribution(words[1]).empty())
    node["distribution"] = distribution(words[1]);
  std::vector<Json> conjuncts, equalities;
  auto readPart = [&](size_t open, bool hash) {
    if (open == std::string::npos || open >= n.text.size() || n.text[open] != '(') return;
    size_t close = 0;
    const std::string text = trim(balanced(n.text, open, close));
    if (text.empty()) return;
    std::string why;
    sideOf.clear();
    guessed.clear();
    auto e = parseDorisExpr(text, hash ? resolveHash : resolve, why);
    if (e && !guessed.empty()) {
      bool symmetric = true;
      std::function<void(const Json&)> check = [&](const Json& x) {
        if (x.contains("call") && x["call"] == "and") {
          for (const auto& a : x["args"]) check(a);
          return;
        }
        bool touches = false;
        std::function<void(const Json&)> walk = [&](const Json& y) {
          if (y.is_object() && y.contains("column") && guessed.count(y["column"])) touches = true;
          if (y.is_object() || y.is_array())
            for (const auto& v : y) walk(v);
        };
        walk(x);
        if (!touches) return;
        // t1.k = t2.k, both guessed: one input's k equal to the other's.
        const bool eq = columnsEqual(x);
        symmetric = symmetric && eq && guessed.count(x["args"][0]["column"]) &&
                    guessed.count(x["args"][1]["column"]) && x["args"][0] != x["args"][1] &&
                    nameOf[x["args"][0]["column"]] == nameOf[x["args"][1]["column"]];
      };
      check(*e);
      if (!symmetric) {
        e.reset();
        why =
            "it names columns both inputs have by qualifiers no operator prints, other than "
            "in equalities of a column with its namesake";
      }
    }
    if (!e) {
      loss(n, "cannot read the join's " + std::string(hash ? "hash condition" : "condition") +
                  " \"" + clip(text) + "\" (" + why + "): left out");
      return;
    }
    const size_t from = conjuncts.size();
    appendConjuncts(*e, conjuncts);
    for (size_t i = from; hash && i < conjuncts.size(); ++i)
      if (equalityCall(conjuncts[i])) equalities.push_back(conjuncts[i]);
  };
  auto after = [&](const std::string& key) {
    const size_t at = n.text.find(key);
    return at == std::string::npos ? at : at + key.size();
  };
  if (head == "NestedLoopJoin") {
    readPart(end + 1, false);  // NestedLoopJoin[INNER_JOIN](condition)
  } else {
    readPart(after("hashCondition="), true);
    readPart(after("otherCondition="), false);
  }
  if (!conjuncts.empty()) {
    node["condition"] = andOf(conjuncts);
  } else if (type != "cross") {
    node["join_type"] = type == "inner" ? "cross" : type;
    if (type != "inner") node["condition"] = Json{{"literal", true}, {"type", "boolean"}};
  }
  // The filters this join builds.
  Json filters = Json::array();
  std::set<std::string> buildIds, probeIds;
  std::map<std::string, std::string> buildName;  // id -> the name Doris prints
  for (const auto& c : kids[1].cols) buildIds.insert(c.id), buildName[c.id] = c.name;
  for (const auto& c : kids[0].cols) probeIds.insert(c.id);
  for (auto& [rf, s] : rfs_) {
    if (s.join != &n) continue;
    std::optional<Json> build, probe;
    for (const auto& eq : equalities) {
      const Json& a = eq["args"][0];
      const Json& b = eq["args"][1];
      for (int side = 0; side < 2 && !build; ++side) {
        const Json& x = side ? b : a;
        const Json& y = side ? a : b;
        if (x.contains("column") && buildIds.count(x["column"]) &&
            buildName[x["column"]] == lastPart(s.src) && columnsWithin(y, probeIds))
          build = x, probe = y;
      }
    }
    if (!build && s.src.rfind("expr_", 0) == 0) {
      // A computed slot (`expr_cast(n_nationkey as BIGINT)`): the side of an
      // equality that is its expression over the build input.
      std::string why;
      if (auto e = parseDorisExpr(s.src, over(kids[1].cols, &kids[1].same), why))
        for (const auto& eq : equalities)
          for (int side = 0; side < 2 && !build; ++side)
            if (eq["args"][side] == *e && columnsWithin(eq["args"][1 - side], probeIds))
              build = *e, probe = eq["args"][1 - side];
    }
    if (!build) {
      std::string why;
      if (auto col = over(kids[1].cols, &kids[1].same)(s.src, why)) {
        build = Json{{"column", col->id}};
        // A key compared with no probe column: the filter is over its targets alone.
        for (const auto& eq : equalities)
          for (int side = 0; side < 2 && !probe; ++side)
            if (eq["args"][side] == *build && columnsWithin(eq["args"][1 - side], probeIds))
              probe = eq["args"][1 - side];
      }
    }
    // Every target beside the join, none below its probe side: Doris' decoupled
    // filter (enable_decoupled_runtime_filter), for the build side of a join
    // above. Doris makes it or that join's own filters of the same condition
    // non-blocking (decoupled_rf_ndv_ratio_threshold decides), so the two never
    // wait on each other; the shape prints neither. Its key may be a build
    // column no equality here compares (q18's RF3 o_custkey->c_custkey): a
    // filter beside its join only.
    const bool decoupled = !appliedBelow(*n.children[0], rf);
    if (!build || (!probe && !decoupled)) {
      loss(n, "RF" + std::to_string(rf) + " " + s.src +
                  ": no equality of the hash condition compares it with the probe side: left "
                  "out");
      consumed_.insert(rf);  // said here
      dropTargets(rf);
      continue;
    }
    Json f = {{"id", rfId(rf)}, {"build", *build}};
    if (probe) f["probe"] = *probe;
    f["op"] = "=";
    f["kinds"] = kKinds;
    if (decoupled) {
      f["non_blocking"] = true;
      loss(n, "RF" + std::to_string(rf) + " " + s.src +
                  " is a decoupled filter (its targets are beside this join" +
                  (probe ? "" : ", and no equality here compares its key") +
                  "): Doris makes it, or the filters of the condition it serves, non-blocking "
                  "and the shape prints neither; imported as non-blocking");
    }
    filters.push_back(std::move(f));
    for (size_t i : pendingTargets_[rfId(rf)]) q_.dynamicFilters[i].producers = {id};
  }
  if (!filters.empty()) node["runtime_filters"] = filters;
  node["children"] = {kids[0].node, kids[1].node};
  Built out;
  out.node = std::move(node);
  // An inner join's equalities of columns make them equal in every row it outputs.
  if (type == "inner")
    for (const auto& eq : equalities)
      if (columnsEqual(eq)) makeSame(same, eq["args"][0]["column"], eq["args"][1]["column"]);
  out.same = std::move(same);
  // Semi and anti joins output one side.
  if (type == "left_semi" || type == "left_anti" || type == "null_aware_left_anti")
    out.cols = kids[0].cols;
  else if (type == "right_semi" || type == "right_anti")
    out.cols = kids[1].cols;
  else
    out.cols = both;
  return out;
}

bool Importer::columnsWithin(const Json& e, const std::set<std::string>& ids) {
  return engine::readsOnly(e, ids);
}

}  // namespace rfguard::doris_import
