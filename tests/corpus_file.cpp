// Reading and writing the corpus files (the format is in corpus_file.h).
#include "tests/corpus_file.h"

#include <sstream>

namespace rfguard::corpus {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  std::string l;
  while (std::getline(ss, l)) lines.push_back(l);
  return lines;
}

bool parseFile(const std::vector<std::string>& lines, std::vector<Case>& cases, std::string& err) {
  size_t i = 0;
  while (i < lines.size()) {
    const std::string& l = lines[i];
    if (l.empty() || l[0] == '#') {
      ++i;
      continue;
    }
    Case c;
    c.begin = i;
    c.line = static_cast<int>(i) + 1;
    std::stringstream ds(l);
    ds >> c.directive;
    std::string a;
    while (ds >> a) c.args.push_back(a);
    ++i;
    while (i < lines.size() && lines[i] != "----") c.input += lines[i++] + "\n";
    if (i == lines.size()) {
      err = "line " + std::to_string(c.line) + ": case has no ---- separator";
      return false;
    }
    ++i;
    if (i < lines.size() && lines[i] == "----") {  // output with blank lines
      ++i;
      while (i + 1 < lines.size() && !(lines[i] == "----" && lines[i + 1] == "----"))
        c.expected += lines[i++] + "\n";
      if (i + 1 >= lines.size()) {
        err = "line " + std::to_string(c.line) + ": unterminated ----/---- block";
        return false;
      }
      i += 2;
    } else {
      while (i < lines.size() && !lines[i].empty()) c.expected += lines[i++] + "\n";
    }
    c.end = i;
    cases.push_back(c);
  }
  return true;
}

std::string arg(const Case& c, const std::string& key, const std::string& dflt) {
  for (const auto& a : c.args) {
    if (a == key) return "true";
    if (a.rfind(key + "=", 0) == 0) return a.substr(key.size() + 1);
  }
  return dflt;
}

std::vector<std::string> argList(const Case& c, const std::string& key) {
  std::vector<std::string> out;
  for (const auto& a : c.args) {
    if (a.rfind(key + "=", 0) != 0) continue;
    std::stringstream ss(a.substr(key.size() + 1));
    std::string part;
    while (std::getline(ss, part, ','))
      if (!part.empty()) out.push_back(part);
  }
  return out;
}

void writeCase(std::ostream& os, const std::vector<std::string>& lines, const Case& c,
               const std::string& actual) {
  size_t sep = c.begin + 1;
  while (lines[sep] != "----") ++sep;
  for (size_t i = c.begin; i <= sep; ++i) os << lines[i] << "\n";
  bool blank = actual.find("\n\n") != std::string::npos || (!actual.empty() && actual[0] == '\n');
  if (blank)
    os << "----\n" << actual << "----\n----\n";
  else
    os << actual;
}

}  // namespace rfguard::corpus
