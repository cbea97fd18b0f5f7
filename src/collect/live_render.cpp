// The live view as text: one header line, the scheduling, token-rate and latency blocks, slots,
// GPUs, one line per layer, and the key line (collect/live_render.h, docs/top.md).
#include "collect/live_render.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fmt/format.h>

#include "core/text_escape.h"
#include "core/units.h"

namespace llmtriage::collect {
namespace {

constexpr const char* kReset = "\x1b[0m";

std::string paint(const std::string& s, const char* sgr, bool color) {
  if (!color || s.empty()) return s;
  return std::string("\x1b[") + sgr + "m" + s + kReset;
}

// Cuts a line to `width` visible columns; SGR sequences are kept whole and cost nothing.
std::string cut(const std::string& s, int width) {
  std::string out;
  int cols = 0;
  bool colored = false, full = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      size_t e = s.find('m', i);
      if (e == std::string::npos) break;
      out.append(s, i, e - i + 1);
      colored = s.compare(i, e - i + 1, kReset) != 0;
      i = e;
      continue;
    }
    // A UTF-8 continuation byte takes no column of its own and follows its lead byte.
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (cols >= width) full = true;
      else ++cols;
    }
    if (!full) out.push_back(s[i]);
  }
  if (colored) out += kReset;
  return out;
}

std::string num_or_dash(const std::optional<double>& v, const char* unit = "") {
  if (!v) return "-";
  return core::format_quantity(*v, unit);
}

std::string dur(const std::optional<double>& v) { return v ? core::format_duration_s(*v) : "-"; }

std::string tokens(double v) { return core::format_number(std::round(v)); }

std::string bar(double fraction, int cells) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  int full = static_cast<int>(std::lround(fraction * cells));
  return "[" + std::string(full, '#') + std::string(cells - full, '.') + "]";
}

// The values as a braille sparkline, two values per cell (U+2800 + dots), each a bar from the
// bottom of 0 to 4 dots scaled to the largest; a value above zero shows at least one dot. The
// last 2 x cells values are drawn.
std::string braille(const std::vector<double>& v, size_t cells, double top) {
  const size_t n = std::min(v.size(), 2 * cells), start = v.size() - n;
  auto height = [&](double x) {
    if (!(x > 0) || !(top > 0)) return 0;
    return std::clamp(static_cast<int>(std::lround(x / top * 4)), 1, 4);
  };
  static constexpr unsigned kLeft[] = {0x40, 0x04, 0x02, 0x01}, kRight[] = {0x80, 0x20, 0x10, 0x08};  // bottom up
  std::string out;
  for (size_t i = 0; i < n; i += 2) {
    unsigned bits = 0;
    for (int h = 0; h < height(v[start + i]); ++h) bits |= kLeft[h];
    if (i + 1 < n)
      for (int h = 0; h < height(v[start + i + 1]); ++h) bits |= kRight[h];
    out += static_cast<char>(0xE2);
    out += static_cast<char>(0xA0 | (bits >> 6));
    out += static_cast<char>(0x80 | (bits & 0x3F));
  }
  return out;
}

const char* state_sgr(const std::string& state) {
  if (state == "critical") return "1;31";
  if (state == "warning") return "33";
  if (state == "suspected") return "35";
  if (state == "clear") return "32";
  return "2";  // info, not judged
}

std::string layer_name(const std::string& l) {
  if (l == "scheduling_capacity") return "scheduling/capacity";
  if (l == "operator_hardware") return "operator/hardware";
  if (l == "numeric_parameter") return "numeric/parameters";
  if (l == "gateway_client") return "gateway/client";
  return l;
}

std::string clock_of(double t_unix) {
  std::time_t t = static_cast<std::time_t>(t_unix);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
  return buf;
}

// Splits text at spaces into pieces of at most `cols` columns; at most `max_lines`, the last cut.
std::vector<std::string> wrap(const std::string& text, size_t cols, size_t max_lines) {
  std::vector<std::string> lines;
  std::string rest = text;
  while (!rest.empty() && lines.size() < max_lines) {
    if (rest.size() <= cols || lines.size() + 1 == max_lines) {
      lines.push_back(rest);
      break;
    }
    size_t at = rest.rfind(' ', cols);
    if (at == std::string::npos || at < cols / 2) at = cols;
    lines.push_back(rest.substr(0, at));
    rest = rest.substr(std::min(rest.size(), at + (rest[at] == ' ' ? 1 : 0)));
  }
  return lines;
}

void header(const Frame& f, int width, bool color, std::vector<std::string>& out) {
  std::string h = paint("llmtriage top", "1", color) + "  " + core::printable(f.endpoint, 80) + "  " +
                  f.engine + (f.engine_version.empty() ? "" : " " + core::printable(f.engine_version, 40));
  if (!f.model.empty()) h += "  " + core::printable(f.model, 60);
  out.push_back(h);
  std::string s = "scrape   ";
  if (f.t_unix_s > 0) s += "last good " + clock_of(f.t_unix_s) + " UTC";
  else s += "no good scrape yet";
  if (f.fetch_s) s += " (" + core::format_duration_s(*f.fetch_s) + ")";
  s += fmt::format("  {} ok, {} failed in the window", f.scrapes_ok, f.scrapes_failed);
  if (f.paused) s += "  " + paint("PAUSED", "7", color);
  out.push_back(s);
  if (f.time_scale)
    out.push_back(fmt::format("clock    simulated engine at {:.3g}x wall time: rates, windows and latencies below are virtual seconds",
                              *f.time_scale));
  if (f.stale) {
    std::string w = "STALE: readings are " + core::format_duration_s(f.age_s) + " old";
    if (f.t_unix_s <= 0) w = "NO DATA";
    if (!f.last_error.empty()) w += "; last scrape failed: " + core::printable(f.last_error, 200);
    for (const auto& part : wrap(w, static_cast<size_t>(std::max(20, width)), 3)) out.push_back(paint(part, "1;31", color));
  }
}

void scheduling(const Frame& f, bool color, std::vector<std::string>& out) {
  std::string q = "queue    running " + num_or_dash(f.running);
  if (f.concurrency_cap) q += " / " + tokens(*f.concurrency_cap) + " (" + f.cap_source + ")";
  else if (f.running) q += " (cap unknown: give --engine-args)";
  q += "   waiting " + num_or_dash(f.waiting);
  if (f.waiting && f.concurrency_cap && *f.concurrency_cap > 0 && *f.waiting > 0)
    q += " (" + core::format_ratio(*f.waiting / *f.concurrency_cap) + " the concurrency)";
  out.push_back(q);
  std::string k = "kv       ";
  if (f.kv_usage) {
    std::string pct = core::format_quantity(*f.kv_usage, "fraction");
    k += bar(*f.kv_usage, 20) + " " + paint(pct, *f.kv_usage >= 0.9 ? "1;31" : "0", color && *f.kv_usage >= 0.9);
    if (f.kv_used_tokens && f.kv_capacity_tokens)
      k += "  " + tokens(*f.kv_used_tokens) + " / " + tokens(*f.kv_capacity_tokens) + " tokens";
  } else {
    k += "usage not exposed";
    if (f.engine == "llamacpp") k += " by llama.cpp (see the slots)";
  }
  k += "   preemptions " + (f.preemptions_per_s ? core::format_number(*f.preemptions_per_s) + "/s" : "-");
  out.push_back(k);
  std::string t = "tokens   prompt " + (f.prompt_tok_s ? core::format_number(*f.prompt_tok_s) + " tok/s" : "-") +
                  "   generation " + (f.generation_tok_s ? core::format_number(*f.generation_tok_s) + " tok/s" : "-") +
                  "   finished " + (f.finished_req_s ? core::format_number(*f.finished_req_s) + " req/s" : "-");
  if (f.prefix_hit_rate) t += "   prefix hits " + core::format_quantity(*f.prefix_hit_rate, "fraction");
  if (f.prompt_tok_s || f.generation_tok_s) t += "   (over " + core::format_duration_s(f.rate_window_s) + ")";
  else t += "   (rates need two scrapes)";
  out.push_back(t);
  if (f.prompt_tok_s_history.size() >= 2 || f.generation_tok_s_history.size() >= 2) {
    constexpr size_t kCells = 24;  // 48 intervals: the kept minute at one scrape a second, nearly
    auto spark = [&](const char* name, const std::vector<double>& h) {
      if (h.size() < 2) return fmt::format("{} -", name);
      const size_t n = std::min(h.size(), 2 * kCells);
      const double peak = *std::max_element(h.end() - static_cast<std::ptrdiff_t>(n), h.end());
      return fmt::format("{} {} (peak {})", name, braille(h, kCells, peak), core::format_number(peak));
    };
    out.push_back(fmt::format("         last {:<6}  {}   {}", core::format_duration_s(f.history_s),
                              spark("prompt", f.prompt_tok_s_history), spark("generation", f.generation_tok_s_history)));
  }
  if (f.slots_decode_tok_s)
    out.push_back("         decoding now " + core::format_number(*f.slots_decode_tok_s) +
                  " tok/s in the slots (/slots; llama.cpp's counters move only when a request ends)");
}

void latency(const Frame& f, std::vector<std::string>& out) {
  bool any = false, exposed = false;
  for (const auto& q : f.latency) {
    any = any || q.count > 0;
    exposed = exposed || q.exposed;
  }
  if (f.latency.empty()) return;
  if (!exposed) {
    out.push_back("latency  no latency histograms exported by " + (f.engine.empty() ? std::string("this engine") : f.engine) +
                  " (bench or request records give them)");
    return;
  }
  // Beside the main window, the p99 over the other spans (5 s and 60 s by default): a short span's
  // p99 above the long one's is a tail rising now.
  std::string head = fmt::format("latency  last {:<8} {:>8} {:>9} {:>9} {:>9}", core::format_duration_s(f.quantile_window_s),
                                 "count", "p50", "p95", "p99");
  if (!f.latency.empty())
    for (const auto& w : f.latency.front().p99_by_window) head += fmt::format("  {:>12}", "p99 " + core::format_duration_s(w.window_s));
  out.push_back(head);
  for (const auto& q : f.latency) {
    if (q.count <= 0 && !any) continue;
    std::string extra;
    for (const auto& w : q.p99_by_window) extra += fmt::format("  {:>12}", dur(w.p99_s));
    out.push_back(fmt::format("  {:<13}  {:>8} {:>9} {:>9} {:>9}{}{}", q.name, core::format_number(q.count), dur(q.p50_s),
                              dur(q.p95_s), dur(q.p99_s), extra, q.since_start ? "  (since the engine started)" : ""));
  }
  if (!any) out.push_back("  no request finished in the window");
}

void slots(const Frame& f, std::vector<std::string>& out) {
  if (f.slots.empty()) return;
  int busy = 0;
  for (const auto& s : f.slots) busy += s.busy;
  out.push_back(fmt::format("slots    {} of {} busy", busy, f.slots.size()));
  for (const auto& s : f.slots) {
    std::string l = fmt::format("  slot {:<3} {:<5}", s.id, s.busy ? "busy" : "idle");
    if (s.busy) {
      if (s.prompt_tokens)
        l += fmt::format(" prompt {}/{}", s.prompt_processed.value_or(0), *s.prompt_tokens);
      if (s.prompt_cached) l += fmt::format(" (cached {})", *s.prompt_cached);
      if (s.decoded) l += fmt::format("  decoded {}", *s.decoded);
      if (s.remaining) l += fmt::format("  remaining {}", *s.remaining);
    }
    if (s.n_ctx) l += fmt::format("  ctx {}", s.n_ctx);
    out.push_back(l);
  }
}

void gpus(const Frame& f, bool color, std::vector<std::string>& out) {
  if (f.gpus.empty()) {
    std::string g = "gpu      " + (f.gpu_source.empty() || f.gpu_source == "none" ? std::string("no readings") : f.gpu_source);
    if (!f.gpu_note.empty()) g += ": " + core::printable(f.gpu_note, 100);
    out.push_back(g);
    return;
  }
  for (const auto& g : f.gpus) {
    // SM clock vs max, power vs limit and the throttle reasons first: what the hardware layer reads.
    std::string name = g.name.rfind("NVIDIA ", 0) == 0 ? g.name.substr(7) : g.name;
    name = core::printable(name, 60);
    if (name.size() > 16) name.resize(16);
    std::string l = fmt::format("gpu {:<4} {:<16}", g.index, name);
    l += " SM " + (g.sm_clock_mhz ? core::format_number(*g.sm_clock_mhz) : std::string("-"));
    if (g.max_sm_clock_mhz) l += "/" + core::format_number(*g.max_sm_clock_mhz);
    l += " MHz  power " + (g.power_w ? core::format_number(*g.power_w) : std::string("-"));
    if (g.power_limit_w) l += "/" + core::format_number(*g.power_limit_w);
    l += " W";
    std::string th;
    for (const auto& n : g.throttle) th += (th.empty() ? "" : ",") + n;
    l += "  throttle " + (th.empty() ? std::string("none") : paint(th, "33", color));
    if (g.temp_c) l += "  " + core::format_number(*g.temp_c) + " C";
    if (g.util) l += "  util " + core::format_quantity(*g.util, "fraction");
    if (g.mem_used_gib && g.mem_total_gib)
      l += fmt::format("  mem {:.1f}/{:.1f} GiB", *g.mem_used_gib, *g.mem_total_gib);
    out.push_back(l);
  }
}

void layers(const Frame& f, int width, bool color, std::vector<std::string>& out) {
  if (f.layers.empty()) {
    out.push_back("layers   not judged yet (needs a good scrape)");
    return;
  }
  out.push_back("layers   the diagnosis of the last " + core::format_duration_s(f.quantile_window_s) +
                (f.layers_age_s > 0.5 ? ", judged " + core::format_duration_s(f.layers_age_s) + " ago" : std::string()));
  constexpr size_t kIndent = 34;  // "  " + 20 (layer) + " " + 10 (state) + " "
  size_t cols = width > static_cast<int>(kIndent) + 20 ? static_cast<size_t>(width) - kIndent : 40;
  for (const auto& l : f.layers) {
    std::string st = fmt::format("{:<10}", l.state);
    // Up to two lines each: a finding's title with its key reading rarely fits one.
    auto parts = wrap(l.text, cols, 2);
    if (parts.empty()) parts.push_back("");
    out.push_back(fmt::format("  {:<20} ", layer_name(l.layer)) + paint(st, state_sgr(l.state), color) + " " + parts[0]);
    for (size_t i = 1; i < parts.size(); ++i) out.push_back(std::string(kIndent, ' ') + parts[i]);
    if (!l.fix.empty())
      for (const auto& part : wrap("fix: " + l.fix, cols, 2)) out.push_back(std::string(kIndent, ' ') + paint(part, "1", color));
  }
}

// The `e` key: what each block means and where its numbers come from, in a few lines.
void explanation(const Frame& f, int width, std::vector<std::string>& out) {
  static const char* kLines[] = {
      "queue    running and waiting requests now; the cap is max-num-seqs (--engine-args) or llama.cpp's slots. Waiting "
      "above zero while KV has room: the batch cap or the arrival rate, not memory",
      "kv       the KV pool's usage (tokens when the engine says its size); preemptions/s from the counter: above ~0.5/s the "
      "pool is too small for the batch (fix: fewer sequences, FP8 KV, more memory)",
      "tokens   prompt and generation tok/s from counter differences (never the reset-on-read gauges); the sparklines are "
      "each interval's rate over the kept minute, scaled to their peak",
      "latency  TTFT, ITL and queue time quantiles from the histograms' difference inside each window: only what "
      "finished there; the extra p99 columns are shorter and longer windows (short above long: the tail is rising now)",
      "gpu      SM clock against its max and power against its limit first: a clock below max at the power cap is "
      "throttling (operator/hardware layer)",
      "layers   llmtriage diagnose on the last window, top-down: load, scheduling/capacity, operator/hardware, "
      "numeric/parameters, gateway/client; `fix:` is the finding's first remedy, in the engine's flag names",
  };
  out.push_back("explain  (e hides this)");
  const size_t cols = width > 30 ? static_cast<size_t>(width) - 9 : 40;
  for (const char* l : kLines) {
    const std::string text(l);
    auto parts = wrap(text.substr(9), cols, 3);
    for (size_t i = 0; i < parts.size(); ++i) out.push_back((i == 0 ? text.substr(0, 9) : std::string(9, ' ')) + parts[i]);
  }
  if (f.time_scale) out.push_back("clock    sim serve at a time scale: every rate and window is per virtual second (its llmtriage_sim_time_scale)");
}

}  // namespace

std::vector<std::string> render_frame(const Frame& f, const RenderOptions& o) {
  std::vector<std::string> out;
  header(f, std::max(20, o.width), o.color, out);
  scheduling(f, o.color, out);
  latency(f, out);
  slots(f, out);
  gpus(f, o.color, out);
  layers(f, std::max(20, o.width), o.color, out);
  if (f.explain) explanation(f, std::max(20, o.width), out);
  std::string keys = "q quit  p " + std::string(f.paused ? "resume" : "pause") + "  s snapshot  e " + (f.explain ? "hide the explanation" : "explain");
  if (!f.message.empty()) keys += "   " + paint(core::printable(f.message, 200), "1", o.color);
  out.push_back(keys);
  for (auto& l : out) l = cut(l, std::max(20, o.width));
  return out;
}

}  // namespace llmtriage::collect
