#include "bench/summary.h"

#include <gtest/gtest.h>

using namespace llmtriage::bench;

namespace {
// A completed request: send at `send`, chunks of one token every `gap` after `ttft`.
BenchRecord done(std::string id, double send, double ttft, int tokens, double gap, std::optional<int64_t> server = {}) {
  BenchRecord r;
  r.id = std::move(id);
  r.scheduled_s = r.released_s = send;
  r.send_s = send;
  for (int i = 0; i < tokens; ++i) {
    r.chunk_s.push_back(send + ttft + i * gap);
    r.chunk_tokens.push_back(1);
  }
  r.end_s = r.chunk_s.back() + 0.001;
  r.input_tokens = 10;
  r.max_tokens = tokens;
  r.server_completion_tokens = server ? server : std::optional<int64_t>(tokens);
  return r;
}
BenchRecord failed(std::string id, double send, std::string cat) {
  BenchRecord r;
  r.id = std::move(id);
  r.scheduled_s = r.released_s = send;
  r.send_s = send;
  r.end_s = send + 0.5;
  r.error_category = std::move(cat);
  return r;
}
}  // namespace

TEST(Slo, ParseUnits) {
  auto s = parse_slo("ttft=500ms,tpot=0.05s,e2e=2s");
  ASSERT_TRUE(s.ok());
  EXPECT_DOUBLE_EQ(*s->ttft_s, 0.5);
  EXPECT_DOUBLE_EQ(*s->tpot_s, 0.05);
  EXPECT_DOUBLE_EQ(*s->e2e_s, 2.0);
  EXPECT_EQ(parse_slo("ttft=250us")->ttft_s.value(), 250e-6);
  for (const char* bad : {"ttft", "ttft=abc", "latency=5ms", "ttft=-1ms", "ttft=5ms,"}) {
    SCOPED_TRACE(bad);
    auto e = parse_slo(bad);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().where, "--slo");
  }
}

TEST(Summary, GoodputArithmeticOnKnownRecords) {
  // 4 completed, 1 failed. SLO ttft <= 100 ms, tpot <= 20 ms.
  std::vector<BenchRecord> r = {
      done("a", 0.0, 0.050, 11, 0.010),  // ttft 50, tpot 10: good
      done("b", 0.1, 0.150, 11, 0.010),  // ttft 150: bad
      done("c", 0.2, 0.050, 11, 0.030),  // tpot 30: bad
      done("d", 0.3, 0.080, 1, 0.0),     // one token: TPOT not checked -> good
      failed("e", 0.4, "http_503"),
  };
  SummaryOptions o;
  o.slo = *parse_slo("ttft=100ms,tpot=20ms");
  auto s = summarize_run(r, o);
  EXPECT_EQ(s.completed, 4);
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.errors_by_category.at("http_503"), 1);
  EXPECT_EQ(s.goodput.good, 2);
  EXPECT_DOUBLE_EQ(s.goodput.attainment_pct, 40.0);  // 2 of 5 attempted
  // Duration: first send 0.0 -> last end = c's last chunk 0.2+0.05+10*0.03+0.001 = 0.551.
  EXPECT_NEAR(s.duration_s, 0.551, 1e-12);
  EXPECT_NEAR(s.goodput.request_rate, 2 / 0.551, 1e-9);
  EXPECT_NEAR(s.goodput.token_rate, (11 + 10 + 1 + 10) / 0.551, 1e-9);
  EXPECT_NEAR(s.request_throughput, 4 / 0.551, 1e-9);
  EXPECT_NEAR(s.output_throughput, 34 / 0.551, 1e-9);
  EXPECT_NEAR(s.total_throughput, 74 / 0.551, 1e-9);
  // Latency stats exclude the failure; TPOT excludes the one-token request.
  EXPECT_EQ(s.ttft_s.count, 4u);
  EXPECT_EQ(s.tpot_s.count, 3u);
  EXPECT_EQ(s.e2e_s.count, 4u);
  EXPECT_NEAR(s.ttft_s.max, 0.150, 1e-12);
}

TEST(Summary, TokenVsChunkItl) {
  // 3 chunks of 4 tokens each, 40 ms apart: chunk ITL 40 ms, token ITL 10 ms.
  BenchRecord r = done("x", 0, 0.1, 3, 0.040, 12);
  r.chunk_tokens = {4, 4, 4};
  r.chunk_tokens_exact = true;
  auto s = summarize_run({r}, {});
  EXPECT_EQ(s.itl_chunk_s.count, 2u);
  EXPECT_NEAR(s.itl_chunk_s.p50, 0.040, 1e-12);
  EXPECT_EQ(s.itl_token_s.count, 8u);
  EXPECT_NEAR(s.itl_token_s.p50, 0.010, 1e-12);
  EXPECT_NEAR(s.tpot_s.p50, 0.080 / 11, 1e-12);
  EXPECT_EQ(s.token_disagreements, 0);
}

TEST(Summary, DisagreementWhenServerCountDiffersFromChunks) {
  BenchRecord r = done("x", 0, 0.1, 5, 0.01, 9);  // 5 one-token chunks, server says 9
  auto s = summarize_run({r}, {});
  EXPECT_EQ(s.token_disagreements, 1);
  EXPECT_EQ(s.token_disagreement_ids, std::vector<std::string>{"x"});
  EXPECT_EQ(s.itl_token_unavailable, 1);
  EXPECT_EQ(s.itl_token_s.count, 0u);
  EXPECT_EQ(s.itl_chunk_s.count, 4u);
  EXPECT_EQ(s.output_tokens, 9);  // n_out is the server's
}

TEST(Summary, WarmupAndQueueAndNotSent) {
  auto w = done("w", 0, 0.05, 3, 0.01);
  w.warmup = true;
  auto q = done("q", 1.0, 0.05, 3, 0.01);
  q.scheduled_s = 0.5;  // waited 0.5 s for a slot
  BenchRecord ns;
  ns.id = "n";
  ns.error_category = "deadline";
  auto s = summarize_run({w, q, ns}, {});
  EXPECT_EQ(s.warmup, 1);
  EXPECT_EQ(s.measured, 2);
  EXPECT_EQ(s.completed, 1);
  EXPECT_EQ(s.not_sent, 1);
  EXPECT_EQ(s.errors_by_category.at("deadline"), 1);
  EXPECT_NEAR(s.queue_s.max, 0.5, 1e-12);
  EXPECT_NEAR(s.dispatch_lag_s.max, 0.0, 1e-12);
  EXPECT_NEAR(s.ttft_s.p50, 0.05, 1e-12);  // queue time is not inside TTFT
}

TEST(Summary, SelfCheckMarksClientBound) {
  std::vector<BenchRecord> r;
  for (int i = 0; i < 100; ++i) {
    auto x = done(std::to_string(i), i * 0.01 + 0.002, 0.01, 2, 0.01);  // sent 2 ms late
    x.scheduled_s = x.released_s = i * 0.01;
    r.push_back(x);
  }
  SummaryOptions o;
  o.open_loop = true;
  o.target_rate = 100;
  auto s = summarize_run(r, o);
  EXPECT_TRUE(s.client_bound);
  ASSERT_FALSE(s.client_bound_reasons.empty());
  EXPECT_NE(s.client_bound_reasons[0].find("dispatch lag p99"), std::string::npos);
  // Same records sent on time: trusted.
  for (auto& x : r) x.released_s = x.scheduled_s = *x.send_s;
  auto ok = summarize_run(r, o);
  EXPECT_FALSE(ok.client_bound);
  EXPECT_NEAR(ok.realized_rate, 100, 1e-6);
  // Realized rate 5% slow, server not saturated: client-bound.
  auto slow = r;
  for (auto& x : slow) *x.send_s = x.scheduled_s * 1.05;
  for (auto& x : slow) x.released_s = *x.send_s;  // lag itself looks fine
  auto sl = summarize_run(slow, o);
  EXPECT_TRUE(sl.client_bound);
  // ...unless the server was saturated (shed load).
  slow.push_back(failed("shed", 0.5, "http_429"));
  slow.back().released_s = slow.back().scheduled_s = 0.5;
  o.loop_lag_p99_s = 0.0001;
  auto sat = summarize_run(slow, o);
  EXPECT_TRUE(sat.server_saturated);
  EXPECT_FALSE(sat.client_bound);
  o.loop_lag_p99_s = 0.005;
  EXPECT_TRUE(summarize_run(slow, o).client_bound);
}

// Requests the run's own end cut (Ctrl-C, --deadline) are neither successes nor failures.
TEST(Summary, CutByTheRunsEndIsNotAFailure) {
  auto a = done("a", 0, 0.05, 3, 0.01);
  auto cut = failed("c", 0.1, "interrupted");
  auto dl = failed("d", 0.2, "deadline");
  auto bad = failed("b", 0.3, "http_503");
  auto s = summarize_run({a, cut, dl, bad}, {});
  EXPECT_EQ(s.completed, 1);
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.cut, 2);
  EXPECT_EQ(s.errors_by_category.count("interrupted"), 0u);
  EXPECT_EQ(s.errors_by_category.at("http_503"), 1);
}

// Lag is judged against the latency it could distort: 1.4 ms under a 2.6 s TTFT is noise; 3 ms
// under a 20 ms TTFT is not.
TEST(Summary, ClientBoundIsRelativeToTheMeasuredTtft) {
  auto run = [](double ttft, double lag) {
    std::vector<BenchRecord> r;
    for (int i = 0; i < 50; ++i) {
      auto x = done(std::to_string(i), i * 0.1 + lag, ttft, 2, 0.01);
      x.scheduled_s = x.released_s = i * 0.1;
      r.push_back(x);
    }
    return summarize_run(r, {});
  };
  auto slow_server = run(2.6, 0.0014);
  EXPECT_FALSE(slow_server.client_bound) << slow_server.client_bound_reasons[0];
  auto fast_server = run(0.020, 0.003);
  ASSERT_TRUE(fast_server.client_bound);
  EXPECT_NE(fast_server.client_bound_reasons[0].find("5% of TTFT p50"), std::string::npos) << fast_server.client_bound_reasons[0];
  EXPECT_TRUE(run(0.005, 0.0012).client_bound);  // a floor of 1 ms when 5% is below it
}

TEST(Summary, TtftOutsideTheServersPromptTime) {
  auto a = done("a", 0, 0.050, 3, 0.01);
  a.server_prompt_s = 0.030;
  auto b = done("b", 1, 0.080, 3, 0.01);  // no timings: not counted
  auto s = summarize_run({a, b}, {});
  ASSERT_EQ(s.ttft_outside_server_s.count, 1u);
  EXPECT_NEAR(s.ttft_outside_server_s.p50, 0.020, 1e-12);
}

// A server that dies mid-run: every request after the last completion fails to connect. Those are
// the server's failures (failed), and the run says it is partial from then on.
TEST(Summary, ServerLostMidRunIsSaidWithWhen) {
  auto a = done("a", 0, 0.05, 3, 0.01);
  auto b = done("b", 1, 0.05, 3, 0.01);
  auto c = failed("c", 2, "connect_refused");
  auto d = failed("d", 3, "connect_refused");
  auto s = summarize_run({a, b, c, d}, {});
  EXPECT_EQ(s.failed, 2);
  ASSERT_TRUE(s.server_lost_at_s);
  EXPECT_DOUBLE_EQ(*s.server_lost_at_s, 2);
  EXPECT_EQ(s.failed_after_loss, 2);
  // Scattered errors with successes after them are not a lost server.
  auto e = done("e", 4, 0.05, 3, 0.01);
  EXPECT_FALSE(summarize_run({a, c, b, d, e}, {}).server_lost_at_s);
}
