#include "sim/fidelity.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/files.h"
#include "sim/scenario.h"

namespace llmtriage::sim {

std::string metric_family(const std::string& m) {
  if (m.find("throughput") != std::string::npos) return "throughput";
  if (m.rfind("tpot", 0) == 0 || m.rfind("itl", 0) == 0) return "tpot";
  if (m.rfind("ttft", 0) == 0) return "ttft";
  return "e2e";
}

double median_abs_error(const std::vector<CaseResult>& rs, const std::string& family) {
  std::vector<double> e;
  for (const auto& r : rs)
    for (const auto& m : r.metrics)
      if (metric_family(m.metric) == family) e.push_back(std::fabs(m.rel_error()));
  if (e.empty()) return 0;
  std::sort(e.begin(), e.end());
  const size_t n = e.size();
  return n % 2 ? e[n / 2] : 0.5 * (e[n / 2 - 1] + e[n / 2]);
}

core::Result<std::vector<CaseResult>> run_cases(const std::string& path, const Calibration* cal) {
  auto text = core::read_file(path);
  if (!text.ok()) return text.error();
  std::vector<CaseResult> out;
  std::istringstream in(*text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) return core::make_error(core::ErrorKind::input, path + ":" + std::to_string(n), "a JSON case", "invalid JSON");
    if (cal) {
      // The given calibration, with the case's own keys (engine-mode facts such as multi-step CPU) on top.
      nlohmann::json c = cal->to_json();
      if (j.contains("calibration")) c.update(j["calibration"]);
      j["calibration"] = c;
    }
    CaseResult r;
    r.id = j.value("name", "line " + std::to_string(n));
    r.engine = j.value("engine", "vllm");
    r.source_engine = j.value("source_engine", "");
    r.note = j.value("note", "");
    auto s = parse_scenario(j.dump(), path + ":" + std::to_string(n));
    if (!s.ok()) { r.error = s.error().message(); out.push_back(r); continue; }
    if (!s->startup_error.empty()) { r.error = s->startup_error; out.push_back(r); continue; }
    s->config.keep_log = false;
    s->config.keep_samples = false;
    s->config.keep_token_times = 0;
    auto res = run_simulation(s->config);
    if (!res.ok()) { r.error = res.error().message(); out.push_back(r); continue; }
    const nlohmann::json sum = res->summary.to_json();
    for (auto it = j["compare"].begin(); it != j["compare"].end(); ++it) {
      CaseMetric m;
      m.metric = it.key();
      m.reported = it->get<double>();
      const nlohmann::json* node = &sum;
      std::string part;
      for (size_t i = 0; i <= m.metric.size(); ++i) {
        if (i == m.metric.size() || m.metric[i] == '.') { node = &(*node)[part]; part.clear(); }
        else part += m.metric[i];
      }
      m.simulated = node->is_number() ? node->get<double>() : NAN;
      r.metrics.push_back(m);
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace llmtriage::sim
