#pragma once
// StarRocks's room: the adapter that engines/registry.cpp lists.
#include "engines/adapter.h"

namespace rfguard::engine {

/// StarRocks: the plan text its planner tests print, `[fragment statistics]`
/// or `[fragment]` sections (docs/starrocks.md). Plans are read, not run.
const Adapter& starRocksAdapter();

}  // namespace rfguard::engine
