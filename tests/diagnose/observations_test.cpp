#include <gtest/gtest.h>

#include "diagnose/diagnose.h"

namespace llmtriage::diagnose {
namespace {

TEST(Observations, EveryContractNameIsKnownWithAUnit) {
  const char* contract[] = {"running", "waiting", "kv_usage", "preemptions_per_s", "prefix_cache_hit_rate",
                            "ttft_p50_s", "ttft_p99_s", "tpot_p50_s", "tpot_p99_s", "e2e_p99_s", "request_rate",
                            "input_len_mean", "input_len_p99", "output_len_mean", "output_tokens_per_s",
                            "expected_output_tokens_per_s", "gpu_util", "power_w", "power_limit_w", "sm_clock_mhz",
                            "max_sm_clock_mhz", "temp_c", "gpu_mem_used_gib", "gateway_timeout_s",
                            "client_retry_rate", "error_rate"};
  for (const char* name : contract) {
    Observations obs;
    auto st = add_observation(obs, std::string(name) + "=0.5", "--observe");
    ASSERT_TRUE(st.ok()) << name << ": " << st.error().message();
    EXPECT_EQ(obs.now.at(name), 0.5);
  }
  for (const auto& n : observation_names()) EXPECT_STRNE(n.unit, "") << n.name;
}

TEST(Observations, BaselinePrefixAndSpaces) {
  Observations obs;
  ASSERT_TRUE(add_observation(obs, " baseline_input_len_mean = 300 ", "obs.txt:2").ok());
  ASSERT_TRUE(add_observation(obs, "input_len_mean=5000", "--observe").ok());
  EXPECT_EQ(obs.baseline.at("input_len_mean"), 300);
  EXPECT_EQ(obs.now.at("input_len_mean"), 5000);
  EXPECT_EQ(obs.now.count("baseline_input_len_mean"), 0u);
}

struct Bad {
  const char* text;
  const char* expected_in_message;
};

TEST(Observations, BadInputsNameWhatWhereAndTheKnownNames) {
  const Bad cases[] = {
      {"queue_depth=4", "known names: running, waiting"},
      {"waiting", "NAME=VALUE"},
      {"waiting=many", "a number in requests for waiting"},
      {"waiting=", "found nothing"},
      {"kv_usage=95", "95% -> 0.95"},
      {"ttft_p99_s=-1", "a value >= 0"},
      {"ttft_p99_s=nan", "a number"},
      {"baseline_nope=1", "found baseline_nope"},
  };
  for (const auto& c : cases) {
    Observations obs;
    auto st = add_observation(obs, c.text, "obs.txt:7");
    ASSERT_FALSE(st.ok()) << c.text;
    EXPECT_NE(st.error().message().find(c.expected_in_message), std::string::npos) << st.error().message();
    EXPECT_NE(st.error().message().find("obs.txt:7"), std::string::npos);
    EXPECT_TRUE(obs.now.empty() && obs.baseline.empty());
  }
}

}  // namespace
}  // namespace llmtriage::diagnose
