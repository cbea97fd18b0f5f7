#include "ingest/log_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace llmtriage::ingest::logtext {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_space(s.front()) || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::optional<double> number_at(std::string_view s, size_t& pos) {
  size_t i = pos;
  while (i < s.size() && s[i] == ' ') ++i;
  size_t start = i;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  size_t digits_start = i;
  bool commas = false;
  while (i < s.size()) {
    if (is_digit(s[i])) {
      ++i;
    } else if (s[i] == ',' && i > digits_start && i + 3 < s.size() && is_digit(s[i + 1]) &&
               is_digit(s[i + 2]) && is_digit(s[i + 3]) &&
               (i + 4 >= s.size() || !is_digit(s[i + 4]))) {
      commas = true;
      i += 4;
    } else {
      break;
    }
  }
  bool int_digits = i > digits_start;
  bool frac_digits = false;
  if (i < s.size() && s[i] == '.') {
    size_t j = i + 1;
    while (j < s.size() && is_digit(s[j])) ++j;
    frac_digits = j > i + 1;
    if (frac_digits || int_digits) i = j;
  }
  if (!int_digits && !frac_digits) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    size_t k = j;
    while (k < s.size() && is_digit(s[k])) ++k;
    if (k > j) i = k;
  }
  double v = 0;
  const char* b = s.data() + start;
  const char* e = s.data() + i;
  if (*b == '+') ++b;
  if (commas) {
    char tmp[64];
    size_t n = 0;
    for (const char* p = b; p < e && n < sizeof(tmp); ++p)
      if (*p != ',') tmp[n++] = *p;
    auto r = std::from_chars(tmp, tmp + n, v);
    if (r.ec != std::errc()) return std::nullopt;
  } else {
    auto r = std::from_chars(b, e, v);
    if (r.ec != std::errc()) return std::nullopt;
  }
  if (!std::isfinite(v)) return std::nullopt;
  pos = i;
  return v;
}

std::optional<double> number_after(std::string_view s, std::string_view key) {
  size_t from = 0;
  return number_after(s, key, from);
}

std::optional<double> number_after(std::string_view s, std::string_view key, size_t& from) {
  size_t p = s.find(key, from);
  if (p == std::string_view::npos) return std::nullopt;
  size_t pos = p + key.size();
  auto v = number_at(s, pos);
  if (v) from = pos;
  return v;
}

namespace {
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

std::optional<double> size_gib_at(std::string_view s, size_t& pos) {
  size_t i = pos;
  auto v = number_at(s, i);
  if (!v) return std::nullopt;
  while (i < s.size() && s[i] == ' ') ++i;
  char u = i < s.size() ? lower(s[i]) : '\0';
  double scale;
  size_t len = 1;
  switch (u) {
    case 'k': scale = 1.0 / (1024.0 * 1024.0); break;
    case 'm': scale = 1.0 / 1024.0; break;
    case 'g': scale = 1.0; break;
    case 't': scale = 1024.0; break;
    case 'b': scale = 1.0 / (1024.0 * 1024.0 * 1024.0); len = 0; break;
    default: return std::nullopt;
  }
  if (len == 1) {
    size_t j = i + 1;
    if (j < s.size() && lower(s[j]) == 'i') ++j;
    if (j < s.size() && lower(s[j]) == 'b') {
      i = j + 1;
    } else {
      return std::nullopt;
    }
  } else {
    i += 1;
  }
  pos = i;
  return *v * scale;
}

std::optional<double> size_gib_after(std::string_view s, std::string_view key) {
  size_t p = s.find(key);
  if (p == std::string_view::npos) return std::nullopt;
  size_t pos = p + key.size();
  return size_gib_at(s, pos);
}

bool is_plain_ascii(std::string_view s) {
  // Eight bytes at a time (SWAR): flag bytes >= 0x80, < 0x20 or == 0x7f; only a flagged word
  // is looked at byte by byte (a tab is flagged but allowed). This check runs on every line.
  constexpr uint64_t k80 = 0x8080808080808080ULL, k20 = 0x2020202020202020ULL,
                     k7f = 0x7f7f7f7f7f7f7f7fULL, k01 = 0x0101010101010101ULL;
  auto byte_ok = [](unsigned char c) { return !(c >= 0x7f || (c < 0x20 && c != '\t')); };
  const char* p = s.data();
  size_t n = s.size(), i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    uint64_t x = w ^ k7f;
    uint64_t flags = (w & k80) | ((w - k20) & ~w & k80) | ((x - k01) & ~x & k80);
    if (flags != 0)
      for (size_t k = 0; k < 8; ++k)
        if (!byte_ok(static_cast<unsigned char>(p[i + k]))) return false;
  }
  for (; i < n; ++i)
    if (!byte_ok(static_cast<unsigned char>(p[i]))) return false;
  return true;
}

bool is_valid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* e = p + s.size();
  while (p < e) {
    unsigned char c = *p;
    if (c < 0x80) { ++p; continue; }
    int n;
    uint32_t cp;
    if ((c & 0xe0) == 0xc0) { n = 1; cp = c & 0x1f; }
    else if ((c & 0xf0) == 0xe0) { n = 2; cp = c & 0x0f; }
    else if ((c & 0xf8) == 0xf0) { n = 3; cp = c & 0x07; }
    else return false;
    if (e - p <= n) return false;
    for (int k = 1; k <= n; ++k) {
      if ((p[k] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (p[k] & 0x3f);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000)) return false;
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    p += n + 1;
  }
  return true;
}

bool looks_binary(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 && c != '\t' && c != '\r' && c != 0x1b) return true;
  return false;
}

std::string_view strip_ansi(std::string_view s, std::string& out) {
  if (s.find('\x1b') == std::string_view::npos) return s;
  out.clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      size_t j = i + 2;
      while (j < s.size() && !((s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= 'a' && s[j] <= 'z'))) ++j;
      i = j;  // skips the final letter too
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

std::string sanitize(std::string_view in, size_t max_bytes) {
  std::string tmp;
  std::string_view s = strip_ansi(in, tmp);
  std::string out;
  out.reserve(std::min(s.size(), max_bytes) + 3);
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* e = p + s.size();
  while (p < e && out.size() < max_bytes) {
    unsigned char c = *p;
    if (c < 0x80) {
      out.push_back((c < 0x20 && c != '\t') || c == 0x7f ? '?' : static_cast<char>(c));
      ++p;
      continue;
    }
    int n = (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
    if (n > 0 && e - p > n && is_valid_utf8(std::string_view(reinterpret_cast<const char*>(p), n + 1))) {
      out.append(reinterpret_cast<const char*>(p), n + 1);
      p += n + 1;
    } else {
      out.push_back('?');
      ++p;
    }
  }
  if (p < e) out += "...";
  return out;
}

namespace {
// Replaces the value starting at `pos` (quoted or bare) with <redacted>.
size_t redact_value_at(std::string& s, size_t pos) {
  while (pos < s.size() && (s[pos] == ' ' || s[pos] == '=' || s[pos] == ':')) ++pos;
  if (pos >= s.size()) return pos;
  size_t end;
  if (s[pos] == '[') {  // a list of keys: redact the whole list
    end = s.find(']', pos);
    if (end == std::string::npos) end = s.size();
    if (end == pos + 1) return end;
    s.replace(pos + 1, end - pos - 1, "<redacted>");
    return pos + 12;
  }
  if (s[pos] == '\'' || s[pos] == '"') {
    char q = s[pos];
    end = s.find(q, pos + 1);
    if (end == std::string::npos) end = s.size();
    if (s.compare(pos + 1, 4, "None") == 0 && end == pos + 5) return end;
    s.replace(pos + 1, end - pos - 1, "<redacted>");
    return pos + 12;
  }
  end = pos;
  while (end < s.size() && s[end] != ' ' && s[end] != ',' && s[end] != ')' && s[end] != '}' &&
         s[end] != '"' && s[end] != '\'')
    ++end;
  std::string_view v(s.data() + pos, end - pos);
  if (v == "None" || v == "null" || v.empty() || v == "[]") return end;
  s.replace(pos, end - pos, "<redacted>");
  return pos + 10;
}
}  // namespace

std::string redact_secrets(std::string_view in) {
  std::string s(in);
  static constexpr std::string_view keys[] = {
      "api_key",  "api-key",  "API_KEY", "hf_token", "HF_TOKEN", "hf-token", "Bearer ",
      "Authorization", "authorization", "password", "secret_key", "access_token"};
  for (std::string_view k : keys) {
    size_t pos = 0;
    while ((pos = s.find(k, pos)) != std::string::npos) {
      pos += k.size();
      // Skip the key's closing quote in dict reprs: 'api_key': 'x'
      if (pos < s.size() && (s[pos] == '\'' || s[pos] == '"')) ++pos;
      if (pos < s.size() && (s[pos] == '=' || s[pos] == ':' || s[pos] == ' ' || k == "Bearer ")) {
        pos = redact_value_at(s, pos);
      }
    }
  }
  return s;
}

}  // namespace llmtriage::ingest::logtext
