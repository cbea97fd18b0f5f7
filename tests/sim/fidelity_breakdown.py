#!/usr/bin/env python3
"""Median |error| of bench_sim_fidelity's tables per engine, load type and metric family.

  build/bench/bench_sim_fidelity > /tmp/fid.txt
  python3 tests/sim/fidelity_breakdown.py /tmp/fid.txt

Engine: the case's preset (vllm and vllm-v0 -> vLLM). Load type: the case's workload arrival
(all_at_once -> offline, poisson, closed_loop). Families as sim/fidelity.cpp metric_family():
throughput, tpot (TPOT and ITL), ttft, e2e.
"""
import json, re, statistics, sys
from collections import defaultdict

CASES = {"fit set": "tests/data/sim/published_cases.jsonl", "held-out set": "tests/data/sim/published_heldout.jsonl"}
ENGINE = {"vllm": "vLLM", "vllm-v0": "vLLM", "sglang": "SGLang", "trtllm": "TRT-LLM"}
LOAD = {"all_at_once": "offline", "poisson": "poisson", "closed_loop": "closed loop"}


def family(metric):
    if "throughput" in metric: return "throughput"
    if metric.startswith(("tpot", "itl")): return "tpot"
    if metric.startswith("ttft"): return "ttft"
    return "e2e"


def main(path):
    arrival = {}
    for f in CASES.values():
        for line in open(f):
            if line.strip():
                d = json.loads(line)
                arrival[d["name"]] = LOAD.get(d["workload"].get("arrival", "poisson"), d["workload"].get("arrival"))
    groups = defaultdict(list)
    cur = None
    for line in open(path):
        m = re.match(r"## (fit set|held-out set)", line)
        if m: cur = m.group(1); continue
        m = re.match(r"\| (\S+) \| (\S+) \| (\S+) \| [\d.]+ \| [\d.]+ \| ([+-][\d.]+)% \|", line)
        if m and cur:
            case, eng, metric, err = m.groups()
            key = (cur, ENGINE.get(eng, eng), arrival[case], family(metric))
            groups[key].append(abs(float(err)))
    print("| set | engine | load | metric | n | median abs error |")
    print("|---|---|---|---|---|---|")
    for k in sorted(groups):
        v = groups[k]
        print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {len(v)} | {statistics.median(v):.1f}% |")


if __name__ == "__main__":
    main(sys.argv[1])
