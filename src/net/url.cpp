#include "net/url.h"

#include <charconv>

#include "net/failure.h"

namespace llmtriage::net {

std::string Url::host_header() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (port != (tls ? 443 : 80)) h += ":" + std::to_string(port);
  return h;
}

std::string Url::redacted() const {
  return std::string(tls ? "https://" : "http://") + host_header() + target;
}

core::Result<Url> parse_url(std::string_view text) {
  auto bad = [&](std::string found) {
    return make_failure(Failure::bad_url, redact_url(text),
                        "an http:// or https:// URL like http://127.0.0.1:8000/metrics",
                        std::move(found));
  };
  Url u;
  std::string_view rest;
  if (text.substr(0, 7) == "http://") {
    rest = text.substr(7);
  } else if (text.substr(0, 8) == "https://") {
    u.tls = true;
    rest = text.substr(8);
  } else {
    return bad("no http:// or https:// scheme");
  }
  auto slash = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, slash);
  std::string_view target = slash == std::string_view::npos ? "/" : rest.substr(slash);
  if (auto hash = target.find('#'); hash != std::string_view::npos) target = target.substr(0, hash);
  if (auto at = authority.rfind('@'); at != std::string_view::npos) {
    u.userinfo = std::string(authority.substr(0, at));
    authority = authority.substr(at + 1);
  }
  std::string_view port_text;
  if (!authority.empty() && authority[0] == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) return bad("an IPv6 literal without ']'");
    u.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return bad("characters after the IPv6 literal");
      port_text = after.substr(1);
    }
  } else {
    auto colon = authority.rfind(':');
    u.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
  }
  if (u.host.empty()) return bad("no host");
  for (char c : u.host) {
    if (c == ' ' || c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x21)
      return bad("a host with a space or control character");
  }
  if (!port_text.empty()) {
    unsigned port = 0;
    auto [p, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || p != port_text.data() + port_text.size() || port == 0 || port > 65535)
      return bad("port '" + std::string(port_text) + "'");
    u.port = static_cast<std::uint16_t>(port);
  } else {
    u.port = u.tls ? 443 : 80;
  }
  if (target[0] == '?') u.target = "/" + std::string(target);
  else u.target = std::string(target);
  for (char c : u.target) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      return bad("a space or control character in the path (percent-encode it)");
  }
  return u;
}

std::string redact_url(std::string_view text) {
  std::string out(text);
  auto scheme = out.find("://");
  size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  auto end = out.find_first_of("/?#", start);
  auto at = out.rfind('@', end == std::string::npos ? out.size() : end);
  if (at != std::string::npos && at >= start) out.erase(start, at + 1 - start);
  auto q = out.find('?');
  if (q != std::string::npos && out.size() - q > 80) out = out.substr(0, q + 80) + "...";
  return out;
}

}  // namespace llmtriage::net
