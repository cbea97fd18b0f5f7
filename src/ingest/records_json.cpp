#include "ingest/records_json.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <cstring>

#include "ingest/log_text.h"

namespace llmtriage::ingest::json {

ObjectScanner::ObjectScanner(std::string_view text) : s_(text) {
  ws();
  if (pos_ >= s_.size() || s_[pos_] != '{') {
    fail("expected '{' at the start of a record");
    return;
  }
  ++pos_;
}

bool ObjectScanner::fail(const char* what) {
  if (error_.empty()) error_ = std::string(what) + " at byte " + std::to_string(pos_ + 1);
  done_ = true;
  return false;
}

namespace {
// Index just past the closing quote of the string starting at s[i] == '"'; npos if unterminated.
size_t string_end(std::string_view s, size_t i, bool& escaped) {
  ++i;
  for (;;) {
    size_t q = s.find_first_of("\"\\", i);
    if (q == std::string_view::npos) return q;
    if (s[q] == '"') return q + 1;
    escaped = true;
    i = q + 2;
    if (i > s.size()) return std::string_view::npos;
  }
}
}  // namespace

bool ObjectScanner::skip_value(Value& v) {
  ws();
  if (pos_ >= s_.size()) return fail("expected a value, found the end of the line");
  char c = s_[pos_];
  size_t start = pos_;
  switch (c) {
    case '"': {
      bool esc = false;
      size_t e = string_end(s_, pos_, esc);
      if (e == std::string_view::npos) return fail("unterminated string");
      v.type = Type::string;
      v.raw = s_.substr(start + 1, e - start - 2);
      v.escaped = esc;
      pos_ = e;
      return true;
    }
    case '{':
    case '[': {
      int depth = 0;
      while (pos_ < s_.size()) {
        char d = s_[pos_];
        if (d == '"') {
          bool esc = false;
          size_t e = string_end(s_, pos_, esc);
          if (e == std::string_view::npos) return fail("unterminated string");
          pos_ = e;
          continue;
        }
        if (d == '{' || d == '[') ++depth;
        if (d == '}' || d == ']') {
          if (--depth == 0) {
            ++pos_;
            v.type = c == '{' ? Type::object : Type::array;
            v.raw = s_.substr(start, pos_ - start);
            return true;
          }
          if (depth < 0) return fail("unbalanced brackets");
        }
        ++pos_;
      }
      return fail("unterminated array or object");
    }
    case 't':
      if (s_.substr(pos_, 4) != "true") return fail("expected a value");
      v = Value{Type::boolean, s_.substr(pos_, 4), false, true};
      pos_ += 4;
      return true;
    case 'f':
      if (s_.substr(pos_, 5) != "false") return fail("expected a value");
      v = Value{Type::boolean, s_.substr(pos_, 5), false, false};
      pos_ += 5;
      return true;
    case 'n':
      if (s_.substr(pos_, 4) != "null") return fail("expected a value");
      v = Value{Type::null, s_.substr(pos_, 4), false, false};
      pos_ += 4;
      return true;
    default: {
      if (c != '-' && !logtext::is_digit(c)) {
        // Python's json.dumps writes NaN/Infinity: accept the tokens, read as "no value".
        for (std::string_view w : {"NaN", "Infinity", "-Infinity"}) {
          if (s_.substr(pos_, w.size()) == w) {
            v = Value{Type::null, s_.substr(pos_, w.size()), false, false};
            pos_ += w.size();
            return true;
          }
        }
        return fail("expected a value");
      }
      size_t e = pos_ + 1;
      while (e < s_.size() && (logtext::is_digit(s_[e]) || s_[e] == '.' || s_[e] == 'e' ||
                               s_[e] == 'E' || s_[e] == '-' || s_[e] == '+'))
        ++e;
      v.type = Type::number;
      v.raw = s_.substr(pos_, e - pos_);
      v.escaped = false;
      pos_ = e;
      return true;
    }
  }
}

bool ObjectScanner::next(std::string_view& key, Value& value) {
  if (done_) return false;
  ws();
  if (pos_ >= s_.size()) return fail("expected '}' or a member, found the end of the line");
  if (s_[pos_] == '}') {
    ++pos_;
    done_ = true;
    return false;
  }
  if (!first_) {
    if (s_[pos_] != ',') return fail("expected ',' between members");
    ++pos_;
    ws();
  }
  first_ = false;
  if (pos_ >= s_.size() || s_[pos_] != '"') return fail("expected a quoted key");
  bool esc = false;
  size_t e = string_end(s_, pos_, esc);
  if (e == std::string_view::npos) return fail("unterminated key");
  key = s_.substr(pos_ + 1, e - pos_ - 2);
  pos_ = e;
  ws();
  if (pos_ >= s_.size() || s_[pos_] != ':') return fail("expected ':' after a key");
  ++pos_;
  return skip_value(value);
}

namespace {
void put_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}
bool hex4(std::string_view s, size_t i, uint32_t& v) {
  if (i + 4 > s.size()) return false;
  v = 0;
  for (size_t k = 0; k < 4; ++k) {
    char c = s[i + k];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
    else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
    else return false;
  }
  return true;
}
}  // namespace

std::string unescape(const Value& v) {
  if (!v.escaped) return std::string(v.raw);
  std::string out;
  std::string_view s = v.raw;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out.push_back(s[i]);
      continue;
    }
    char c = s[++i];
    switch (c) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'u': {
        uint32_t cp;
        if (!hex4(s, i + 1, cp)) { out += "\xef\xbf\xbd"; break; }
        i += 4;
        if (cp >= 0xd800 && cp <= 0xdbff) {
          uint32_t lo;
          if (i + 2 < s.size() && s[i + 1] == '\\' && s[i + 2] == 'u' && hex4(s, i + 3, lo) &&
              lo >= 0xdc00 && lo <= 0xdfff) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            i += 6;
          } else {
            cp = 0xfffd;
          }
        } else if (cp >= 0xdc00 && cp <= 0xdfff) {
          cp = 0xfffd;
        }
        put_utf8(out, cp);
        break;
      }
      default: out.push_back(c); break;
    }
  }
  return out;
}

namespace {
// Appends the run of digits at p to m (m = m * 10^k + digits), counting them; returns the end.
// Eight digits at a time where eight bytes are left (the check and conversion fast_float uses);
// m wraps past 19 digits, which callers reject by the count.
const char* digit_run(const char* p, const char* e, uint64_t& m, int& count) {
  if constexpr (std::endian::native == std::endian::little) {
    while (e - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      if (((w & 0xF0F0F0F0F0F0F0F0) | (((w + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0) >> 4)) !=
          0x3333333333333333)
        break;
      w = ((w & 0x0F0F0F0F0F0F0F0F) * 2561) >> 8;           // pairs: 10*d0 + d1 per 16 bits
      w = ((w & 0x00FF00FF00FF00FF) * 6553601) >> 16;       // quads per 32 bits
      w = ((w & 0x0000FFFF0000FFFF) * 42949672960001) >> 32;  // all eight
      m = m * 100000000 + w;
      count += 8;
      p += 8;
    }
  }
  while (p < e && logtext::is_digit(*p)) {
    m = m * 10 + static_cast<uint64_t>(*p++ - '0');
    ++count;
  }
  return p;
}
}  // namespace

bool parse_number(std::string_view s, double& out) {
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char* p = s.data();
  const char* e = p + s.size();
  bool neg = p < e && *p == '-';
  if (neg) ++p;
  uint64_t m = 0;
  int digits = 0, frac = 0;
  p = digit_run(p, e, m, digits);
  bool plain = digits > 0;
  if (plain && p < e) {
    // Only "." followed by digits to the end stays on the fast path ("1.", "1e5" do not).
    plain = *p == '.';
    if (plain) {
      p = digit_run(p + 1, e, m, frac);
      digits += frac;
      plain = frac > 0 && p == e;
    }
  }
  // digits <= 19 keeps m from wrapping; m <= 2^53 and 10^frac <= 10^22 are exact doubles.
  if (plain && digits <= 19 && m <= (uint64_t{1} << 53) && frac <= 22) {
    double d = static_cast<double>(m);
    if (frac > 0) d /= kPow10[frac];
    out = neg ? -d : d;
    return true;
  }
#if defined(__x86_64__) && defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 64
  // 17-19 significant digits (most shortest-form doubles): m < 10^19 < 2^64 and 10^frac
  // (frac <= 27, 5^27 < 2^64) are exact in x87's 64-bit mantissa, so q = m / 10^frac is the
  // exact quotient x correctly rounded to 64 bits. Rounding q again to 53 bits gives x
  // correctly rounded unless q is exactly halfway between two doubles (low 11 bits 0x400):
  // every such midpoint is a 64-bit value, and rounding is monotonic, so q can only cross one
  // by landing on it. That case goes to from_chars.
  if (plain && digits <= 19 && frac <= 27) {
    static constexpr long double kPow10L[] = {
        1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
        1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
        1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
    long double q = static_cast<long double>(m) / kPow10L[frac];
    uint64_t mant;
    std::memcpy(&mant, &q, 8);  // the 64-bit significand, explicit integer bit on top
    if ((mant & 0x7FF) != 0x400) {
      double d = static_cast<double>(q);
      out = neg ? -d : d;
      return true;
    }
  }
#endif
  double d = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), d);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
  out = d;
  return true;
}

std::optional<double> to_number(const Value& v, bool* as_string) {
  if (as_string) *as_string = false;
  std::string_view s;
  if (v.type == Type::number) {
    s = v.raw;
  } else if (v.type == Type::string && !v.escaped) {
    s = logtext::trim(v.raw);
    if (as_string) *as_string = true;
  } else {
    return std::nullopt;
  }
  if (s.empty()) return std::nullopt;
  double d = 0;
  if (s.front() == '+') s.remove_prefix(1);
  if (!parse_number(s, d) || !std::isfinite(d)) return std::nullopt;
  return d;
}

std::optional<std::vector<double>> to_number_array(const Value& v) {
  if (v.type != Type::array) return std::nullopt;
  std::vector<double> out;
  std::string_view s = v.raw;
  // Exact size up front: stored records keep these vectors, and growth by doubling would leave
  // up to twice the memory behind each one.
  out.reserve(static_cast<size_t>(std::count(s.begin(), s.end(), ',')) + 1);
  size_t i = 1;
  for (;;) {
    while (i < s.size() && (s[i] == ' ' || s[i] == ',' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
    if (i >= s.size() || s[i] == ']') break;
    size_t pos = i;
    // JSON numbers have no thousands commas; number_at accepts them only before 3 digits + non-digit,
    // which cannot follow a JSON number element; so it is safe here.
    size_t e = i;
    while (e < s.size() && s[e] != ',' && s[e] != ']' && s[e] != ' ') ++e;
    double d = 0;
    if (!parse_number(s.substr(pos, e - pos), d)) return std::nullopt;
    out.push_back(d);
    i = e;
  }
  return out;
}

}  // namespace llmtriage::ingest::json
