#!/usr/bin/env python3
"""Seeded generator for this case's engine.log stats lines and request records
(run from this folder: python3 gen.py).

A vLLM V1 engine (Llama-3.1-8B-Instruct, one H100-class GPU assumed) started with
--max-num-seqs 512 under a steady 30 req/s: by Little's law ~480 sequences decode together
(30 req/s x ~16 s per request). Every decode step reads the weights and the KV of the whole
batch (~480 x ~650 tokens of context) and shares the step with ~15k prompt tokens/s of chunked
prefill, so each token takes ~48 ms (TPOT) while nothing waits and the KV pool is ~75-80% used.
Stats lines: the V1 logger's format (loggers.py, every 10 s); values drawn around those
figures. Records: Poisson arrivals at 30 req/s, prompts uniform 200-800 tokens, answers
lognormal median 280 tokens (cap 1024), TTFT 0.15-0.9 s, per-request TPOT 48 ms x
lognormal(0, 0.1).
"""
import json, random

TPOT_S = 0.048  # seconds per output token at ~480 running


def main():
    rng = random.Random(512)
    with open("engine.log", "w") as f:
        for k in range(8):
            ts = f"11-20 14:{32 + k // 6:02d}:{(k % 6) * 10:02d}"
            running = rng.randint(462, 501)
            gen_tps = running / TPOT_S * rng.uniform(0.97, 1.03)
            prompt_tps = 30 * 500 * rng.uniform(0.9, 1.1)
            kv = rng.uniform(74.0, 81.0)
            f.write(f"(APIServer pid=1) INFO {ts} [loggers.py:123] Engine 000: Avg prompt throughput: {prompt_tps:.1f} tokens/s, "
                    f"Avg generation throughput: {gen_tps:.1f} tokens/s, Running: {running} reqs, Waiting: 0 reqs, "
                    f"GPU KV cache usage: {kv:.1f}%, Prefix cache hit rate: 0.0%\n")
    t, recs = 0.0, []
    for i in range(600):
        t += rng.expovariate(30.0)
        inp = rng.randint(200, 800)
        out = max(4, min(1024, int(rng.lognormvariate(5.63, 0.6))))
        ttft = rng.uniform(0.15, 0.9)
        tpot = TPOT_S * rng.lognormvariate(0.0, 0.1)
        recs.append({"schema": "llmtriage.request.v1", "id": f"chatcmpl-{i:04d}", "arrival_s": round(t, 3), "send_s": round(t, 3),
                     "input_tokens": inp, "output_tokens": out, "ttft_s": round(ttft, 3),
                     "e2e_s": round(ttft + tpot * (out - 1), 3), "status": "ok", "max_tokens": 1024, "temperature": 0.7})
    with open("records.jsonl", "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
    tp = sorted((r["e2e_s"] - r["ttft_s"]) / (r["output_tokens"] - 1) for r in recs)
    print("tpot p50", tp[len(tp) // 2], "p99", tp[int(len(tp) * 0.99)])


if __name__ == "__main__":
    main()
