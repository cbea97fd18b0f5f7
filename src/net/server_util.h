#pragma once
// Internal helpers of the server (no Asio): framing and fixed texts.
#include <string>
#include <string_view>

#include "net/http.h"

namespace llmtriage::net {

// One SSE event as bytes ("event: t\n" + "data: <line>\n" per line + "\n").
std::string sse_frame(std::string_view data, std::string_view type = {});
const char* reason_phrase(int status);
// OpenAI-style error body: {"error":{"message":...,"type":...,"code":status}}.
std::string json_error_body(int status, std::string_view message);
// Status line + headers + blank line. content_length < 0: chunked.
void append_response_head(std::string& out, int status, std::string_view content_type,
                          const Headers& extra, long long content_length, bool keep_alive);

}  // namespace llmtriage::net
