// The command tree read from CLI11 (tools/cli/command_tree.h) and the man
// pages written from it (tools/cli/manpage.h).
#include <doctest/doctest.h>

#include <CLI/CLI.hpp>

#include "tools/cli/command_tree.h"
#include "tools/cli/completion.h"
#include "tools/cli/manpage.h"

using namespace rfguard;

namespace {

struct Fixture {
  CLI::App app{"test tool"};
  std::string format = "text", out;
  std::vector<std::string> files;
  int threads = 1;
  bool quiet = false;
  Fixture() {
    auto* run = app.add_subcommand("run", "run things: fast");
    run->add_option("files", files, "inputs")->required();
    run->add_option("--format", format, "the format")->check(CLI::IsMember({"text", "json"}));
    run->add_option("--threads", threads, "threads");
    run->add_flag("-q,--quiet", quiet, ".starts with a dot, has a \\ and a -");
    run->footer(
        "Defaults: --format text.\n\nExit codes: 0 ok, 2 error.\n\nExamples:\n  t run "
        "a.sql\n  t run --format json b.sql\n\nDocs: docs/run.md");
    auto* hidden = app.add_subcommand("secret", "hidden");
    hidden->group("");
  }
};

}  // namespace

TEST_CASE("the command tree: options, types, choices, hidden commands left out") {
  Fixture f;
  CommandSpec root = describeCommands(f.app);
  CHECK(root.path == "rfguard");
  REQUIRE(root.subcommands.size() == 1);
  const CommandSpec& run = root.subcommands[0];
  CHECK(run.path == "rfguard run");
  CHECK(run.description == "run things: fast");
  REQUIRE(run.options.size() == 5);  // --help, files, --format, --threads, --quiet
  CHECK(run.options[0].names == std::vector<std::string>{"-h", "--help"});
  CHECK(run.options[0].flag());
  CHECK(run.options[1].positional);
  CHECK(run.options[1].required);
  CHECK(run.options[1].repeatable);
  CHECK(run.options[2].choices == std::vector<std::string>{"text", "json"});
  CHECK(run.options[2].type == "TEXT");
  CHECK_FALSE(run.options[2].pathValue());
  CHECK(run.options[3].type == "INT");
  CHECK_FALSE(run.options[3].pathValue());
  CHECK(run.options[4].names == std::vector<std::string>{"-q", "--quiet"});
  CHECK(footerSection(run.footer, "Exit codes:") == "0 ok, 2 error.");
  CHECK(footerSection(run.footer, "Examples:") == "t run a.sql\n  t run --format json b.sql");
  CHECK(footerSection(run.footer, "Files:").empty());
}

TEST_CASE("man pages: one per command, sections from the footer, roff-escaped") {
  Fixture f;
  auto pages = manPages(describeCommands(f.app), "9.9", "file:///opt/doc/");
  REQUIRE(pages.size() == 2);
  CHECK(pages[0].file == "rfguard.1");
  CHECK(pages[1].file == "rfguard-run.1");
  const std::string& t = pages[1].text;
  CHECK(t.find(".TH \"RFGUARD\\-RUN\" \"1\" \"\" \"rfguard 9.9\"") != std::string::npos);
  CHECK(t.find(".SH NAME\nrfguard\\-run \\- run things: fast\n") != std::string::npos);
  CHECK(t.find(".SH DESCRIPTION\nRun things: fast.\n.PP\nDefaults: \\-\\-format text.\n") !=
        std::string::npos);
  CHECK(t.find(".SH \"EXIT STATUS\"\n0 ok, 2 error.\n") != std::string::npos);
  CHECK(t.find(".nf\nt run a.sql\nt run \\-\\-format json b.sql\n.fi") != std::string::npos);
  CHECK(t.find("\\fB\\-\\-format\\fR {\\fBtext\\fR|\\fBjson\\fR}") != std::string::npos);
  CHECK(t.find("\\fB\\-\\-threads\\fR \\fIINT\\fR") != std::string::npos);
  // A description starting with a dot is not a roff request; \ is printed.
  CHECK(t.find("\n\\&.starts with a dot, has a \\e and a \\-.\n") != std::string::npos);
  CHECK(t.find("/opt/doc/run.md") != std::string::npos);
  CHECK(t.find("secret") == std::string::npos);
  CHECK(pages[0].text.find(".BR rfguard\\-run (1)") != std::string::npos);
}

TEST_CASE("completion scripts name every command and choice") {
  Fixture f;
  CommandSpec root = describeCommands(f.app);
  const std::string bash = completionScript(root, "bash");
  CHECK(bash.find("subs['rfguard']='run'") != std::string::npos);
  CHECK(bash.find("values['rfguard run --format']='text json'") != std::string::npos);
  CHECK(bash.find("values['rfguard run --threads']='@none'") != std::string::npos);
  CHECK(bash.find("values['rfguard run ARG']='@files'") != std::string::npos);
  CHECK(bash.find("secret") == std::string::npos);
  const std::string fish = completionScript(root, "fish");
  CHECK(fish.find("-l format -x -a 'text json' -d 'the format'") != std::string::npos);
  const std::string zsh = completionScript(root, "zsh");
  CHECK(zsh.find("'--format[the format]:TEXT:(text json)'") != std::string::npos);
  CHECK(zsh.find("'run:run things\\: fast'") != std::string::npos);
}
