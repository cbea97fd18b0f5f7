// `llmtriage report INPUT... --html FILE`: one self-contained HTML report (docs/report.md) drawn
// from saved results — a diagnosis JSON, a snapshot, bench folders (the first of two is the
// baseline). Reading in cli/report_inputs.cpp, drawing in src/report/html_*.
#include <fmt/format.h>

#include <memory>
#include <ostream>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/files.h"
#include "cli/report_inputs.h"
#include "core/exit_code.h"

namespace llmtriage::cli {
namespace {

struct ReportOpts {
  std::vector<std::string> inputs;
  std::string html;
  std::string svg;  // --svg DIR: each chart as a standalone SVG
  std::string slo;
  std::string title;
};

int run_report(ReportOpts& o, Context& ctx) {
  std::optional<core::Slo> slo;
  if (!o.slo.empty()) {
    auto s = core::parse_slo(o.slo, "--slo");
    if (!s) return fail(ctx, s.error());
    slo = *s;
  }
  auto h = load_report_inputs(o.inputs, slo);
  if (!h) return fail(ctx, h.error());
  if (!o.title.empty()) h->title = o.title;
  const std::string page = report::render_html(*h);
  if (auto st = core::write_file_atomic(o.html, page); !st) return fail(ctx, st.error());
  if (!o.svg.empty())
    if (auto e = write_pictures(ctx.err, "report", "", o.svg, *h)) return fail(ctx, *e);
  if (ctx.json) {
    ctx.out << nlohmann::json{{"html", o.html}, {"bytes", page.size()}, {"sources", h->sources}}.dump(2) << "\n";
  } else {
    ctx.out << fmt::format("wrote {} ({:.0f} KB) from {} input(s); open it in a browser (no network needed)\n", o.html,
                           static_cast<double>(page.size()) / 1024, o.inputs.size());
  }
  return core::kExitHealthy;
}

}  // namespace

Command make_report_command() {
  auto o = std::make_shared<ReportOpts>();
  Command c;
  c.path = "report";
  c.summary = "draw one self-contained HTML report (layer strip, timeline, latency CDFs, findings) from saved results";
  c.example =
      "llmtriage report diag.json snap.json --html incident.html\n"
      "  llmtriage report runs/before runs/after --html ab.html --slo ttft=500ms   # two bench folders: baseline, now";
  c.options = {
      {"INPUT FILE", "", "saved results: a `diagnose --json` output, a snapshot file, a `bench --out` folder (repeatable)",
       &o->inputs, "", true},
      {"--html FILE", "", "where to write the report (one file, no network needed to open it)", &o->html, "", true},
      {"--svg DIR", "", "also write each chart as a standalone SVG file in DIR (for a ticket or a post-mortem)", &o->svg},
      {"--slo SLO", "", "the SLO line on the latency CDFs (default: the bench summary's SLO)", &o->slo, "none"},
      {"--title TEXT", "", "the report's title", &o->title, "by input"},
  };
  c.run = [o](Context& ctx) { return run_report(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
