#pragma once
// Engine adapters: one /metrics exposition of vLLM (V0, V1), SGLang, TGI, llama.cpp server,
// Triton + TensorRT-LLM backend or trtllm-serve -> core::EngineSample, one per served model
// (`model_name` / Triton `model` label) and per data-parallel engine (vLLM `engine`, SGLang
// `dp_rank` label). The engine is detected from the metric names unless given.
// Metric names, renames and version boundaries: see the tables in metrics_engine.cpp.
#include <string>
#include <string_view>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"
#include "ingest/prom_parser.h"

namespace llmtriage::ingest {

struct AdaptOptions {
  core::EngineKind engine = core::EngineKind::unknown;  // unknown = detect from metric names
  bool strict = false;        // a malformed line is an error (otherwise counted and skipped)
  bool openmetrics = false;
  std::string source;         // file or URL, for messages
};

struct EngineScrape {
  core::EngineKind engine = core::EngineKind::unknown;
  std::string detected_by;    // why this engine: "143 vllm: series; V0 marker vllm:num_requests_swapped"
  std::vector<core::EngineSample> samples;  // sorted by (model_name, engine_index)
  size_t series = 0;          // series lines parsed
  size_t series_used = 0;     // of those, read into a sample
  size_t malformed = 0;
  std::vector<PromError> errors;  // the first few malformed lines
  std::vector<std::string> notes; // facts a reader should know ("histogram X has no +Inf bucket")
};

// Detects the engine from metric names only (a quick pass over the text).
core::EngineKind detect_engine(std::string_view exposition);

// Adapts one exposition taken at unix time t_s. Fails only in strict mode (the first malformed
// line). An exposition with no known engine metrics (a DCGM exporter, say) is not an error:
// engine stays unknown and samples is empty; callers decide.
core::Result<EngineScrape> adapt_engine_metrics(std::string_view exposition, double t_s,
                                                const AdaptOptions& options = {});

}  // namespace llmtriage::ingest
