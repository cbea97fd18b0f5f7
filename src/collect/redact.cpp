#include "collect/redact.h"

#include <cctype>
#include <vector>

namespace llmtriage::collect {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool secret_name(std::string_view name) {
  std::string n = lower(name);
  for (const char* k : {"key", "token", "secret", "password", "passwd", "auth", "credential", "signature"})
    if (n.find(k) != std::string::npos) return true;
  return false;
}

bool looks_like_token(std::string_view w) {
  auto starts = [&](std::string_view p) { return w.size() > p.size() + 8 && w.substr(0, p.size()) == p; };
  return starts("hf_") || starts("sk-") || starts("ghp_") || starts("xoxb-") || starts("eyJ");
}

}  // namespace

std::string redact_url_secrets(std::string_view url) {
  std::string out;
  size_t scheme = url.find("://");
  size_t host_start = scheme == std::string_view::npos ? 0 : scheme + 3;
  size_t path_start = url.find_first_of("/?#", host_start);
  std::string_view authority = url.substr(host_start, path_start == std::string_view::npos ? std::string_view::npos : path_start - host_start);
  if (auto at = authority.rfind('@'); at != std::string_view::npos) authority = authority.substr(at + 1);
  out.append(url.substr(0, host_start));
  out.append(authority);
  if (path_start == std::string_view::npos) return out;
  std::string_view rest = url.substr(path_start);
  size_t q = rest.find('?');
  out.append(rest.substr(0, q));
  if (q == std::string_view::npos) return out;
  std::string_view query = rest.substr(q + 1);
  size_t hash = query.find('#');
  if (hash != std::string_view::npos) query = query.substr(0, hash);
  out += '?';
  size_t start = 0;
  bool first = true;
  while (start <= query.size()) {
    size_t amp = query.find('&', start);
    std::string_view kv = query.substr(start, amp == std::string_view::npos ? std::string_view::npos : amp - start);
    if (!first) out += '&';
    first = false;
    size_t eq = kv.find('=');
    if (eq != std::string_view::npos && (secret_name(kv.substr(0, eq)) || looks_like_token(kv.substr(eq + 1)))) {
      out.append(kv.substr(0, eq + 1));
      out += "<redacted>";
    } else {
      out.append(kv);
    }
    if (amp == std::string_view::npos) break;
    start = amp + 1;
  }
  return out;
}

std::string redact_args_secrets(std::string_view args) {
  // Split on whitespace, keeping the separators.
  std::string out;
  bool redact_next = false;
  size_t i = 0;
  while (i < args.size()) {
    if (std::isspace(static_cast<unsigned char>(args[i]))) {
      out += args[i++];
      continue;
    }
    size_t j = i;
    char quote = 0;
    while (j < args.size() && (quote || !std::isspace(static_cast<unsigned char>(args[j])))) {
      if (!quote && (args[j] == '"' || args[j] == '\'')) quote = args[j];
      else if (quote && args[j] == quote) quote = 0;
      ++j;
    }
    std::string_view w = args.substr(i, j - i);
    i = j;
    if (redact_next) {
      out += "<redacted>";
      redact_next = false;
      continue;
    }
    std::string_view name = w;
    size_t eq = w.find('=');
    if (eq != std::string_view::npos) name = w.substr(0, eq);
    bool is_flag = name.size() > 1 && name[0] == '-';
    bool is_env = !is_flag && eq != std::string_view::npos;  // HF_TOKEN=...
    if ((is_flag || is_env) && secret_name(name) && lower(name).find("max") == std::string::npos &&
        lower(name).find("tokens") == std::string::npos && lower(name).find("tokenizer") == std::string::npos) {
      if (eq != std::string_view::npos) {
        out.append(w.substr(0, eq + 1));
        out += "<redacted>";
      } else {
        out.append(w);
        redact_next = true;
      }
      continue;
    }
    if (size_t bp = lower(w).find("bearer "); bp != std::string::npos) {  // 'Authorization: Bearer x'
      out.append(w.substr(0, bp + 7));
      out += "<redacted>";
      if (w.back() == '\'' || w.back() == '"') out += w.back();
      continue;
    }
    if (looks_like_token(w)) {
      out += "<redacted>";
      continue;
    }
    if (lower(w) == "bearer") {
      out.append(w);
      redact_next = true;
      continue;
    }
    out.append(w);
  }
  return out;
}

bool contains_secret(std::string_view text, std::string_view secret_hint) {
  if (!secret_hint.empty() && text.find(secret_hint) != std::string_view::npos) return true;
  std::string l = lower(text);
  if (l.find("authorization:") != std::string::npos) return true;
  for (std::string_view p : {"bearer ", "\"bearer "}) {
    size_t pos = l.find(p);
    if (pos != std::string::npos) {
      std::string_view after = std::string_view(l).substr(pos + p.size());
      if (!after.empty() && after.substr(0, 10) != "<redacted>") return true;
    }
  }
  return false;
}

}  // namespace llmtriage::collect
