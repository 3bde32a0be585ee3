// Trino's plan text -> import -> verify -> lint in every output format
// (fuzz/fuzz_engine_import.h), over TPC-H as Trino names its columns.
#include "engines/trino/adapter.h"
#include "fuzz/fuzz_engine_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return rfguard::fuzz::fuzzEngineImport(data, size, rfguard::engine::trinoAdapter(), ".plan.txt",
                                         rfguard::fuzz::trinoTpchSchema());
}
