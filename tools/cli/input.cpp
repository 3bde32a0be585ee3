// Loading inputs: SQL scripts and plan JSON documents, from files or stdin.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "grammar/sql.h"
#include "ir/plan_json.h"
#include "tools/cli/cli.h"

namespace rfguard {

namespace {

bool looksLikeJson(const std::string& path, const std::string& text) {
  if (path.size() > 5 && path.substr(path.size() - 5) == ".json") return true;
  if (path.size() > 4 && path.substr(path.size() - 4) == ".sql") return false;
  size_t i = text.find_first_not_of(" \t\r\n");
  return i != std::string::npos && text[i] == '{';
}

}  // namespace

bool loadText(const std::string& text, const std::string& name, LoadedFile& out,
              Diagnostics& diags) {
  out.path = name;
  if (looksLikeJson(name, text))
    return readPlanDocument(text, name, out.catalog, out.queries, diags);
  return loadSql(text, name, out.catalog, out.queries, diags);
}

bool loadInput(const std::string& path, LoadedFile& out, Diagnostics& diags) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      diags.errorAt(path, "", "cannot open file");
      return false;
    }
    std::ostringstream buf;
    buf << in.rdbuf();
    text = buf.str();
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    diags.error(path, {1, 1}, "empty input: no statements");
    return false;
  }
  return loadText(text, path, out, diags);
}

}  // namespace rfguard
