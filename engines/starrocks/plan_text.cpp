// Reading StarRocks's plan text into fragments of operator trees
// (plan_text.h). The tree is read by its prefixes: an operator at prefix P has
// its properties on lines `P|  ...` (or, for an operator without inputs, on
// lines `P   ...`), an input on a branch `P|----N:KIND` (its own lines at
// prefix `P|    `), and its last input on a line `P N:KIND`.
#include "engines/starrocks/plan_text.h"

#include "engines/plan_document.h"

#include <cctype>

namespace rfguard::starrocks_import {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

namespace {

/// `N:KIND` with N digits and KIND starting with a letter: an operator line.
bool isHead(const std::string& s) {
  size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  return i > 0 && i <= 9 && i + 1 < s.size() && s[i] == ':' &&
         std::isalpha(static_cast<unsigned char>(s[i + 1]));
}

/// `[sql]`, `[end]`, `[fragment statistics]`...: a section of a test file.
bool isSection(const std::string& line) {
  return line.size() > 2 && line.front() == '[' && line.back() == ']';
}

class Reader {
 public:
  Reader(const std::vector<std::string>& lines, const std::string& file, Diagnostics& diags)
      : lines_(lines), file_(file), diags_(diags) {}

  /// The fragments of lines [from, to).
  bool fragments(size_t from, size_t to, std::vector<Fragment>& out) {
    end_ = to;
    size_t i = from;
    while (i < to) {
      const std::string& l = lines_[i];
      if (trim(l).empty()) {
        ++i;
        continue;
      }
      if (l.rfind("PLAN FRAGMENT ", 0) != 0)
        return error(i, 1, "expected `PLAN FRAGMENT n`, found \"" + clip(l) + "\"");
      Fragment f;
      f.line = static_cast<int>(i) + 1;
      try {
        f.id = std::stoi(l.substr(14));
      } catch (const std::exception&) {
        return error(i, 15, "a fragment without its number");
      }
      ++i;
      // The fragment's own lines, up to its first operator.
      for (; i < to && !isHead(lines_[i]); ++i) {
        if (lines_[i].rfind("PLAN FRAGMENT ", 0) == 0)
          return error(i, 1, "fragment " + std::to_string(f.id) + " has no operator");
        std::string t = trim(lines_[i]);
        for (const char* key : {"OutPut Exchange Id:", "EXCHANGE ID:"})
          if (t.rfind(key, 0) == 0) try {
              f.outExchange = std::stoi(t.substr(std::string(key).size()));
            } catch (const std::exception&) {
              return error(i, 1, "an exchange id that is no number");
            }
      }
      if (i >= to) return error(to - 1, 1, "fragment " + std::to_string(f.id) + " has no operator");
      f.root = node(i, "", 0, 0);
      if (!f.root) return false;
      for (; i < to && trim(lines_[i]).empty(); ++i) {
      }
      if (i < to && lines_[i].rfind("PLAN FRAGMENT ", 0) != 0)
        return error(i, 1,
                     "a line that fits no operator of the tree above: \"" + clip(lines_[i]) + "\"");
      out.push_back(std::move(f));
    }
    return true;
  }

 private:
  const std::vector<std::string>& lines_;
  const std::string& file_;
  Diagnostics& diags_;
  size_t end_ = 0;

  bool error(size_t line, size_t col, const std::string& m) {
    diags_.error(file_, {static_cast<int>(line) + 1, static_cast<int>(col)}, m);
    return false;
  }
  static std::string clip(const std::string& s) {
    return s.size() > 80 ? s.substr(0, 77) + "..." : s;
  }

  /// The operator whose head is at lines_[i] from column `at`, with prefix `prefix`.
  std::unique_ptr<PlanOp> node(size_t& i, const std::string& prefix, size_t at, int depth) {
    if (depth > kMaxPlanDepth) {
      error(i, at + 1, "operators nested more than " + std::to_string(kMaxPlanDepth) + " deep");
      return nullptr;
    }
    auto op = std::make_unique<PlanOp>();
    const std::string head = lines_[i].substr(at);
    const size_t colon = head.find(':');
    op->id = std::stoi(head.substr(0, colon));  // isHead: digits, then ':'
    op->kind = trim(head.substr(colon + 1));
    op->line = static_cast<int>(i) + 1;
    op->col = static_cast<int>(at) + 1;
    ++i;
    bool piped = false;
    while (i < end_) {
      const std::string& l = lines_[i];
      if (l.compare(0, prefix.size(), prefix) != 0) break;  // this branch ends
      const std::string rest = l.substr(prefix.size());
      if (rest.rfind("|----", 0) == 0) {  // an input on a branch
        if (!isHead(rest.substr(5))) {
          error(i, prefix.size() + 6, "a branch without an operator");
          return nullptr;
        }
        auto in = node(i, prefix + "|    ", prefix.size() + 5, depth + 1);
        if (!in) return nullptr;
        op->inputs.push_back(std::move(in));
        piped = true;
        continue;
      }
      if (!rest.empty() && rest[0] == '|') {  // a property
        piped = true;
        if (std::string t = trim(rest.substr(1)); !t.empty())
          op->props.push_back({static_cast<int>(i) + 1, t});
        ++i;
        continue;
      }
      if (isHead(rest)) {  // the last input, at this operator's own prefix
        if (!piped) {
          error(i, prefix.size() + 1, "an operator line right below an operator without a `|`");
          return nullptr;
        }
        auto in = node(i, prefix, prefix.size(), depth + 1);
        if (!in) return nullptr;
        op->inputs.push_back(std::move(in));
        break;
      }
      const std::string t = trim(rest);
      if (t.empty() || piped) break;  // a blank line, or the property block ended
      op->props.push_back({static_cast<int>(i) + 1, t});  // an operator without inputs
      ++i;
    }
    // The branch inputs were printed first and the last input last; a join's
    // probe side is its last input (StarRocks prints the build side on the branch).
    if (op->inputs.size() > 1) {
      std::unique_ptr<PlanOp> last = std::move(op->inputs.back());
      op->inputs.pop_back();
      op->inputs.insert(op->inputs.begin(), std::move(last));
    }
    return op;
  }
};

}  // namespace

std::string PlanOp::value(const std::string& key) const {
  for (const auto& p : props)
    if (p.text.rfind(key, 0) == 0) return trim(p.text.substr(key.size()));
  return "";
}

std::vector<Prop> PlanOp::list(const std::string& key) const {
  std::vector<Prop> out;
  bool in = false;
  for (const auto& p : props) {
    if (p.text == key) {
      in = true;
      continue;
    }
    if (!in) continue;
    const bool item = p.text.rfind("- ", 0) == 0 || p.text.find(" <-> ") != std::string::npos;
    if (!item) break;
    out.push_back(p);
  }
  return out;
}

bool looksLikeStarRocksPlan(const std::string& text) {
  size_t at = 0;
  while ((at = text.find("PLAN FRAGMENT ", at)) != std::string::npos) {
    if (at == 0 || text[at - 1] == '\n') return true;
    at += 14;
  }
  return false;
}

bool readPlanDocument(const std::string& text, const std::string& file, std::vector<PlanCase>& out,
                      Diagnostics& diags) {
  // Bytes of no UTF-8 character cannot be names: an error here, before they
  // reach a message or a JSON document.
  if (!engine::checkUtf8(text, file, diags)) return false;
  const std::vector<std::string> lines = engine::textLines(text);
  std::string stem = file;
  if (const size_t slash = stem.find_last_of('/'); slash != std::string::npos)
    stem = stem.substr(slash + 1);
  if (const size_t dot = stem.find('.'); dot != std::string::npos && dot > 0)
    stem = stem.substr(0, dot);
  // Sections: `[sql]` opens a case, a plan section gives its fragments, any
  // other section (`[result]`, `[planCount]`...) is read past, `[end]` closes.
  PlanCase current;
  bool open = false, planned = false;
  auto close = [&] {
    if (open && planned) out.push_back(std::move(current));
    current = PlanCase{};
    open = planned = false;
  };
  size_t i = 0;
  const bool sections = text.find("\n[") != std::string::npos || text.rfind("[", 0) == 0;
  if (!sections) {
    PlanCase c;
    c.name = stem;
    c.line = 1;
    Reader r(lines, file, diags);
    if (!r.fragments(0, lines.size(), c.fragments)) return false;
    out.push_back(std::move(c));
    return true;
  }
  while (i < lines.size()) {
    const std::string l = trim(lines[i]);
    if (l == "[end]") {
      close();
      ++i;
      continue;
    }
    if (l == "[sql]") {
      close();
      open = true;
      for (++i; i < lines.size() && !isSection(trim(lines[i])); ++i) current.sql += lines[i] + "\n";
      continue;
    }
    if (l == "[fragment statistics]" || l == "[fragment]" || l == "[plan]") {
      size_t to = i + 1;
      while (to < lines.size() && !isSection(trim(lines[to]))) ++to;
      if (!planned) {  // a case's first plan section: the others print the same plan
        open = true;
        current.line = static_cast<int>(i) + 2;
        Reader r(lines, file, diags);
        if (!r.fragments(i + 1, to, current.fragments)) return false;
        planned = true;
      }
      i = to;
      continue;
    }
    ++i;  // a line of another section, or before the first
  }
  close();
  for (size_t k = 0; k < out.size(); ++k)
    out[k].name = out.size() == 1 ? stem : stem + "_" + std::to_string(k + 1);
  if (out.empty()) {
    diags.error(file, {1, 1}, "no plan section ([fragment statistics] or [fragment]) with a plan");
    return false;
  }
  return true;
}

}  // namespace rfguard::starrocks_import
