#pragma once
// Reading plan JSON (docs/plan-json.md); the writer is in printers.h.
#include <string>
#include <vector>

#include "ir/catalog.h"
#include "ir/diagnostics.h"
#include "ir/plan.h"

namespace rfguard {

/// Reads a plan JSON document into `catalog` and `queries`. Every error names
/// the JSON pointer of the offending value. Returns false on any error.
bool readPlanDocument(const std::string& text, const std::string& file, Catalog& catalog,
                      std::vector<Query>& queries, Diagnostics& diags);

}  // namespace rfguard
