#include "cli/drill_engine_cmd.h"

#include <fmt/format.h>

#include <filesystem>
#include <ostream>

#include "core/exit_code.h"
#include "core/files.h"
#include "drill/engine_drill.h"
#include "drill/engine_drill_report.h"
#include "report/diagnose_json.h"

namespace llmtriage::cli {

int run_engine_drill_command(Context& ctx, const std::string& scenario, const EngineDrillFlags& f,
                             const std::optional<std::string>& out, bool no_remedy) {
  if (f.engine_model.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--engine-model", "the model file the server loads ({model})",
                                      "nothing", "e.g. --engine-model ./tiny.gguf"));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(f.engine_model, ec))
    return fail(ctx, core::make_error(core::ErrorKind::input, "--engine-model", "an existing model file", f.engine_model));
  auto s = drill::find_engine_scenario(scenario);
  if (!s) return fail(ctx, s.error());
  drill::EngineDrillOptions o;
  o.engine_cmd = f.engine_cmd;
  o.model = f.engine_model;
  o.run_deadline_s = f.run_deadline_s;
  o.apply_remedy = !no_remedy;
  o.work_dir = out ? *out : (std::filesystem::temp_directory_path() / fmt::format("llmtriage-drill-{}", ::getpid())).string();
  o.progress = [&ctx](const std::string& line) { ctx.err << "llmtriage drill: " << line << "\n"; };
  auto r = drill::run_engine_drill(*s, o);
  if (!r) return fail(ctx, r.error());
  const nlohmann::json doc = drill::engine_drill_json(*r);
  if (out) {
    (void)core::write_file_atomic(*out + "/diagnosis.json", report::to_json(r->report).dump(2) + "\n");
    if (auto st = core::write_file_atomic(*out + "/drill.json", doc.dump(2) + "\n"); !st.ok()) return fail(ctx, st.error());
  }
  if (ctx.json) ctx.out << doc.dump(2) << "\n";
  else ctx.out << drill::engine_drill_text(*r) << (out ? "\nResults: " + *out + " (engine logs, diagnosis.json, drill.json)\n" : "");
  return r->report.exit_code();
}

}  // namespace llmtriage::cli
