#include "ingest/log_prefix.h"

#include <cctype>

#include "ingest/log_text.h"

namespace llmtriage::ingest {

using logtext::is_digit;
using logtext::starts_with;

int64_t days_from_civil(int y, int m, int d) {
  // Howard Hinnant's algorithm (http://howardhinnant.github.io/date_algorithms.html).
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

namespace {

bool digits(std::string_view s, size_t pos, size_t n, int& out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (!is_digit(c)) return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

// "HH:MM:SS[.frac|,frac]" at pos; advances pos.
bool parse_hms(std::string_view s, size_t& pos, LogTime& t) {
  if (!digits(s, pos, 2, t.hour) || pos + 8 > s.size() || s[pos + 2] != ':' ||
      !digits(s, pos + 3, 2, t.minute) || s[pos + 5] != ':')
    return false;
  int sec;
  if (!digits(s, pos + 6, 2, sec)) return false;
  if (t.hour > 23 || t.minute > 59 || sec > 60) return false;
  t.second = sec;
  pos += 8;
  if (pos < s.size() && (s[pos] == '.' || s[pos] == ',') && pos + 1 < s.size() && is_digit(s[pos + 1])) {
    double scale = 0.1, frac = 0;
    ++pos;
    while (pos < s.size() && is_digit(s[pos])) {
      frac += (s[pos] - '0') * scale;
      scale *= 0.1;
      ++pos;
    }
    t.second += frac;
  }
  return true;
}

// Zone after a time: "Z", "+hh:mm", "+hhmm", " UTC".
void parse_zone(std::string_view s, size_t& pos, LogTime& t) {
  if (pos < s.size() && s[pos] == 'Z') {
    t.tz_offset_s = 0;
    ++pos;
    return;
  }
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int h, m = 0;
    if (!digits(s, pos + 1, 2, h)) return;
    size_t p = pos + 3;
    if (p < s.size() && s[p] == ':') ++p;
    if (digits(s, p, 2, m)) p += 2;
    int off = (h * 3600 + m * 60) * (s[pos] == '-' ? -1 : 1);
    t.tz_offset_s = off;
    pos = p;
    return;
  }
  if (starts_with(s.substr(pos), " UTC")) {
    t.tz_offset_s = 0;
    pos += 4;
  }
}

// "YYYY-MM-DD[T ]HH:MM:SS..." or "YYYY/MM/DD HH:MM:SS" at pos.
bool parse_iso(std::string_view s, size_t& pos, LogTime& t) {
  size_t p = pos;
  if (!digits(s, p, 4, t.year) || p + 10 > s.size()) return false;
  char sep = s[p + 4];
  if ((sep != '-' && sep != '/') || s[p + 7] != sep) return false;
  if (!digits(s, p + 5, 2, t.month) || !digits(s, p + 8, 2, t.day)) return false;
  if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31) return false;
  p += 10;
  if (p < s.size() && (s[p] == 'T' || s[p] == ' ')) {
    size_t q = p + 1;
    if (parse_hms(s, q, t)) {
      p = q;
      parse_zone(s, p, t);
    }
  }
  t.valid = true;
  pos = p;
  return true;
}

LogLevel level_from(std::string_view w) {
  switch (w.empty() ? ' ' : w[0]) {
    case 'I': return w == "INFO" ? LogLevel::info : LogLevel::none;
    case 'W': return (w == "WARNING" || w == "WARN") ? LogLevel::warning : LogLevel::none;
    case 'E': return w == "ERROR" ? LogLevel::error : LogLevel::none;
    case 'D': return w == "DEBUG" ? LogLevel::debug : LogLevel::none;
    case 'C': return w == "CRITICAL" ? LogLevel::critical : LogLevel::none;
    case 'T': return w == "TRACE" ? LogLevel::trace : LogLevel::none;
    case 'F': return w == "FATAL" ? LogLevel::critical : LogLevel::none;
    default: return LogLevel::none;
  }
}

// A level word at pos followed by a space; advances past it.
LogLevel level_at(std::string_view s, size_t& pos) {
  size_t e = pos;
  while (e < s.size() && s[e] >= 'A' && s[e] <= 'Z' && e - pos < 9) ++e;
  if (e == pos || e >= s.size()) return LogLevel::none;
  LogLevel l = level_from(s.substr(pos, e - pos));
  if (l == LogLevel::none) return l;
  if (s[e] == ':' ) ++e;  // uvicorn "INFO:"
  if (e >= s.size() || s[e] != ' ') return LogLevel::none;
  pos = e;
  while (pos < s.size() && s[pos] == ' ') ++pos;
  return l;
}

// vLLM: "<LEVEL> MM-DD HH:MM:SS [file.py:123] msg" or "... file.py:123] msg" (older).
bool parse_vllm(std::string_view s, size_t pos, LogPrefix& out) {
  size_t p = pos;
  LogLevel lvl = level_at(s, p);
  if (lvl == LogLevel::none) return false;
  LogTime t;
  if (!digits(s, p, 2, t.month) || p + 6 > s.size() || s[p + 2] != '-' ||
      !digits(s, p + 3, 2, t.day) || s[p + 5] != ' ')
    return false;
  p += 6;
  if (!parse_hms(s, p, t)) return false;
  if (p >= s.size() || s[p] != ' ') return false;
  ++p;
  // The file:line part, with or without '['; ends at "] ".
  size_t close = s.find("] ", p);
  size_t msg_at;
  if (close != std::string_view::npos && close - p <= 120) {
    msg_at = close + 2;
  } else {
    // vLLM's docs quote lines without the bracket: "scheduler.py:1057 Sequence group ..."
    size_t sp = s.find(' ', p);
    if (sp == std::string_view::npos || s.substr(p, sp - p).find(".py:") == std::string_view::npos)
      return false;
    msg_at = sp + 1;
  }
  t.valid = true;
  out.time = t;
  out.level = lvl;
  out.message = s.substr(msg_at);
  out.hint = core::EngineKind::vllm;
  out.recognized = true;
  return true;
}

// "(Name pid=123) " process tag, vLLM ≥ 0.10 / Ray workers.
size_t skip_process_tag(std::string_view s, std::string_view& process) {
  if (s.empty() || s[0] != '(') return 0;
  size_t close = s.find(") ");
  if (close == std::string_view::npos || close > 80) return 0;
  std::string_view inner = s.substr(1, close - 1);
  size_t pid = inner.find("pid=");
  if (pid == std::string_view::npos) return 0;
  process = logtext::trim(inner.substr(0, pid));
  return close + 2;
}

void parse_ollama(std::string_view s, LogPrefix& out) {
  // time=2024-06-01T10:00:00.000Z level=INFO source=server.go:123 msg="..."
  size_t p = 5;
  parse_iso(s, p, out.time);
  size_t lv = s.find(" level=", p);
  if (lv != std::string_view::npos) {
    size_t q = lv + 7;
    size_t e = s.find(' ', q);
    out.level = level_from(s.substr(q, e == std::string_view::npos ? std::string_view::npos : e - q));
  }
  size_t m = s.find(" msg=", p);
  out.message = m == std::string_view::npos ? s.substr(p) : s.substr(m + 5);
  out.hint = core::EngineKind::ollama;
  out.recognized = true;
}

void parse_llamacpp_json(std::string_view s, LogPrefix& out) {
  // {"tid":"1","timestamp":1717000000,"level":"INFO","function":"main","line":1,"msg":"..."}
  size_t p = s.find("\"timestamp\":");
  if (p != std::string_view::npos) {
    size_t q = p + 12;
    if (auto v = logtext::number_at(s, q)) {
      out.time.unix_s = *v;
      out.time.valid = true;
    }
  }
  size_t l = s.find("\"level\":\"");
  if (l != std::string_view::npos) {
    size_t q = l + 9, e = s.find('"', q);
    if (e != std::string_view::npos) {
      std::string_view w = s.substr(q, e - q);
      out.level = w == "INFO" ? LogLevel::info : w == "WARN" || w == "WARNING" ? LogLevel::warning
                : w == "ERR" || w == "ERROR" ? LogLevel::error : w == "VERB" ? LogLevel::debug
                : LogLevel::none;
    }
  }
  size_t m = s.find("\"msg\":");
  out.message = m == std::string_view::npos ? s : s.substr(m + 6);
  out.hint = core::EngineKind::llamacpp;
  out.recognized = true;
}


// systemd journal: "Dec 04 03:12:55 host proc[123]: rest" (no year). Returns the rest's offset.
size_t skip_journald(std::string_view s, LogTime& t) {
  static constexpr std::string_view months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (s.size() < 20 || s[3] != ' ') return 0;
  int mon = 0;
  for (int i = 0; i < 12; ++i)
    if (s.substr(0, 3) == months[i]) mon = i + 1;
  if (mon == 0) return 0;
  size_t p = 4;
  if (s[p] == ' ') ++p;  // "Dec  4"
  int day = 0;
  while (p < s.size() && is_digit(s[p]) && day < 100) day = day * 10 + (s[p++] - '0');
  if (p >= s.size() || s[p] != ' ' || day < 1 || day > 31) return 0;
  ++p;
  LogTime tt;
  if (!parse_hms(s, p, tt) || p >= s.size() || s[p] != ' ') return 0;
  size_t colon = s.find(": ", p);
  if (colon == std::string_view::npos || colon - p > 100 || s[colon - 1] != ']') return 0;
  tt.month = mon;
  tt.day = day;
  tt.valid = true;
  t = tt;
  return colon + 2;
}

// docker compose: "service-name  | rest"
size_t skip_compose(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && i < 64 &&
         (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '_' || s[i] == '.'))
    ++i;
  if (i == 0 || i >= s.size() || s[i] != ' ') return 0;
  size_t j = i;
  while (j < s.size() && s[j] == ' ') ++j;
  if (j + 1 < s.size() && s[j] == '|' && (s[j + 1] == ' ' || j + 2 == s.size() + 1)) return j + 2;
  if (j + 1 == s.size() && s[j] == '|') return j + 1;
  return 0;
}

}  // namespace

LogPrefix parse_prefix(std::string_view s) {
  LogPrefix out;
  out.message = s;
  if (s.empty()) return out;
  // Outer wrappers first: docker compose's "name  | " and the systemd journal's prefix.
  if (size_t c = skip_compose(s); c > 0 && c <= s.size()) {
    s = s.substr(c);
    out.message = s;
    out.recognized = true;
    if (s.empty()) return out;
  }
  {
    LogTime jt;
    if (size_t j = skip_journald(s, jt); j > 0) {
      s = s.substr(j);
      LogPrefix inner = parse_prefix(s);
      if (!inner.time.valid || (inner.time.month == 0 && !inner.time.unix_s)) inner.time = jt;
      inner.recognized = true;
      return inner;
    }
  }
  size_t pos = 0;
  // A container runtime's timestamp ("kubectl logs --timestamps") or TGI's own.
  if (is_digit(s[0])) {
    LogTime t;
    size_t p = 0;
    if (parse_iso(s, p, t)) {
      out.time = t;
      out.recognized = true;
      while (p < s.size() && s[p] == ' ') ++p;
      // Python logging: "2024-01-01 10:00:00,123 - name - INFO - msg"
      if (starts_with(s.substr(p), "- ")) {
        size_t q = s.find(" - ", p + 2);
        if (q != std::string_view::npos) {
          size_t r = q + 3;
          LogLevel l = level_at(s, r);
          if (l != LogLevel::none && starts_with(s.substr(r), "- ")) {
            out.level = l;
            out.message = s.substr(r + 2);
            return out;
          }
        }
      }
      // Go std log (older Ollama): "2024/06/01 10:00:00 routes.go:1008: msg"
      size_t r = p;
      LogLevel l = level_at(s, r);
      if (l != LogLevel::none) {
        out.level = l;
        std::string_view rest = s.substr(r);
        // TGI: "<ts>  INFO text_generation_router::server: router/src/server.rs:1: msg"
        if (starts_with(rest, "text_generation") || starts_with(rest, "shard-manager")) {
          out.hint = core::EngineKind::tgi;
          size_t colon = rest.find(": ");
          if (colon != std::string_view::npos) {
            rest = rest.substr(colon + 2);
            // optional "file.rs:123: " location
            size_t c2 = rest.find(": ");
            if (c2 != std::string_view::npos && c2 < 80 && rest.substr(0, c2).find(".rs:") != std::string_view::npos)
              rest = rest.substr(c2 + 2);
          }
        }
        out.message = rest;
        return out;
      }
      pos = p;
      s = s.substr(pos);
      out.message = s;
      if (s.empty()) return out;
    }
  }
  std::string_view process;
  size_t tag = skip_process_tag(s, process);
  if (tag > 0) {
    out.process = process;
    out.recognized = true;
    s = s.substr(tag);
    out.message = s;
    if (s.empty()) return out;
  }
  switch (s[0]) {
    case '[': {
      // SGLang "[2025-01-01 10:00:00 TP0] msg" (also "DP1 TP0", "PP0 TP1"); Ollama's "[GIN] ..."
      LogTime t;
      size_t p = 1;
      if (parse_iso(s, p, t)) {
        size_t close = s.find("] ", p);
        if (close != std::string_view::npos && close - p < 40) {
          if (!out.time.valid) out.time = t;
          out.process = logtext::trim(s.substr(p, close - p));
          out.message = s.substr(close + 2);
          out.hint = core::EngineKind::sglang;
          out.recognized = true;
        }
      } else if (starts_with(s, "[GIN] ")) {
        size_t q = 6;
        if (parse_iso(s, q, t) && !out.time.valid) {
          size_t r = q;
          if (starts_with(s.substr(r), " - ")) {
            r += 3;
            parse_hms(s, r, t);
          }
          out.time = t;
        }
        out.message = s;
        out.hint = core::EngineKind::ollama;
        out.recognized = true;
      } else {
        // A vLLM excerpt cut after the time: "[kv_cache_utils.py:868] msg"
        size_t close = s.find("] ");
        if (close != std::string_view::npos && close < 80 &&
            s.substr(0, close).find(".py:") != std::string_view::npos) {
          out.message = s.substr(close + 2);
          out.hint = core::EngineKind::vllm;
          out.recognized = true;
        }
      }
      return out;
    }
    case 't':
      if (starts_with(s, "time=")) {
        LogTime keep = out.time;
        parse_ollama(s, out);
        if (keep.valid) out.time = keep;
      }
      return out;
    case '{':
      if (s.find("\"msg\":") != std::string_view::npos) {
        LogTime keep = out.time;
        parse_llamacpp_json(s, out);
        if (keep.valid) out.time = keep;
      }
      return out;
    default:
      break;
  }
  if (s[0] >= 'A' && s[0] <= 'Z') {
    LogPrefix v;
    if (parse_vllm(s, 0, v)) {
      if (out.time.valid) v.time = out.time;  // the outer timestamp has the year
      v.process = out.process;
      return v;
    }
    // uvicorn: "INFO:     127.0.0.1:1234 - ..." ; generic "LEVEL msg"
    size_t p = 0;
    LogLevel l = level_at(s, p);
    if (l != LogLevel::none) {
      out.level = l;
      out.message = s.substr(p);
      out.recognized = true;
      // Old llama.cpp server: "INFO [update_slots] input truncated | n_ctx=2048 ... timestamp=N"
      if (!out.message.empty() && out.message[0] == '[' && out.message.find(" | ") != std::string_view::npos) {
        size_t ts = out.message.rfind("timestamp=");
        if (ts != std::string_view::npos) {
          size_t q = ts + 10;
          if (auto v = logtext::number_at(out.message, q)) {
            out.time = LogTime{};
            out.time.unix_s = *v;
            out.time.valid = true;
          }
        }
        out.hint = core::EngineKind::llamacpp;
      }
      return out;
    }
  }
  // llama.cpp common log with timestamps: "0.01.234.567 I msg" (minutes.seconds.ms.us)
  if (is_digit(s[0])) {
    size_t p = 0;
    int parts[4] = {0, 0, 0, 0};
    int k = 0;
    while (k < 4 && p < s.size() && is_digit(s[p])) {
      int v = 0;
      while (p < s.size() && is_digit(s[p]) && v < 100000000) v = v * 10 + (s[p++] - '0');
      parts[k++] = v;
      if (k < 4) {
        if (p < s.size() && s[p] == '.') ++p; else break;
      }
    }
    if (k == 4 && p + 2 < s.size() && s[p] == ' ' && s[p + 2] == ' ') {
      char lc = s[p + 1];
      out.level = lc == 'I' ? LogLevel::info : lc == 'W' ? LogLevel::warning
                : lc == 'E' ? LogLevel::error : lc == 'D' ? LogLevel::debug : LogLevel::none;
      out.time.elapsed_s = parts[0] * 60.0 + parts[1] + parts[2] / 1e3 + parts[3] / 1e6;
      out.time.valid = true;
      out.message = s.substr(p + 3);
      out.hint = core::EngineKind::llamacpp;
      out.recognized = true;
    }
  }
  return out;
}

}  // namespace llmtriage::ingest
