// `rfguard lint`: a .json plan is verified as given; a .sql file is normalised,
// planned with the profile, then verified. Exit 0 clean, 1 findings, 2 input errors.
#include "tools/cli/lint.h"

#include <functional>
#include <map>

#include "rules/normalize.h"
#include "rules/rf_planner.h"
#include "verifier/verify.h"

namespace rfguard {

namespace {

/// Node id -> JSON pointer, for plans read from JSON.
void pointers(const PlanNode& n, const std::string& ptr, std::map<int, std::string>& out) {
  out[n.id] = ptr;
  for (size_t i = 0; i < n.children.size(); ++i)
    pointers(*n.children[i], ptr + "/children/" + std::to_string(i), out);
}

const PlanNode* findNode(const PlanNode& n, int id) {
  if (n.id == id) return &n;
  for (const auto& c : n.children)
    if (const PlanNode* f = findNode(*c, id)) return f;
  return nullptr;
}

}  // namespace

int runLint(const LintArgs& args, std::ostream& out, std::ostream& err) {
  if (args.files.empty()) {
    err << "rfguard lint: no input files (use - for stdin)\n";
    return kExitInputError;
  }
  RfOptions rfo(*parseProfile(args.profile));
  rfo.composite = args.composite;
  std::vector<LintFile> files;
  bool inputError = false, findings = false;
  for (const auto& path : args.files) {
    Diagnostics diags;
    LoadedFile loaded;
    LintFile lf;
    lf.path = path;
    if (!loadInput(path, loaded, diags)) lf.inputError = inputError = true;
    err << diags.render();
    for (size_t qi = 0; qi < loaded.queries.size(); ++qi) {
      Query& q = loaded.queries[qi];
      lf.queries.push_back(q.name);
      // Plan JSON carries its placement; SQL gets the profile's.
      const bool fromSql = !q.sql.empty() && q.file == path;
      std::map<int, std::string> ptrs;
      if (fromSql) {
        NormalizeReport nr;
        normalize(q.plan, {}, nr);
        RfReport report;
        planRuntimeFilters(*q.plan, report, rfo);
      } else {
        pointers(*q.plan, "/queries/" + std::to_string(qi) + "/plan", ptrs);
      }
      for (auto& f : verifyRuntimeFilters(*q.plan)) {
        LintResult r{q.name, f, {}};
        // A position in SQL when the plan has one (from SQL, or JSON written from SQL).
        if (f.loc.line && !q.file.empty()) {
          r.site.file = q.file;
          r.site.loc = f.loc;
        } else {
          r.site.file = path;
          if (fromSql) r.site.loc = q.loc;
        }
        if (!fromSql && !f.nodes.empty()) {
          const PlanNode* at = findNode(*q.plan, f.nodes.size() > 1 ? f.nodes[1] : f.nodes[0]);
          if (at) {
            r.site.planFile = path;
            r.site.pointer = ptrs[at->id];
          }
        }
        lf.results.push_back(std::move(r));
        findings = true;
      }
    }
    files.push_back(std::move(lf));
  }
  if (args.format == "json")
    writeLintJson(files, out);
  else if (args.format == "sarif")
    writeLintSarif(files, out);
  else
    writeLintText(files, out);
  return inputError ? kExitInputError : findings ? kExitFindings : kExitOk;
}

}  // namespace rfguard
