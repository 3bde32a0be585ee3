#pragma once
// Entry points of the rfguard command line, callable from tests.
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "ir/catalog.h"
#include "ir/diagnostics.h"
#include "ir/plan.h"

namespace rfguard {

/// The version every output reports.
inline constexpr const char* kVersion = "0.1.0";
/// Where the documentation is (CMake's RFGUARD_DOCS_URL: the installed docs by
/// default), the base of SARIF's help links.
#ifdef RFGUARD_DOCS_URL
inline constexpr const char* kDocsUrl = RFGUARD_DOCS_URL;
#else
inline constexpr const char* kDocsUrl = "docs/";
#endif

/// Exit codes shared by every command.
enum ExitCode {
  kExitOk = 0,
  kExitFindings = 1,
  kExitInputError = 2,
  kExitInternalError = 3,  ///< an exception reached main (tools/main.cpp)
  /// rfguard check: no counterexample, but a search stopped short of --bound.
  kExitInconclusive = 4,
};

/// Runs the command line; returns the exit code.
int runCli(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace rfguard
