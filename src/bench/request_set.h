#pragma once
// Request sets for the load generator: what is sent, independent of when (schedule.h).
// Built from a seed (synthetic exact lengths, shared-prefix groups), a ShareGPT JSON, a JSONL of
// prompts, or recorded request records (replay keeps their arrival times). A set has a content
// hash over everything that reaches the server, so two runs can prove they sent the same requests;
// it can be frozen to a JSONL file (--save-requests) and loaded back bit for bit.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace llmtriage::bench {

struct RequestSpec {
  std::string id;
  // Exactly one of these is the prompt: token ids (exact length, /v1/completions only) or text.
  std::vector<int32_t> prompt_ids;
  std::string prompt_text;
  int64_t input_tokens = 0;   // exact for ids; the source's count (or an estimate) for text
  int64_t max_tokens = 0;     // output length asked for
  bool pin_output = false;    // send ignore_eos + min_tokens = max_tokens: exact output length
  std::optional<double> arrival_s;  // replay: when the recording saw it (seconds from its start)
  int prefix_group = -1;      // shared-prefix sets: which group
};

struct RequestSet {
  std::string source;  // "random", "sharegpt:FILE", "jsonl:FILE", "replay:FILE", "file:FILE"
  uint64_t seed = 0;
  std::vector<RequestSpec> requests;
  // Content hash: "fnv1a64:<16 hex>" over every spec field in order (see hash_request_set).
  std::string hash;
};

struct SyntheticOptions {
  int64_t num_requests = 100;
  int64_t input_len = 128;
  int64_t output_len = 128;
  // Uniform jitter as a fraction of each length (0 = every request exactly input_len/output_len).
  double range_ratio = 0;
  int64_t vocab_size = 32000;  // token ids drawn from [100, vocab_size)
  bool text = false;           // text prompts (chat API) instead of token ids
  int64_t prefix_groups = 0;   // >0: requests share one of this many prefixes of prefix_len tokens
  int64_t prefix_len = 0;
  uint64_t seed = 0;
};

// Synthetic prompts of exact lengths. Text prompts are space-separated pseudo-words, one word
// per intended token ("input_tokens" is then the word count: servers' tokenizers will differ).
core::Result<RequestSet> synthetic_set(const SyntheticOptions& o);

struct FileSetOptions {
  int64_t num_requests = 0;  // 0 = all; otherwise the first N after a seeded shuffle
  int64_t output_len = 0;    // 0 = the file's own output length (ShareGPT: reply word count), else fixed
  bool pin_output = true;
  uint64_t seed = 0;
  int64_t max_input_words = 0;  // skip prompts longer than this (0 = no limit)
};

// ShareGPT format: [{"conversations":[{"from":"human","value":...},{"from":"gpt","value":...}]}].
// The first human turn is the prompt; the first reply's word count is the output length.
core::Result<RequestSet> sharegpt_set(const std::string& path, const FileSetOptions& o);
// One JSON object per line with "prompt" (or "text"), optional "output_len"/"max_tokens".
core::Result<RequestSet> jsonl_prompt_set(const std::string& path, const FileSetOptions& o);
// Recorded request records (any format ingest reads): input/output token counts become token-id
// prompts of those lengths (seeded), arrival times are kept for the replay schedule.
core::Result<RequestSet> replay_set(const std::string& path, int64_t vocab_size, uint64_t seed,
                                    int64_t num_requests);

// Recomputes set.hash from the specs.
std::string hash_request_set(const RequestSet& set);

// Freezes a set to JSONL (a header line with source/seed/hash, then one spec per line) and reads
// it back; the hash is recomputed on load and must equal the header's.
std::string to_jsonl(const RequestSet& set);
core::Result<RequestSet> load_saved_set(const std::string& path);

// Word-count estimate of a text's tokens (no tokenizer in the client): words * 4/3, at least 1.
int64_t estimate_tokens(const std::string& text);

}  // namespace llmtriage::bench
