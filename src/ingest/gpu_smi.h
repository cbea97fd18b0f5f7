#pragma once
// GPU readings from `nvidia-smi --query-gpu=... --format=csv` output: the text a person saves
// by hand, or what llmtriage gets by running nvidia-smi itself.
// Accepts the header line with or without units ("power.draw [W]"), values with or without
// units ("250.00 W"), "[N/A]" / "[Not Supported]" as absent, old and new field names
// (clocks_throttle_reasons.* / clocks_event_reasons.*, clocks.sm / clocks.current.sm).
#include <string>
#include <string_view>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"

namespace llmtriage::ingest {

// The fields llmtriage asks for, in this order (the header-less form is read in this order).
extern const char* const kSmiQueryFields;        // with clocks_event_reasons.active (driver >= 535)
extern const char* const kSmiQueryFieldsLegacy;  // with clocks_throttle_reasons.active

struct SmiParse {
  std::vector<core::GpuSample> gpus;
  size_t malformed = 0;                 // rows with the wrong number of columns
  std::vector<std::string> errors;      // the first few, "line N: ..."
};

// Parses CSV text. An input without any GPU row is an error naming `source`.
core::Result<SmiParse> parse_nvidia_smi_csv(std::string_view text, double t_s,
                                            const std::string& source = "nvidia-smi");

// Runs nvidia-smi (PATH lookup) and parses its output. Error (kind not_found) when it is not
// installed or reports no GPU.
core::Result<SmiParse> run_nvidia_smi(double t_s);

}  // namespace llmtriage::ingest
