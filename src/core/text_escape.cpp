#include "core/text_escape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace llmtriage::core {
namespace {

// Length of the well-formed UTF-8 sequence at p (1..4), or 0 when the bytes there are not one.
size_t utf8_len(const unsigned char* p, const unsigned char* e) {
  const unsigned char c = *p;
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if ((c & 0xe0) == 0xc0) { n = 1; cp = c & 0x1fu; }
  else if ((c & 0xf0) == 0xe0) { n = 2; cp = c & 0x0fu; }
  else if ((c & 0xf8) == 0xf0) { n = 3; cp = c & 0x07u; }
  else return 0;
  if (static_cast<size_t>(e - p) <= n) return 0;
  for (size_t k = 1; k <= n; ++k) {
    if ((p[k] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (p[k] & 0x3fu);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
  if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000)) return 0;
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n + 1;
}

void hex_escape(std::string& out, unsigned char c) {
  static const char digits[] = "0123456789abcdef";
  out += "\\x";
  out.push_back(digits[c >> 4]);
  out.push_back(digits[c & 0xf]);
}

}  // namespace

std::string printable(std::string_view s, size_t max_bytes) {
  std::string out;
  out.reserve(s.size() + 8);
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* e = p + s.size();
  const auto* stop = max_bytes > 0 && s.size() > max_bytes ? p + max_bytes : e;
  while (p < stop) {
    const unsigned char c = *p;
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
      ++p;
      continue;
    }
    if (c == '\n') { out += "\\n"; ++p; continue; }
    if (c == '\r') { out += "\\r"; ++p; continue; }
    if (c == '\t') { out += "\\t"; ++p; continue; }
    const size_t n = c >= 0x80 ? utf8_len(p, e) : 0;
    // C1 controls (U+0080..U+009F, encoded c2 80..c2 9f) act on terminals like C0 ones.
    if (n > 1 && !(n == 2 && c == 0xc2 && p[1] < 0xa0)) {
      out.append(reinterpret_cast<const char*>(p), n);
      p += n;
      continue;
    }
    if (n == 2) {
      hex_escape(out, p[0]);
      hex_escape(out, p[1]);
      p += 2;
      continue;
    }
    hex_escape(out, c);
    ++p;
  }
  if (p < e) out += "...";
  return out;
}

double non_text_share(std::string_view head) {
  if (head.empty()) return 0;
  size_t bad = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(head.data());
  const auto* e = p + head.size();
  while (p < e) {
    const unsigned char c = *p;
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b) ++bad;
      if (c == 0x7f) ++bad;
      ++p;
      continue;
    }
    const size_t n = utf8_len(p, e);
    if (n == 0) {
      ++bad;
      ++p;
    } else {
      p += n;
    }
  }
  return static_cast<double>(bad) / static_cast<double>(head.size());
}

bool looks_like_binary(std::string_view head) {
  if (head.find('\0') != std::string_view::npos) return true;
  return non_text_share(head) > 0.10;
}

void BinaryHead::add(std::string_view t) {
  if (judged_) return;
  const std::string_view part = t.substr(0, static_cast<size_t>(kBytes - std::min(total_, kBytes)));
  nul_ += static_cast<uint64_t>(std::count(part.begin(), part.end(), '\0'));
  non_text_ += non_text_share(part) * static_cast<double>(part.size());
  total_ += part.size();
  if (total_ < kBytes) ++total_;  // the newline
  if (total_ >= kBytes) judge();
}

void BinaryHead::judge() {
  if (judged_ || total_ == 0) return;
  judged_ = true;
  const double n = static_cast<double>(total_);
  binary_ = (nul_ >= 16 && static_cast<double>(nul_) > 0.01 * n) || non_text_ / n > 0.10;
}

std::string BinaryHead::describe() const {
  return fmt::format("binary data ({:.0f}% of the first {} bytes are not text)",
                     total_ ? 100 * non_text_ / static_cast<double>(total_) : 0.0, total_);
}

}  // namespace llmtriage::core
