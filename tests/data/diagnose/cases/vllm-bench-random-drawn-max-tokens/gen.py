#!/usr/bin/env python3
"""Seeded generator for this case's request records (run from this folder: python3 gen.py).

Two runs of `vllm bench serve --dataset-name random --random-input-len 1024 --random-output-len
256 --random-range-ratio 0.5 --ignore-eos --temperature 0 --request-rate 8 --num-prompts 240`
against the same healthy engine: every request draws its own output length uniformly in
[128, 384] and sends it as max_tokens with ignore_eos, so each answer is exactly its cap; prompt
lengths uniform in [512, 1536]. Latency: TTFT 40 ms + prompt / 12,000 tok/s (+-10%), TPOT 22 ms
(+-5%). The two runs differ only in the dataset seed (baseline/ 4, now 11); with 240 requests over
257 possible caps the most common max_tokens is a matter of chance (here 130 vs 292).
"""
import json, random, sys


def gen(path, seed, prefix):
    rng = random.Random(seed)
    t, out = 0.0, []
    for i in range(240):
        t += rng.expovariate(8.0)
        inp = rng.randint(512, 1536)
        cap = rng.randint(128, 384)
        ttft = (0.04 + inp / 12000.0) * rng.uniform(0.9, 1.1)
        e2e = ttft + 0.022 * rng.uniform(0.95, 1.05) * (cap - 1)
        out.append({"schema": "llmtriage.request.v1", "id": f"{prefix}{i}", "arrival_s": round(t, 3), "send_s": round(t, 3),
                    "input_tokens": inp, "output_tokens": cap, "ttft_s": round(ttft, 3), "e2e_s": round(e2e, 3),
                    "status": "ok", "max_tokens": cap, "temperature": 0.0, "ignore_eos": True})
    with open(path, "w") as f:
        for r in out:
            f.write(json.dumps(r) + "\n")
    counts = {}
    for r in out:
        counts[r["max_tokens"]] = counts.get(r["max_tokens"], 0) + 1
    best = max(counts.values())
    return min(k for k, v in counts.items() if v == best), best


if __name__ == "__main__":
    a = gen("baseline/records.jsonl", 4, "bench4-")
    b = gen("records.jsonl", 11, "bench11-")
    print("mode max_tokens baseline", a, "now", b, "ratio", b[0] / a[0], file=sys.stderr)
