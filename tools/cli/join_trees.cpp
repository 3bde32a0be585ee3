// Join trees as text, with and without their sides, and compared.
#include "tools/cli/join_trees.h"

#include <algorithm>
#include <vector>

#include "ir/join_type.h"

namespace rfguard {

namespace {

/// A join tree node: a leaf (a table), a join of two, or a set operation.
struct Tree {
  std::string label;  ///< a table; a join's type; UNION, INTERSECT, EXCEPT
  bool join = false;
  std::vector<Tree> kids;
};

Tree treeOf(const PlanNode& n) {
  switch (n.op) {
    case PlanOp::Scan:
      return {n.table, false, {}};
    case PlanOp::Values:
      return {"values", false, {}};
    case PlanOp::Join: {
      Tree t{joinInfo(withCondition(n.joinType, true)).name, true, {}};
      for (const auto& c : n.children) t.kids.push_back(treeOf(*c));
      return t;
    }
    case PlanOp::Union:
    case PlanOp::Intersect:
    case PlanOp::Except: {
      Tree t{n.op == PlanOp::Union       ? "UNION"
             : n.op == PlanOp::Intersect ? "INTERSECT"
                                         : "EXCEPT",
             false,
             {}};
      for (const auto& c : n.children) t.kids.push_back(treeOf(*c));
      return t;
    }
    default:
      if (n.children.size() == 1) return treeOf(*n.children[0]);
      Tree t{"?", false, {}};
      for (const auto& c : n.children) t.kids.push_back(treeOf(*c));
      return t;
  }
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string text(const Tree& t) {
  if (t.join && t.kids.size() == 2) {
    const std::string op = t.label == "inner" ? "JOIN" : upper(t.label);
    return "(" + text(t.kids[0]) + " " + op + " " + text(t.kids[1]) + ")";
  }
  if (t.kids.empty()) return t.label;
  std::string out = t.label + "(";
  for (size_t i = 0; i < t.kids.size(); ++i) out += (i ? ", " : "") + text(t.kids[i]);
  return out + ")";
}

/// The tree with each join's inputs in a canonical order (a join mirrored
/// when its inputs swap), and how many joins had to swap.
std::string sideless(const Tree& t, int& swaps) {
  if (t.join && t.kids.size() == 2) {
    std::string a = sideless(t.kids[0], swaps), b = sideless(t.kids[1], swaps);
    std::string label = t.label;
    if (b < a) {
      std::swap(a, b);
      if (auto jt = parseJoinType(label)) label = joinInfo(mirrored(*jt)).name;
      ++swaps;
    }
    return "(" + a + " " + label + " " + b + ")";
  }
  std::vector<std::string> kids;
  for (const auto& k : t.kids) kids.push_back(sideless(k, swaps));
  if (t.label == "UNION" || t.label == "INTERSECT") std::sort(kids.begin(), kids.end());
  std::string out = t.label;
  if (!kids.empty()) {
    out += "(";
    for (size_t i = 0; i < kids.size(); ++i) out += (i ? ", " : "") + kids[i];
    out += ")";
  }
  return out;
}

int joinsIn(const Tree& t) {
  int n = t.join ? 1 : 0;
  for (const auto& k : t.kids) n += joinsIn(k);
  return n;
}

/// Joins at which `a` and `b` (the same tree, sides aside) put their inputs
/// the other way round.
int swapped(const Tree& a, const Tree& b) {
  if (!a.join || !b.join || a.kids.size() != 2 || b.kids.size() != 2) {
    int n = 0;
    for (size_t i = 0; i < std::min(a.kids.size(), b.kids.size()); ++i)
      n += swapped(a.kids[i], b.kids[i]);
    return n;
  }
  int ignored = 0;
  const bool straight = sideless(a.kids[0], ignored) == sideless(b.kids[0], ignored);
  if (straight) return swapped(a.kids[0], b.kids[0]) + swapped(a.kids[1], b.kids[1]);
  return 1 + swapped(a.kids[0], b.kids[1]) + swapped(a.kids[1], b.kids[0]);
}

}  // namespace

std::string joinTreeText(const PlanNode& plan) {
  return text(treeOf(plan));
}

JoinTreeComparison compareJoinTrees(const PlanNode& engine, const PlanNode& rfguard) {
  const Tree e = treeOf(engine), r = treeOf(rfguard);
  JoinTreeComparison c;
  c.engine = text(e);
  c.rfguard = text(r);
  c.joins = joinsIn(e);
  int ignored = 0;
  c.sameTree = sideless(e, ignored) == sideless(r, ignored);
  if (c.sameTree) {
    c.sidesDiffer = swapped(e, r);
    c.sameSides = c.sidesDiffer == 0;
  }
  return c;
}

std::string joinTreeLines(const std::string& who, const JoinTreeComparison& t) {
  if (t.sameSides) return "  join tree: " + who + "'s, build sides too\n";
  if (t.sameTree)
    return "  join tree: " + who + "'s, the build side swapped at " +
           std::to_string(t.sidesDiffer) + " of " + std::to_string(t.joins) + " joins\n";
  // The engine's name and rfguard's, as wide as each other.
  auto padded = [&](std::string s) {
    s.resize(std::max(who.size(), std::string("rfguard").size()) + 2, ' ');
    return s;
  };
  return "  join tree: another\n    " + padded(who + ":") + t.engine + "\n    " +
         padded("rfguard:") + t.rfguard + "\n";
}

nlohmann::ordered_json joinTreeJson(const JoinTreeComparison& t) {
  return {{"engine", t.engine},
          {"rfguard", t.rfguard},
          {"joins", t.joins},
          {"same_tree", t.sameTree},
          {"same_build_sides", t.sameSides},
          {"build_sides_swapped", t.sidesDiffer}};
}

void JoinTreeTally::add(const JoinTreeComparison& t) {
  ++compared;
  same += t.sameTree;
  sameSides += t.sameSides;
}

std::string JoinTreeTally::summary() const {
  return "-- join trees: " + std::to_string(compared) + " compared with rfguard's, " +
         std::to_string(same) + " the same (" + std::to_string(sameSides) +
         " with the same build sides)\n";
}

nlohmann::ordered_json JoinTreeTally::json() const {
  return {{"compared", compared}, {"same_tree", same}, {"same_build_sides", sameSides}};
}

}  // namespace rfguard
