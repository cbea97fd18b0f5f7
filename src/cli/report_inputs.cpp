#include "cli/report_inputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "bench/export.h"
#include "inputs/side.h"
#include "cli/version.h"
#include "collect/snapshot.h"
#include "core/files.h"
#include "diagnose/indicators.h"
#include "diagnose/remedy_ledger.h"
#include "ingest/engine_log.h"
#include "ledger/ledger_render.h"
#include "report/diagnose_json.h"

namespace llmtriage::cli {
namespace {

namespace fs = std::filesystem;

report::TimelineData timeline_of(const collect::Snapshot& s, const std::string& path) {
  const core::Evidence ev = collect::snapshot_to_evidence(s, path);
  report::TimelineData t{path, ev.engine_samples, ev.gpu_samples, {}, {}, {}};
  if (s.created_unix_s > 0) t.snapshot_unix_s = s.created_unix_s;
  for (const auto& sl : s.slots)
    t.slots.push_back({sl.t_s, sl.busy(), static_cast<int>(sl.slots.size())});
  return t;
}

std::string folder_name(const std::string& dir) {
  fs::path p(dir);
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().string();
}

core::Slo to_core_slo(const diagnose::Slo& s) {
  core::Slo c;
  c.ttft_s = s.ttft_p99_s;
  c.tpot_s = s.tpot_p99_s;
  c.e2e_s = s.e2e_p99_s;
  c.error_rate = s.error_rate;
  return c;
}

}  // namespace

core::Result<report::HtmlReport> load_report_inputs(const std::vector<std::string>& inputs,
                                                    const std::optional<core::Slo>& slo) {
  report::HtmlReport h;
  h.generated_by = "llmtriage " + version_string();
  std::optional<core::Slo> bench_slo;
  std::optional<report::TimelineData> bench_timeline;
  std::vector<report::TimelineData::RequestTtft> now_requests;  // the last bench folder's, on the unix clock
  std::vector<report::TimelineData::RequestFailure> now_failures;
  for (const auto& in : inputs) {
    h.sources.push_back(in);
    std::string dir = in;
    if (!fs::is_directory(in) && fs::path(in).filename() == "summary.json") dir = fs::path(in).parent_path().string();
    if (fs::is_directory(dir)) {
      auto summary = bench::read_summary(dir);
      if (!summary) return std::move(summary).error();
      inputs::EvidenceSide side;
      inputs::read_bench(side, dir);
      inputs::finish_side(side);
      for (const auto& n : side.ev.inputs)
        if (!n.ok && n.kind != "bench metrics") return core::make_error(core::ErrorKind::input, n.source, "a readable " + n.kind, n.note);
      h.runs.push_back({folder_name(dir), false, dir, side.ev.requests});
      // Records are relative to the run's start (summary.json run.start_unix_s), the scrapes unix.
      now_requests.clear();
      now_failures.clear();
      const double start = (*summary).contains("run") ? (*summary)["run"].value("start_unix_s", 0.0) : 0.0;
      if (start > 0)
        for (const auto& r : side.ev.requests) {
          if (r.status == core::RequestStatus::ok && r.ttft_s)
            now_requests.push_back({start + r.send_s.value_or(r.arrival_s), *r.ttft_s, r.e2e_s});
          if (r.status == core::RequestStatus::error)
            now_failures.push_back({start + r.send_s.value_or(r.arrival_s), r.failed_after_s, r.error_category});
        }
      const std::string s = (*summary).contains("goodput") ? (*summary)["goodput"].value("slo", "") : "";
      if (!s.empty())
        if (auto parsed = core::parse_slo(s, dir + "/summary.json goodput.slo")) bench_slo = *parsed;
      if (!side.ev.engine_samples.empty())
        bench_timeline = report::TimelineData{dir + "/metrics.jsonl", side.ev.engine_samples, side.ev.gpu_samples, {}, {}, {}};
      continue;
    }
    auto text = core::read_file(in);
    if (!text) return std::move(text).error();
    const auto j = nlohmann::json::parse(*text, nullptr, false);
    const std::string format = j.is_object() ? j.value("format", "") : "";
    if (format == report::kDiagnosisFormat) {
      auto r = report::report_from_json(j, in);
      if (!r) return std::move(r).error();
      if (h.diagnosis) h.notes.push_back("several diagnoses given: the page shows the last, " + in);
      h.diagnosis = std::move(*r);
    } else if (format == collect::kSnapshotFormat) {
      auto s = collect::read_snapshot(in);
      if (!s) return std::move(s).error();
      if (h.timeline) h.notes.push_back("several snapshots given: the timeline draws the last, " + in);
      h.timeline = timeline_of(*s, in);
    } else {
      return core::make_error(core::ErrorKind::input, in,
                              "a bench folder (bench --out), a diagnosis (diagnose --json) or a snapshot (snapshot)",
                              j.is_discarded() ? "not JSON" : format.empty() ? "JSON without a format" : "format " + format);
    }
  }
  if (h.runs.size() >= 2) h.runs.front().baseline = true;
  if (!h.timeline && h.diagnosis && h.diagnosis->snapshot_path) {
    const std::string& p = *h.diagnosis->snapshot_path;
    if (auto s = collect::read_snapshot(p)) h.timeline = timeline_of(*s, p);
    else h.notes.push_back("the diagnosis' snapshot " + p + " could not be read: " + s.error().message());
  }
  if (!h.timeline && bench_timeline) h.timeline = std::move(bench_timeline);
  if (h.timeline) {  // drawn where the clocks overlap
    h.timeline->requests = std::move(now_requests);
    h.timeline->failures = std::move(now_failures);
  }
  h.slo = slo ? *slo : bench_slo.value_or(core::Slo{});
  h.title = h.diagnosis ? "llmtriage diagnosis" : !h.runs.empty() ? "llmtriage bench report" : "llmtriage timeline";
  return h;
}

// The waterfall's blocks from the ledger just computed, in the ledger's order, with the engine's
// own number for each where its startup log stated one (`logged`: log key -> value).
report::LedgerPicture ledger_picture(const ledger::LedgerReport& r, const std::map<std::string, double>& logged,
                                     const std::string& log_file) {
  report::LedgerPicture p;
  p.title = fmt::format("{} on {}{} (TP {}, PP {}), {}", r.model_id, r.num_gpus > 1 ? fmt::format("{} x ", r.num_gpus) : "",
                        r.gpu_name, r.tp, r.pp, r.accounting);
  p.total_gib = r.total_gib;
  p.usable_gib = r.usable_gib;
  p.utilization = r.utilization;
  p.verdict = ledger::to_string(r.verdict);
  p.verdict_detail = r.verdict_detail;
  const bool llama = r.engine == core::EngineKind::llamacpp || r.engine == core::EngineKind::ollama;
  auto measured = [&](std::initializer_list<const char*> keys) -> std::optional<double> {
    for (const char* k : keys)
      if (auto it = logged.find(k); it != logged.end()) return it->second;
    return std::nullopt;
  };
  p.blocks.push_back({"weights_gib", llama ? "Weights (GPU)" : "Weights", r.weights_gib, false, measured({"weights_gib"})});
  if (r.cuda_graph_gib > 0)
    p.blocks.push_back({"cuda_graph_gib", r.cuda_graph_subtracted ? "CUDA graphs" : "CUDA graphs (headroom)", r.cuda_graph_gib,
                        !r.cuda_graph_subtracted, measured({"cuda_graph_gib"})});
  if (r.activation_gib > 0)
    p.blocks.push_back({"activation_gib", llama ? "Compute buffer" : "Activation peak", r.activation_gib, false,
                        measured({"peak_activation_gib", "compute_buffer_gib"})});
  if (r.non_torch_gib > 0) p.blocks.push_back({"non_torch_gib", llama ? "CUDA context" : "Non-torch", r.non_torch_gib, false, measured({"non_torch_gib"})});
  double kv = r.kv_cache_gib;
  if (llama)  // the KV cells on the GPU (the rest are in host memory)
    for (const auto& l : r.lines)
      if (l.key == "kv_gpu") kv = l.unit == "MiB" ? l.value / 1024 : l.value;
  p.blocks.push_back({"kv_cache_gib", "KV pool", kv, false, measured({"kv_cache_gib"})});
  if (!logged.empty()) p.measured_source = log_file;
  if (r.engine == core::EngineKind::sglang) p.utilization_flag = "--mem-fraction-static";
  else if (!llama) p.utilization_flag = "--gpu-memory-utilization";
  return p;
}

namespace {

// The start of the one bench run among the inputs (summary.json run.start_unix_s): its records
// are seconds from it. Unset with no bench folder, several (which start applies to which record is
// not known), or one without a start.
std::optional<double> bench_start(const core::Evidence& ev) {
  std::optional<double> start;
  int benches = 0;
  for (const auto& n : ev.inputs)
    if (n.kind == "bench" && n.ok) {
      ++benches;
      const std::string dir = fs::path(n.source).parent_path().string();
      if (auto sm = bench::read_summary(dir.empty() ? "." : dir); sm && sm->contains("run"))
        if (double v = (*sm)["run"].value("start_unix_s", 0.0); v > 0) start = v;
    }
  return benches == 1 ? start : std::nullopt;
}

}  // namespace

// Each request's TTFT (a dot on the TTFT lane; with the server's histograms, the client/gateway
// part of TTFT) and each failure (the events lane), on the scrapes' clock: a record in unix seconds
// (request logs, sim serve's records: after 2001) as it is, one in seconds from its run's start
// offset by the bench run's start; one with neither is left out. A note says why when no record
// could be placed, or none falls inside the scrapes' time range.
void put_requests_on_clock(const core::Evidence& ev, report::TimelineData& t, std::vector<std::string>& notes) {
  if (ev.requests.empty() || t.engine.empty()) return;
  constexpr double kUnixAfter = 1e9;
  const auto start = bench_start(ev);
  const double t0 = t.engine.front().t_s, t1 = t.engine.back().t_s;
  size_t placed = 0, inside = 0;
  for (const auto& r : ev.requests) {
    const double own = r.send_s.value_or(r.arrival_s);
    if (own <= kUnixAfter && !start) continue;
    const double sent = own > kUnixAfter ? own : *start + own;
    ++placed;
    inside += sent >= t0 - 1 && sent <= t1 + 1;
    if (r.status == core::RequestStatus::ok && r.ttft_s) t.requests.push_back({sent, *r.ttft_s, r.e2e_s});
    if (r.status == core::RequestStatus::error) t.failures.push_back({sent, r.failed_after_s, r.error_category});
  }
  if (placed == 0) {
    notes.push_back("no per-request dots on the timeline: the request records' times are relative to a run whose start is unknown "
                    "(expected one bench folder with summary.json run.start_unix_s, or records in unix seconds)");
  } else if (inside == 0) {
    t.requests.clear();
    t.failures.clear();
    notes.push_back(fmt::format("no per-request dots on the timeline: none of the {} request records falls inside the scrapes' "
                                "time range (a different clock, or another run)",
                                placed));
  }
}

report::HtmlReport html_from_diagnosis(const diagnose::DiagnoseInput& in, const diagnose::Report& r) {
  report::HtmlReport h;
  h.title = "llmtriage diagnosis";
  h.generated_by = "llmtriage " + version_string();
  for (const auto& n : in.now.inputs) h.sources.push_back(n.source);
  h.diagnosis = r;
  report::TimelineData t{"the diagnosis' evidence", in.now.engine_samples, in.now.gpu_samples, {}, {}, {}};
  if (in.snapshot_path) {
    t.source = *in.snapshot_path;
    if (auto s = collect::read_snapshot(*in.snapshot_path)) {
      for (const auto& sl : s->slots) t.slots.push_back({sl.t_s, sl.busy(), static_cast<int>(sl.slots.size())});
      if (s->created_unix_s > 0) t.snapshot_unix_s = s->created_unix_s;
    }
  }
  if (!t.engine.empty() || !t.gpu.empty()) {
    put_requests_on_clock(in.now, t, h.notes);
    h.timeline = std::move(t);
  }
  if (in.baseline && !in.baseline->requests.empty()) h.runs.push_back({"baseline", true, "baseline", in.baseline->requests});
  if (!in.now.requests.empty()) h.runs.push_back({"now", false, "now", in.now.requests});
  if (h.runs.size() == 1) h.runs.front().baseline = false;
  h.slo = to_core_slo(in.slo);
  // The ledger the diagnosis consults (diagnose/capacity_kit.cpp): the same ledger_for on the same
  // evidence at the observed lengths; the startup log's numbers, where the evidence has them, as ticks.
  std::optional<int64_t> typical;
  const auto ind = diagnose::build_indicators(in);
  if (auto i = ind.get("input_len_mean"), o = ind.get("output_len_mean"); i && o && *i + *o >= 1)
    typical = static_cast<int64_t>(std::llround(*i + *o));
  if (auto lc = diagnose::ledger_for(in.now, typical); lc.ok()) {
    std::map<std::string, double> startup, logged;
    std::string log_source;
    for (const auto& e : in.now.events)
      if (e.kind == core::EventKind::startup_memory) {
        for (const auto& [k, v] : e.fields) startup.emplace(k, v);
        if (log_source.empty()) log_source = e.source.substr(0, e.source.rfind(':'));
      }
    for (const auto& p : ledger::log_pairs(lc->report))
      if (auto it = startup.find(p.log_key); it != startup.end()) logged[p.log_key] = it->second;
    if (lc->report.total_gib > 0) h.ledger = ledger_picture(lc->report, logged, log_source);
  } else {
    h.notes.push_back("no memory ledger waterfall: " + lc.error().message());
  }
  return h;
}

core::Status write_html_report(const std::string& path, const report::HtmlReport& html) {
  return core::write_file_atomic(path, report::render_html(html));
}

std::optional<core::Error> write_pictures(std::ostream& err, const std::string& command, const std::string& html_path,
                                          const std::string& svg_dir, const report::HtmlReport& html) {
  std::optional<core::Error> first;
  if (!html_path.empty()) {
    if (auto st = write_html_report(html_path, html); !st) first = st.error();
    else err << "llmtriage " << command << ": HTML report written to " << html_path << "\n";
  }
  if (!svg_dir.empty()) {
    std::error_code ec;
    fs::create_directories(svg_dir, ec);
    if (ec) {
      if (!first) first = core::make_error(core::ErrorKind::input, "--svg " + svg_dir, "a folder that can be created", ec.message());
      return first;
    }
    const auto svgs = report::standalone_svgs(html);
    for (const auto& s : svgs)
      if (auto st = core::write_file_atomic((fs::path(svg_dir) / s.name).string(), s.text); !st && !first) first = st.error();
    std::string names;
    for (const auto& s : svgs) names += (names.empty() ? "" : ", ") + s.name;
    err << "llmtriage " << command << ": " << svgs.size() << " SVG chart(s) written to " << svg_dir
        << (names.empty() ? std::string(" (nothing to draw)") : ": " + names) << "\n";
  }
  return first;
}

report::AbBoard delta_board(const bench::AbResult& r, const bench::AbOptions& ao) {
  report::AbBoard b;
  b.verdict_given = r.verdict_given;
  b.refusals = r.refusals;
  b.confidence = ao.confidence;
  if (r.config_diff.empty()) {
    b.variable = "no setting differs";
  } else if (r.config_diff.size() == 1) {
    const auto& [k, v] = *r.config_diff.begin();
    b.variable = k + ": " + v.first + " -> " + v.second;
  } else {
    for (const auto& [k, v] : r.config_diff) b.variable += (b.variable.empty() ? "" : ", ") + k;
    b.variable = std::to_string(r.config_diff.size()) + " variables: " + b.variable;
  }
  for (const auto& m : r.metrics) b.rows.push_back({m.metric, m.a, m.b, m.diff, m.lo, m.hi, m.rel_pct, m.verdict});
  return b;
}

}  // namespace llmtriage::cli
