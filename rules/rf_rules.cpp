// The runtime-filter rule table. A derivation that breaks at a step reports
// the finding of that step's rule; "target-not-derivable" when no rule of its
// own explains the break (the filter simply does not reach the target).
#include "rules/rf_rules.h"

#include <cassert>

namespace rfguard {

namespace {

constexpr const char* kNotDerivable = "target-not-derivable";

// One row per rule, in enum order: rule, name, finding of a refused step, doc line.
// The verifier judges every placement, an engine's included, by the sound rules,
// so an engine's own rules never break a derivation and map to no finding.
// clang-format off
const std::vector<RfRuleInfo> kRules = {
  {RfRule::GenerateFromJoinConjunct, "GenerateFromJoinConjunct", kNotDerivable,
   "a join whose unmatched probe rows never reach its output produces a filter from a top-level `=` or `<=>` conjunct"},
  {RfRule::GenerateScalarFilter, "GenerateScalarFilter", kNotDerivable,
   "a range conjunct against a build side of at most one row produces a scalar filter"},
  {RfRule::GenerateCompositeFilter, "GenerateCompositeFilter", kNotDerivable,
   "with --composite, one filter over all equality conjuncts of a join (all `=` or all `<=>`)"},
  {RfRule::GenerateTopNFilter, "GenerateTopNFilter", kNotDerivable,
   "ORDER BY k LIMIT n produces a threshold filter on its first sort key when that is a column"},
  {RfRule::CostThreshold, "CostThreshold", kNotDerivable,
   "with --cost, a filter is built only for a probe side of 100000 rows or more and a build side of at most a tenth of it"},
  {RfRule::PassThroughRowPreserving, "PassThroughRowPreserving", kNotDerivable,
   "filters and sorts keep or order rows without changing them"},
  {RfRule::PassThroughUnchanged, "PassThroughUnchanged", kNotDerivable,
   "a run of nodes that all pass a column filter unchanged, skipped by the lineage index"},
  {RfRule::BlockAtLimit, "BlockAtLimit", "crossed-limit",
   "never below LIMIT/OFFSET: it would change which rows are picked"},
  {RfRule::PassThroughProject, "PassThroughProject", "crossed-nondeterministic-projection",
   "through a deterministic projection, substituted; never through random()"},
  {RfRule::PassThroughAggregateKeys, "PassThroughAggregateKeys", "crossed-aggregate",
   "through an aggregate when the expression reads group keys present in every grouping set"},
  {RfRule::PassThroughWindowPartition, "PassThroughWindowPartition", "crossed-window",
   "through a window when the expression reads only every window's PARTITION BY keys"},
  {RfRule::PassThroughSetOp, "PassThroughSetOp", "into-except-right",
   "into every input of UNION/INTERSECT and the left input of EXCEPT, through the column mapping"},
  {RfRule::PassThroughJoinLineage, "PassThroughJoinLineage", kNotDerivable,
   "into the join child whose output holds all of the expression's columns"},
  {RfRule::PassThroughJoinPreservedSide, "PassThroughJoinPreservedSide", kNotDerivable,
   "into a side whose rows reach the join's output unchanged or not at all"},
  {RfRule::PassThroughJoinNullGeneratingSide, "PassThroughJoinNullGeneratingSide", "unsafe-null-generating-side",
   "into a NULL-generating side only with a NULL-propagating expression and a filter that rejects NULL"},
  {RfRule::PassThroughLeaf, "PassThrough", kNotDerivable,
   "a scan or VALUES has no inputs to pass into"},
  {RfRule::CopyAcrossJoinEquality, "CopyAcrossJoinEquality", "unsafe-equality-copy",
   "across a join equality to the other side; from a NULL-generating side only for a NULL-propagating key and a filter that rejects NULL"},
  {RfRule::CopyAcrossNullAwareJoin, "CopyAcrossNullAwareJoin", "into-null-aware-anti-build",
   "never across a NULL-aware anti join (NOT IN): dropping a NULL or matching row there lets probe rows through"},
  {RfRule::ConsumeAtScan, "ConsumeAtScan", kNotDerivable,
   "a scan applies a filter to a deterministic expression over its own columns, unless its table refuses filters"},
  {RfRule::ConsumeTopNThreshold, "ConsumeTopNThreshold", kNotDerivable,
   "a TopN threshold is applied only to the sort key's column itself"},
  {RfRule::ConsumerCap, "ConsumerCap", kNotDerivable,
   "at most 64 consumers per filter, nearest scans first"},
  {RfRule::DorisProducer, "DorisProducer", kNotDerivable,
   "Doris: every join type off its deny list produces from an equality conjunct"},
  {RfRule::DorisProducerDenyList, "DorisProducerDenyList", kNotDerivable,
   "Doris: LEFT ANTI, FULL, LEFT and NOT IN joins produce no filter"},
  {RfRule::DorisNullSafeStopsAtOuterJoin, "DorisNullSafeStopsAtOuterJoin", kNotDerivable,
   "Doris: a `<=>` filter stops at any outer join"},
  {RfRule::DorisPassThroughLineage, "DorisPassThroughLineage", kNotDerivable,
   "Doris: along the lineage, into a NULL-generating side with a NULL-propagating expression (no null-allowing check)"},
  {RfRule::DorisExpandByInnerJoin, "DorisExpandByInnerJoin", kNotDerivable,
   "Doris: across an equality of an inner or semi join, to a single-column expression"},
  {RfRule::DorisSingleSlotTarget, "DorisSingleSlotTarget", kNotDerivable,
   "Doris: a target binds to a single slot"},
  {RfRule::StarRocksProducer, "StarRocksProducer", kNotDerivable,
   "StarRocks: inner, left semi, right, right semi, right anti and cross joins produce"},
  {RfRule::StarRocksProducerTypes, "StarRocksProducerTypes", kNotDerivable,
   "StarRocks: other join types produce no filter"},
  {RfRule::StarRocksBilateral, "StarRocksBilateral", kNotDerivable,
   "StarRocks: a column key of a plain `=` conjunct goes to both children (no NULL checks)"},
  {RfRule::StarRocksUnilateral, "StarRocksUnilateral", kNotDerivable,
   "StarRocks: otherwise into the one side its join type allows; else the filter stays at the join"},
  {RfRule::TrinoProducer, "TrinoProducer", kNotDerivable,
   "Trino: INNER and RIGHT joins create dynamic filters"},
  {RfRule::TrinoProducerTypes, "TrinoProducerTypes", kNotDerivable,
   "Trino: other join types create none"},
  {RfRule::TrinoPredicatePushDown, "TrinoPredicatePushDown", kNotDerivable,
   "Trino: a filter that is not over one side of the join (or at a FULL join) stays above it"},
  {RfRule::TrinoPreservedSideFirst, "TrinoPreservedSideFirst", kNotDerivable,
   "Trino: a filter moves to the preserved side; over the NULL-generating side it stays above"},
  {RfRule::TrinoDeriveAcrossEquality, "TrinoDeriveAcrossEquality", kNotDerivable,
   "Trino: from the preserved side a copy is derived across a plain `=` of INNER/LEFT/RIGHT joins"},
  {RfRule::TrinoSymbolOrCastTarget, "TrinoSymbolOrCastTarget", kNotDerivable,
   "Trino: a target is a symbol or a CAST of one"},
};
// clang-format on

}  // namespace

const RfRuleInfo& rfRuleInfo(RfRule r) {
  const auto& info = kRules[static_cast<size_t>(r)];
  assert(info.rule == r && "table rows are in enum order");
  return info;
}

const char* ruleName(RfRule r) {
  return rfRuleInfo(r).name;
}

const std::vector<RfRuleInfo>& allRfRules() {
  return kRules;
}

std::optional<RfRule> parseRfRule(std::string_view name) {
  for (const auto& r : kRules)
    if (name == r.name) return r.rule;
  return std::nullopt;
}

}  // namespace rfguard
