// The pure parts of fleet::gather (src/fleet/gather.h): selectors, exposition lines (read back by
// the same engine adapter a scrape uses), host joins.
#include "fleet/gather.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ingest/metrics_engine.h"

namespace llmtriage::fleet {
namespace {

TEST(FleetGather, SelectorMatchers) {
  struct Row {
    const char* in;
    const char* want;  // nullptr = error
  };
  const Row rows[] = {
      {"", ""},
      {"{}", ""},
      {R"({job="vllm"})", R"(job="vllm")"},
      {R"(  { job="vllm", namespace=~"prod|canary" } )", R"(job="vllm", namespace=~"prod|canary")"},
      {R"(job="vllm")", R"(job="vllm")"},
      {R"({job="vl\"lm"})", R"(job="vl\"lm")"},
      {R"({job="vllm")", nullptr},         // no closing brace
      {R"({job="vllm})", nullptr},         // unbalanced quote
      {"vllm:num_requests_running", nullptr},  // a metric name, not matchers
      {R"(up{job="x"})", nullptr},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.in);
    auto m = selector_matchers(r.in);
    if (!r.want) {
      EXPECT_FALSE(m.ok());
      if (!m.ok()) {
        EXPECT_EQ(m.error().where, "--selector");
      }
    } else {
      ASSERT_TRUE(m.ok()) << m.error().found;
      EXPECT_EQ(*m, r.want);
    }
  }
  EXPECT_EQ(with_matchers(R"(__name__=~"a|b")", ""), R"({__name__=~"a|b"})");
  EXPECT_EQ(with_matchers(R"(__name__=~"a|b")", R"(job="x")"), R"({__name__=~"a|b", job="x"})");
}

TEST(FleetGather, HostOf) {
  EXPECT_EQ(host_of("10.0.0.7:8000"), "10.0.0.7");
  EXPECT_EQ(host_of("node-3.cluster:9400"), "node-3.cluster");
  EXPECT_EQ(host_of("[::1]:9090"), "::1");
  EXPECT_EQ(host_of("pod-abc"), "pod-abc");
  EXPECT_EQ(host_of("fe80::1"), "fe80::1");  // bare IPv6, no port
}

// Values from a store, rendered as exposition lines, come back through the vLLM adapter with
// their labels (escapes included) and special values.
TEST(FleetGather, ExpositionLinesReadBackThroughTheEngineAdapter) {
  std::string text;
  text += exposition_line("vllm:num_requests_running", {{"model_name", "m \"q\"\\x"}, {"engine", "0"}, {"job", "sim"}}, 7);
  text += exposition_line("vllm:num_requests_waiting", {{"model_name", "m \"q\"\\x"}, {"engine", "0"}}, 3);
  text += exposition_line("vllm:kv_cache_usage_perc", {{"model_name", "m \"q\"\\x"}, {"engine", "0"}}, 0.25);
  text += exposition_line("vllm:prefix_cache_queries_total", {{"model_name", "m \"q\"\\x"}, {"engine", "0"}}, 1e12);
  text += exposition_line("vllm:num_preemptions_total", {{"model_name", "m \"q\"\\x"}, {"engine", "0"}},
                          std::numeric_limits<double>::quiet_NaN());
  auto a = ingest::adapt_engine_metrics(text, 123.0);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->malformed, 0u) << text;
  EXPECT_EQ(a->engine, core::EngineKind::vllm);
  ASSERT_EQ(a->samples.size(), 1u) << text;
  const auto& s = a->samples[0];
  EXPECT_EQ(s.model_name, "m \"q\"\\x");
  EXPECT_EQ(s.engine_index, "0");
  EXPECT_EQ(*s.running, 7);
  EXPECT_EQ(*s.waiting, 3);
  EXPECT_DOUBLE_EQ(*s.kv_usage, 0.25);
  EXPECT_DOUBLE_EQ(*s.prefix_cache_queries_total, 1e12);
  EXPECT_EQ(s.t_s, 123.0);
  EXPECT_EQ(exposition_line("x", {}, std::numeric_limits<double>::infinity()), "x +Inf\n");
}

}  // namespace
}  // namespace llmtriage::fleet
