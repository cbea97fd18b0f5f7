#include "cli/report_inputs.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "bench/export.h"
#include "inputs/side.h"
#include "cli/version.h"
#include "collect/snapshot.h"
#include "core/files.h"
#include "report/diagnose_json.h"

namespace llmtriage::cli {
namespace {

namespace fs = std::filesystem;

report::TimelineData timeline_of(const collect::Snapshot& s, const std::string& path) {
  const core::Evidence ev = collect::snapshot_to_evidence(s, path);
  report::TimelineData t{path, ev.engine_samples, ev.gpu_samples, {}, {}};
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
      const double start = (*summary).contains("run") ? (*summary)["run"].value("start_unix_s", 0.0) : 0.0;
      if (start > 0)
        for (const auto& r : side.ev.requests)
          if (r.status == core::RequestStatus::ok && r.ttft_s)
            now_requests.push_back({start + r.send_s.value_or(r.arrival_s), *r.ttft_s});
      const std::string s = (*summary).contains("goodput") ? (*summary)["goodput"].value("slo", "") : "";
      if (!s.empty())
        if (auto parsed = core::parse_slo(s, dir + "/summary.json goodput.slo")) bench_slo = *parsed;
      if (!side.ev.engine_samples.empty())
        bench_timeline = report::TimelineData{dir + "/metrics.jsonl", side.ev.engine_samples, side.ev.gpu_samples, {}, {}};
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
  if (h.timeline) h.timeline->requests = std::move(now_requests);  // drawn where the clocks overlap
  h.slo = slo ? *slo : bench_slo.value_or(core::Slo{});
  h.title = h.diagnosis ? "llmtriage diagnosis" : !h.runs.empty() ? "llmtriage bench report" : "llmtriage timeline";
  return h;
}

report::HtmlReport html_from_diagnosis(const diagnose::DiagnoseInput& in, const diagnose::Report& r) {
  report::HtmlReport h;
  h.title = "llmtriage diagnosis";
  h.generated_by = "llmtriage " + version_string();
  for (const auto& n : in.now.inputs) h.sources.push_back(n.source);
  h.diagnosis = r;
  report::TimelineData t{"the diagnosis' evidence", in.now.engine_samples, in.now.gpu_samples, {}, {}};
  if (in.snapshot_path) {
    t.source = *in.snapshot_path;
    if (auto s = collect::read_snapshot(*in.snapshot_path))
      for (const auto& sl : s->slots) t.slots.push_back({sl.t_s, sl.busy(), static_cast<int>(sl.slots.size())});
  }
  if (!t.engine.empty() || !t.gpu.empty()) h.timeline = std::move(t);
  if (in.baseline && !in.baseline->requests.empty()) h.runs.push_back({"baseline", true, "baseline", in.baseline->requests});
  if (!in.now.requests.empty()) h.runs.push_back({"now", false, "now", in.now.requests});
  if (h.runs.size() == 1) h.runs.front().baseline = false;
  h.slo = to_core_slo(in.slo);
  return h;
}

core::Status write_html_report(const std::string& path, const report::HtmlReport& html) {
  return core::write_file_atomic(path, report::render_html(html));
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
