#!/usr/bin/env python3
"""Seeded generator for this case's request records (run from this folder: python3 gen.py).

One replica whose service capacity is fixed; only the arrival rate changes between the two
periods. Same length mix in both (lognormal prompts, median 900 tokens; lognormal answers,
median 180 tokens). Requests are served FIFO by a single-queue model: a request's first token
comes after the work queued ahead of it drains at `capacity` req/s, plus its own prefill
(prompt / 12,000 tok/s) and a 40 ms floor; decode at 28 ms/token with +-10% jitter.
baseline/: 4 req/s for 75 s.
now:       8 req/s for 75 s (half the 16 req/s capacity: still no backlog).
"""
import json, random, sys

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
CAPACITY = 16.0  # req/s the deployment completes at this mix (ample headroom)


def gen(path, seed, rate, duration_s, prefix):
    rng = random.Random(seed)
    t, free_at, out = 0.0, 0.0, []
    i = 0
    while True:
        t += rng.expovariate(rate)
        if t > duration_s:
            break
        inp = max(40, int(rng.lognormvariate(6.8, 0.6)))
        gen_tokens = max(8, min(1024, int(rng.lognormvariate(5.2, 0.5))))
        start = max(t, free_at)           # FIFO: wait for the work ahead
        free_at = start + 1.0 / CAPACITY  # the slot this request occupies in the service rate
        ttft = (start - t) + 0.04 + inp / 12000.0
        tpot = 0.028 * rng.uniform(0.9, 1.1)
        e2e = ttft + tpot * (gen_tokens - 1)
        out.append({"schema": "llmtriage.request.v1", "id": f"{prefix}{i}", "arrival_s": round(t, 3),
                    "send_s": round(t, 3), "input_tokens": inp, "output_tokens": gen_tokens,
                    "ttft_s": round(ttft, 3), "e2e_s": round(e2e, 3), "status": "ok", "model": MODEL,
                    "max_tokens": 1024, "temperature": 0.7})
        i += 1
    with open(path, "w") as f:
        for r in out:
            f.write(json.dumps(r) + "\n")
    return out


if __name__ == "__main__":
    a = gen("baseline/records.jsonl", 11, 4.0, 75.0, "b")
    b = gen("records.jsonl", 12, 8.0, 75.0, "r")
    for name, rs in (("baseline", a), ("now", b)):
        tt = sorted(r["ttft_s"] for r in rs)
        print(name, len(rs), "requests, ttft p50", tt[len(tt) // 2], "p99", tt[int(len(tt) * 0.99)],
              "in mean", sum(r["input_tokens"] for r in rs) / len(rs), "out mean", sum(r["output_tokens"] for r in rs) / len(rs),
              file=sys.stderr)
