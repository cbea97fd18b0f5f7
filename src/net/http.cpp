#include "net/http.h"

namespace llmtriage::net {

const char* to_string(Method m) {
  switch (m) {
    case Method::get: return "GET";
    case Method::post: return "POST";
    case Method::head: return "HEAD";
    case Method::put: return "PUT";
    case Method::del: return "DELETE";
  }
  return "GET";
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x + 32);
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y + 32);
    if (x != y) return false;
  }
  return true;
}

const std::string* find_header(const Headers& headers, std::string_view name) {
  for (const auto& h : headers) {
    if (iequals(h.name, name)) return &h.value;
  }
  return nullptr;
}

}  // namespace llmtriage::net
