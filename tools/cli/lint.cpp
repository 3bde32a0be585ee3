// `rfguard lint`: a .json plan is verified as given; a .sql file is normalised,
// planned with the profile, then verified. Exit 0 clean, 1 findings, 2 input errors.
#include "tools/cli/lint.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "pipeline/session.h"
#include "tools/cli/input_options.h"
#include "tools/cli/lint_config.h"
#include "tools/cli/lint_policy.h"
#include "verifier/verify.h"

namespace rfguard {

namespace {

bool excluded(const std::string& path, const std::vector<std::string>& patterns) {
  const std::string name = std::filesystem::path(path).filename().string();
  for (const auto& p : patterns)
    if (fnmatch(p.c_str(), path.c_str(), 0) == 0 || fnmatch(p.c_str(), name.c_str(), 0) == 0)
      return true;
  return false;
}

/// True when `path` is a regular file of blanks only (or nothing).
bool blankFile(const std::string& path) {
  std::error_code ec;
  if (path == "-" || !std::filesystem::is_regular_file(path, ec)) return false;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > 4096) return false;
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return in.good() || in.eof() ? text.find_first_not_of(" \t\r\n") == std::string::npos : false;
}

/// True, with the reason in `why`, when `text` is JSON that is no plan
/// document: no `"format": "rfguard-plan"` and no engine's plan. A file that
/// claims to be a plan stays an input, and its errors are reported.
bool notAPlan(const std::string& path, const std::string& text, std::string& why) {
  if (detectFormat(path, text) != InputFormat::PlanJson) return false;
  if (text.find("\"rfguard-plan\"") != std::string::npos) return false;
  // JSON Lines: the first document says what the file holds.
  const size_t start = text.find_first_not_of(" \t\r\n");
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) {
    const size_t end = text.find('\n', start);
    doc = nlohmann::json::parse(text.substr(start, end == std::string::npos ? end : end - start),
                                nullptr, false);
  }
  if (doc.is_discarded()) return why = "no JSON document, and no plan's \"format\"", true;
  if (!doc.is_object()) return why = "JSON that is no plan document (not an object)", true;
  const auto format = doc.find("format");
  if (format != doc.end() && format->is_string())
    return why = "a JSON document of format \"" + format->get<std::string>() +
                 "\", no plan (\"rfguard-plan\")",
           true;
  return why = "JSON without a plan's \"format\": \"rfguard-plan\"", true;
}

}  // namespace

LintUnit lintOne(const std::string& path, const SessionOptions& options, const LintArgs& args) {
  LintUnit u;
  u.notes = ImportNoteLog(args.verbose);
  Session session(options);
  Diagnostics diags;
  LintFile& lf = u.file;
  lf.path = path == "-" && !args.stdinFilename.empty() ? args.stdinFilename : path;
  std::string text;
  if (blankFile(path)) {
    // An empty file holds no query, as a comment-only one does: nothing to lint.
    u.messages = lf.path + ": note: an empty file: no query to lint\n";
    return u;
  }
  if (!readInputFile(path, text, diags)) {
    lf.inputError = true;
  } else if (std::string why; args.input.from == "auto" && notAPlan(path, text, why)) {
    // package.json, tsconfig.json...: a hook or a walk passes every .json file.
    u.messages = lf.path + ": note: " + why + ": not linted\n";
    u.skipped = true;
    return u;
  } else {
    if (path == "-") u.sources[lf.path] = text;
    if (!session.loadContent(text, lf.path, diags)) lf.inputError = true;
  }
  std::ostringstream messages;
  messages << renderErrors(diags, u.sources);
  lf.errors = diags.items();
  session.run();  // plan JSON carries its placement, judged as given; SQL gets the profile's
  for (const QueryRun& run : session.queries()) {
    const Query& q = run.query;
    lf.queries.push_back(q.name);
    u.notes.add(run, messages);
    if (!q.suppress.empty())
      u.querySuppress[lf.path + "\n" + q.name] = {
          "/queries/" + std::to_string(run.indexInInput) + "/suppress", q.suppress};
    for (auto& f : session.verify(run)) {
      FindingSite site = session.siteOf(run, f);
      lf.results.push_back(lintResult(q, std::move(f), std::move(site)));
    }
  }
  u.messages = messages.str();
  u.placements = inputPlacements(session);
  return u;
}

std::vector<LintUnit> lintInParallel(const std::vector<std::string>& paths,
                                     const SessionOptions& options, const LintArgs& args,
                                     unsigned jobs) {
  std::vector<LintUnit> units(paths.size());
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<size_t>(jobs, paths.size()));
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failureMutex;
  auto work = [&] {
    try {
      for (size_t i; (i = next++) < paths.size();) units[i] = lintOne(paths[i], options, args);
    } catch (...) {  // rethrown on the calling thread, where the CLI reports it
      std::lock_guard<std::mutex> lock(failureMutex);
      if (!failure) failure = std::current_exception();
      next = paths.size();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < jobs; ++j) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return units;
}

std::vector<std::string> expandInputs(const std::vector<std::string>& args,
                                      const std::vector<std::string>& exclude, std::ostream& err,
                                      bool& failed) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& a : args) {
    std::error_code ec;
    if (a == "-" || !fs::is_directory(a, ec)) {
      // A file named on the command line (a pre-commit hook names every
      // staged file) is read unless --exclude or the config excludes it.
      if (a != "-" && excluded(a, exclude))
        err << a << ": note: excluded (--exclude or exclude in .rfguard.toml): not linted\n";
      else
        out.push_back(a);
      continue;
    }
    // Directory by directory: one that cannot be read is reported, and the
    // walk goes on with the others (the run then exits 2).
    std::vector<std::string> found, dirs{a};
    while (!dirs.empty()) {
      const std::string dir = dirs.back();
      dirs.pop_back();
      std::vector<std::string> subdirs;
      fs::directory_iterator it(dir, ec), end;
      for (; !ec && it != end; it.increment(ec)) {
        const std::string path = it->path().string();
        const std::string name = it->path().filename().string();
        std::error_code kind;
        if (it->is_directory(kind)) {
          // .git and other hidden or excluded folders are not walked.
          if (!(name.size() > 1 && name[0] == '.') && !excluded(path, exclude))
            subdirs.push_back(path);
          continue;
        }
        const std::string ext = it->path().extension().string();
        // .plan.txt: the plans Trino's plan tests print (docs/trino.md).
        const bool trinoPlan =
            name.size() > 9 && name.compare(name.size() - 9, 9, ".plan.txt") == 0;
        if ((ext == ".sql" || ext == ".json" || ext == ".jsonl" || trinoPlan) &&
            it->is_regular_file(kind) && !excluded(path, exclude))
          found.push_back(path);
      }
      if (ec) {
        err << dir << ": error: cannot read the directory: " << ec.message()
            << " (the rest of the walk goes on)\n";
        failed = true;
        ec.clear();
      }
      std::sort(subdirs.rbegin(), subdirs.rend());
      dirs.insert(dirs.end(), subdirs.begin(), subdirs.end());
    }
    if (found.empty()) {
      err << a << ": error: no .sql, .json, .jsonl or .plan.txt files in this directory"
          << (exclude.empty() ? "" : " (after --exclude)") << "\n";
      failed = true;
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

/// `paths` without the schema file (`schema`): it declares the tables the
/// inputs use and is never an input itself, found by a walk or named.
std::vector<std::string> withoutSchema(std::vector<std::string> paths, const std::string& schema,
                                       std::ostream& err) {
  namespace fs = std::filesystem;
  if (schema.empty()) return paths;
  std::error_code ec;
  const fs::path s = fs::weakly_canonical(schema, ec);
  if (ec) return paths;
  std::vector<std::string> out;
  for (auto& p : paths) {
    std::error_code pec;
    if (p != "-" && fs::weakly_canonical(p, pec) == s && !pec) {
      err << p << ": note: the schema (--schema, or schema in .rfguard.toml): not linted\n";
      continue;
    }
    out.push_back(std::move(p));
  }
  return out;
}

int runLint(const LintArgs& given, std::ostream& stdOut, std::ostream& err) {
  // Settings: the command line first, then .rfguard.toml, then the defaults.
  LintArgs args = given;
  LintConfig config;
  const std::string configPath = args.noConfig          ? ""
                                 : !args.config.empty() ? args.config
                                                        : findLintConfig();
  if (!configPath.empty()) {
    std::string why;
    if (!readLintConfig(configPath, config, why)) {
      err << why << "\n";
      return kExitInputError;
    }
  }
  if (args.profile.empty()) args.profile = config.profile.value_or("sound");
  if (args.failOn.empty()) args.failOn = config.failOn.value_or("warning");
  if (args.docsUrl.empty() && config.docsUrl) args.docsUrl = *config.docsUrl;
  if (args.input.from == "auto" && config.from) args.input.from = *config.from;
  if (args.input.schema.empty() && config.schema) args.input.schema = *config.schema;
  args.composite = args.composite || config.composite.value_or(false);
  args.quiet = args.quiet || config.quiet.value_or(false);
  args.exclude.insert(args.exclude.end(), config.exclude.begin(), config.exclude.end());
  if (args.files.empty()) args.files = config.paths;
  if (args.files.empty()) {
    err << "rfguard lint: no input files (use - for stdin, or paths in .rfguard.toml)\n";
    return kExitInputError;
  }
  LintPolicy policy;
  policy.disabled = config.disabled;
  policy.levels = config.levels;
  policy.quiet = args.quiet;
  policy.failOn = args.failOn;
  if (!args.baseline.empty()) {
    std::string why;
    if (!readBaseline(args.baseline, policy, why)) {
      err << why << "\n";
      return kExitInputError;
    }
  }
  std::ofstream file;
  if (!args.output.empty()) {
    errno = 0;
    file.open(args.output, std::ios::binary);
    if (!file) {
      err << args.output << ": error: cannot write: " << std::strerror(errno) << "\n";
      return kExitInputError;
    }
  }
  std::ostream& out = args.output.empty() ? stdOut : file;

  SessionOptions so;
  so.filters = RfOptions(*parseProfile(args.profile));
  so.filters.composite = args.composite;
  if (!applyInputArgs(args.input, so, err)) return kExitInputError;
  bool inputError = false;
  const std::vector<std::string> paths = withoutSchema(
      expandInputs(args.files, args.exclude, err, inputError), args.input.schema, err);
  std::vector<LintUnit> units = lintInParallel(paths, so, args, args.jobs);
  std::vector<LintFile> files;
  std::map<std::string, std::string> sources;  // stdin's text, under its name
  std::map<std::string, QuerySuppress> querySuppress;
  std::vector<InputPlacement> placements;
  ImportNoteLog notes(args.verbose);
  for (auto& u : units) {  // in the order of the inputs, whatever order they ran in
    err << u.messages;
    notes.merge(u.notes);
    inputError = inputError || u.file.inputError;
    sources.insert(u.sources.begin(), u.sources.end());
    querySuppress.insert(u.querySuppress.begin(), u.querySuppress.end());
    placements.insert(placements.end(), u.placements.begin(), u.placements.end());
    if (!u.skipped) files.push_back(std::move(u.file));
  }
  // Only what the command line says is blamed: a profile or composite from
  // .rfguard.toml applies to the inputs rfguard places and is silent otherwise.
  notes.summarise(err);
  std::vector<std::string> placing;
  if (!given.profile.empty() && given.profile != "sound")
    placing.push_back("--profile " + given.profile);
  if (given.composite) placing.push_back("--composite");
  if (!checkPlacementFlags(placements, placing, "lint", err)) return kExitInputError;
  applyLintPolicy(files, policy, sources, querySuppress);
  if (!args.writeBaseline.empty()) {
    std::ofstream b(args.writeBaseline, std::ios::binary);
    b << baselineJson(files);
    if (!b) {
      err << args.writeBaseline << ": error: cannot write the baseline\n";
      return kExitInputError;
    }
  }
  const char* noColor = std::getenv("NO_COLOR");
  const bool color = args.format == "text" &&
                     (args.color == "always" || (args.color == "auto" && args.output.empty() &&
                                                 isatty(STDOUT_FILENO) && !(noColor && *noColor)));
  if (args.format == "json")
    writeLintJson(files, out);
  else if (args.format == "gitlab")
    writeLintGitlab(files, out);
  else if (args.format == "sarif")
    writeLintSarif(files, out, publishedDocsUrl(args.docsUrl));
  else
    writeLintText(files, out, color, args.showSuppressed);
  // With a baseline being written, today's findings are accepted: exit 0.
  if (!args.writeBaseline.empty()) return inputError ? kExitInputError : kExitOk;
  return lintExitCode(files, policy, inputError);
}

}  // namespace rfguard
