#!/usr/bin/python3
"""The peer client for bench/loadgen.sh: built like the field's standard Python load generators
(vLLM `benchmark_serving`: asyncio + aiohttp, one coroutine per request, Poisson inter-arrival
sleeps). It measures itself the way llmtriage does: dispatch lag = actual send - the request's
absolute scheduled instant; realized rate = (n-1) / (last send - first send) vs the schedule's.
Usage: loadgen_aiohttp.py URL RATE N SEED  -> one JSON line."""
import asyncio, json, random, sys, time

import aiohttp


async def one(session, url, body, sched_abs, sends, lags, ok):
    t = time.perf_counter()
    sends.append(t)
    lags.append(t - sched_abs)
    async with session.post(url, json=body) as r:
        async for _ in r.content:
            pass
        if r.status == 200:
            ok.append(1)


async def main():
    url, rate, n, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    gaps = [0.0] + [rng.expovariate(rate) for _ in range(n - 1)]
    body = {"model": "m", "prompt": [101] * 8, "max_tokens": 2, "stream": True}
    sends, lags, ok, tasks = [], [], [], []
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(total=600)) as s:
        t0 = time.perf_counter() + 0.05
        sched = t0
        await asyncio.sleep(0.05)
        for g in gaps:
            sched += g
            # One coroutine per request as vLLM's client; sleeping to the absolute instant is kinder
            # to it than vLLM's relative interval sleeps (no drift).
            await asyncio.sleep(max(0.0, sched - time.perf_counter()) if g else 0)
            tasks.append(asyncio.create_task(one(s, url, body, sched, sends, lags, ok)))
        await asyncio.gather(*tasks)
    sched_rate = (n - 1) / sum(gaps[1:])
    sends.sort()
    realized = (n - 1) / (sends[-1] - sends[0])
    lags.sort()
    p99 = lags[min(len(lags) - 1, int(0.99 * (len(lags) - 1) + 0.5))]
    print(json.dumps({"client": "aiohttp", "target": rate, "schedule_rate": sched_rate, "realized_rate": realized,
                      "dispatch_lag_p99_ms": p99 * 1e3, "completed": len(ok)}))


asyncio.run(main())
