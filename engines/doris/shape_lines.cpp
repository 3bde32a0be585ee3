// Doris's shape plan files split into blocks and operator trees.
#include "engines/doris/shape_lines.h"

#include "engines/plan_document.h"

#include <cctype>

namespace rfguard::doris_import {

namespace {

bool blank(const std::string& l) {
  for (char c : l)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

/// A comment or block header: "--" then a space (or nothing).
bool comment(const std::string& l) {
  return l == "--" || l.rfind("-- ", 0) == 0;
}

/// "-- !q5 --" -> "q5"; empty when `l` is no block header.
std::string blockName(const std::string& l) {
  if (l.rfind("-- !", 0) != 0) return "";
  std::string rest = l.substr(4);
  const size_t end = rest.find(" --");
  return end == std::string::npos ? "" : rest.substr(0, end);
}

}  // namespace

bool looksLikeShapePlan(const std::string& text) {
  for (const auto& l : engine::textLines(text)) {
    if (blank(l) || comment(l)) continue;
    return l.rfind("Physical", 0) == 0 || l.rfind("hashJoin[", 0) == 0 ||
           l.rfind("hashAgg[", 0) == 0;
  }
  return false;
}

bool readShapeDocument(const std::string& text, const std::string& file,
                       std::vector<ShapeQuery>& out, Diagnostics& diags) {
  if (!engine::checkUtf8(text, file, diags)) return false;
  const std::vector<std::string> lines = engine::textLines(text);
  std::vector<ShapeNode*> stack;  // the open operators, by depth
  ShapeQuery* current = nullptr;
  std::string pendingName;
  int pendingLine = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    const int no = static_cast<int>(i) + 1;
    if (blank(l)) continue;
    if (comment(l)) {
      if (std::string name = blockName(l); !name.empty()) {
        pendingName = name, pendingLine = no;
        current = nullptr;
        stack.clear();
      }
      continue;
    }
    size_t dashes = 0;
    while (dashes < l.size() && l[dashes] == '-') ++dashes;
    if (dashes % 2 != 0) {
      diags.error(file, {no, 1}, "an operator line starts with an odd number of dashes");
      return false;
    }
    const int depth = static_cast<int>(dashes / 2);
    if (depth >= kMaxShapeDepth) {
      diags.error(
          file, {no, 1},
          "an operator nested more than " + std::to_string(kMaxShapeDepth) + " levels deep");
      return false;
    }
    auto node = std::make_unique<ShapeNode>();
    node->line = no;
    node->col = static_cast<int>(dashes) + 1;
    node->text = l.substr(dashes);
    ShapeNode* raw = node.get();
    if (depth == 0) {
      if (current && current->root) {
        diags.error(file, {no, 1},
                    "a second plan in one block: a block holds one operator tree, its root "
                    "without dashes");
        return false;
      }
      if (!current) {
        ShapeQuery q;
        q.name = pendingName.empty() ? "query" + std::to_string(out.size() + 1) : pendingName;
        q.line = pendingName.empty() ? no : pendingLine;
        out.push_back(std::move(q));
        current = &out.back();
        pendingName.clear();
      }
      current->root = std::move(node);
      stack.assign(1, raw);
      continue;
    }
    if (!current || static_cast<size_t>(depth) > stack.size()) {
      diags.error(file, {no, node->col},
                  current ? "an operator nested more than one level below the one above it"
                          : "an operator line with dashes before any plan's root");
      return false;
    }
    stack.resize(static_cast<size_t>(depth));
    stack.back()->children.push_back(std::move(node));
    stack.push_back(raw);
  }
  if (out.empty()) {
    diags.error(file, {1, 1}, "no operator tree: not a Doris shape plan");
    return false;
  }
  return true;
}

}  // namespace rfguard::doris_import
