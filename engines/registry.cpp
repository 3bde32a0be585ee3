// The registry: every engine rfguard knows, one line each. Adding an engine is
// its room (engines/<name>/, an Adapter) and its line here (docs/engines.md).
#include "engines/doris/adapter.h"
#include "engines/duckdb/adapter.h"
#include "engines/starrocks/adapter.h"
#include "engines/trino/adapter.h"

namespace rfguard::engine {

const std::vector<const Adapter*>& adapters() {
  static const std::vector<const Adapter*> all = {
      &duckDbAdapter(),
      &dorisAdapter(),
      &starRocksAdapter(),
      &trinoAdapter(),
  };
  return all;
}

const Adapter* findAdapter(const std::string& name) {
  for (const Adapter* a : adapters())
    if (a->name() == name) return a;
  return nullptr;
}

const Adapter* detectAdapter(const std::string& text) {
  for (const Adapter* a : adapters())
    if (a->recognizes(text)) return a;
  return nullptr;
}

std::vector<const SqlSpelling*> scriptSpellings() {
  std::vector<const SqlSpelling*> out;
  for (const Adapter* a : adapters())
    if (const SqlSpelling* s = a->spelling()) out.push_back(s);
  return out;
}

std::vector<std::string> linkedEngines() {
  std::vector<std::string> out;
  for (const Adapter* a : adapters())
    if (a->linked()) out.push_back(a->name());
  return out;
}

std::unique_ptr<Engine> open(const std::string& name, const Options& options, std::string& error) {
  const Adapter* a = findAdapter(name);
  if (!a) return error = "unknown engine \"" + name + "\"", nullptr;
  return a->open(options, error);
}

}  // namespace rfguard::engine
