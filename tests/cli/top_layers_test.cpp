// `llmtriage top`'s layer lines come from the same diagnosis as `llmtriage diagnose`: a deep queue
// against max-num-seqs puts the scheduling layer at fault, an idle server clears it, and the
// lines are one per layer in the method's order.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "cli/top_layers.h"
#include "collect/live_view.h"
#include "ingest/metrics_engine.h"

using namespace llmtriage;

namespace {

std::string exposition(double running, double waiting, double kv, double gen_total) {
  return fmt::format(
      "# TYPE vllm:num_requests_running gauge\n"
      "vllm:num_requests_running{{engine=\"0\",model_name=\"m\"}} {}\n"
      "vllm:num_requests_waiting{{engine=\"0\",model_name=\"m\"}} {}\n"
      "vllm:kv_cache_usage_perc{{engine=\"0\",model_name=\"m\"}} {}\n"
      "# TYPE vllm:generation_tokens_total counter\n"
      "vllm:generation_tokens_total{{engine=\"0\",model_name=\"m\"}} {}\n",
      running, waiting, kv, gen_total);
}

collect::Snapshot recent(double running, double waiting, double kv) {
  collect::Snapshot base;
  base.engine = core::EngineKind::vllm;
  core::EngineSettings st;
  st.max_num_seqs = 64;
  base.engine_settings = st;
  collect::LiveWindow w(base, 60);
  for (int t = 0; t < 15; ++t) {
    collect::LiveScrape s;
    s.metrics.t_s = 1000 + t;
    s.metrics.ok = true;
    auto a = ingest::adapt_engine_metrics(exposition(running, waiting, kv, 100.0 * t), 1000 + t, {});
    EXPECT_TRUE(a);
    s.metrics.engine_samples = a->samples;
    w.add(std::move(s));
  }
  return w.recent(15);
}

const collect::LayerLine& line(const std::vector<collect::LayerLine>& v, const char* layer) {
  for (const auto& l : v)
    if (l.layer == layer) return l;
  static collect::LayerLine none;
  ADD_FAILURE() << "no line for " << layer;
  return none;
}

}  // namespace

TEST(TopLayers, ADeepQueueAtTheConcurrencyCapIsTheSchedulingLayer) {
  auto lines = cli::judge_layers(recent(64, 120, 0.97));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0].layer, "load");
  EXPECT_EQ(lines[1].layer, "scheduling_capacity");
  const auto& s = line(lines, "scheduling_capacity");
  EXPECT_TRUE(s.state == "warning" || s.state == "critical") << s.state << ": " << s.text;
  EXPECT_FALSE(s.text.empty());
  // The alert says its remedy, in the engine's flag names.
  EXPECT_NE(s.fix.find(" -> "), std::string::npos) << s.text << " / fix: " << s.fix;
  // No GPU readings: said, with the one flag top has for it.
  const auto& hw = line(lines, "operator_hardware");
  EXPECT_EQ(hw.state, "not judged") << hw.text;
  EXPECT_NE(hw.text.find("--dcgm"), std::string::npos) << hw.text;
}

TEST(TopLayers, AnIdleServerClearsTheSchedulingLayer) {
  auto lines = cli::judge_layers(recent(2, 0, 0.05));
  const auto& s = line(lines, "scheduling_capacity");
  EXPECT_EQ(s.state, "clear") << s.text;
}
