// The normal form's join law (normal_form_laws.h, kJoins): a join whose other
// input nothing reads is its kept input, where each kept row appears once.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/comparison.h"
#include "ir/join_keys.h"
#include "ir/join_type.h"
#include "verifier/normal_form_laws.h"
#include "verifier/row_keys.h"

namespace rfguard::normal_form {

namespace {

/// The scan whose column `id` reaches `n`'s output with its table's values on
/// every row: through filters, sorts, limits, windows, projections that pass it
/// under its id, and joins on a side they never NULL-fill. Null otherwise.
const PlanNode* sourceScan(const PlanNode& n, const std::string& id) {
  switch (n.op) {
    case PlanOp::Scan:
      return produces(n, id) ? &n : nullptr;
    case PlanOp::Filter:
    case PlanOp::Sort:
    case PlanOp::Limit:
    case PlanOp::Window:
      return n.children.size() == 1 ? sourceScan(*n.children[0], id) : nullptr;
    case PlanOp::Project:
      for (const auto& ne : n.exprs)
        if (ne.name == id)
          return ne.expr->kind == ExprKind::Column && ne.expr->name == id
                     ? sourceScan(*n.children[0], id)
                     : nullptr;
      return nullptr;
    case PlanOp::Join:
      for (size_t s = 0; s < n.children.size() && s < 2; ++s)
        if (produces(*n.children[s], id))
          return joinInfo(n.joinType).generatesNulls[s] ? nullptr : sourceScan(*n.children[s], id);
      return nullptr;
    default:
      return nullptr;
  }
}

/// Columns each expression of the plan reads, counted once per conjunct.
using Reads = std::map<std::string, int>;

void countReads(const PlanNode& root, Reads& reads) {
  forEachNode(root, [&](const PlanNode& x) {
    forEachExpr(x, [&](const ExprPtr& e) {
      for (const auto& conjunct : conjuncts(e))
        for (const auto& c : columnsOf(*conjunct)) ++reads[c];
    });
  });
}

/// Columns read by position, not by id: the root's, a set operation's inputs',
/// a subquery's result.
std::set<std::string> readByPosition(const PlanNode& root) {
  std::set<std::string> out = outputIds(root);
  forEachNode(root, [&](const PlanNode& x) {
    if (x.op == PlanOp::Union || x.op == PlanOp::Intersect || x.op == PlanOp::Except)
      for (const auto& c : x.children)
        for (const auto& col : c->output) out.insert(col.id);
    forEachSubqueryPlan(x, [&](const PlanNode& q) {
      for (const auto& col : q.output) out.insert(col.id);
    });
  });
  return out;
}

/// Join `n`'s condition split into equalities between a column of input 0 and
/// a column of input 1 and the rest; `parts` holds its conjuncts meanwhile.
SplitCondition columnKeys(const PlanNode& n, std::vector<const Expr*>& parts) {
  auto reads = [](const PlanNode& c) {
    return [&c](const Expr& e) { return e.kind == ExprKind::Column && produces(c, e.name); };
  };
  for (const auto& c : conjuncts(n.predicate)) parts.push_back(c.get());
  return splitJoinCondition(parts, reads(*n.children[0]), reads(*n.children[1]), {CmpOp::Eq});
}

/// The equalities of join `n`'s condition between a column of input 0 and a
/// column of input 1 (id pairs), when the condition is nothing else.
std::optional<std::vector<std::pair<std::string, std::string>>> columnEqualities(
    const PlanNode& n) {
  std::vector<const Expr*> parts;
  const SplitCondition split = columnKeys(n, parts);
  if (!split.residue.empty() || split.keys.empty()) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> out;
  for (const JoinKey& k : split.keys) out.emplace_back(k.left()->name, k.right()->name);
  return out;
}

}  // namespace

/// True when inner join `n`'s condition is exactly a FOREIGN KEY of a table
/// scanned in its input `keep` equated with the columns it references in a
/// scan of that table, the other input (no filter: every row of the table): with
/// the key's columns NOT NULL, each row of `keep` meets exactly one row of it.
/// So too a key of the table equated with itself in another scan of it.
/// Counterexample with a nullable key column: a row whose key is NULL meets
/// none, and the join drops it.
bool foreignKeyJoin(const PlanNode& n, int keep) {
  const PlanNode& other = *n.children[static_cast<size_t>(1 - keep)];
  if (other.op != PlanOp::Scan) return false;
  auto eqs = columnEqualities(n);
  if (!eqs) return false;
  std::map<std::string, std::string> kept;  // the other scan's bare column -> kept column id
  const std::string prefix = other.alias + ".";
  for (auto [a, b] : *eqs) {
    if (keep == 1) std::swap(a, b);
    // A referenced column equated twice (e.boss = d.deptno AND e.deptno =
    // d.deptno) also equates the two: a filter, not the key alone.
    if (b.rfind(prefix, 0) != 0 || !kept.emplace(b.substr(prefix.size()), a).second) return false;
  }
  const PlanNode* scan = sourceScan(*n.children[static_cast<size_t>(keep)], kept.begin()->second);
  if (!scan) return false;
  // The same table's key, column for column: each row meets itself alone (a
  // key's columns NOT NULL). Counterexample with a key over nullable columns:
  // a row whose key is NULL meets none.
  if (scan->table == other.table) {
    std::set<std::string> same;
    for (const auto& [bare, id] : kept)
      if (id == scan->alias + "." + bare &&
          sourceScan(*n.children[static_cast<size_t>(keep)], id) == scan)
        same.insert(id);
    // (A scan's keys are a PRIMARY KEY or UNIQUE over NOT NULL columns: row_keys.h.)
    if (same.size() == kept.size() && hasRowKeyWithin(*scan, same)) return true;
  }
  for (const auto& fk : scan->foreignKeys) {
    if (fk.refTable != other.table || fk.columns.size() != kept.size()) continue;
    bool match = true;
    for (size_t i = 0; match && i < fk.columns.size(); ++i) {
      auto it = kept.find(fk.refColumns[i]);
      match = it != kept.end() && it->second == fk.columns[i].str() &&
              sourceScan(*n.children[static_cast<size_t>(keep)], it->second) == scan;
      bool notNull = false;
      for (const auto& c : scan->tableColumns)
        if (c.id == fk.columns[i]) notNull = !c.nullable;
      for (const auto& c : scan->primaryKey) notNull = notNull || c == fk.columns[i];
      match = match && notNull;
    }
    if (match) return true;
  }
  return false;
}

namespace {

/// True when each row of input `keep` of join `n` meets at most one row of
/// the other: its condition equates a key of the other input with columns of
/// `keep`.
bool keyOfOtherMatched(const PlanNode& n, int keep) {
  if (!n.predicate) return false;
  const PlanNode& other = *n.children[static_cast<size_t>(1 - keep)];
  std::set<std::string> equated;
  std::vector<const Expr*> parts;
  for (const JoinKey& k : columnKeys(n, parts).keys)
    equated.insert((keep == 0 ? k.right() : k.left())->name);
  return hasRowKeyWithin(other, equated);
}

/// True when LEFT (RIGHT) join `n` keeps input `keep` whole and each of its
/// rows meets at most one row of the other (keyOfOtherMatched). Every row of
/// `keep` then appears once, matched or padded. Counterexample without the
/// key: two rows of the other input match one row, which appears twice.
bool atMostOneMatch(const PlanNode& n, int keep) {
  const auto& info = joinInfo(n.joinType);
  return info.preserves[keep] && !info.preserves[1 - keep] && keyOfOtherMatched(n, keep);
}

/// True when join `n` (movable condition) outputs input `keep` and no one
/// but the condition and the other input itself reads the other's columns
/// (`reads` counted over the whole plan, `pinned` read by position).
bool otherUnread(const PlanNode& n, int keep, const Reads& reads,
                 const std::set<std::string>& pinned) {
  const PlanNode& other = *n.children[static_cast<size_t>(1 - keep)];
  if (!joinInfo(n.joinType).outputs[keep] || !freeColumns(other).empty() ||
      !deterministicPlan(other))
    return false;
  Reads local;
  countReads(other, local);
  for (const auto& c : conjuncts(n.predicate))
    for (const auto& col : columnsOf(*c)) ++local[col];
  bool unread = true;
  for (const auto& col : other.output) {
    auto it = reads.find(col.id);
    const int total = it == reads.end() ? 0 : it->second;
    unread = unread && !pinned.count(col.id) && total == local[col.id];
  }
  return unread;
}

bool plainJoin(const PlanNode& n) {
  return n.op == PlanOp::Join && n.children.size() == 2 && n.predicate && movable(*n.predicate) &&
         !hasSubquery(*n.predicate);
}

/// The input join `n` keeps when the other one may go (kJoins): no one but the
/// condition and that input itself reads its columns (`reads` counted over the
/// whole plan, `pinned` read by position), and every kept row appears once in
/// the join's result (foreignKeyJoin, atMostOneMatch). -1 when neither.
int droppable(const PlanNode& n, const Reads& reads, const std::set<std::string>& pinned) {
  if (!plainJoin(n)) return -1;
  const auto& info = joinInfo(n.joinType);
  const bool inner = info.freelyReordered && info.hasCondition;
  for (int keep = 0; keep < 2; ++keep)
    if (otherUnread(n, keep, reads, pinned) &&
        (inner ? foreignKeyJoin(n, keep) : atMostOneMatch(n, keep)))
      return keep;
  return -1;
}

/// Inner join `n` as the semi join that keeps input `keep` (kSemi), where
/// nothing but its condition reads the other input and each kept row meets
/// at most one row of it (keyOfOtherMatched): a row with a match appears once
/// either way, one without none. Spark's and DuckDB's IN as a join to the
/// DISTINCT subquery, read backwards. Counterexample without the key: two
/// matching rows of the other input make the inner join return a row twice.
/// Null when it is no such join.
PlanPtr asSemiJoin(const PlanNode& n, const Reads& reads, const std::set<std::string>& pinned) {
  if (!plainJoin(n)) return nullptr;
  const auto& info = joinInfo(n.joinType);
  if (!info.freelyReordered || !info.hasCondition) return nullptr;
  for (int keep = 0; keep < 2; ++keep)
    if (otherUnread(n, keep, reads, pinned) && keyOfOtherMatched(n, keep)) {
      auto semi = makePooled<PlanNode>(n);
      semi->joinType = keep == 0 ? JoinType::LeftSemi : mirrored(JoinType::LeftSemi);
      semi->runtimeFilters.clear();
      computeOutput(*semi);
      return semi;
    }
  return nullptr;
}

/// A filter's equalities between columns of the two inputs of the inner (or
/// cross) join below it, as that join's condition: sigma_p(A x B) is
/// A join_p B, so a join written in WHERE may go as one written in ON. Null
/// when there are none; `kept` gets the filter's other conjuncts.
PlanPtr withEqualitiesOf(const PlanNode& f, Conjuncts& kept) {
  if (f.op != PlanOp::Filter || f.children.size() != 1 || !f.predicate || !movable(*f.predicate))
    return nullptr;
  const PlanNode& j = *f.children[0];
  if (j.op != PlanOp::Join || j.children.size() != 2 || !joinInfo(j.joinType).freelyReordered ||
      (j.predicate && !movable(*j.predicate)))
    return nullptr;
  Conjuncts moved;
  for (const auto& c : conjuncts(f.predicate)) {
    const ComparisonInfo* cmp = comparisonOf(*c);
    const bool pair = cmp && cmp->kind == Comparison::Eq && c->args[0]->kind == ExprKind::Column &&
                      c->args[1]->kind == ExprKind::Column;
    bool across = false;
    for (size_t s = 0; pair && s < 2; ++s)
      across = across || (produces(*j.children[s], c->args[0]->name) &&
                          produces(*j.children[1 - s], c->args[1]->name));
    (across ? moved : kept).push_back(c);
  }
  if (moved.empty()) return nullptr;
  if (j.predicate) moved.insert(moved.begin(), j.predicate);
  auto copy = makePooled<PlanNode>(j);
  copy->predicate = makeAnd(moved);
  copy->joinType = JoinType::Inner;
  return copy;
}

/// A filter over an inner join: its conjuncts that read one input's columns
/// alone filter that input (sigma_p(A join B) = sigma_p(A) join B), so that
/// asSemiJoin sees where a filter reads the other input wherever the query
/// wrote it. True when one moved.
bool filterIntoJoinInput(PlanPtr& slot) {
  const PlanNode& f = *slot;
  if (!plainFilter(f)) return false;
  const PlanNode& j = *f.children[0];
  if (j.op != PlanOp::Join || j.children.size() != 2 || !joinInfo(j.joinType).freelyReordered)
    return false;
  return filterInto(
      slot,
      [&](const ExprPtr& c) {
        for (size_t i = 0; i < 2; ++i)
          if (within(*c, *j.children[i])) return static_cast<int>(i);
        return -1;
      },
      [](const ExprPtr& c) { return c; });
}

/// Drops one join below `slot` that may go (droppable), written in ON or, for
/// an inner join, in the WHERE above it (withEqualitiesOf); or, with kSemi,
/// makes an inner join of two inputs a semi join (asSemiJoin). Only a block of
/// two inputs: in a larger one which join reads an input depends on the order
/// the query joins them in, and the form must not. `inBlock`: an inner join is
/// above `slot` through filters and projections of columns.
bool dropOne(PlanPtr& slot, const Reads& reads, const std::set<std::string>& pinned,
             unsigned identities, bool inBlock) {
  const PlanNode& join =
      slot->op == PlanOp::Filter && slot->children.size() == 1 ? *slot->children[0] : *slot;
  const bool semi = (identities & kSemi) && !inBlock &&
                    std::none_of(join.children.begin(), join.children.end(),
                                 [](const PlanPtr& c) { return joinsMore(*c); });
  if (semi && filterIntoJoinInput(slot)) return true;
  if (int keep = (identities & kJoins) ? droppable(*slot, reads, pinned) : -1; keep >= 0) {
    slot = slot->children[static_cast<size_t>(keep)];
    return true;
  }
  if (semi)
    if (PlanPtr s = asSemiJoin(*slot, reads, pinned)) {
      slot = s;
      return true;
    }
  Conjuncts kept;
  if (PlanPtr join = withEqualitiesOf(*slot, kept)) {
    PlanPtr input;
    if (int keep = (identities & kJoins) ? droppable(*join, reads, pinned) : -1; keep >= 0)
      input = join->children[static_cast<size_t>(keep)];
    if (input) {
      if (kept.empty()) {
        slot = input;
      } else {
        slot->predicate = makeAnd(kept);
        slot->children[0] = input;
      }
      return true;
    }
  }
  // A filter over an inner join, its conjuncts (those over both inputs, after
  // filterIntoJoinInput) its condition: sigma_p(A join_q B) = A join_(q AND p) B.
  if (semi && plainFilter(*slot) && innerJoin(*slot->children[0]) &&
      slot->children[0]->children.size() == 2 &&
      (!slot->children[0]->predicate || movable(*slot->children[0]->predicate))) {
    auto join = makePooled<PlanNode>(*slot->children[0]);
    join->predicate =
        join->predicate ? makeAnd({join->predicate, slot->predicate}) : slot->predicate;
    join->joinType = withCondition(join->joinType, true);
    if (PlanPtr s = asSemiJoin(*join, reads, pinned)) {
      slot = s;
      return true;
    }
  }
  const bool below = innerJoin(*slot) || (inBlock && passing(*slot));
  for (auto& c : slot->children)
    if (dropOne(c, reads, pinned, identities, below)) return true;
  return false;
}

}  // namespace

bool innerJoin(const PlanNode& n) {
  return n.op == PlanOp::Join && joinInfo(n.joinType).freelyReordered;
}

/// A filter, or a projection of columns: a block of inner joins reaches
/// through it.
bool passing(const PlanNode& n) {
  return n.children.size() == 1 &&
         (n.op == PlanOp::Filter ||
          (n.op == PlanOp::Project &&
           std::all_of(n.exprs.begin(), n.exprs.end(),
                       [](const NamedExpr& ne) { return ne.expr->kind == ExprKind::Column; })));
}

/// Part of a block of inner joins with what is above or below it: an inner
/// join, or one below filters and projections of columns.
bool joinsMore(const PlanNode& n) {
  return innerJoin(n) || (passing(n) && joinsMore(*n.children[0]));
}

bool leftJoinsLeftDeep(PlanPtr& slot) {
  // A LEFT JOIN (B LEFT JOIN C ON q) ON p is (A LEFT JOIN B ON p) LEFT JOIN C
  // ON q where p reads only A and B and q is never TRUE on B's NULLs (a
  // conjunct of q rejects them): each A row meets the B rows p matches, each
  // with its C matches or padded, either way; an A row no B row matches is
  // padded on both sides, since q matches no C row to its NULL B columns
  // (Galindo-Legaria and Rosenthal's associativity of outer joins).
  // Counterexample with q = (c.k IS NULL OR b.w = c.k): A = {(1)}, B = {}, C =
  // {(NULL, 1)}: the nested form pads a's row once with NULLs, the left-deep
  // one joins it to C's row.
  PlanNode& top = *slot;
  if (top.op != PlanOp::Join || top.children.size() != 2 || !isLeftOuter(top.joinType))
    return false;
  const PlanNode& inner = *top.children[1];
  if (inner.op != PlanOp::Join || inner.children.size() != 2 || !isLeftOuter(inner.joinType))
    return false;
  const PlanNode &a = *top.children[0], &b = *inner.children[0];
  const Conjuncts qs = inner.predicate ? conjuncts(inner.predicate) : Conjuncts{};
  if (!top.predicate || !inner.predicate || !movable(*top.predicate) ||
      !movable(*inner.predicate) || hasSubquery(*top.predicate) || hasSubquery(*inner.predicate) ||
      std::none_of(qs.begin(), qs.end(), [&](const ExprPtr& c) { return rejectsNulls(*c, b); }) ||
      !allColumnRefs(*top.predicate,
                     [&](const std::string& id) { return produces(a, id) || produces(b, id); }))
    return false;
  auto left = makePooled<PlanNode>(top);
  left->children = {top.children[0], inner.children[0]};
  left->runtimeFilters.clear();
  computeOutput(*left);
  auto right = makePooled<PlanNode>(inner);
  right->children = {left, inner.children[1]};
  right->runtimeFilters.clear();
  computeOutput(*right);
  slot = right;
  return true;
}

bool dropUnreadJoin(PlanPtr& root, unsigned identities) {
  Reads reads;
  countReads(*root, reads);
  return dropOne(root, reads, readByPosition(*root), identities, false);
}

}  // namespace rfguard::normal_form
