#pragma once
// Keeps secrets out of snapshots: URLs lose their user info and the values of secret-looking
// query parameters; engine argument strings lose the values of secret flags and tokens.
#include <string>
#include <string_view>

namespace llmtriage::collect {

// "http://user:pw@h:8000/metrics?token=abc&x=1" -> "http://h:8000/metrics?token=<redacted>&x=1"
std::string redact_url_secrets(std::string_view url);

// "--api-key sk-123 --hf-token=hf_abc --model m" -> "--api-key <redacted> --hf-token=<redacted> --model m".
// Also bare tokens that look like secrets (hf_..., sk-..., Bearer ...).
std::string redact_args_secrets(std::string_view args);

// True when the text still holds something that looks like a credential we know how to spot
// (Bearer token, hf_ token, sk- key, Authorization header). Used as a last check before writing.
bool contains_secret(std::string_view text, std::string_view secret_hint = {});

}  // namespace llmtriage::collect
