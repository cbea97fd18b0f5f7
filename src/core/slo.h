#pragma once
// The one SLO grammar of bench, capacity, diagnose, rules and fleet (docs/cli.md):
// comma-separated NAME=VALUE items; both spellings name the same objective and yield the same
// value:
//   ttft=500ms   == ttft_p99_s=0.5      (time to first token)
//   tpot=50ms    == tpot_p99_s=0.05     (time per output token)
//   e2e=10s      == e2e_p99_s=10        (end-to-end latency)
//   error_rate=0.01                     (fraction of failed requests)
// Short names take a duration with a unit (a bare "ttft=500" is refused: 500 ms or 500 s?); the
// *_s names take seconds (a unit is accepted too). A latency objective holds per request
// (goodput) and at p99 over a window (diagnose): the same bound, read the same way.
#include <optional>
#include <string>

#include "core/result.h"

namespace llmtriage::core {

struct Slo {
  std::optional<double> ttft_s, tpot_s, e2e_s;
  std::optional<double> error_rate;  // fraction in (0, 1]
  bool any() const { return ttft_s || tpot_s || e2e_s || error_rate; }
  // "ttft=500ms,tpot=50ms,e2e=10s,error_rate=0.01": the short spelling, re-parsable.
  std::string to_string() const;
};

// Errors name `where`, what was expected (the accepted names) and what was found.
Result<Slo> parse_slo(const std::string& text, const std::string& where = "--slo");

// The names parse_slo accepts, for completion and did-you-mean.
const char* const* slo_names();

}  // namespace llmtriage::core
