#pragma once
// Engine logs -> Evidence: discrete Events (startup memory ledger lines, engine arguments, OOM,
// "max seq len larger than KV cache", preemption, engine death/restart, aborted requests,
// context truncation, KV-cache-full, other errors/warnings) and a Timeline of EngineSamples
// rebuilt from the periodic stats lines (vLLM V0/V1, SGLang prefill/decode batch lines).
//
// Engines: vLLM (V0 and V1 line formats), SGLang, TGI, llama.cpp server, Ollama; the engine is
// detected from the lines themselves. Plain text or gzip (by magic bytes). Lines that match no
// known shape are counted, never fatal; bad bytes (binary, invalid UTF-8, over-long lines, a
// truncated last line) are counted per kind and the first few reported with line numbers.
//
// Startup-memory event fields (all optional; present when the line states them; sizes in GiB as
// the engine printed them — vLLM/SGLang "GB" are GiB values):
//   weights_gib, kv_cache_gib, kv_tokens, gpu_blocks, cpu_blocks, block_size_tokens,
//   max_concurrency, max_concurrency_len_tokens, cuda_graph_gib, cuda_graph_estimated_gib,
//   non_torch_gib, peak_activation_gib, total_non_kv_gib, total_gpu_memory_gib,
//   gpu_memory_utilization, usable_gpu_memory_gib, initial_memory_usage_gib,
//   peak_torch_memory_gib (includes weights), load_time_s, profile_time_s,
//   SGLang: avail_mem_gib (free after that step), k_size_gib, v_size_gib, max_running_requests,
//   context_len_tokens, chunked_prefill_size_tokens, max_prefill_tokens;
//   TGI: max_batch_total_tokens (its KV token budget, also copied to kv_tokens);
//   llama.cpp / Ollama: kv_cache_gib, weights_gib, compute_buffer_gib, n_ctx_tokens, ...
//   labels: "engine", "step" (which line: "model_loading", "kv_cache_size", ...).
// engine_args events: labels["args"] = the raw argument text (secrets redacted), labels["form"]
//   = "namespace" | "non_default_args" | "engine_config" | "server_args" | "tgi_args".
// oom events: tried_to_allocate_gib, total_capacity_gib, free_gib, allocated_gib, reserved_gib
//   (reserved by PyTorch in total = allocated + cached), reserved_unallocated_gib, gpu_index,
//   requested_gib (vLLM "free memory < desired utilization"), gpu_memory_utilization;
//   labels["cause"] = "cuda_oom" | "no_kv_memory" | "free_memory_below_requested" | "prefill_oom"
//   | "cuda_malloc".
// max_len_exceeds_kv events: max_model_len_tokens, kv_tokens (V0 text), kv_needed_gib,
//   kv_cache_gib, estimated_max_model_len_tokens (V1 text).
// preemption: cumulative_preemptions (V0, logged every 50th), preemptions (V1 per interval),
//   retracted_reqs, new_token_ratio (SGLang); labels["mode"].
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"

namespace llmtriage::ingest {

struct LogParseOptions {
  std::string source_name{};        // used in Event::source ("<source_name>:<line>")
  // The year to give vLLM's "MM-DD HH:MM:SS" timestamps. 0 = unknown: the timeline is then
  // seconds since the log's first timestamp (time_base "relative").
  int year = 0;
  size_t max_line_bytes = 1 << 20;  // longer lines are counted "too_long" and skipped
  size_t max_reported_issues = 5;   // first N bad lines kept with their line numbers
  size_t max_generic_events = 2000; // cap on plain warning/error events (the rest are counted)
  size_t max_traceback_bytes = 16384;
  size_t max_events_per_signature = 5;  // later matches of one signature are counted, not kept
  // Match data/diagnose/signatures.jsonl on each line, but stats lines and routine per-request
  // lines (vLLM's request log, 2xx/3xx access lines).
  bool signatures = true;
};

struct LogIssue {
  int64_t line = 0;
  std::string kind;     // "binary", "invalid_utf8", "too_long", "truncated_last_line", "malformed"
  std::string excerpt;  // sanitized head of the line
};

struct EngineLogResult {
  core::EngineKind engine = core::EngineKind::unknown;  // most frequent engine-specific shape
  std::string engine_version;       // "0.6.6" when a banner states it
  std::vector<core::Event> events;  // in file order
  std::vector<core::EngineSample> timeline;  // time-ordered (file order; see time_base)
  // "unix": t_s is seconds since 1970 (dates with years, or LogParseOptions::year);
  // "relative": seconds since the first timestamp (no year, or time of day only);
  // "none": no timestamps at all (t_s of samples = 0, events have no t_s).
  std::string time_base = "none";
  bool time_zone_assumed_utc = false;  // timestamps without a zone were read as UTC

  int64_t lines_total = 0;
  int64_t lines_parsed = 0;     // matched a known line kind and its fields were extracted
  int64_t lines_other = 0;      // a known prefix shape, a message we do not extract from
  int64_t lines_unknown = 0;    // no known shape at all
  int64_t lines_malformed = 0;  // looked like a known kind but its fields did not parse
  int64_t traceback_lines = 0;  // lines folded into traceback events
  int64_t generic_events_dropped = 0;
  std::map<std::string, int64_t> bad_input;  // kind -> count (see LogIssue::kind)
  std::vector<LogIssue> issues;              // first few bad or malformed lines
  std::vector<LogIssue> unknown_examples;    // first few lines no matcher or signature knew (kind "unknown")
  std::map<std::string, int64_t> signature_counts;  // signature id -> matching lines (log_signatures.h)
  // One warning event per line that matched a signature (the first few per signature), labelled
  // "signature" (id), "meaning", "cause", "printed_by", with the numbers the pattern captured.
  // Kept apart from `events`, which hold what the engine parsers extracted from the same lines.
  std::vector<core::Event> signature_events;
  std::optional<core::Error> read_error;     // e.g. a truncated gzip stream (lines before it kept)
};

// Reads a plain or gzip file ("-" = stdin). Err only when the file cannot be opened.
core::Result<EngineLogResult> parse_engine_log_file(const std::string& path,
                                                    LogParseOptions options = {});
// Parses text held in memory.
EngineLogResult parse_engine_log_text(std::string_view text, LogParseOptions options = {});

// Incremental form, for following a live log: feed lines in order, then finish().
class EngineLogParser {
 public:
  explicit EngineLogParser(LogParseOptions options = {});
  ~EngineLogParser();
  EngineLogParser(EngineLogParser&&) noexcept;
  EngineLogParser& operator=(EngineLogParser&&) noexcept;
  // `line` without its newline. too_long / last_unterminated as LineReader reports them.
  void feed(std::string_view line, int64_t line_number, bool too_long = false,
            bool last_unterminated = false);
  EngineLogResult finish();

 private:
  struct Impl;
  Impl* impl_;
};

// All startup_memory fields merged, first value per key (rank 0 logs first; vLLM takes the
// minimum block count across workers and logs it once).
std::map<std::string, double> merged_startup_fields(const EngineLogResult& result);

// One line for an InputNote: "12034 lines: 11800 parsed, 200 other, 30 unknown, 4 malformed; ..."
std::string describe(const EngineLogResult& result);

// When an out-of-memory event happened, from its own words: the "phase" label a parser set, a
// cause that only startup has (no KV memory, free memory below the requested fraction), then the
// frames and phrases of its line and traceback (engine_log_oom.cpp lists them with their sources).
// A traceback through the serving loop is runtime even when it also names execute_model's
// callees; a startup frame (profile_run, determine_available_memory, model load, CUDA-graph
// capture) is startup even though vLLM V0's profile_run calls execute_model. `unknown` when the
// text says neither (then "nothing served before it" decides, in the diagnosis).
enum class OomPhase { startup, runtime, unknown };
OomPhase oom_phase(const core::Event& e);
const char* to_string(OomPhase p);

}  // namespace llmtriage::ingest
