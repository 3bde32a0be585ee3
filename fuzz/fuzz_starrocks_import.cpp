// StarRocks's plan text -> import -> verify -> lint in every output format
// (fuzz/fuzz_engine_import.h).
#include "engines/starrocks/adapter.h"
#include "fuzz/fuzz_engine_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return rfguard::fuzz::fuzzEngineImport(data, size, rfguard::engine::starRocksAdapter(), ".sql");
}
