// sim::calibrate: records produced by the simulator itself with a KNOWN non-default calibration
// are fitted starting from the defaults; the fit must find the truth again and the error must
// collapse. Then the refusals (bad input) and the honesty warnings (too few records, a bound hit).
#include "sim/calibrate.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/scenario.h"

using namespace llmtriage;
using namespace llmtriage::sim;

namespace {

// Llama-3.1-8B on one H100, vLLM preset; a Poisson load with varied prompt and output lengths, so
// batch sizes and contexts vary (that is what separates bandwidth from fixed per-layer cost).
SimConfig base_config(const std::string& calibration_json, int64_t num_requests = 300, double rate = 4,
                      const std::string& input = R"({"dist": "lognormal", "mean": 3000, "sigma": 0.8, "clamp_max": 7000})") {
  const std::string text = R"({"deployment": {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "H100-SXM"},
    "engine": "vllm",
    "workload": {"arrival": "poisson", "rate": )" + std::to_string(rate) + R"(, "num_requests": )" +
                           std::to_string(num_requests) + R"(,
                 "input": )" + input + R"(,
                 "output": {"dist": "lognormal", "mean": 200, "sigma": 0.7, "clamp_max": 1000}, "seed": 11},
    "calibration": )" + calibration_json + "}";
  auto s = parse_scenario(text, "calibrate_test");
  if (!s.ok()) {
    ADD_FAILURE() << s.error().message();
    return SimConfig{};
  }
  EXPECT_TRUE(s->startup_error.empty()) << s->startup_error;
  s->config.keep_log = false;
  s->config.keep_samples = false;
  s->config.keep_token_times = 0;
  return s->config;
}

std::vector<core::RequestRecord> measured_run(const std::string& truth, int64_t num_requests = 300) {
  auto r = run_simulation(base_config(truth, num_requests));
  if (!r.ok()) {
    ADD_FAILURE() << r.error().message();
    return {};
  }
  return r->records;
}

double param(const CalibrateResult& r, const std::string& name) {
  for (const auto& p : r.params)
    if (p.name == name) return p.value;
  return NAN;
}

bool has_warning(const CalibrateResult& r, const std::string& needle) {
  for (const auto& w : r.warnings)
    if (w.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(Calibrate, RecoversAKnownCalibrationFromItsOwnRecords) {
  const auto recs = measured_run(R"({"mbu": 0.55, "mfu": 0.35, "layer_fixed_us": 80})");
  const SimConfig base = base_config("{}");  // defaults: mbu 0.75, mfu 0.45, layer_fixed_us 50
  CalibrateOptions opt;
  opt.source_format = "llmtriage";
  auto r = calibrate(recs, base, opt);
  ASSERT_TRUE(r.ok()) << r.error().message();
  for (const auto& p : r->params)
    std::printf("  %-16s start %-8.4g fitted %-8.4g sensitivity %.3g\n", p.name.c_str(), p.start, p.value, p.sensitivity);
  std::printf("  objective %.4g -> %.4g in %d simulations\n", r->objective_before, r->objective_after, r->simulations);
  for (const auto& m : r->metrics)
    std::printf("  %-12s measured %9.2f  before %+6.1f%%  after %+6.1f%%\n", m.metric.c_str(), m.measured,
                m.err_before() * 100, m.err_after() * 100);
  for (const auto& w : r->warnings) std::printf("  warning: %s\n", w.c_str());

  EXPECT_NEAR(param(*r, "mbu"), 0.55, 0.55 * 0.05);
  EXPECT_NEAR(param(*r, "mfu"), 0.35, 0.35 * 0.05);
  // The per-layer fixed cost trades off against bandwidth (both add to every decode step; only
  // the KV-read share of the step separates them), so quantiles pin it loosely: within 20%, and
  // the report says it is weakly determined.
  EXPECT_NEAR(param(*r, "layer_fixed_us"), 80, 80 * 0.20);
  EXPECT_TRUE(has_warning(*r, "layer_fixed_us is weakly determined"));
  EXPECT_LT(r->objective_after, r->objective_before / 100);
  EXPECT_LE(r->simulations, opt.max_simulations);
  for (const auto& m : r->metrics) {
    EXPECT_LT(std::fabs(m.err_after()), 0.03) << m.metric;
    EXPECT_LT(std::fabs(m.err_after()), std::fabs(m.err_before())) << m.metric;
  }
  ASSERT_EQ(r->per_request.size(), 3u);  // trace replay: matched one to one
  for (const auto& e : r->per_request) {
    EXPECT_EQ(e.matched, recs.size()) << e.metric;
    EXPECT_LT(e.after, e.before / 3) << e.metric;
  }
  EXPECT_FALSE(has_warning(*r, "bound"));
  EXPECT_FALSE(has_warning(*r, "fewer than"));
  // The file loads back as a calibration with the fitted values.
  auto back = Calibration::from_json_text(r->calibration_json().dump(), "fit");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_DOUBLE_EQ(back->mbu, r->fitted.mbu);
  EXPECT_DOUBLE_EQ(back->layer_fixed_us, r->fitted.layer_fixed_us);
}

TEST(Calibrate, SameInputSameFit) {
  const auto recs = measured_run(R"({"mbu": 0.6})", 120);
  CalibrateOptions opt;
  opt.fit = {"mbu"};
  opt.max_simulations = 20;
  opt.start_json = {{"_note", "from the lab"}, {"mbu", 0.75}};  // a starting file's own keys are kept
  auto a = calibrate(recs, base_config("{}", 120), opt), b = calibrate(recs, base_config("{}", 120), opt);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->calibration_json().dump(), b->calibration_json().dump());
  EXPECT_EQ(a->simulations, b->simulations);
  EXPECT_NEAR(a->params[0].value, 0.6, 0.6 * 0.02);  // bandwidth alone is pinned tightly
  EXPECT_EQ(a->calibration_json().value("_note", ""), "from the lab");
  EXPECT_DOUBLE_EQ(a->calibration_json().value("mbu", 0.0), a->params[0].value);
}

TEST(Calibrate, ClosedLoopReplayWhenTheSourceHasNoArrivalTimes) {
  auto recs = measured_run(R"({"mbu": 0.6})", 150);
  for (auto& r : recs) { r.arrival_s = 0; r.send_s.reset(); }
  CalibrateOptions opt;
  opt.fit = {"mbu"};
  opt.arrivals_known = false;
  opt.source_format = "vllm_bench";
  opt.max_simulations = 16;
  auto refused = calibrate(recs, base_config("{}", 150), opt);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("--concurrency"), std::string::npos) << refused.error().message();
  EXPECT_NE(refused.error().message().find("vllm_bench"), std::string::npos);

  opt.concurrency = 8;
  auto r = calibrate(recs, base_config("{}", 150), opt);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_TRUE(r->per_request.empty());  // nothing to match one to one
  EXPECT_NE(r->replay.find("closed-loop"), std::string::npos);
  EXPECT_TRUE(has_warning(*r, "no arrival times"));
}

TEST(Calibrate, WarnsWhenRecordsAreTooFewOrAFactorHitsItsBound) {
  // 40 requests: too few for a firm p90.
  auto few = calibrate(measured_run("{}", 40), base_config("{}", 40), {.fit = {"mbu"}, .max_simulations = 12});
  ASSERT_TRUE(few.ok());
  EXPECT_TRUE(has_warning(*few, "fewer than 100")) << few->warnings.size();

  // A run 30x slower than any bandwidth can explain: mbu ends at its lower bound, said so.
  auto recs = measured_run("{}", 120);
  for (auto& r : recs) {
    if (r.ttft_s) *r.ttft_s *= 30;
    if (r.e2e_s) *r.e2e_s *= 30;
  }
  auto slow = calibrate(recs, base_config("{}", 120), {.fit = {"mbu"}, .max_simulations = 30});
  ASSERT_TRUE(slow.ok());
  EXPECT_TRUE(slow->params[0].at_bound);
  EXPECT_NEAR(slow->params[0].value, 0.05, 0.05 * 0.01);
  EXPECT_TRUE(has_warning(*slow, "lower bound")) << (slow->warnings.empty() ? "" : slow->warnings[0]);
  EXPECT_TRUE(has_warning(*slow, "still off"));
}

struct BadCase {
  const char* name;
  void (*mutate)(std::vector<core::RequestRecord>&);
  const char* needle;  // in the error message
};

TEST(Calibrate, RefusesBadInputNamingWhatIsMissing) {
  const BadCase cases[] = {
      {"no records", [](auto& v) { v.clear(); }, "at least one request record"},
      {"no token counts (a gateway log)", [](auto& v) { for (auto& r : v) r.input_tokens.reset(); }, "input_tokens"},
      {"all failed", [](auto& v) { for (auto& r : v) r.status = core::RequestStatus::error; }, "failed"},
      {"no TTFT (non-streaming)", [](auto& v) { for (auto& r : v) r.ttft_s.reset(); }, "ttft_s"},
      {"no TPOT", [](auto& v) { for (auto& r : v) { r.e2e_s.reset(); r.chunk_times_s.clear(); } }, "time per output token"},
  };
  const auto good = measured_run("{}", 30);
  for (const auto& c : cases) {
    auto recs = good;
    c.mutate(recs);
    CalibrateOptions opt;
    opt.source_format = "nginx";
    auto r = calibrate(recs, base_config("{}", 30), opt);
    ASSERT_FALSE(r.ok()) << c.name;
    EXPECT_EQ(r.error().kind, core::ErrorKind::input) << c.name;
    EXPECT_NE(r.error().message().find(c.needle), std::string::npos) << c.name << ": " << r.error().message();
  }
}

TEST(Calibrate, FitListAcceptsKnownFactorsAndListsThemWhenNot) {
  auto ok = parse_fit_list("mbu, layer_fixed_us,mbu");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, (std::vector<std::string>{"mbu", "layer_fixed_us"}));
  for (const char* bad : {"mbu,speed", "", " , "}) {
    auto r = parse_fit_list(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().kind, core::ErrorKind::usage);
    EXPECT_NE(r.error().message().find("mbu, mfu, mfu_fp8, mfu_fp4, attn_eff, layer_fixed_us"), std::string::npos) << r.error().message();
  }
  // calibrate() checks the names too (a caller that skipped parse_fit_list).
  auto r = calibrate(measured_run("{}", 20), base_config("{}", 20), {.fit = {"warp_speed"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("warp_speed"), std::string::npos);
}

