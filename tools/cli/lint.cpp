// `rfguard lint`: a .json plan is verified as given; a .sql file is normalised,
// planned with the profile, then verified. Exit 0 clean, 1 findings, 2 input errors.
#include "tools/cli/lint.h"

#include "pipeline/session.h"
#include "verifier/verify.h"

namespace rfguard {

int runLint(const LintArgs& args, std::ostream& out, std::ostream& err) {
  if (args.files.empty()) {
    err << "rfguard lint: no input files (use - for stdin)\n";
    return kExitInputError;
  }
  SessionOptions so;
  so.filters = RfOptions(*parseProfile(args.profile));
  so.filters.composite = args.composite;
  if (!applyInputArgs(args.input, so, err)) return kExitInputError;
  Session session(so);
  std::vector<LintFile> files;
  bool inputError = false, findings = false;
  for (const auto& path : args.files) {
    Diagnostics diags;
    LintFile lf;
    lf.path = path;
    const size_t first = session.queries().size();
    if (!session.load(path, diags)) lf.inputError = inputError = true;
    err << diags.render();
    session.run();  // plan JSON carries its placement, judged as given; SQL gets the profile's
    for (size_t i = first; i < session.queries().size(); ++i) {
      const QueryRun& run = session.queries()[i];
      const Query& q = run.query;
      lf.queries.push_back(q.name);
      writeImportNotes(run, err);
      for (auto& f : session.verify(run)) {
        FindingSite site = session.siteOf(run, f);
        lf.results.push_back({q.name, std::move(f), std::move(site)});
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
