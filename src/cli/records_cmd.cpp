// `llmtriage records summary FILE [--baseline FILE2]`: the load layer from per-request records
// (bench results, gateway access logs): rates, length distributions, sampling mix, latency
// quantiles, errors — and what changed against a baseline, with distribution-shift measures.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/command.h"
#include "core/exit_code.h"
#include "core/text_escape.h"
#include "core/units.h"
#include "ingest/records.h"
#include "ingest/records_summary.h"

namespace llmtriage::cli {
namespace {

struct RecordsOpts {
  std::string file;
  std::string baseline;
  std::string format = "auto";
  std::string columns;
  double window_s = 0;
  bool strict = false;
};

struct Loaded {
  ingest::RecordReadResult read;
  ingest::RecordsSummary summary;
};

core::Result<Loaded> load(const std::string& path, const RecordsOpts& o, const char* flag) {
  ingest::RecordReadOptions ro;
  auto fmt_ = ingest::record_format_from_string(o.format);
  if (!fmt_)
    return core::make_error(core::ErrorKind::usage, "--records-format (--format)",
                            "auto, llmtriage, vllm, sglang, aiperf, genai-perf, nginx, envoy, csv or jsonl", o.format);
  ro.format = *fmt_;
  if (!o.columns.empty()) {
    auto m = ingest::parse_column_map(o.columns);
    if (!m) return std::move(m).error();
    ro.columns = *m;
  }
  auto r = ingest::read_records_file(path, ro);
  if (!r) {
    core::Error e = std::move(r).error();
    e.where = std::string(flag) + " " + e.where;
    return e;
  }
  if (r->records.empty()) {
    std::string why = r->issues.empty() ? "no records"
                                         : fmt::format("no usable records; line {}: {} {}", r->issues[0].line,
                                                       r->issues[0].kind, core::printable(r->issues[0].detail));
    return core::make_error(core::ErrorKind::input, path, "request records (" + std::string(ingest::to_string(r->format)) + ")",
                            why, "pass --format and, for tables, --columns field=column,...");
  }
  if (o.strict && r->records_bad > 0) {
    auto i = r->issues.front();
    for (const auto& x : r->issues)  // the first rejected line, not an accepted oddity
      if (x.kind != "number_as_string" && x.kind != "invalid_utf8" && x.kind != "upstream_retries") { i = x; break; }
    return core::make_error(core::ErrorKind::input, fmt::format("{}:{}", path, i.line), "well-formed records (--strict)",
                            i.kind + " " + core::printable(i.detail), fmt::format("{} bad lines in all", r->records_bad));
  }
  Loaded l;
  l.read = std::move(r).value();
  l.summary = ingest::summarize_records(l.read.records, {.window_s = o.window_s, .unavailable = l.read.unavailable});
  return l;
}

nlohmann::json dist_json(const ingest::Distribution& d) {
  nlohmann::json j;
  j["count"] = d.stats.count;
  if (d.stats.count == 0) return j;
  j["mean"] = d.stats.mean;
  j["min"] = d.stats.min;
  j["p50"] = d.stats.p50;
  j["p90"] = d.stats.p90;
  j["p95"] = d.stats.p95;
  j["p99"] = d.stats.p99;
  j["max"] = d.stats.max;
  j["histogram"] = {{"edges", d.histogram.edges}, {"counts", d.histogram.counts}};
  return j;
}

nlohmann::json summary_json(const std::string& path, const Loaded& l) {
  const auto& s = l.summary;
  const auto& r = l.read;
  nlohmann::json j;
  j["source"] = path;
  j["format"] = ingest::to_string(r.format);
  j["requests"] = s.requests;
  j["ok"] = s.ok;
  j["errors"] = s.errors;
  j["errors_by_category"] = s.errors_by_category;
  j["unavailable"] = r.unavailable;
  j["input"] = {{"lines", r.lines_total}, {"skipped", r.records_skipped}, {"bad", r.records_bad},
                {"bad_by_kind", r.bad_input}};
  nlohmann::json issues = nlohmann::json::array();
  for (const auto& i : r.issues) issues.push_back({{"line", i.line}, {"kind", i.kind}, {"detail", i.detail}});
  j["input"]["first_issues"] = issues;
  if (r.read_error) j["input"]["read_error"] = r.read_error->message();
  if (s.arrival_known) {
    j["duration_s"] = s.duration_s;
    if (s.mean_rate_rps) j["mean_rate_rps"] = *s.mean_rate_rps;
    if (s.interarrival_cv) j["interarrival_cv"] = *s.interarrival_cv;
    j["window_s"] = s.window_s;
    nlohmann::json rate = nlohmann::json::array();
    for (const auto& w : s.rate) rate.push_back({{"t_s", w.t_s}, {"rate_rps", w.rate_rps}});
    j["rate"] = rate;
  }
  j["input_tokens"] = dist_json(s.input_tokens);
  j["output_tokens"] = dist_json(s.output_tokens);
  j["ttft_s"] = dist_json(s.ttft_s);
  j["tpot_s"] = dist_json(s.tpot_s);
  j["tpot_definition"] = "(e2e_s - ttft_s) / (output_tokens - 1), requests with output_tokens > 1";
  j["itl_s"] = dist_json(s.itl_s);
  j["itl_level"] = s.itl_level;
  j["e2e_s"] = dist_json(s.e2e_s);
  j["sampling"] = s.sampling;
  return j;
}

// One row of quantiles: token counts whole ("3000"), durations each in its own readable unit
// ("688 ms", "16.9 s"), never in exponent notation.
std::string fmt_dist(const char* name, const ingest::Distribution& d, bool seconds) {
  if (d.stats.count == 0) return fmt::format("  {:<14} not in this source\n", name);
  auto v = [&](double x) { return seconds ? core::format_duration_s(x) : core::format_number(x); };
  return fmt::format("  {:<14} n={:<7} p50 {:>9}  p90 {:>9}  p99 {:>9}  max {:>9}{}\n", name, d.stats.count,
                     v(d.stats.p50), v(d.stats.p90), v(d.stats.p99), v(d.stats.max), seconds ? "" : " tokens");
}

std::string histogram_line(const ingest::Distribution& d) {
  if (d.histogram.counts.empty()) return {};
  // One row of block characters: the compact shape of the distribution.
  static const char* blocks[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  int64_t mx = 1;
  for (auto c : d.histogram.counts) mx = std::max(mx, c);
  std::string bar;
  for (auto c : d.histogram.counts) bar += blocks[c == 0 ? 0 : 1 + (c * 7) / mx];
  return fmt::format("                 [{} {} {}]\n", core::format_number(d.histogram.edges.front()), bar,
                     core::format_number(d.histogram.edges.back()));
}

void print_summary(std::ostream& out, const std::string& path, const Loaded& l) {
  const auto& s = l.summary;
  const auto& r = l.read;
  out << fmt::format("{} ({}): {} requests, {} ok, {} errors\n", core::printable(path), ingest::to_string(r.format), s.requests,
                     s.ok, s.errors);
  if (s.arrival_known && s.mean_rate_rps)
    out << fmt::format("  arrivals       {} req/s over {} (inter-arrival CV {:.2f}; 1 = Poisson)\n",
                       core::format_number(*s.mean_rate_rps), core::format_duration_s(s.duration_s),
                       s.interarrival_cv.value_or(0));
  else if (!s.arrival_known)
    out << "  arrivals       not in this source (no per-request times)\n";
  out << fmt_dist("input_tokens", s.input_tokens, false) << histogram_line(s.input_tokens);
  out << fmt_dist("output_tokens", s.output_tokens, false) << histogram_line(s.output_tokens);
  out << fmt_dist("ttft", s.ttft_s, true);
  out << fmt_dist("tpot", s.tpot_s, true);
  out << fmt_dist(s.itl_level == "chunk" ? "itl (chunk)" : "itl", s.itl_s, true);
  out << fmt_dist("e2e", s.e2e_s, true);
  // Categories and sampling values come from the input: escaped when quoted back.
  for (const auto& [k, v] : s.errors_by_category) out << fmt::format("  error          {} × {}\n", core::printable(k), v);
  for (const auto& [p, mix] : s.sampling) {
    std::string line;
    for (const auto& [val, n] : mix) line += fmt::format("{}{}={}", line.empty() ? "" : ", ", core::printable(val), n);
    out << fmt::format("  {:<14} {}\n", p, line);
  }
  if (!r.unavailable.empty()) {
    std::string u;
    for (const auto& f : r.unavailable) u += (u.empty() ? "" : ", ") + f;
    out << "  not provided   " << u << "\n";
  }
  if (r.records_bad > 0 || !r.bad_input.empty()) {
    std::string kinds;
    for (const auto& [k, n] : r.bad_input) kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", n, k);
    out << fmt::format("  input          {} lines, {} rejected ({})\n", r.lines_total, r.records_bad, kinds);
    for (const auto& i : r.issues) out << fmt::format("    line {}: {} {}\n", i.line, i.kind, core::printable(i.detail));
  }
  if (r.read_error) out << "  read error     " << r.read_error->message() << "\n";
}

int run_records_summary(RecordsOpts& o, Context& ctx) {
  auto now = load(o.file, o, "FILE");
  if (!now) return fail(ctx, now.error());
  std::optional<Loaded> base;
  if (!o.baseline.empty()) {
    auto b = load(o.baseline, o, "--baseline");
    if (!b) return fail(ctx, b.error());
    base = std::move(b).value();
  }
  std::optional<ingest::RecordsComparison> cmp;
  if (base) cmp = ingest::compare_summaries(base->summary, now->summary);
  if (ctx.json) {
    nlohmann::json j;
    j["summary"] = summary_json(o.file, *now);
    if (base) {
      j["baseline"] = summary_json(o.baseline, *base);
      nlohmann::json shifts = nlohmann::json::array();
      for (const auto& s : cmp->shifts) {
        nlohmann::json x = {{"metric", s.metric}, {"n_baseline", s.n_base}, {"n_now", s.n_now},
                            {"ks", s.ks}, {"ks_critical_1pct", s.ks_critical}, {"changed", s.changed}};
        if (s.p50_ratio) x["p50_ratio"] = *s.p50_ratio;
        if (s.p90_ratio) x["p90_ratio"] = *s.p90_ratio;
        if (s.p99_ratio) x["p99_ratio"] = *s.p99_ratio;
        if (s.mean_ratio) x["mean_ratio"] = *s.mean_ratio;
        shifts.push_back(x);
      }
      j["comparison"] = {{"shifts", shifts},
                         {"error_rate_baseline", cmp->error_rate_base},
                         {"error_rate_now", cmp->error_rate_now},
                         {"error_rate_changed", cmp->error_rate_changed},
                         {"sampling_tvd", cmp->sampling_tvd},
                         {"findings", cmp->findings}};
      if (cmp->rate_ratio) j["comparison"]["rate_ratio"] = *cmp->rate_ratio;
    }
    ctx.out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    print_summary(ctx.out, o.file, *now);
    if (base) {
      ctx.out << "\nbaseline:\n";
      print_summary(ctx.out, o.baseline, *base);
      ctx.out << "\nwhat changed (baseline → now):\n";
      if (cmp->findings.empty()) ctx.out << "  nothing beyond sampling noise (KS at 1%, quantile ratios within 0.8–1.25)\n";
      for (const auto& f : cmp->findings) ctx.out << "  " << core::printable(f) << "\n";
    }
  }
  return cmp && cmp->any_change() ? core::kExitFindings : core::kExitHealthy;
}

}  // namespace

Command make_records_summary_command() {
  auto o = std::make_shared<RecordsOpts>();
  Command c;
  c.path = "records summary";
  c.summary = "Summarize per-request records (bench output, gateway logs) and compare with a baseline";
  c.example =
      "llmtriage records summary prod.jsonl --baseline bench.jsonl\n"
      "  # nginx access log vs a vLLM benchmark result:\n"
      "  llmtriage records summary access.log --records-format nginx --baseline vllm-result.json\n"
      "  # a CSV with its own column names and units:\n"
      "  llmtriage records summary reqs.csv --columns arrival_s=ts_ms*0.001,input_tokens=prompt_len,ttft_s=ttft_ms*0.001";
  c.options = {
      {"FILE FILE", "", "records to summarize (JSONL, JSON, CSV; .gz read directly)", &o->file, "", true},
      {"--baseline FILE", "", "records of a known-good period or benchmark to compare against", &o->baseline},
      {"--records-format,--format NAME", "", "(--format: the old spelling, still accepted) auto, llmtriage, vllm, sglang, aiperf, genai-perf, nginx, envoy, csv, jsonl", &o->format},
      {"--columns TEXT", "", "column map for csv/jsonl: field=column[*factor],... (factor converts units, e.g. ms*0.001)", &o->columns},
      {"--window-s DURATION", "", "arrival-rate window in seconds (0 = duration/20)", &o->window_s},
      {"--strict", "", "fail (exit 2) on the first malformed record instead of counting it", &o->strict},
  };
  c.run = [o](Context& ctx) { return run_records_summary(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
