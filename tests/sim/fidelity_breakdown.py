#!/usr/bin/env python3
"""Median |error| of bench_sim_fidelity's tables per engine, load type and metric family.

  build/bench/bench_sim_fidelity > /tmp/fid.txt
  python3 tests/sim/fidelity_breakdown.py /tmp/fid.txt

Sets: the file each table came from (published_cases = fit, published_heldout = held-out, any
other file under tests/data/sim/ by its name). Engine: the case's preset (vllm and vllm-v0 -> vLLM). Load type: the case's workload arrival
(all_at_once -> offline, poisson, closed_loop). Families as sim/fidelity.cpp metric_family():
throughput, tpot (TPOT and ITL), ttft, e2e.
"""
import glob, json, re, statistics, sys
from collections import defaultdict

ENGINE = {"vllm": "vLLM", "vllm-v0": "vLLM", "sglang": "SGLang", "trtllm": "TRT-LLM"}
LOAD = {"all_at_once": "offline", "poisson": "poisson", "closed_loop": "closed loop"}


def family(metric):
    if "throughput" in metric or metric == "request_rate_under_slo": return "throughput"
    if metric.startswith(("tpot", "itl")): return "tpot"
    if metric.startswith("ttft"): return "ttft"
    return "e2e"


def main(path):
    arrival = {}
    for f in sorted(glob.glob("tests/data/sim/*.jsonl")):
        for line in open(f):
            if line.strip():
                d = json.loads(line)
                arrival[d["name"]] = LOAD.get(d["workload"].get("arrival", "poisson"), d["workload"].get("arrival"))
    groups = defaultdict(list)
    cur = None
    for line in open(path):
        # "## fit set (tests/data/sim/published_cases.jsonl, 20 cases)": the set is the file's stem.
        m = re.match(r"## .*\((\S+)\.jsonl, \d+ cases\)", line)
        if m: cur = m.group(1).rsplit("/", 1)[-1]; continue
        m = re.match(r"\| (\S+) \| (\S+) \| (\S+) \| [\d.]+ \| [\d.]+ \| ([+-][\d.]+)% \|", line)
        if m and cur:
            case, eng, metric, err = m.groups()
            key = (cur, ENGINE.get(eng, eng), arrival[case], family(metric))
            groups[key].append(float(err))
    # Signed median and the count under / over: a median |error| within target can still be one-sided.
    print("| set | engine | load | metric | n | median abs error | signed median | under / over |")
    print("|---|---|---|---|---|---|---|---|")
    for k in sorted(groups):
        v = groups[k]
        under, over = sum(e < 0 for e in v), sum(e > 0 for e in v)
        print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {len(v)} | {statistics.median(map(abs, v)):.1f}% "
              f"| {statistics.median(v):+.1f}% | {under} / {over} |")


if __name__ == "__main__":
    main(sys.argv[1])
