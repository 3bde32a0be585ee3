#pragma once
// Internal to engines/starrocks/: StarRocks's plans imported into rfguard's
// plan JSON, every runtime filter as StarRocks placed it (docs/starrocks.md).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engines/adapter.h"
#include "engines/starrocks/plan_text.h"

namespace rfguard::starrocks_import {

/// Imports `cases` (read from `file`) into an rfguard plan document. False,
/// with located errors, when a plan cannot be imported at all; what an
/// imported plan lost is listed in its ImportedQuery.
bool importPlanCases(const std::vector<PlanCase>& cases, const std::string& file,
                     const Catalog& schema, nlohmann::json& doc,
                     std::vector<engine::ImportedQuery>& out, Diagnostics& diags);

}  // namespace rfguard::starrocks_import
