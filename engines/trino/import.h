#pragma once
// Internal to engines/trino/: Trino's plan text imported into rfguard's plan
// JSON, every dynamic filter as Trino placed it (docs/trino.md).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engines/adapter.h"

namespace rfguard::trino_import {

/// Imports the plan of `text` (read from `file`, the query named `name`) into
/// an rfguard plan document. False, with located errors, when it cannot be
/// imported at all; what the import lost is listed in its ImportedQuery.
bool importPlanText(const std::string& text, const std::string& file, const std::string& name,
                    const Catalog& schema, nlohmann::json& doc,
                    std::vector<engine::ImportedQuery>& out, Diagnostics& diags);

}  // namespace rfguard::trino_import
