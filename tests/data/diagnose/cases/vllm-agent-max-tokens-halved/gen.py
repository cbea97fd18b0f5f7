#!/usr/bin/env python3
"""Seeded generator for this case's request records (run from this folder: python3 gen.py).

A single agent loop calling an in-process vLLM engine one request at a time (the next call is
sent 0.2-0.6 s after the previous answer). Prompts: the agent's growing context, uniform
2,500-5,500 tokens. The model's wanted answer length is the same in both runs (lognormal,
median 620 tokens); each run cuts it at its max_tokens: 2048 in baseline/ (run #20 of the
source), 1024 now (run #21). Prefill 9,000 tok/s plus 60 ms; decode 31 ms/token +-5%.
Temperature 0.6 in both (unchanged). 120 calls per run; both runs use seed 20, so they replay the
same task (same prompts, same wanted lengths) and differ only in the cap.
"""
import json, random, sys

def gen(path, seed, max_tokens, n, prefix):
    rng = random.Random(seed)
    t, out = 0.0, []
    for i in range(n):
        inp = rng.randint(2500, 5500)
        want = max(16, int(rng.lognormvariate(6.43, 0.55)))
        gen_tokens = min(want, max_tokens)
        ttft = 0.06 + inp / 9000.0
        e2e = ttft + 0.031 * rng.uniform(0.95, 1.05) * (gen_tokens - 1)
        out.append({"schema": "llmtriage.request.v1", "id": f"{prefix}{i}", "arrival_s": round(t, 3), "send_s": round(t, 3),
                    "input_tokens": inp, "output_tokens": gen_tokens, "ttft_s": round(ttft, 3), "e2e_s": round(e2e, 3),
                    "status": "ok", "max_tokens": max_tokens, "temperature": 0.6})
        t += e2e + rng.uniform(0.2, 0.6)
    with open(path, "w") as f:
        for r in out:
            f.write(json.dumps(r) + "\n")
    return out


if __name__ == "__main__":
    for name, rs in (("baseline", gen("baseline/records.jsonl", 20, 2048, 120, "run20-")),
                     ("now", gen("records.jsonl", 20, 1024, 120, "run21-"))):
        outs = [r["output_tokens"] for r in rs]
        span = rs[-1]["arrival_s"] + rs[-1]["e2e_s"] - rs[0]["arrival_s"]
        print(name, "out mean", sum(outs) / len(outs), "at cap", sum(o == rs[0]["max_tokens"] for o in outs) / len(outs),
              "tok/s", sum(outs) / span, file=sys.stderr)
