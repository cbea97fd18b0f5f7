#include "ingest/engine_log.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "ingest/line_reader.h"
#include "ingest/log_signatures.h"
#include "ingest/log_sink.h"
#include "ingest/log_text.h"

namespace llmtriage::ingest {

using core::EngineKind;
using core::EventKind;
using detail::LogLineCtx;
using detail::LogSink;
using detail::Match;
using logtext::starts_with;

// ---- LogSink ---------------------------------------------------------------------------------

namespace detail {

core::Event& LogSink::event(EventKind kind, const LogLineCtx& ctx, EngineKind engine) {
  core::Event e;
  e.t_s = ctx.t;
  e.kind = kind;
  e.source = options_.source_name + ":" + std::to_string(ctx.line);
  e.text = logtext::redact_secrets(logtext::sanitize(ctx.msg, 2048));
  if (engine != EngineKind::unknown) e.labels["engine"] = core::to_string(engine);
  result_.events.push_back(std::move(e));
  return result_.events.back();
}

core::Event* LogSink::generic_event(EventKind kind, const LogLineCtx& ctx, EngineKind engine) {
  if (generic_events_ >= options_.max_generic_events) {
    ++result_.generic_events_dropped;
    return nullptr;
  }
  ++generic_events_;
  return &event(kind, ctx, engine);
}

core::EngineSample& LogSink::sample(const LogLineCtx& ctx, EngineKind engine) {
  core::EngineSample s;
  s.t_s = ctx.t.value_or(0.0);
  s.engine = engine;
  result_.timeline.push_back(std::move(s));
  return result_.timeline.back();
}

core::EngineSample* LogSink::last_sample_at(const LogLineCtx& ctx) {
  if (result_.timeline.empty()) return nullptr;
  core::EngineSample& s = result_.timeline.back();
  if (s.t_s == ctx.t.value_or(0.0)) return &s;
  return nullptr;
}

void LogSink::set_version(std::string_view v) {
  if (!v.empty() && v[0] == 'v') v.remove_prefix(1);
  if (!v.empty() && result_.engine_version.empty()) result_.engine_version = std::string(v);
}

EngineKind LogSink::voted_engine() const {
  int best = 0;
  int64_t best_n = 0;
  for (int i = 1; i < 16; ++i) {
    // vLLM V0 and V1 votes count together; V0 wins when its own shapes were seen.
    int64_t n = engine_votes_[i];
    if (i == static_cast<int>(EngineKind::vllm)) n += engine_votes_[static_cast<int>(EngineKind::vllm_v0)];
    if (i == static_cast<int>(EngineKind::vllm_v0)) continue;
    if (n > best_n) { best = i; best_n = n; }
  }
  auto k = static_cast<EngineKind>(best);
  if (k == EngineKind::vllm &&
      engine_votes_[static_cast<int>(EngineKind::vllm_v0)] > engine_votes_[static_cast<int>(EngineKind::vllm)])
    return EngineKind::vllm_v0;
  return k;
}

}  // namespace detail

// ---- the parser ------------------------------------------------------------------------------

namespace {

// Routine per-request lines, the bulk of a busy server's log: vLLM's request log ("Received
// request ... params: SamplingParams(...)", "Added request", "Finished request") and access lines
// (HTTP servers', Ollama's [GIN]) that answered 2xx/3xx. No signature is about them (a 4xx/5xx access line is still scanned), so
// the signature scan skips them: on a request-logging vLLM log they are ~98% of the lines.
bool routine_line(std::string_view msg) {
  for (std::string_view p : {"Received request ", "Added request ", "Finished request "})
    if (starts_with(msg, p)) return true;
  if (starts_with(msg, "[GIN] ")) {  // Ollama's access log: "[GIN] 2024/10/29 - 03:24:29 | 200 | ..."
    size_t bar = msg.find(" | ");
    return bar != std::string_view::npos && bar + 3 < msg.size() && (msg[bar + 3] == '2' || msg[bar + 3] == '3');
  }
  size_t h = msg.find("\" HTTP/");
  if (h == std::string_view::npos) h = msg.find(" HTTP/");
  if (h == std::string_view::npos) return false;
  size_t q = msg.find("\" ", h + 2);
  if (q == std::string_view::npos || q > h + 16 || q + 2 >= msg.size()) return false;
  const char status = msg[q + 2];
  return (status == '2' || status == '3') && q + 4 < msg.size() && msg[q + 3] >= '0' && msg[q + 3] <= '9';
}

// A server's command line printed in the log (Ollama's `starting llama server cmd="... runner
// --model ... --ctx-size 8192 --threads 64"`, a runner's argv, a shell history line): its flags are
// the launch settings the operator may not have pasted. The text from `cmd=` on, quotes dropped;
// kept when it holds at least three long flags, or one beside a server program's name.
std::optional<std::string> launch_line(std::string_view msg) {
  if (msg.find(" --") == std::string_view::npos && msg.rfind("--", 0) != 0) return std::nullopt;  // most lines: no copy
  std::string t(msg);
  if (auto k = t.find("cmd="); k != std::string::npos) t = t.substr(k + 4);
  t.erase(std::remove(t.begin(), t.end(), '"'), t.end());
  size_t flags = 0;
  for (size_t i = 0; i + 2 < t.size(); ++i)
    if (t[i] == '-' && t[i + 1] == '-' && std::isalpha(static_cast<unsigned char>(t[i + 2])) && (i == 0 || t[i - 1] == ' ')) ++flags;
  if (flags == 0) return std::nullopt;
  bool server = false;
  for (std::string_view w : {"llama-server", "llama_server", "ollama runner", "vllm serve", "sglang.launch_server",
                             "text-generation-launcher", "trtllm-serve", "lmdeploy serve", "vllm.entrypoints"})
    server = server || t.find(w) != std::string::npos;
  if (flags < 3 && !server) return std::nullopt;
  return t;
}

}  // namespace

struct EngineLogParser::Impl {
  LogParseOptions opt;
  EngineLogResult res;
  LogSink sink{opt, res};
  std::string ansi_buf;

  // time resolution
  bool any_time = false;
  bool relative = false;          // some timestamp lacked a year (and none was given)
  int last_month = 0;
  int64_t last_days = -1;         // days since epoch of the last dated line
  double last_tod = -1;           // last time of day, for midnight roll-over
  int64_t day_offset = 0;         // for time-only logs
  std::optional<double> last_t;

  // traceback grouping
  bool in_tb = false;
  bool tb_pending_close = false;  // the exception line was seen; a chained one may follow
  std::string tb_text;
  int64_t tb_line = 0;
  std::optional<double> tb_t;
  std::string tb_final;           // the exception line
  int64_t tb_final_line = 0;
  LogPrefix tb_prefix;

  const std::vector<Signature>* sigs = nullptr;

  explicit Impl(LogParseOptions o) : opt(std::move(o)) {
    if (opt.source_name.empty()) opt.source_name = "log";
    if (opt.signatures && !signatures().empty()) sigs = &signatures();
  }

  // Every signature the line matches becomes a warning event labelled with the signature (the
  // first few per signature; the rest are counted). Returns whether any matched.
  bool scan_signatures(std::string_view s, int64_t number, std::optional<double> t, const LogPrefix& p) {
    if (!sigs) return false;
    auto hits = bundled_signature_index().match(s);
    for (auto& h : hits) {
      int64_t& n = res.signature_counts[h.sig->id];
      if (++n > static_cast<int64_t>(opt.max_events_per_signature)) continue;
      core::Event e;
      e.t_s = t;
      e.kind = EventKind::warning;
      e.source = opt.source_name + ":" + std::to_string(number);
      e.text = logtext::redact_secrets(logtext::sanitize(s, 2048));
      if (p.hint != core::EngineKind::unknown) e.labels["engine"] = core::to_string(p.hint);
      e.labels["signature"] = h.sig->id;
      e.labels["meaning"] = h.sig->meaning;
      if (!h.sig->cause.empty()) e.labels["cause"] = h.sig->cause;
      if (!h.sig->engine.empty()) e.labels["printed_by"] = h.sig->engine;
      e.fields = std::move(h.fields);
      res.signature_events.push_back(std::move(e));
    }
    return !hits.empty();
  }

  void issue(int64_t line, const char* kind, std::string_view text) {
    ++res.bad_input[kind];
    if (res.issues.size() < opt.max_reported_issues)
      res.issues.push_back({line, kind, logtext::sanitize(text, 120)});
  }

  std::optional<double> resolve(const LogTime& t) {
    if (!t.valid) return std::nullopt;
    any_time = true;
    if (t.unix_s) return *t.unix_s;
    if (t.elapsed_s) {
      relative = true;
      return *t.elapsed_s;
    }
    double tod = t.hour * 3600.0 + t.minute * 60.0 + t.second;
    int64_t days;
    if (t.month == 0) {
      // Time of day only: roll over at midnight (a jump back of more than 12 h).
      relative = true;
      if (last_tod >= 0 && tod < last_tod - 43200) ++day_offset;
      days = (last_days >= 0 ? last_days : 0) + day_offset;
    } else {
      int year = t.year;
      if (year == 0) {
        // vLLM prints MM-DD only: the given year, else a leap placeholder (relative timeline).
        if (last_month == 12 && t.month == 1) ++year_bump_;
        if (opt.year == 0) relative = true;
        year = (opt.year != 0 ? opt.year : 2000) + year_bump_;
      }
      last_month = t.month;
      days = days_from_civil(year, t.month, t.day);
      last_days = days;
      day_offset = 0;
      if (!t.tz_offset_s) res.time_zone_assumed_utc = true;
    }
    last_tod = tod;
    double s = static_cast<double>(days) * 86400.0 + tod - t.tz_offset_s.value_or(0);
    return s;
  }
  int year_bump_ = 0;

  Match dispatch(const LogLineCtx& ctx) {
    Match r = Match::none;
    EngineKind hint = ctx.prefix->hint;
    switch (hint) {
      case EngineKind::vllm:
      case EngineKind::vllm_v0: r = detail::match_vllm(ctx, sink); break;
      case EngineKind::sglang: r = detail::match_sglang(ctx, sink); break;
      case EngineKind::tgi: r = detail::match_tgi(ctx, sink); break;
      case EngineKind::llamacpp: r = detail::match_llamacpp(ctx, sink); break;
      case EngineKind::ollama:
        r = detail::match_ollama(ctx, sink);
        if (r == Match::none) r = detail::match_llamacpp(ctx, sink);  // Ollama embeds llama.cpp
        break;
      case EngineKind::trtllm:
      case EngineKind::unknown:
        r = detail::match_vllm(ctx, sink);
        if (r == Match::none) r = detail::match_sglang(ctx, sink);
        if (r == Match::none) r = detail::match_llamacpp(ctx, sink);
        if (r == Match::none) r = detail::match_tgi(ctx, sink);
        break;
    }
    if (r != Match::none) return r;
    LogLevel lvl = ctx.prefix->level;
    if (lvl == LogLevel::info || lvl == LogLevel::debug || lvl == LogLevel::trace) return r;
    r = detail::match_errors(ctx, sink);
    if (r != Match::none) return r;
    if (lvl == LogLevel::error || lvl == LogLevel::critical) {
      sink.generic_event(EventKind::error, ctx, hint);
      return Match::other;
    }
    if (lvl == LogLevel::warning) {
      sink.generic_event(EventKind::warning, ctx, hint);
      return Match::other;
    }
    return r;
  }

  // Is `msg` part of a Python traceback body?
  static bool tb_body(std::string_view msg) {
    return msg.empty() || msg[0] == ' ' || msg[0] == '\t' || msg[0] == '^' || msg[0] == '~' ||
           starts_with(msg, "File \"");
  }
  static bool tb_chain(std::string_view msg) {
    return starts_with(msg, "During handling of the above exception") ||
           starts_with(msg, "The above exception was the direct cause") ||
           starts_with(msg, "Traceback (most recent call last)");
  }

  void tb_append(std::string_view raw) {
    ++res.traceback_lines;
    if (tb_text.size() < opt.max_traceback_bytes) {
      tb_text.append(raw.substr(0, opt.max_traceback_bytes - tb_text.size()));
      tb_text.push_back('\n');
    }
  }

  void tb_close() {
    in_tb = false;
    tb_pending_close = false;
    size_t before = res.events.size();
    LogLineCtx ctx;
    ctx.raw = tb_final;
    ctx.msg = tb_final;
    ctx.prefix = &tb_prefix;
    ctx.line = tb_final_line ? tb_final_line : tb_line;
    ctx.t = tb_t;
    if (!tb_final.empty()) {
      if (detail::match_errors(ctx, sink) == Match::none) {
        // vLLM's own refusals may arrive as "ValueError: ..." lines; try its matcher too.
        if (detail::match_vllm(ctx, sink) == Match::none || res.events.size() == before)
          sink.event(EventKind::error, ctx, tb_prefix.hint);
      }
    } else {
      ctx.msg = "Traceback (incomplete)";
      sink.event(EventKind::error, ctx, tb_prefix.hint);
    }
    for (size_t i = before; i < res.events.size(); ++i) {
      core::Event& e = res.events[i];
      e.source = opt.source_name + ":" + std::to_string(tb_line);
      e.labels["traceback"] = logtext::redact_secrets(logtext::sanitize(tb_text, opt.max_traceback_bytes));
      size_t colon = tb_final.find(':');
      if (colon != std::string::npos && colon < 80 && tb_final.find(' ') > colon)
        e.labels["exception"] = logtext::sanitize(std::string_view(tb_final).substr(0, colon));
      // An OOM's phase is in its traceback's frames (execute_model while serving, profile_run at
      // startup): said on the event, so no reader has to guess from "nothing was served yet".
      if (e.kind == EventKind::oom && !e.labels.count("phase"))
        if (const OomPhase ph = oom_phase(e); ph != OomPhase::unknown) e.labels["phase"] = to_string(ph);
    }
    tb_text.clear();
    tb_final.clear();
    tb_final_line = 0;
  }

  void feed(std::string_view line, int64_t number, bool too_long, bool unterminated) {
    ++res.lines_total;
    if (too_long) {
      issue(number, "too_long", line);
      return;
    }
    if (unterminated && !line.empty()) issue(number, "truncated_last_line", line);
    std::string_view s = logtext::strip_ansi(line, ansi_buf);
    if (!logtext::is_plain_ascii(s)) {
      if (logtext::looks_binary(s)) {
        issue(number, "binary", s);
        return;
      }
      if (!logtext::is_valid_utf8(s)) issue(number, "invalid_utf8", s);
    }
    LogPrefix p = parse_prefix(s);
    std::optional<double> t = resolve(p.time);
    if (t) last_t = t;
    std::string_view msg = p.message;

    if (in_tb) {
      if (tb_pending_close) {
        if (tb_chain(msg) || msg.empty()) {
          tb_pending_close = false;
          tb_append(s);
          return;
        }
        tb_close();
      } else if (tb_body(msg) || tb_chain(msg)) {
        tb_append(s);
        scan_signatures(s, number, t ? t : last_t, p);
        return;
      } else {
        // The exception line ("torch.OutOfMemoryError: CUDA out of memory. ...").
        tb_append(s);
        scan_signatures(s, number, t ? t : last_t, p);
        tb_final.assign(msg);
        tb_final_line = number;
        tb_pending_close = true;
        return;
      }
    }
    if (starts_with(msg, "Traceback (most recent call last)")) {
      in_tb = true;
      tb_pending_close = false;
      tb_line = number;
      tb_t = t ? t : last_t;
      tb_prefix = p;
      tb_prefix.message = {};
      tb_prefix.process = {};
      tb_text.clear();
      tb_append(s);
      return;
    }

    LogLineCtx ctx;
    ctx.raw = s;
    ctx.msg = msg;
    ctx.prefix = &p;
    ctx.line = number;
    ctx.t = t ? t : last_t;
    const size_t samples_before = res.timeline.size();
    Match r = dispatch(ctx);
    // Stats lines (a new timeline sample) carry no signature; everything else is scanned.
    const bool stats_line = r == Match::parsed && res.timeline.size() > samples_before;
    if (!stats_line && !routine_line(msg) && scan_signatures(s, number, ctx.t, p) && r == Match::none) r = Match::parsed;
    if (r == Match::none || r == Match::other) {
      if (auto cmd = launch_line(msg)) {
        core::Event& e = sink.event(EventKind::engine_args, ctx, p.hint);
        e.labels["launch"] = logtext::redact_secrets(logtext::sanitize(*cmd, 2048));
        r = Match::parsed;
      }
    }
    switch (r) {
      case Match::parsed: ++res.lines_parsed; break;
      case Match::other: ++res.lines_other; break;
      case Match::malformed:
        ++res.lines_malformed;
        issue(number, "malformed", s);
        break;
      case Match::none:
        if (p.recognized) {
          ++res.lines_other;
        } else {
          ++res.lines_unknown;
          if (res.unknown_examples.size() < opt.max_reported_issues && !logtext::sanitize(s, 120).empty())
            res.unknown_examples.push_back({number, "unknown", logtext::sanitize(s, 120)});
        }
        break;
    }
  }

  EngineLogResult finish() {
    if (in_tb) tb_close();
    res.engine = sink.voted_engine();
    if (!any_time) {
      res.time_base = "none";
    } else if (relative) {
      res.time_base = "relative";
      double t0 = INFINITY;
      for (auto& e : res.events) if (e.t_s) t0 = std::min(t0, *e.t_s);
      for (auto& s : res.timeline) t0 = std::min(t0, s.t_s);
      if (std::isfinite(t0)) {
        for (auto& e : res.signature_events) if (e.t_s) *e.t_s -= t0;
        for (auto& e : res.events) if (e.t_s) *e.t_s -= t0;
        for (auto& s : res.timeline) s.t_s -= t0;
      }
    } else {
      res.time_base = "unix";
    }
    for (auto& s : res.timeline)
      if (s.engine == EngineKind::unknown) s.engine = res.engine;
    return std::move(res);
  }
};

EngineLogParser::EngineLogParser(LogParseOptions options) : impl_(new Impl(std::move(options))) {}
EngineLogParser::~EngineLogParser() { delete impl_; }
EngineLogParser::EngineLogParser(EngineLogParser&& o) noexcept : impl_(o.impl_) { o.impl_ = nullptr; }
EngineLogParser& EngineLogParser::operator=(EngineLogParser&& o) noexcept {
  std::swap(impl_, o.impl_);
  return *this;
}
void EngineLogParser::feed(std::string_view line, int64_t n, bool too_long, bool unterminated) {
  impl_->feed(line, n, too_long, unterminated);
}
EngineLogResult EngineLogParser::finish() { return impl_->finish(); }

core::Result<EngineLogResult> parse_engine_log_file(const std::string& path, LogParseOptions options) {
  if (options.source_name.empty()) options.source_name = path;
  auto reader = LineReader::open(path, options.max_line_bytes);
  if (!reader) return std::move(reader).error();
  EngineLogParser parser(options);
  Line line;
  while ((*reader)->next(line)) parser.feed(line.text, line.number, line.too_long, line.last_unterminated);
  EngineLogResult res = parser.finish();
  if ((*reader)->error()) res.read_error = *(*reader)->error();
  return res;
}

EngineLogResult parse_engine_log_text(std::string_view text, LogParseOptions options) {
  auto reader = LineReader::from_string(text, options.max_line_bytes);
  EngineLogParser parser(options);
  Line line;
  while (reader->next(line)) parser.feed(line.text, line.number, line.too_long, line.last_unterminated);
  return parser.finish();
}

std::map<std::string, double> merged_startup_fields(const EngineLogResult& result) {
  std::map<std::string, double> out;
  for (const auto& e : result.events)
    if (e.kind == EventKind::startup_memory)
      for (const auto& [k, v] : e.fields) out.emplace(k, v);
  return out;
}

std::string describe(const EngineLogResult& r) {
  std::string s = std::to_string(r.lines_total) + " lines: " + std::to_string(r.lines_parsed) +
                  " parsed, " + std::to_string(r.lines_other) + " other, " +
                  std::to_string(r.lines_unknown) + " unknown, " +
                  std::to_string(r.lines_malformed) + " malformed; engine " +
                  core::to_string(r.engine);
  if (!r.engine_version.empty()) s += " " + r.engine_version;
  s += "; " + std::to_string(r.events.size()) + " events, " + std::to_string(r.timeline.size()) +
       " samples; time " + r.time_base;
  for (const auto& [k, n] : r.bad_input) s += "; " + std::to_string(n) + " " + k;
  for (const auto& i : r.issues) {
    s += "; line " + std::to_string(i.line) + ": " + i.kind;
  }
  if (!r.signature_counts.empty()) {
    int64_t n = 0;
    for (const auto& [id, c] : r.signature_counts) n += c;
    s += "; " + std::to_string(n) + " line(s) matched " + std::to_string(r.signature_counts.size()) + " known signature(s)";
  }
  for (size_t i = 0; i < r.unknown_examples.size() && i < 3; ++i)
    s += "; unknown line " + std::to_string(r.unknown_examples[i].line) + ": \"" + r.unknown_examples[i].excerpt + "\"";
  return s;
}

}  // namespace llmtriage::ingest
