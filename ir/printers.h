#pragma once
// Renderings of plans: annotated text, plan JSON and Graphviz DOT.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/catalog.h"
#include "ir/plan.h"

namespace rfguard {

/// One line per node, indented by depth, with node ids; subquery plans follow their node.
std::string planToText(const PlanNode& root);
/// A node's one-line description (without children): "Join #3 LEFT JOIN ON a.k = b.k".
std::string nodeLabel(const PlanNode& node);
/// An estimate of rows as people read it: 6001215 -> "6.0M", 1500 -> "1500", 0.4 -> "1".
std::string estimateText(double rows);
/// A sort key as SQL: "x.k DESC NULLS FIRST".
std::string sortKeyToString(const SortKey& k);

/// The plan JSON of one expression.
nlohmann::ordered_json exprToJson(const Expr& e);
/// A window frame as plan JSON's "frame" object (docs/plan-json.md).
nlohmann::ordered_json frameToJson(const WindowFrame& frame);
/// The plan JSON of one plan tree.
nlohmann::ordered_json planToJson(const PlanNode& root);
/// The plan JSON of the tables a set of queries read.
nlohmann::ordered_json catalogToJson(const Catalog& catalog, const std::vector<Query>& queries);
/// The whole document: format, version, catalog and queries.
nlohmann::ordered_json documentToJson(const Catalog& catalog, const std::vector<Query>& queries);

/// A Graphviz digraph with one cluster per query.
std::string planToDot(const std::vector<Query>& queries);
/// The same as a Mermaid flowchart, for Markdown (a pull-request comment).
std::string planToMermaid(const std::vector<Query>& queries);

}  // namespace rfguard
