#include "cli/app.h"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <exception>
#include <ostream>
#include <sstream>

#include "core/exit_code.h"

namespace llmtriage::cli {
namespace {

std::string display_name(const std::string& flag) {
  auto comma = flag.find(',');
  return comma == std::string::npos ? flag : flag.substr(0, comma);
}

[[noreturn]] void bad_value(const std::string& flag, const char* expected, const std::string& found) {
  throw CLI::ValidationError(display_name(flag),
                             std::string("expected ") + expected + ", found '" + found + "'");
}

template <typename T>
T parse_int(const std::string& flag, const std::string& s) {
  T v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) bad_value(flag, "an integer", s);
  return v;
}

double parse_double(const std::string& flag, const std::string& s) {
  // from_chars for double is in libstdc++ 11+.
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s == "inf" || s == "+inf") return INFINITY;
  if (ec != std::errc() || p != s.data() + s.size() || std::isnan(v)) bad_value(flag, "a number", s);
  return v;
}

bool parse_bool(const std::string& flag, const std::string& s) {
  if (s == "1" || s == "true" || s == "yes" || s == "on" || s.empty()) return true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return false;
  bad_value(flag, "true or false", s);
}

std::string fmt_double(double v) {
  std::ostringstream ss;
  ss << v;
  return ss.str();
}

std::string computed_default(const Target& t) {
  return std::visit(
      [](auto* p) -> std::string {
        using P = std::remove_pointer_t<decltype(p)>;
        if constexpr (std::is_same_v<P, bool>) return "";
        else if constexpr (std::is_same_v<P, std::string>) return *p;
        else if constexpr (std::is_same_v<P, int> || std::is_same_v<P, int64_t>) return std::to_string(*p);
        else if constexpr (std::is_same_v<P, double>) return fmt_double(*p);
        else if constexpr (std::is_same_v<P, std::optional<bool>>) return "";
        else if constexpr (std::is_same_v<P, std::optional<int>> || std::is_same_v<P, std::optional<int64_t>>)
          return *p ? std::to_string(**p) : "";
        else if constexpr (std::is_same_v<P, std::optional<double>>) return *p ? fmt_double(**p) : "";
        else if constexpr (std::is_same_v<P, std::optional<std::string>>) return *p ? **p : "";
        else return "";
      },
      t);
}

bool is_flag(const Target& t) {
  return std::holds_alternative<bool*>(t) || std::holds_alternative<std::optional<bool>*>(t);
}

void add_option(CLI::App& app, const Option& o) {
  CLI::Option* opt = nullptr;
  const std::string flag = o.flag;
  if (is_flag(o.target)) {
    Target t = o.target;
    opt = app.add_flag_function(
        flag, [t](int64_t count) {
          if (auto* b = std::get_if<bool*>(&t)) **b = count > 0;
          else *std::get<std::optional<bool>*>(t) = count > 0;
        },
        o.help);
  } else if (auto* vec = std::get_if<std::vector<std::string>*>(&o.target)) {
    auto* v = *vec;
    opt = app.add_option_function<std::vector<std::string>>(
        flag, [v](const std::vector<std::string>& xs) { v->insert(v->end(), xs.begin(), xs.end()); },
        o.help);
    opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->allow_extra_args(false);
  } else {
    Target t = o.target;
    opt = app.add_option_function<std::string>(
        flag,
        [t, flag](const std::string& s) {
          std::visit(
              [&](auto* p) {
                using P = std::remove_pointer_t<decltype(p)>;
                if constexpr (std::is_same_v<P, std::string>) *p = s;
                else if constexpr (std::is_same_v<P, int>) *p = parse_int<int>(flag, s);
                else if constexpr (std::is_same_v<P, int64_t>) *p = parse_int<int64_t>(flag, s);
                else if constexpr (std::is_same_v<P, double>) *p = parse_double(flag, s);
                else if constexpr (std::is_same_v<P, std::optional<int>>) *p = parse_int<int>(flag, s);
                else if constexpr (std::is_same_v<P, std::optional<int64_t>>) *p = parse_int<int64_t>(flag, s);
                else if constexpr (std::is_same_v<P, std::optional<double>>) *p = parse_double(flag, s);
                else if constexpr (std::is_same_v<P, std::optional<std::string>>) *p = s;
                else if constexpr (std::is_same_v<P, bool> || std::is_same_v<P, std::optional<bool>>)
                  *p = parse_bool(flag, s);
              },
              t);
        },
        o.help);
  }
  if (!o.env.empty()) opt->envname(o.env);
  std::string def = o.default_shown.empty() ? computed_default(o.target) : o.default_shown;
  if (!def.empty()) opt->default_str(def);
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

}  // namespace

int fail(Context& ctx, const core::Error& error) {
  ctx.err << "llmtriage " << ctx.command << ": error: " << error.message() << "\n";
  return core::kExitUsage;
}

int run_app(std::vector<Command> commands, int argc, const char* const* argv, std::ostream& out,
            std::ostream& err) {
  CLI::App app{"llmtriage: find why an LLM inference service is out of memory, slow at the tail, "
               "or below its expected throughput, and what to change, one variable at a time.",
               "llmtriage"};
  app.set_version_flag("--version", std::string("llmtriage ") + LLMTRIAGE_VERSION);
  app.require_subcommand(1);
  app.footer("Exit codes: 0 healthy, 1 findings at warning or above, 2 usage or input error.\n"
             "Run 'llmtriage COMMAND --help' for a command's options and a worked example.");

  struct Leaf {
    CLI::App* app;
    Command* cmd;
    bool json = false;
  };
  std::vector<Leaf> leaves;
  leaves.reserve(commands.size());
  for (auto& c : commands) {
    CLI::App* sub = find_or_add(app, c.path, c.summary);
    leaves.push_back({sub, &c});
  }
  for (auto& leaf : leaves) {
    for (const auto& o : leaf.cmd->options) add_option(*leaf.app, o);
    leaf.app->add_flag("--json", leaf.json, "Print machine-readable JSON on stdout instead of the terminal report")
        ->envname("LLMTRIAGE_JSON");
    leaf.app->footer("Example:\n  " + leaf.cmd->example +
                     "\n\nExit codes: 0 healthy, 1 findings at warning or above, 2 usage or input error.");
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    // Help of the deepest subcommand that was named.
    CLI::App* target = &app;
    for (;;) {
      auto subs = target->get_subcommands();
      if (subs.empty()) break;
      target = subs.front();
    }
    out << target->help();
    return core::kExitHealthy;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return core::kExitHealthy;
  } catch (const CLI::CallForVersion&) {
    out << "llmtriage " << LLMTRIAGE_VERSION << "\n";
    return core::kExitHealthy;
  } catch (const CLI::ParseError& e) {
    std::string where;
    for (CLI::App* a = &app; a;) {
      auto subs = a->get_subcommands();
      if (subs.empty()) break;
      a = subs.front();
      where += (where.empty() ? "" : " ") + a->get_name();
    }
    err << "llmtriage" << (where.empty() ? "" : " " + where) << ": error: " << e.what() << "\n"
        << "Run 'llmtriage" << (where.empty() ? "" : " " + where) << " --help' for usage.\n";
    return core::kExitUsage;
  }

  for (auto& leaf : leaves) {
    if (!leaf.app->parsed()) continue;
    // A parent with nested commands ("sim") parsed without a leaf: ask for one.
    if (!leaf.app->get_subcommands().empty()) continue;
    Context ctx{leaf.json, out, err, leaf.cmd->path};
    try {
      return leaf.cmd->run(ctx);
    } catch (const std::exception& e) {
      err << "llmtriage " << leaf.cmd->path << ": error: " << e.what() << "\n";
      return core::kExitUsage;
    }
  }
  err << "llmtriage: error: expected a command, found none. Run 'llmtriage --help'.\n";
  return core::kExitUsage;
}

}  // namespace llmtriage::cli
