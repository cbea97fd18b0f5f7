#!/usr/bin/env python3
"""A synthetic bench folder (bench --out's layout) of N requests at 100 requests/s for
bench/html_report.sh: records.jsonl (streamed, 32 chunks each), metrics.jsonl (one vLLM scrape a
second with gauges, counters and a TTFT histogram), summary.json. Deterministic (seeded)."""
import json
import random
import sys

n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
rate, start = 100.0, 1764700000.0
bounds = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0]
with open(f"{out}/records.jsonl", "w") as f:
    f.write(json.dumps({"schema": "llmtriage.run.v1", "tool": "llmtriage bench", "seed": 7}) + "\n")
    firsts = []
    for i in range(n):
        t = i / rate
        ttft = rng.lognormvariate(-2.0, 0.6)
        gaps = [rng.uniform(0.015, 0.03) for _ in range(31)]
        chunks = [ttft]
        for g in gaps:
            chunks.append(chunks[-1] + g)
        firsts.append((t + ttft, ttft))
        f.write(json.dumps({"schema": "llmtriage.request.v1", "id": f"r{i}", "arrival_s": t, "send_s": t + 0.001,
                            "input_tokens": 500, "output_tokens": 32, "ttft_s": ttft, "e2e_s": chunks[-1],
                            "chunk_times_s": chunks, "status": "ok"}) + "\n")
dur = n / rate + 2
firsts.sort()
with open(f"{out}/metrics.jsonl", "w") as f:
    k = 0
    counts = [0] * len(bounds)
    total, tsum = 0, 0.0
    for s in range(int(dur) + 1):
        while k < len(firsts) and firsts[k][0] <= s:
            v = firsts[k][1]
            for j, b in enumerate(bounds):
                if v <= b:
                    counts[j] += 1
            total += 1
            tsum += v
            k += 1
        lab = 'engine="0",model_name="m"'
        text = (f"# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{{{lab}}} {rng.randint(20, 40)}\n"
                f"# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{{{lab}}} {rng.randint(0, 5)}\n"
                f"# TYPE vllm:kv_cache_usage_perc gauge\nvllm:kv_cache_usage_perc{{{lab}}} {rng.uniform(0.3, 0.6):.3f}\n"
                f"# TYPE vllm:prompt_tokens_total counter\nvllm:prompt_tokens_total{{{lab}}} {500 * total}\n"
                f"# TYPE vllm:generation_tokens_total counter\nvllm:generation_tokens_total{{{lab}}} {32 * total}\n"
                "# TYPE vllm:time_to_first_token_seconds histogram\n")
        for j, b in enumerate(bounds):
            text += f'vllm:time_to_first_token_seconds_bucket{{engine="0",le="{b}",model_name="m"}} {counts[j]}\n'
        text += (f'vllm:time_to_first_token_seconds_bucket{{engine="0",le="+Inf",model_name="m"}} {total}\n'
                 f"vllm:time_to_first_token_seconds_count{{{lab}}} {total}\nvllm:time_to_first_token_seconds_sum{{{lab}}} {tsum}\n")
        f.write(json.dumps({"phase": "during", "t_s": float(s), "unix_s": start + s, "text": text}) + "\n")
with open(f"{out}/summary.json", "w") as f:
    json.dump({"schema": "llmtriage.bench.v1", "completed": n, "failed": 0, "not_sent": 0, "output_throughput": 32 * rate,
               "client_bound": False, "run": {"endpoint": "http://127.0.0.1:8000", "model": "m", "mode": "rate",
                                              "start_unix_s": start}}, f, indent=2)
