#include "tools/cli/command_tree.h"

#include <CLI/CLI.hpp>

namespace rfguard {

namespace {

OptionSpec describeOption(const CLI::Option& opt) {
  OptionSpec spec;
  spec.positional = opt.get_positional();
  if (spec.positional) {
    spec.names.push_back(opt.get_name(true, false));
  } else {
    for (const auto& s : opt.get_snames()) spec.names.push_back("-" + s);
    for (const auto& l : opt.get_lnames()) spec.names.push_back("--" + l);
  }
  spec.description = opt.get_description();
  spec.required = opt.get_required();
  const bool takesValue = opt.get_type_size_max() > 0 || spec.positional;
  if (takesValue) {
    // "TEXT:{text,json}": the type, then what each validator describes; an
    // IsMember check describes its set in braces.
    const std::string full = opt.get_type_name();
    const size_t colon = full.find(':');
    spec.type = full.substr(0, colon);
    if (colon != std::string::npos && full.compare(colon + 1, 1, "{") == 0) {
      const size_t close = full.find('}', colon);
      const std::string set = full.substr(colon + 2, close - colon - 2);
      size_t from = 0;
      while (from <= set.size()) {
        size_t comma = set.find(',', from);
        if (comma == std::string::npos) comma = set.size();
        if (comma > from) spec.choices.push_back(set.substr(from, comma - from));
        from = comma + 1;
      }
    }
  }
  spec.repeatable = opt.get_expected_max() > 1 ||
                    opt.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll ||
                    (takesValue && opt.get_items_expected_max() > 1);
  return spec;
}

/// `app` as the command typed as `path` ("rfguard duckdb run").
CommandSpec describe(const CLI::App& app, const std::string& path) {
  CommandSpec spec;
  spec.name = path.substr(path.rfind(' ') + 1);
  spec.path = path;
  spec.description = app.get_description();
  spec.footer = app.get_footer();
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;  // hidden
    spec.options.push_back(describeOption(*opt));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_group().empty()) continue;  // hidden
    spec.subcommands.push_back(describe(*sub, path + " " + sub->get_name()));
  }
  return spec;
}

}  // namespace

CommandSpec describeCommands(const CLI::App& app) {
  // The root's name is argv[0] once parsed; the tree is named for the
  // installed command.
  return describe(app, "rfguard");
}

std::string footerSection(const std::string& footer, const std::string& label) {
  size_t at = 0;
  while (at < footer.size()) {
    size_t end = footer.find("\n\n", at);
    if (end == std::string::npos) end = footer.size();
    if (footer.compare(at, label.size(), label) == 0) {
      size_t from = at + label.size();
      while (from < end && (footer[from] == ' ' || footer[from] == '\n')) ++from;
      return footer.substr(from, end - from);
    }
    at = end + 2;
  }
  return "";
}

}  // namespace rfguard
