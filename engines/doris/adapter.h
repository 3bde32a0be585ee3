#pragma once
// Doris's room: the adapter that engines/registry.cpp lists.
#include "engines/adapter.h"

namespace rfguard::engine {

/// Apache Doris: the `explain shape plan` text its regression suites print
/// (docs/doris.md). Plans are read, not run: Doris is not linked.
const Adapter& dorisAdapter();

}  // namespace rfguard::engine
