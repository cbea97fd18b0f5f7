#!/usr/bin/env python3
"""Seeded generator for this case's client-side request records (run from this folder:
python3 gen.py).

TGI admits at most --max-concurrent-requests 128 requests (running + queued); one more gets
HTTP 429 "Model is overloaded" at once. The batch holds 64 sequences; each decodes its answer
(lognormal, median 130 tokens, cap 1024) at 33 ms/token after a 0.1-0.3 s prefill, so the
server completes ~12.5 req/s. Clients send 14 new requests/s (Poisson, 90 s) and retry a 429
after 0.05-0.25 s, without backoff, up to 3 times; then the call fails. Each attempt is one
record; a retry carries the first attempt's id with a "-retry-N" suffix.
"""
import heapq, json, random, sys

CAP, SLOTS, TPOT = 128, 64, 0.033


def main():
    rng = random.Random(429)
    attempts = []  # (time, seq, id, attempt number, input, output)
    t, seq = 0.0, 0
    while True:
        t += rng.expovariate(14.0)
        if t > 90.0:
            break
        heapq.heappush(attempts, (t, seq, f"req-{seq:05d}", 0, rng.randint(300, 1500),
                                  max(2, min(1024, int(rng.lognormvariate(4.87, 0.6))))))
        seq += 1
    in_flight = []   # completion times of admitted requests (min-heap)
    slots = [0.0] * SLOTS  # when each batch slot frees (min-heap)
    recs = []
    while attempts:
        t, s, rid, k, inp, out = heapq.heappop(attempts)
        while in_flight and in_flight[0] <= t:
            heapq.heappop(in_flight)
        rec_id = rid if k == 0 else f"{rid}-retry-{k}"
        base = {"schema": "llmtriage.request.v1", "id": rec_id, "arrival_s": round(t, 3), "send_s": round(t, 3),
                "input_tokens": inp, "max_tokens": 1024, "temperature": 0.7}
        if len(in_flight) >= CAP:
            recs.append(dict(base, e2e_s=round(rng.uniform(0.003, 0.008), 4), status="error", error_category="http_429"))
            if k < 3:
                heapq.heappush(attempts, (t + rng.uniform(0.05, 0.25), s, rid, k + 1, inp, out))
            continue
        start = max(t, heapq.heappop(slots))
        ttft = (start - t) + rng.uniform(0.1, 0.3)
        e2e = ttft + TPOT * rng.uniform(0.95, 1.05) * (out - 1)
        heapq.heappush(slots, t + e2e)
        heapq.heappush(in_flight, t + e2e)
        recs.append(dict(base, output_tokens=out, ttft_s=round(ttft, 3), e2e_s=round(e2e, 3), status="ok"))
    recs.sort(key=lambda r: r["arrival_s"])
    with open("records.jsonl", "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
    retries = sum("-retry-" in r["id"] for r in recs)
    errors = sum(r["status"] == "error" for r in recs)
    tt = sorted(r["ttft_s"] for r in recs if r["status"] == "ok")
    print(len(recs), "attempts,", seq, "calls; retry share", retries / len(recs), "429 share", errors / len(recs),
          "ttft p50", tt[len(tt) // 2], "p99", tt[int(len(tt) * 0.99)], file=sys.stderr)


if __name__ == "__main__":
    main()
