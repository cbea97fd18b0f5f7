#pragma once
// The CLI conventions every subcommand follows: one declarative option table per subcommand.
// Each row: the flag (or a positional name without dashes), its environment variable
// (LLMTRIAGE_*; "" for none), its help text, and the variable it fills. The default shown in
// --help is the variable's value when the table is built, so it cannot drift from the code.
// `--json` is added to every command by the framework; `--version` and `--help` too.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/error.h"

namespace llmtriage::cli {

using Target = std::variant<bool*, std::string*, int*, int64_t*, double*, std::optional<bool>*,
                            std::optional<int>*, std::optional<int64_t>*, std::optional<double>*,
                            std::optional<std::string>*, std::vector<std::string>*>;

struct Option {
  std::string flag;   // "--max-model-len", or "--model,-m", or "SCENARIO" (positional)
  std::string env;    // "LLMTRIAGE_MAX_MODEL_LEN", or "" when an env var makes no sense
  std::string help;   // what it does, in the user's words, with units
  Target target;
  std::string default_shown = {};  // overrides the computed default in --help ("" = computed)
  bool required = false;
};

struct Context {
  bool json = false;
  std::ostream& out;
  std::ostream& err;
  std::string command;  // "ledger", "sim run": for error prefixes
};

struct Command {
  std::string path;     // "ledger" or "sim run" (nested subcommands are space-separated)
  std::string summary;  // one line, shown in the overview
  std::string example;  // a worked example shown at the end of --help; starts with "llmtriage "
  std::vector<Option> options;
  std::function<int(Context&)> run;
  std::shared_ptr<void> state;  // owns the variables the options point into
};

// Prints "llmtriage <command>: error: <message>" on ctx.err and returns exit code 2.
int fail(Context& ctx, const core::Error& error);

}  // namespace llmtriage::cli
