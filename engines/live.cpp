// The registry of engines this build links (CMake's RFGUARD_DUCKDB).
#include "engines/engine.h"

#ifdef RFGUARD_HAVE_DUCKDB
#include "engines/duckdb/capi/duckdb_engine.h"
#endif

namespace rfguard::engine {

std::vector<std::string> linkedEngines() {
#ifdef RFGUARD_HAVE_DUCKDB
  return {"duckdb"};
#else
  return {};
#endif
}

std::unique_ptr<Engine> open(const std::string& name, const Options& options, std::string& error) {
#ifdef RFGUARD_HAVE_DUCKDB
  if (name == "duckdb") return openDuckDb(options, error);
#endif
  if (name == "duckdb")
    error = "this rfguard was built without DuckDB (configured with -DRFGUARD_DUCKDB=OFF)";
  else
    error = "unknown engine \"" + name + "\"";
  return nullptr;
}

}  // namespace rfguard::engine
