// Fast path for llmtriage's own bench JSONL ("llmtriage.request.v1", docs/logs-and-records.md):
// one pass over the line with pointers, keys dispatched by length then one compare, numbers
// through json::parse_number, and the record built in the sink's reused scratch record.
// It accepts only what it can read exactly as read_llmtriage_line_general would and emits
// nothing else: on any doubt it returns false before touching the sink, and the general reader
// reads the line again (tests/ingest_records/records_fast_test.cpp holds both to the same
// records and issues). Profile before (2M records, 2.33 CPU-s): a memchr per byte inside
// string_view::find_first_of (20%), key lookup through chains of string compares (17%),
// number conversion (20%).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#include "ingest/log_text.h"
#include "ingest/records_detail.h"

namespace llmtriage::ingest::detail {

namespace {

enum class Key : uint8_t {
  unknown, schema, id, arrival_s, send_s, first_token_s, end_s, input_tokens, output_tokens,
  ttft_s, e2e_s, chunk_times_s, chunk_tokens, itl_s, status, error_category, model, max_tokens,
  temperature, top_p, n, ignore_eos, queue_s
};

// Called where k.size() is known to be N - 1: a fixed-length memcmp the compiler inlines.
template <size_t N>
bool eq(std::string_view k, const char (&lit)[N]) {
  return std::memcmp(k.data(), lit, N - 1) == 0;
}

Key key_of(std::string_view k) {
  switch (k.size()) {
    case 1: return eq(k, "n") ? Key::n : Key::unknown;
    case 2: return eq(k, "id") ? Key::id : Key::unknown;
    case 5:
      if (eq(k, "e2e_s")) return Key::e2e_s;
      if (eq(k, "model")) return Key::model;
      if (eq(k, "end_s")) return Key::end_s;
      if (eq(k, "top_p")) return Key::top_p;
      if (eq(k, "itl_s")) return Key::itl_s;
      return Key::unknown;
    case 6:
      if (eq(k, "schema")) return Key::schema;
      if (eq(k, "send_s")) return Key::send_s;
      if (eq(k, "ttft_s")) return Key::ttft_s;
      if (eq(k, "status")) return Key::status;
      return Key::unknown;
    case 7: return eq(k, "queue_s") ? Key::queue_s : Key::unknown;
    case 9: return eq(k, "arrival_s") ? Key::arrival_s : Key::unknown;
    case 10:
      if (eq(k, "max_tokens")) return Key::max_tokens;
      if (eq(k, "ignore_eos")) return Key::ignore_eos;
      return Key::unknown;
    case 11: return eq(k, "temperature") ? Key::temperature : Key::unknown;
    case 12:
      if (eq(k, "input_tokens")) return Key::input_tokens;
      if (eq(k, "chunk_tokens")) return Key::chunk_tokens;
      return Key::unknown;
    case 13:
      if (eq(k, "output_tokens")) return Key::output_tokens;
      if (eq(k, "first_token_s")) return Key::first_token_s;
      if (eq(k, "chunk_times_s")) return Key::chunk_times_s;
      return Key::unknown;
    case 14: return eq(k, "error_category") ? Key::error_category : Key::unknown;
    default: return Key::unknown;
  }
}

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_num_char(char c) {
  return logtext::is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
}

// Pointer past the closing quote of a string whose opening quote is just before `p`, or null
// when unterminated. A backslash skips the next byte, as ObjectScanner does. Eight bytes at a
// time: the lowest byte flagged by the zero-byte test of w ^ '"' or w ^ '\\' is the first
// quote or backslash (flags above a true hit can be false, the lowest never is).
const char* string_end(const char* p, const char* e, bool& escaped) {
  constexpr uint64_t k01 = 0x0101010101010101ULL, k80 = 0x8080808080808080ULL;
  for (;;) {
    if constexpr (std::endian::native == std::endian::little) {
      while (e - p >= 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        uint64_t q = w ^ (k01 * '"'), b = w ^ (k01 * '\\');
        uint64_t hit = (((q - k01) & ~q) | ((b - k01) & ~b)) & k80;
        if (hit != 0) {
          p += std::countr_zero(hit) / 8;
          break;
        }
        p += 8;
      }
    }
    if (p >= e) return nullptr;
    char c = *p;
    if (c == '"') return p + 1;
    if (c == '\\') {
      escaped = true;
      if (e - p < 2) return nullptr;
      p += 2;
      continue;
    }
    ++p;
  }
}

enum class T : uint8_t { string, number, boolean, null, nested };
struct Val {
  T type = T::null;
  std::string_view raw;  // string: between the quotes; others: the token
  bool escaped = false;
  bool boolean = false;
};

// One value at `p`; false on anything the fast path leaves to the general reader (including
// the NaN/Infinity tokens, which it reads as null).
bool value(const char*& p, const char* e, Val& v) {
  if (p >= e) return false;
  const char* start = p;
  switch (*p) {
    case '"': {
      bool esc = false;
      const char* q = string_end(p + 1, e, esc);
      if (q == nullptr) return false;
      v = Val{T::string, std::string_view(start + 1, static_cast<size_t>(q - start - 2)), esc, false};
      p = q;
      return true;
    }
    case '{':
    case '[': {
      int depth = 0;
      while (p < e) {
        char d = *p;
        if (d == '"') {
          bool esc = false;
          const char* q = string_end(p + 1, e, esc);
          if (q == nullptr) return false;
          p = q;
          continue;
        }
        if (d == '{' || d == '[') ++depth;
        if (d == '}' || d == ']') {
          if (--depth == 0) {
            ++p;
            v = Val{T::nested, std::string_view(start, static_cast<size_t>(p - start)), false, false};
            return true;
          }
          if (depth < 0) return false;
        }
        ++p;
      }
      return false;
    }
    case 't':
      if (e - p < 4 || std::string_view(p, 4) != "true") return false;
      v = Val{T::boolean, std::string_view(p, 4), false, true};
      p += 4;
      return true;
    case 'f':
      if (e - p < 5 || std::string_view(p, 5) != "false") return false;
      v = Val{T::boolean, std::string_view(p, 5), false, false};
      p += 5;
      return true;
    case 'n':
      if (e - p < 4 || std::string_view(p, 4) != "null") return false;
      v = Val{T::null, std::string_view(p, 4), false, false};
      p += 4;
      return true;
    default: {
      if (*p != '-' && !logtext::is_digit(*p)) return false;
      ++p;
      while (p < e && is_num_char(*p)) ++p;
      v = Val{T::number, std::string_view(start, static_cast<size_t>(p - start)), false, false};
      return true;
    }
  }
}

// A finite number from a number token; null is "absent" (nullopt with ok = true).
bool number(const Val& v, std::optional<double>& out) {
  if (v.type == T::null) return true;
  double d = 0;
  if (v.type != T::number || !json::parse_number(v.raw, d) || !std::isfinite(d)) return false;
  out = d;
  return true;
}

// A count as the general reader takes it: a whole number in [0, 9e15].
bool count(const Val& v, std::optional<int64_t>& out) {
  std::optional<double> d;
  if (!number(v, d)) return false;
  if (!d) return true;
  if (*d < 0 || *d > 9.0e15 || std::floor(*d) != *d) return false;
  out = clamp_i64(*d);
  return true;
}

bool number_array(const Val& v, std::vector<double>& out) {
  if (v.type != T::nested || v.raw.front() != '[') return false;
  auto a = json::to_number_array(json::Value{json::Type::array, v.raw, false, false});
  if (!a) return false;
  out = std::move(*a);
  return true;
}

void reset(core::RequestRecord& r) {
  r.id.clear();
  r.arrival_s = 0;
  r.send_s.reset();
  r.input_tokens.reset();
  r.output_tokens.reset();
  r.ttft_s.reset();
  r.e2e_s.reset();
  r.chunk_times_s.clear();
  r.chunk_tokens.clear();
  r.itl_s.clear();
  r.status = core::RequestStatus::ok;
  r.error_category.clear();
  r.model.clear();
  r.max_tokens.reset();
  r.temperature.reset();
  r.top_p.reset();
  r.n.reset();
  r.ignore_eos.reset();
  r.queue_s.reset();
}

// Applies one known member to `r`; false where the general reader would report an issue or
// read the value differently. Members apply in line order, as in the general reader.
bool apply(Key k, const Val& v, core::RequestRecord& r, bool& has_arrival,
           std::optional<double>& first_abs, std::optional<double>& end_abs) {
  switch (k) {
    case Key::unknown: return true;
    case Key::schema: return v.type == T::string && v.raw == "llmtriage.request.v1";
    case Key::id:
      if ((v.type != T::string || v.escaped) && v.type != T::number) return false;
      r.id.assign(v.raw);
      return true;
    case Key::model:
      if (v.type != T::string || v.escaped) return false;
      r.model.assign(v.raw);
      return true;
    case Key::error_category:
      if (v.type == T::null) return true;
      if (v.type != T::string || v.escaped) return false;
      if (!v.raw.empty()) r.error_category.assign(v.raw);
      return true;
    case Key::status:
      if (v.type == T::boolean) {
        r.status = v.boolean ? core::RequestStatus::ok : core::RequestStatus::error;
        return true;
      }
      if (v.type == T::string) {
        if (v.raw == "ok" || v.raw == "success" || v.raw == "OK") r.status = core::RequestStatus::ok;
        else if (v.raw == "error" || v.raw == "failed" || v.raw == "failure") r.status = core::RequestStatus::error;
        else return false;
        return true;
      }
      if (v.type == T::number) {
        std::optional<double> code;
        if (!number(v, code)) return false;
        int c = clamp_int(*code);
        if (c >= 400 || c == 0) {
          r.status = core::RequestStatus::error;
          if (r.error_category.empty()) r.error_category = http_category(c);
        }
        return true;
      }
      return false;
    case Key::ignore_eos: {
      if (v.type == T::boolean) {
        r.ignore_eos = v.boolean;
        return true;
      }
      std::optional<double> d;
      if (!number(v, d)) return false;
      if (d) r.ignore_eos = *d != 0;
      return true;
    }
    case Key::arrival_s: {
      std::optional<double> d;
      if (!number(v, d)) return false;
      if (d) {
        r.arrival_s = *d;
        has_arrival = true;
      }
      return true;
    }
    case Key::send_s: { std::optional<double> d; if (!number(v, d)) return false; if (d) r.send_s = d; return true; }
    case Key::ttft_s: { std::optional<double> d; if (!number(v, d)) return false; if (d) r.ttft_s = d; return true; }
    case Key::e2e_s: { std::optional<double> d; if (!number(v, d)) return false; if (d) r.e2e_s = d; return true; }
    case Key::queue_s: { std::optional<double> d; if (!number(v, d)) return false; if (d) r.queue_s = d; return true; }
    case Key::temperature: { std::optional<double> d; if (!number(v, d)) return false; if (d) r.temperature = d; return true; }
    case Key::top_p: { std::optional<double> d; if (!number(v, d)) return false; if (d) r.top_p = d; return true; }
    case Key::first_token_s: { std::optional<double> d; if (!number(v, d)) return false; if (d) first_abs = d; return true; }
    case Key::end_s: { std::optional<double> d; if (!number(v, d)) return false; if (d) end_abs = d; return true; }
    case Key::input_tokens: { std::optional<int64_t> i; if (!count(v, i)) return false; if (i) r.input_tokens = i; return true; }
    case Key::output_tokens: { std::optional<int64_t> i; if (!count(v, i)) return false; if (i) r.output_tokens = i; return true; }
    case Key::max_tokens: { std::optional<int64_t> i; if (!count(v, i)) return false; if (i) r.max_tokens = i; return true; }
    case Key::n: {
      std::optional<int64_t> i;
      if (!count(v, i)) return false;
      if (i) r.n = clamp_int(static_cast<double>(*i));
      return true;
    }
    case Key::chunk_times_s: return number_array(v, r.chunk_times_s);
    case Key::itl_s: return number_array(v, r.itl_s);
    case Key::chunk_tokens: {
      std::vector<double> a;
      if (!number_array(v, a)) return false;
      r.chunk_tokens.reserve(a.size());
      for (double x : a) r.chunk_tokens.push_back(clamp_int(x));
      return true;
    }
  }
  return false;
}

}  // namespace

bool read_llmtriage_line_fast(std::string_view line, RecordSink& sink) {
  const char* p = line.data();
  const char* e = p + line.size();
  while (p < e && is_ws(*p)) ++p;
  if (p >= e || *p != '{') return false;
  ++p;
  core::RequestRecord& r = sink.scratch;
  reset(r);
  bool has_arrival = false;
  std::optional<double> first_abs, end_abs;
  uint32_t seen = 0;  // known keys met: a repeated one goes to the general reader
  bool first = true;
  for (;;) {
    while (p < e && is_ws(*p)) ++p;
    if (p >= e) return false;
    if (*p == '}') break;  // what follows the object is ignored, as by the general reader
    if (!first) {
      if (*p != ',') return false;
      ++p;
      while (p < e && is_ws(*p)) ++p;
    }
    first = false;
    if (p >= e || *p != '"') return false;
    bool esc = false;
    const char* q = string_end(p + 1, e, esc);
    if (q == nullptr || esc) return false;
    std::string_view key(p + 1, static_cast<size_t>(q - p - 2));
    p = q;
    while (p < e && is_ws(*p)) ++p;
    if (p >= e || *p != ':') return false;
    ++p;
    while (p < e && is_ws(*p)) ++p;
    Val v;
    if (!value(p, e, v)) return false;
    Key k = key_of(key);
    if (k != Key::unknown) {
      uint32_t bit = 1u << static_cast<unsigned>(k);
      if (seen & bit) return false;
      seen |= bit;
    }
    if (!apply(k, v, r, has_arrival, first_abs, end_abs)) return false;
  }
  if (!has_arrival) return false;
  if (!r.chunk_tokens.empty() && r.chunk_tokens.size() != r.chunk_times_s.size()) return false;
  // As finish_mapped in records_read.cpp.
  double start = r.send_s.value_or(r.arrival_s);
  if (first_abs && !r.ttft_s) r.ttft_s = *first_abs - start;
  if (end_abs && !r.e2e_s) r.e2e_s = *end_abs - start;
  if (r.status == core::RequestStatus::error && r.error_category.empty()) r.error_category = "error";
  if (r.id.empty()) r.id = std::to_string(sink.emitted);
  sink.emit(std::move(r));
  return true;
}

}  // namespace llmtriage::ingest::detail
