#include "cli/app.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>

#include "cli/completion.h"
#include "cli/option_values.h"
#include "cli/suggest.h"
#include "cli/version.h"
#include "core/exit_code.h"

namespace llmtriage::cli {
namespace {

constexpr const char* kExitCodesLine = "Exit codes: 0 healthy, 1 findings at warning or above, 2 usage or input error.";

std::string joined_names(const FlagSpec& spec) {
  std::string s;
  for (const auto& n : spec.names) s += (s.empty() ? "" : ",") + n;
  return s;
}

// The error of the value callback that threw, kept so that --json can print its parts.
struct Pending {
  std::optional<core::Error> error;
};

void add_option(CLI::App& app, const Option& o, const std::shared_ptr<Pending>& pending) {
  const FlagSpec spec = parse_flag_spec(o.flag);
  const std::string names = joined_names(spec);
  const std::string shown = spec.names.empty() ? o.flag : spec.names.front();
  CLI::Option* opt = nullptr;
  const bool onoff = std::holds_alternative<bool*>(o.target) || std::holds_alternative<std::optional<bool>*>(o.target);
  if (onoff) {
    Target t = o.target;
    opt = app.add_flag_function(
        names, [t](int64_t count) {
          if (auto* b = std::get_if<bool*>(&t)) **b = count > 0;
          else *std::get<std::optional<bool>*>(t) = count > 0;
        },
        o.help);
  } else {
    Option copy = o;
    auto assign = [copy, shown, pending](const std::string& s) {
      if (auto st = assign_value(copy, shown, s); !st) {
        pending->error = st.error();
        throw CLI::ValidationError(st.error().message());
      }
    };
    if (std::holds_alternative<std::vector<std::string>*>(o.target)) {
      opt = app.add_option_function<std::vector<std::string>>(
          names, [assign](const std::vector<std::string>& xs) { for (const auto& x : xs) assign(x); }, o.help);
      // A repeatable flag takes one value per occurrence; a positional list ("INPUT FILE") takes
      // every remaining word.
      const bool positional = !spec.names.empty() && spec.names.front().rfind('-', 0) != 0;
      opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->allow_extra_args(positional);
    } else {
      opt = app.add_option_function<std::string>(names, assign, o.help);
    }
    opt->type_name(value_type(o));
  }
  if (!o.env.empty()) opt->envname(o.env);
  if (const std::string def = shown_default(o); !def.empty()) opt->default_str(def);
  if (o.required) opt->required();
}

CLI::App* find_or_add(CLI::App& root, const std::string& path, const std::string& summary) {
  std::istringstream ss(path);
  std::string word;
  CLI::App* app = &root;
  while (ss >> word) {
    CLI::App* sub = nullptr;
    try {
      sub = app->get_subcommand(word);
    } catch (const CLI::OptionNotFound&) {
      sub = nullptr;
    }
    if (!sub) sub = app->add_subcommand(word, "");
    app = sub;
  }
  app->description(summary);
  return app;
}

bool truthy_env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return false;
  const std::string s = v;
  return s == "1" || s == "true" || s == "yes" || s == "on";
}

// Prints an error as text on err, or as a JSON object on out (--json), and returns 2.
// The error object's fields (docs/cli.md, "JSON errors"), added to `j`: an error document of its
// own, or a command's result that failed (fail_with_result).
template <class Json>
void add_error_fields(Json& j, const core::Error& e, const std::string& command = {}) {
  j["error"] = e.message();
  j["exit_code"] = core::kExitUsage;
  j["kind"] = core::to_string(e.kind);
  if (!command.empty()) j["command"] = command;
  if (!e.where.empty()) j["where"] = e.where;
  if (!e.expected.empty()) j["expected"] = e.expected;
  if (!e.found.empty()) j["found"] = e.found;
  if (!e.detail.empty()) j["detail"] = e.detail;
}

int report_error(bool json, const std::string& command, const core::Error& e, std::ostream& out, std::ostream& err,
                 const std::string& hint = {}) {
  if (json) {
    nlohmann::ordered_json j;
    add_error_fields(j, e, command);
    out << j.dump(2) << "\n";
  } else {
    err << "llmtriage" << (command.empty() ? "" : " " + command) << ": error: " << e.message() << "\n";
    if (!hint.empty()) err << hint << "\n";
  }
  return core::kExitUsage;
}

// The command paths and their prefixes: "sim" -> {"run", "serve", "calibrate"}.
std::map<std::string, std::vector<std::string>> command_tree(const std::vector<Command>& commands) {
  std::map<std::string, std::vector<std::string>> tree;
  for (const auto& c : commands) {
    std::istringstream ss(c.path);
    std::string word, prefix;
    while (ss >> word) {
      auto& kids = tree[prefix];
      if (std::find(kids.begin(), kids.end(), word) == kids.end()) kids.push_back(word);
      prefix += (prefix.empty() ? "" : " ") + word;
    }
  }
  return tree;
}

// An unknown (sub)command word, found before CLI11 sees it (which would only say "A subcommand
// is required"): the error names the word and the closest command.
std::optional<core::Error> check_command_words(const std::vector<Command>& commands, int argc, const char* const* argv) {
  const auto tree = command_tree(commands);
  std::set<std::string> leaves;
  for (const auto& c : commands) leaves.insert(c.path);
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string w = argv[i];
    if (w.rfind("-", 0) == 0) return std::nullopt;
    auto it = tree.find(path);
    if (it == tree.end()) return std::nullopt;  // a leaf without children: the rest is its business
    const auto& kids = it->second;
    if (std::find(kids.begin(), kids.end(), w) != kids.end()) {
      path += (path.empty() ? "" : " ") + w;
      continue;
    }
    if (leaves.count(path)) return std::nullopt;  // "snapshot" is a leaf and a parent: a positional
    std::string known;
    for (const auto& k : kids) known += (known.empty() ? "" : ", ") + k;
    return core::make_error(core::ErrorKind::usage, "", (path.empty() ? "a command (" : "a command of '" + path + "' (") + known + ")",
                            "'" + w + "'" + did_you_mean(w, kids));
  }
  return std::nullopt;
}

}  // namespace

int fail(Context& ctx, const core::Error& error) {
  return report_error(ctx.json, ctx.command, error, ctx.out, ctx.err);
}

int fail_with_result(Context& ctx, nlohmann::json result, const core::Error& e) {
  if (!ctx.json) return report_error(false, ctx.command, e, ctx.out, ctx.err);
  add_error_fields(result, e);
  ctx.out << result.dump(2) << "\n";
  return core::kExitUsage;
}

int run_app(std::vector<Command> commands, int argc, const char* const* argv, std::ostream& out,
            std::ostream& err) {
  bool json_wanted = truthy_env("LLMTRIAGE_JSON");
  for (int i = 1; i < argc; ++i) json_wanted = json_wanted || std::string(argv[i]) == "--json";

  if (argc >= 2 && std::string(argv[1]) == "--completion") {
    auto script = completion_script(commands, argc >= 3 ? argv[2] : "");
    if (!script) return report_error(json_wanted, "", script.error(), out, err);
    out << *script;
    return core::kExitHealthy;
  }
  if (auto e = check_command_words(commands, argc, argv))
    return report_error(json_wanted, "", *e, out, err, "Run 'llmtriage --help' for the commands.");

  CLI::App app{"llmtriage: find why an LLM inference service is out of memory, slow at the tail, "
               "or below its expected throughput, and what to change, one variable at a time.",
               "llmtriage"};
  app.set_version_flag("--version", "llmtriage " + version_string());
  app.add_option("--completion", "print a shell completion script: bash or zsh (source <(llmtriage --completion bash))")
      ->type_name("NAME");
  app.require_subcommand(1);
  app.footer(std::string(kExitCodesLine) +
             "\nRun 'llmtriage COMMAND --help' for a command's options and a worked example; docs/cli.md has the grammar.");

  struct Leaf {
    CLI::App* app;
    Command* cmd;
    bool json = false;
  };
  auto pending = std::make_shared<Pending>();
  std::vector<Leaf> leaves;
  leaves.reserve(commands.size());
  for (auto& c : commands) {
    CLI::App* sub = find_or_add(app, c.path, c.summary);
    leaves.push_back({sub, &c});
  }
  for (auto& leaf : leaves) {
    for (const auto& o : leaf.cmd->options) add_option(*leaf.app, o, pending);
    leaf.app->add_flag("--json", leaf.json, "Print machine-readable JSON on stdout instead of the terminal report")
        ->envname("LLMTRIAGE_JSON");
    leaf.app->footer("Example:\n  " + leaf.cmd->example + "\n\n" + kExitCodesLine);
  }

  // The deepest subcommand that was named ("sim run"), once CLI11 has parsed.
  auto named = [&]() {
    std::string where;
    CLI::App* a = &app;
    for (;;) {
      auto subs = a->get_subcommands();
      if (subs.empty()) break;
      a = subs.front();
      where += (where.empty() ? "" : " ") + a->get_name();
    }
    return std::pair<CLI::App*, std::string>{a, where};
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    out << named().first->help();
    return core::kExitHealthy;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return core::kExitHealthy;
  } catch (const CLI::CallForVersion&) {
    out << "llmtriage " << version_string() << "\n";
    return core::kExitHealthy;
  } catch (const CLI::ParseError& e) {
    auto [leaf_app, where] = named();
    const std::string hint = "Run 'llmtriage" + (where.empty() ? "" : " " + where) + " --help' for usage.";
    if (pending->error) return report_error(json_wanted, where, *pending->error, out, err, hint);
    // No command at all (a bare `llmtriage`): the same words as a parent named without its leaf.
    if (where.empty() && dynamic_cast<const CLI::RequiredError*>(&e) && app.get_subcommands().empty())
      return report_error(json_wanted, "", core::make_error(core::ErrorKind::usage, "", "a command", "none"), out, err,
                          "Run 'llmtriage --help' for the commands.");
    // Unknown flags: name the first with the closest flag of the command. Also when a required
    // flag is missing: a misspelt one ("--modle m") is why it is, and CLI11 checks requirements
    // before it reports what it could not place.
    if (dynamic_cast<const CLI::ExtrasError*>(&e) || dynamic_cast<const CLI::RequiredError*>(&e)) {
      std::vector<std::string> known{"--json", "--help"};
      for (const auto& l : leaves)
        if (l.app == leaf_app)
          for (const auto& o : l.cmd->options)
            for (const auto& n : parse_flag_spec(o.flag).names)
              if (n.rfind("-", 0) == 0) known.push_back(n);
      for (const auto& extra : app.remaining(true)) {
        if (extra.rfind("-", 0) != 0) continue;
        const std::string name = extra.substr(0, extra.find('='));
        // A flag every command has, given to a parent ("llmtriage sim --json"): the command is missing.
        if (!leaf_app->get_subcommands({}).empty() && std::find(known.begin(), known.end(), name) != known.end()) {
          std::string kids;
          for (const auto* k : leaf_app->get_subcommands({})) kids += (kids.empty() ? "" : ", ") + k->get_name();
          return report_error(json_wanted, where,
                              core::make_error(core::ErrorKind::usage, "", "a command of '" + where + "' (" + kids + ") before " + name,
                                               "none"),
                              out, err, hint);
        }
        return report_error(json_wanted, where,
                            core::make_error(core::ErrorKind::usage, name, "a flag of 'llmtriage " + where + "'",
                                             "'" + name + "'" + did_you_mean(name, known)),
                            out, err, hint);
      }
    }
    return report_error(json_wanted, where, core::make_error(core::ErrorKind::usage, "", "", e.what()), out, err, hint);
  }

  for (auto& leaf : leaves) {
    if (!leaf.app->parsed()) continue;
    // A parent with nested commands ("sim") parsed without a leaf: ask for one.
    if (!leaf.app->get_subcommands().empty()) continue;
    Context ctx{leaf.json, out, err, leaf.cmd->path};
    try {
      return leaf.cmd->run(ctx);
    } catch (const std::exception& e) {
      return report_error(leaf.json, leaf.cmd->path, core::make_error(core::ErrorKind::internal, "", "", e.what()), out, err);
    }
  }
  // A parent named without its leaf ("llmtriage sim"): name the parent and its commands.
  auto [parent, where] = named();
  std::string kids;
  for (const auto* k : parent->get_subcommands({})) kids += (kids.empty() ? "" : ", ") + k->get_name();
  return report_error(json_wanted, where,
                      core::make_error(core::ErrorKind::usage, "",
                                       where.empty() ? std::string("a command") : "a command of '" + where + "' (" + kids + ")",
                                       "none"),
                      out, err, "Run 'llmtriage" + (where.empty() ? "" : " " + where) + " --help' for the commands.");
}

}  // namespace llmtriage::cli
