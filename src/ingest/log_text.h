#pragma once
// Small scanning helpers shared by the log parsers: numbers (with thousands commas), sizes with
// units, "key: value" lookups, UTF-8 checks and secret redaction. All work on string_views
// into the input; none allocates except the sanitizers that return a new string.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace llmtriage::ingest::logtext {

inline bool starts_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}
inline bool contains(std::string_view s, std::string_view p) {
  return s.find(p) != std::string_view::npos;
}
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_space(char c) { return c == ' ' || c == '\t'; }
std::string_view trim(std::string_view s);

// Parses a decimal number at s[pos] (after spaces): optional sign, digits with optional
// thousands commas ("4,455,808"), fraction, exponent; "nan"/"inf" are rejected. Advances pos.
std::optional<double> number_at(std::string_view s, size_t& pos);
// The number following the first occurrence of `key` (e.g. "Running: "), or nullopt.
std::optional<double> number_after(std::string_view s, std::string_view key);
// Same, but starting the search at `from`; on success `from` moves past the number.
std::optional<double> number_after(std::string_view s, std::string_view key, size_t& from);

// A size "<number> <unit>" at s[pos], in GiB. Units: B, KiB/KB, MiB/MB, GiB/GB, TiB/TB
// (case-insensitive). NOTE: vLLM and SGLang print GiB values labelled "GB" (they divide by
// 2**30), and PyTorch's "MiB/GiB" are binary too, so decimal units are read as binary ones.
std::optional<double> size_gib_at(std::string_view s, size_t& pos);
std::optional<double> size_gib_after(std::string_view s, std::string_view key);

// True when every byte is printable ASCII or tab (the fast path of the checks below).
bool is_plain_ascii(std::string_view s);
// Well-formed UTF-8 (no overlongs, no surrogates).
bool is_valid_utf8(std::string_view s);
// NUL or other C0 control characters besides tab/CR/ESC: a sign of binary data.
bool looks_binary(std::string_view s);
// Copy with invalid UTF-8 bytes and control characters replaced by '?', ANSI colour codes
// removed, capped at max_bytes (a trailing "..." marks the cut).
std::string sanitize(std::string_view s, size_t max_bytes = 4096);
// Removes ANSI escape sequences (ESC '[' ... letter) into `out`; returns a view of the result
// or of `s` itself when there were none.
std::string_view strip_ansi(std::string_view s, std::string& out);
// Replaces the values of secrets (api_key=..., 'api_key': '...', --api-key X, Bearer X,
// hf_token, HF_TOKEN, token=hf_...) with "<redacted>".
std::string redact_secrets(std::string_view s);

}  // namespace llmtriage::ingest::logtext
