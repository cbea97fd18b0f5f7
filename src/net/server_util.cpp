// Asio-free pieces of the server: SSE framing, access-log lines, status reasons, error bodies.
#include <cstdio>

#include "net/server.h"
#include "net/server_util.h"

namespace llmtriage::net {

void ResponseWriter::begin_sse(Headers extra) {
  extra.push_back({"Cache-Control", "no-cache"});
  begin_stream(200, "text/event-stream", std::move(extra));
}

std::string sse_frame(std::string_view data, std::string_view type) {
  std::string out;
  out.reserve(data.size() + type.size() + 16);
  if (!type.empty()) {
    out += "event: ";
    out += type;
    out += '\n';
  }
  size_t pos = 0;
  for (;;) {
    auto nl = data.find('\n', pos);
    out += "data: ";
    out += data.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    out += '\n';
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  out += '\n';
  return out;
}

void ResponseWriter::send_event(std::string_view data, std::string_view type) {
  write(sse_frame(data, type));
}

std::string format_access_log(const AccessLogEntry& e) {
  char dur[32];
  std::snprintf(dur, sizeof dur, "%.2fms", e.duration_s * 1e3);
  std::string out = e.remote + " \"" + e.method + " " + e.path + "\" " + std::to_string(e.status) + " " +
                    std::to_string(e.bytes) + "B " + dur;
  if (e.aborted) out += " aborted";
  return out;
}

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Content Too Large";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Status";
  }
}

std::string json_error_body(int status, std::string_view message) {
  std::string esc;
  for (char c : message) {
    switch (c) {
      case '"': esc += "\\\""; break;
      case '\\': esc += "\\\\"; break;
      case '\n': esc += "\\n"; break;
      case '\r': esc += "\\r"; break;
      case '\t': esc += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          esc += b;
        } else {
          esc += c;
        }
    }
  }
  const char* type = status >= 500 ? "server_error" : "invalid_request_error";
  return "{\"error\":{\"message\":\"" + esc + "\",\"type\":\"" + type + "\",\"code\":" +
         std::to_string(status) + "}}";
}

void append_response_head(std::string& out, int status, std::string_view content_type,
                          const Headers& extra, long long content_length, bool keep_alive) {
  out += "HTTP/1.1 ";
  out += std::to_string(status);
  out += ' ';
  out += reason_phrase(status);
  out += "\r\nServer: llmtriage\r\n";
  if (!content_type.empty()) {
    out += "Content-Type: ";
    out += content_type;
    out += "\r\n";
  }
  for (const auto& h : extra) {
    out += h.name;
    out += ": ";
    out += h.value;
    out += "\r\n";
  }
  if (content_length >= 0) {
    out += "Content-Length: ";
    out += std::to_string(content_length);
    out += "\r\n";
  } else {
    out += "Transfer-Encoding: chunked\r\n";
  }
  if (!keep_alive) out += "Connection: close\r\n";
  out += "\r\n";
}

}  // namespace llmtriage::net
