#pragma once
// The CLI conventions every subcommand follows: one declarative option table per subcommand.
// Each row: the flag (or a positional name without dashes), its environment variable
// (LLMTRIAGE_*; "" for none), its help text, and the variable it fills. The default shown in
// --help is the variable's value when the table is built, so it cannot drift from the code.
// `--json` is added to every command by the framework; `--version` and `--help` too.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "core/error.h"

namespace llmtriage::cli {

using Target = std::variant<bool*, std::string*, int*, int64_t*, double*, std::optional<bool>*,
                            std::optional<int>*, std::optional<int64_t>*, std::optional<double>*,
                            std::optional<std::string>*, std::vector<std::string>*>;

// What a number (or a duration, in seconds) may be; checked when the flag is parsed, so every
// command refuses "-3", "nan" and "0" the same way (docs/cli.md). Default: a finite number >= 0.
struct Bounds {
  double min = 0;
  bool min_exclusive = false;
  double max = std::numeric_limits<double>::infinity();  // durations: at most 365 d whatever this says
  bool allow_inf = false;                                 // "inf" is a value ("--rate inf": all at once)
};
inline constexpr Bounds kAnyNumber{-std::numeric_limits<double>::infinity()};
inline constexpr Bounds kPositive{0, true};
inline constexpr Bounds kRatePositive{0, true, std::numeric_limits<double>::infinity(), true};  // > 0, or inf
inline constexpr Bounds kLiveWindow{0, false, 86400};  // a live capture: up to a day
inline constexpr Bounds at_least(double v) { return Bounds{v}; }
inline constexpr Bounds between(double lo, double hi) { return Bounds{lo, false, hi}; }

struct Option {
  // "--max-model-len NUMBER", "--out,-o DIR", "--window DURATION", "SCENARIO NAME" (positional):
  // the names, then the value's type as --help shows it: NUMBER, DURATION (units ms s m h d; a
  // bare number is seconds; the target holds seconds), SLO (checked by core::parse_slo), FILE,
  // DIR, URL, NAME, LIST, TEXT. Without a type: NUMBER for numbers, LIST for lists, TEXT else.
  std::string flag;
  std::string env;    // "LLMTRIAGE_MAX_MODEL_LEN", or "" when an env var makes no sense
  std::string help;   // what it does, in the user's words, with units
  Target target;
  std::string default_shown = {};  // overrides the computed default in --help ("" = computed)
  bool required = false;
  Bounds bounds = {};  // numbers and durations
};

// The parts of Option::flag.
struct FlagSpec {
  std::vector<std::string> names;  // {"--out", "-o"}
  std::string type;                // "DIR", or "" when none was declared
};
FlagSpec parse_flag_spec(const std::string& flag);

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

// Prints "llmtriage <command>: error: <message>" on ctx.err (with --json: a JSON object
// {"error", "exit_code", "kind", "where", "expected", "found", "detail", "command"} on ctx.out)
// and returns exit code 2.
int fail(Context& ctx, const core::Error& error);

// The same error after a command has a result to show (a run's summary): with --json one document,
// the result with the error's fields added ("error", "exit_code", "kind", ...), never two documents
// on stdout; without --json the result's text is the caller's and the error goes to ctx.err.
int fail_with_result(Context& ctx, nlohmann::json result, const core::Error& error);

}  // namespace llmtriage::cli
