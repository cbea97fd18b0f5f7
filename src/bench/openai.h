#pragma once
// The OpenAI-compatible wire format, both ways: request bodies for /v1/completions and
// /v1/chat/completions, and what one streamed SSE chunk says (content? usage? an error?).
// Chunk parsing is on the hot path (one call per streamed chunk), so it scans without building
// a DOM (ingest/records_json.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bench/request_set.h"

namespace llmtriage::bench {

enum class Api { completions, chat };
const char* to_string(Api a);
const char* api_path(Api a);  // "/v1/completions", "/v1/chat/completions"

struct BodyOptions {
  Api api = Api::completions;
  std::string model;
  // stream_options.continuous_usage_stats (vLLM): usage in every chunk -> exact tokens per chunk.
  bool continuous_usage = true;
  double temperature = 0;
};

// The JSON body. Token-id prompts go to /v1/completions as "prompt": [ids]; the chat API gets
// text (ids are rendered as words "t<id>" there, and input_tokens is then an estimate).
// Pinned outputs send max_tokens = min_tokens and ignore_eos (vLLM/SGLang extensions).
std::string build_body(const RequestSpec& spec, const BodyOptions& o);

struct ChunkInfo {
  bool valid_json = false;
  bool has_choices = false;   // a non-empty "choices" array
  bool has_content = false;   // non-empty text / delta.content / delta.reasoning_content
  bool error = false;         // an {"error": ...} object in the stream
  std::string error_message;  // its message (first 200 bytes)
  std::optional<int64_t> completion_tokens;  // usage.completion_tokens (cumulative)
  std::optional<int64_t> prompt_tokens;
  // llama.cpp's "timings" (server clock, tools/server/server-task.cpp): prompt_ms is prompt
  // evaluation of this task (after it got a slot), predicted_ms the generation; cache_n prompt
  // tokens reused from the slot's cache.
  std::optional<double> prompt_ms, predicted_ms;
  std::optional<int64_t> prompt_n, cache_n, predicted_n;
};
ChunkInfo parse_chunk(std::string_view data);

}  // namespace llmtriage::bench
