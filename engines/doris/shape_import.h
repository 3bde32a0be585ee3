#pragma once
// Internal to engines/doris/: a shape plan's operator trees imported into
// rfguard's plan JSON, every runtime filter as Doris placed it (docs/doris.md).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engines/adapter.h"
#include "engines/doris/shape_lines.h"

namespace rfguard::doris_import {

/// Imports `queries` (read from file `file`) into an rfguard plan document.
/// False, with located errors, when a plan cannot be imported at all; what an
/// imported plan lost is listed in its ImportedQuery.
bool importShapePlans(const std::vector<ShapeQuery>& queries, const std::string& file,
                      const Catalog& schema, nlohmann::json& doc,
                      std::vector<engine::ImportedQuery>& out, Diagnostics& diags);

}  // namespace rfguard::doris_import
