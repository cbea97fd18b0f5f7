#!/usr/bin/env bash
# What the `llmtriage rules` rule set costs the Prometheus that evaluates it, at fleet scale.
# A synthetic fleet of vLLM V1 replicas (+ one DCGM GPU each; replica 7 throttled, replica 42 with
# 10x the queue: bench/fleet_scale_gen.py) is written as OpenMetrics over MINUTES at a 15 s scrape
# interval, turned into TSDB blocks by `promtool tsdb create-blocks-from openmetrics` and served by
# a real `prometheus` on 127.0.0.1. Every rule's expression of `llmtriage rules --json` is then
# run as an instant query at the end of the data with `stats=all`, 5 times; the median of
# Prometheus' own evalTotalTime is the rule's cost per evaluation. Peer, in the same run: the
# plainest query a dashboard makes, `vllm:num_requests_waiting{job="vllm"}` (one gauge, one
# series per replica). Also printed: how many series each alert expression returns (what would
# fire, `for:` aside).
# Usage: bench/rules_eval.sh BUILD_DIR   (env: CASES="50 500" MINUTES=40)
set -euo pipefail
build=${1:-build}
bin=$build/llmtriage
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] || { echo "build $bin first"; exit 2; }
cases=${CASES:-"50 500"}
minutes=${MINUTES:-40}
. "$here/prom_common.sh"
prom_common_init llmtriage-rules-eval

start=$(( ($(date +%s) / 60) * 60 - 2 * 3600 ))
end=$(( start + minutes * 60 - 60 ))
"$bin" rules --engine vllm --selector '{job="vllm"}' --gpu-selector '{job="dcgm"}' --replica-label pod \
  --rate-window 5m --json --out "$tmp/rules.json" 2>/dev/null
for replicas in $cases; do
  om=$tmp/fleet.om
  python3 "$here/fleet_scale_gen.py" --replicas "$replicas" --start "$start" --minutes "$minutes" --interval 15 > "$om"
  data=$tmp/data-$replicas
  promtool tsdb create-blocks-from openmetrics "$om" "$data" > "$tmp/promtool.log" 2>&1 || { cat "$tmp/promtool.log"; exit 1; }
  rm -f "$om"
  prom_serve "$data"
  python3 - "$prom_url" "$end" "$tmp/rules.json" "$replicas" <<'PY'
import json, statistics, sys, urllib.parse, urllib.request
url, end, rules_file, replicas = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]

def run(expr):
    body = urllib.parse.urlencode({"query": expr, "time": end, "stats": "all"}).encode()
    with urllib.request.urlopen(url + "/api/v1/query", body, timeout=60) as r:
        j = json.load(r)
    if j.get("status") != "success":
        raise SystemExit(f"query failed: {j}")
    return j["data"]["stats"]["timings"]["evalTotalTime"], len(j["data"]["result"])

def cost(expr):
    run(expr)  # warm the page cache and postings
    times, n = [], 0
    for _ in range(5):
        t, n = run(expr)
        times.append(t)
    return statistics.median(times) * 1e3, n

rules = [r for g in json.load(open(rules_file))["groups"] for r in g["rules"]]
peer_ms, peer_n = cost('vllm:num_requests_waiting{job="vllm"}')
rows = [(r.get("alert") or r.get("record"), bool(r.get("alert")), *cost(r["expr"])) for r in rules]
total = sum(ms for _, _, ms, _ in rows)
worst = max(rows, key=lambda x: x[2])
print(f"replicas {replicas}: {len(rows)} rules, {total:.1f} ms per evaluation (sum of medians); "
      f"peer query {peer_ms:.2f} ms ({peer_n} series): ratio {total / peer_ms:.0f}x; "
      f"costliest {worst[0]} {worst[2]:.1f} ms")
for name, is_alert, ms, n in rows:
    print(f"  {name:45s} {ms:8.2f} ms  {n:5d} series{'  (alert)' if is_alert else ''}")
PY
  prom_stop
done
