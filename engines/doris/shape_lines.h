#pragma once
// Internal to engines/doris/: Doris's `explain shape plan` text as its
// regression suites print it (regression-test/data/shape_check/.../*.out): a
// file of blocks (`-- !name --`), each a tree of operators, one per line, its
// depth the number of leading dashes over two.
#include <memory>
#include <string>
#include <vector>

#include "ir/diagnostics.h"

namespace rfguard::doris_import {

/// One operator line.
struct ShapeNode {
  int line = 0;      ///< 1-based, in the document
  int col = 0;       ///< 1-based column of `text`
  std::string text;  ///< the line after its dashes
  std::vector<std::unique_ptr<ShapeNode>> children;
};

/// One block: a query's plan.
struct ShapeQuery {
  std::string name;  ///< the block's name (`-- !q5 --` -> "q5")
  int line = 0;      ///< the block's header line
  std::unique_ptr<ShapeNode> root;
};

/// The deepest operator tree read; deeper is an error, not a stack overflow.
inline constexpr int kMaxShapeDepth = 1000;

/// True when `text` reads as a shape plan file: after comment lines (`-- `)
/// and blank lines, an operator line of Doris's (`PhysicalResultSink`, ...).
bool looksLikeShapePlan(const std::string& text);

/// Splits `text` into its blocks' operator trees. False, with errors at
/// file:line:col in `diags`, when a line does not fit the tree.
bool readShapeDocument(const std::string& text, const std::string& file,
                       std::vector<ShapeQuery>& out, Diagnostics& diags);

}  // namespace rfguard::doris_import
