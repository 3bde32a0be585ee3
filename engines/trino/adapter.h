#pragma once
// Trino's room: the adapter that engines/registry.cpp lists.
#include "engines/adapter.h"

namespace rfguard::engine {

/// Trino: the plan text its cost-based plan tests print (docs/trino.md).
/// Plans are read, not run: Trino is not linked.
const Adapter& trinoAdapter();

}  // namespace rfguard::engine
