#pragma once
// Workloads: arrival processes, length distributions, shared-prefix groups; all seeded and
// reproducible bit for bit (sim/rng.h, no std:: distributions). A schedule is data: the open-loop
// generators produce every client request with its arrival time up front (perf_analyzer's
// rate_schedule idea); closed-loop concurrency draws lengths up front and arrivals at run time.
#include <cstdint>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"

namespace llmtriage::sim {

enum class ArrivalKind { poisson, gamma, constant, closed_loop, trace, all_at_once };
const char* to_string(ArrivalKind k);

struct LengthDist {
  enum class Kind { fixed, uniform, lognormal, empirical };
  Kind kind = Kind::fixed;
  double mean = 128;        // fixed value, or lognormal mean
  int64_t lo = 1, hi = 1;   // uniform bounds (inclusive)
  double sigma = 0.5;       // lognormal sigma of the underlying normal
  std::vector<int32_t> samples;  // empirical
  int64_t min = 1, max = 1 << 20;  // clamp

  static LengthDist fixed_len(int64_t n) { LengthDist d; d.kind = Kind::fixed; d.mean = static_cast<double>(n); return d; }
};

struct WorkloadSpec {
  ArrivalKind arrival = ArrivalKind::poisson;
  double rate_rps = 1.0;        // poisson / gamma / constant
  double burstiness = 1.0;      // gamma shape (vllm bench's --burstiness; 1 = Poisson, < 1 burstier)
  int64_t concurrency = 1;      // closed_loop
  int64_t num_requests = 100;
  LengthDist input = LengthDist::fixed_len(512);
  LengthDist output = LengthDist::fixed_len(128);
  // Shared-prefix groups: each request joins one of `prefix_groups` groups (uniformly) whose first
  // `shared_prefix_len` prompt tokens are identical (a system prompt). 0 groups = none.
  int64_t prefix_groups = 0;
  int64_t shared_prefix_len = 0;
  int n = 1;                    // parallel samples per request (fanned out into n sequences)
  bool ignore_eos = true;
  int64_t max_tokens = 0;       // 0 = the drawn output length; else the cap checked against max_model_len
  std::vector<core::RequestRecord> trace;  // trace replay and empirical lengths
  uint64_t seed = 0;
};

// One client request as the workload defines it (before routing, retries or fan-out).
struct ClientRequest {
  double arrival_s = 0;
  int32_t prompt_len = 0;
  int32_t output_len = 0;
  int32_t max_tokens = 0;
  int32_t shared_prefix_len = 0;
  uint64_t group_key = 0;
  uint64_t content_key = 0;
};

// Every client request of the workload, arrival-sorted (closed loop: arrival 0, order of dispatch).
// Errors: a trace without input/output token counts, a rate <= 0, empty empirical samples.
core::Result<std::vector<ClientRequest>> generate(const WorkloadSpec& spec);

// Extra requests with fixed lengths arriving as a Poisson stream in [start_s, end_s) (the
// long-prompt-burst fault); keys drawn from `seed`.
std::vector<ClientRequest> burst(double start_s, double end_s, double rate_rps, int32_t input_len,
                                 int32_t output_len, uint64_t seed);

// Empirical length distributions from request records (input or output token counts).
LengthDist empirical_from_records(const std::vector<core::RequestRecord>& recs, bool input);

}  // namespace llmtriage::sim
