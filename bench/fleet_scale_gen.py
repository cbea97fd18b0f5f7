#!/usr/bin/env python3
"""Synthetic fleet of vLLM V1 replicas (+ one DCGM GPU each) as OpenMetrics text with timestamps,
for `promtool tsdb create-blocks-from openmetrics` (bench/fleet_scale.sh).

Per replica (labels job, instance, pod, model_name): gauges num_requests_running,
num_requests_waiting, kv_cache_usage_perc; counters num_preemptions, prompt_tokens,
generation_tokens, request_success{finished_reason=stop|length|abort}, prefix_cache_queries,
prefix_cache_hits; histograms time_to_first_token_seconds and inter_token_latency_seconds with
vLLM V1's bucket sets; DCGM_FI_DEV_POWER_USAGE, DCGM_FI_DEV_SM_CLOCK, DCGM_FI_DEV_GPU_TEMP (job
dcgm, same pod label). 61 series per replica.
Deliberately odd: replica 7 is throttled (SM clock 1155 vs 1980 MHz, power at its 700 W cap,
88 C, slower decode), replica 42 has 10x the queue (and the TTFT that goes with it).

Metric names and buckets: vLLM V1 (vllm/v1/metrics/loggers.py; TTFT and ITL bucket sets as listed
in https://docs.vllm.ai/en/latest/design/metrics.html), DCGM exporter default counters
(https://github.com/NVIDIA/dcgm-exporter/blob/main/etc/default-counters.csv).
OpenMetrics: https://github.com/OpenObservability/OpenMetrics/blob/main/specification/OpenMetrics.md
(families contiguous, counters as <family>_total, file ends with # EOF).

Usage: fleet_scale_gen.py --replicas N --start UNIX_S --minutes M --interval S > fleet.om
"""
import argparse
import random
import sys

TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
                20.0, 40.0, 80.0, 160.0, 640.0, 2560.0]
ITL_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0,
               40.0, 80.0]
THROTTLED = 7
QUEUED = 42


def lognormal_cdf_fractions(buckets, median, spread, rng):
    """Cumulative fraction of observations <= each bucket bound (a log-normal-ish shape)."""
    import math
    out = []
    for b in buckets:
        z = (math.log(b) - math.log(median)) / spread
        out.append(0.5 * (1 + math.erf(z / math.sqrt(2))))
    return out


class Replica:
    def __init__(self, i, rng):
        self.i = i
        self.pod = f"replica-{i:03d}"
        self.base = f'job="vllm",instance="10.0.{i // 250}.{i % 250}:8000",pod="{self.pod}",model_name="llama-3.1-8b"'
        self.gpu = (f'job="dcgm",instance="10.0.{i // 250}.{i % 250}:9400",pod="{self.pod}",gpu="0",'
                    f'UUID="GPU-{i:08x}-0000-0000-0000-000000000000",modelName="NVIDIA H100 80GB HBM3"')
        self.rps = rng.uniform(4.5, 5.5)
        ttft_median = 0.18 * rng.uniform(0.9, 1.1)
        itl_median = 0.022 * rng.uniform(0.95, 1.05)
        self.waiting = rng.uniform(3, 6)
        self.running = rng.uniform(40, 56)
        self.kv = rng.uniform(0.55, 0.7)
        self.clock, self.power, self.temp = 1980.0, rng.uniform(520, 600), rng.uniform(62, 70)
        self.hit = rng.uniform(0.35, 0.45)
        if i == THROTTLED:
            self.clock, self.power, self.temp = 1155.0, 699.0, 88.0
            itl_median *= 1.6
        if i == QUEUED:
            self.waiting *= 10
            ttft_median *= 6
            self.kv = 0.97
        self.ttft_cdf = lognormal_cdf_fractions(TTFT_BUCKETS, ttft_median, 0.8, rng)
        self.itl_cdf = lognormal_cdf_fractions(ITL_BUCKETS, itl_median, 0.35, rng)
        self.ttft_median, self.itl_median = ttft_median, itl_median


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--replicas", type=int, default=500)
    ap.add_argument("--start", type=int, required=True)
    ap.add_argument("--minutes", type=int, default=60)
    ap.add_argument("--interval", type=int, default=15)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    reps = [Replica(i, rng) for i in range(a.replicas)]
    steps = a.minutes * 60 // a.interval + 1
    ts = [a.start + k * a.interval for k in range(steps)]
    # Per replica and step: requests finished in the interval (noise from the fixed seed).
    reqs = [[max(0, int(r.rps * a.interval * rng.uniform(0.85, 1.15))) for _ in ts] for r in reps]
    out = sys.stdout
    buf = []

    def flush():
        out.write("".join(buf))
        buf.clear()

    def gauge(name, help_text, label_of, value_of):
        buf.append(f"# TYPE {name} gauge\n# HELP {name} {help_text}\n")
        for r in reps:
            lab = label_of(r)
            for k, t in enumerate(ts):
                buf.append(f"{name}{{{lab}}} {value_of(r, k):.4g} {t}\n")
            if len(buf) > 200000:
                flush()

    def counter(family, help_text, per_step, extra=""):
        """per_step(r, k) -> increment in step k."""
        buf.append(f"# TYPE {family} counter\n# HELP {family} {help_text}\n")
        for r in reps:
            lab = r.base + extra
            total = 0
            for k, t in enumerate(ts):
                total += per_step(r, k)
                buf.append(f"{family}_total{{{lab}}} {total} {t}\n")
            if len(buf) > 200000:
                flush()

    def histogram(family, help_text, buckets, cdf_of, median_of, obs_per_step):
        buf.append(f"# TYPE {family} histogram\n# HELP {family} {help_text}\n")
        les = [f"{b}" for b in buckets] + ["+Inf"]
        for r in reps:
            cdf = cdf_of(r) + [1.0]
            counts = [0] * len(les)
            total, s = 0, 0.0
            lines = [[] for _ in les]
            sums, cnts = [], []
            for k, t in enumerate(ts):
                n = obs_per_step(r, k)
                total += n
                s += n * median_of(r) * 1.15
                for j in range(len(les)):
                    counts[j] = int(round(total * cdf[j]))
                    lines[j].append(f"{family}_bucket{{{r.base},le=\"{les[j]}\"}} {counts[j]} {t}\n")
                sums.append(f"{family}_sum{{{r.base}}} {s:.6g} {t}\n")
                cnts.append(f"{family}_count{{{r.base}}} {total} {t}\n")
            for ls in lines:
                buf.extend(ls)
            buf.extend(sums)
            buf.extend(cnts)
            if len(buf) > 200000:
                flush()

    jitter = [[rng.uniform(0.9, 1.1) for _ in ts] for _ in reps]
    gauge("vllm:num_requests_running", "Number of requests in model execution batches.", lambda r: r.base,
          lambda r, k: round(r.running * jitter[r.i][k]))
    gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.", lambda r: r.base,
          lambda r, k: round(r.waiting * jitter[r.i][k]))
    gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", lambda r: r.base,
          lambda r, k: min(1.0, r.kv * jitter[r.i][k]))
    counter("vllm:num_preemptions", "Cumulative number of preemption from the engine.",
            lambda r, k: (3 if r.i == QUEUED else 0) if k % 8 == 0 else 0)
    counter("vllm:prompt_tokens", "Number of prefill tokens processed.", lambda r, k: reqs[r.i][k] * 900)
    counter("vllm:generation_tokens", "Number of generation tokens processed.", lambda r, k: reqs[r.i][k] * 210)
    buf.append("# TYPE vllm:request_success counter\n# HELP vllm:request_success Count of successfully processed requests.\n")
    for reason, frac in (("stop", 0.9), ("length", 0.09), ("abort", 0.01)):
        for r in reps:
            lab = f'{r.base},finished_reason="{reason}"'
            total = 0
            for k, t in enumerate(ts):
                total += int(reqs[r.i][k] * frac)
                buf.append(f"vllm:request_success_total{{{lab}}} {total} {t}\n")
        flush()
    counter("vllm:prefix_cache_queries", "Prefix cache queries, in terms of number of queried tokens.",
            lambda r, k: reqs[r.i][k] * 900)
    counter("vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached tokens.",
            lambda r, k: int(reqs[r.i][k] * 900 * r.hit))
    histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", TTFT_BUCKETS,
              lambda r: r.ttft_cdf, lambda r: r.ttft_median, lambda r, k: reqs[r.i][k])
    histogram("vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", ITL_BUCKETS,
              lambda r: r.itl_cdf, lambda r: r.itl_median, lambda r, k: reqs[r.i][k] * 209)
    gauge("DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", lambda r: r.gpu,
          lambda r, k: r.power * (1 if r.i == THROTTLED else jitter[r.i][k]))
    gauge("DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", lambda r: r.gpu, lambda r, k: r.clock)
    gauge("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", lambda r: r.gpu, lambda r, k: r.temp)
    buf.append("# EOF\n")
    flush()


if __name__ == "__main__":
    main()
