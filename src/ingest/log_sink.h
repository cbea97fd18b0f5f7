#pragma once
// Internal to the log parsers: what a line matcher sees (LogLineCtx) and where it writes
// (LogSink). Not part of the ingest API; engine_log.h is.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/evidence.h"
#include "ingest/engine_log.h"
#include "ingest/log_prefix.h"

namespace llmtriage::ingest::detail {

// Sets an event field when the line stated it.
inline void put(core::Event& e, const char* key, std::optional<double> v) {
  if (v) e.fields[key] = *v;
}

struct LogLineCtx {
  std::string_view raw;      // the whole line, ANSI codes removed
  std::string_view msg;      // after the prefix
  const LogPrefix* prefix = nullptr;
  int64_t line = 0;
  std::optional<double> t;   // resolved time (pseudo-absolute until finish())
};

enum class Match { none, parsed, other, malformed };

class LogSink {
 public:
  LogSink(const LogParseOptions& options, EngineLogResult& result)
      : options_(options), result_(result) {}

  // A new event stamped with the line's time and source; text sanitized and secrets redacted.
  core::Event& event(core::EventKind kind, const LogLineCtx& ctx, core::EngineKind engine);
  // A new timeline sample at the line's time.
  core::EngineSample& sample(const LogLineCtx& ctx, core::EngineKind engine);
  // The last sample when it has the same time and engine index (V0 prints the prefix-cache
  // line separately right after the stats line), else nullptr.
  core::EngineSample* last_sample_at(const LogLineCtx& ctx);
  void note_engine(core::EngineKind engine) { ++engine_votes_[static_cast<int>(engine)]; }
  void set_version(std::string_view v);
  // Generic warning/error events are capped; returns nullptr when over the cap.
  core::Event* generic_event(core::EventKind kind, const LogLineCtx& ctx, core::EngineKind engine);
  int banners = 0;                         // startup banners seen (a second one = a restart)
  std::optional<double> preemptions_total; // V1: sum of the per-interval "Preemptions: N"

  core::EngineKind voted_engine() const;
  const LogParseOptions& options() const { return options_; }
  EngineLogResult& result() { return result_; }
  bool in_traceback_final = false;  // the matcher runs on a traceback's exception line

 private:
  const LogParseOptions& options_;
  EngineLogResult& result_;
  int64_t engine_votes_[16] = {};
  size_t generic_events_ = 0;
};

// Engine matchers: each looks at one line and records what it finds.
Match match_vllm(const LogLineCtx& ctx, LogSink& sink);
Match match_sglang(const LogLineCtx& ctx, LogSink& sink);
Match match_tgi(const LogLineCtx& ctx, LogSink& sink);
Match match_llamacpp(const LogLineCtx& ctx, LogSink& sink);
Match match_ollama(const LogLineCtx& ctx, LogSink& sink);
// Engine-independent error texts: PyTorch CUDA OOM, vLLM KV refusals, engine death.
Match match_errors(const LogLineCtx& ctx, LogSink& sink);

// Parsers of one error text, shared by the matchers (fields into `e`). True when recognized.
bool parse_torch_oom(std::string_view text, core::Event& e);

}  // namespace llmtriage::ingest::detail
