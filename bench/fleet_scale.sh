#!/usr/bin/env bash
# Fleet at scale: a synthetic fleet of vLLM V1 replicas (+ one DCGM GPU each; replica 7 throttled,
# replica 42 with 10x the queue; bench/fleet_scale_gen.py) written as OpenMetrics over MINUTES at
# a scrape interval, turned into TSDB blocks by `promtool tsdb create-blocks-from openmetrics`,
# served by a real `prometheus` on 127.0.0.1, then queried:
#  1. bench_fleet_scale_client: the fleet query plan through PromClient alone (queries, bytes
#     decoded and on the wire, points, store vs parse seconds, peak RSS; again without gzip), with the same range queries replayed by curl +
#     python3 json as the peer in the same run (store: curl's total time; parse: json.loads plus
#     float conversion of every value);
#  2. `llmtriage fleet --prometheus URL --window 30m --json --at END` when the binary has that
#     command (wall time, peak RSS, and its own .store account: queries, store/parse/analysis s).
#     KEEP_FLEET_JSON=/path/prefix keeps each report as <prefix>-<replicas>-<interval>.json.
# Cases: 50 and 500 replicas at 15 s, 500 replicas at 5 s (memory must follow replicas, not
# samples). Usage: bench/fleet_scale.sh BUILD_DIR   (env: CASES="50:15 500:15 500:5" MINUTES=60)
set -euo pipefail
build=${1:-build}
client=$build/bench/bench_fleet_scale_client
bin=$build/llmtriage
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$client" ] || { echo "build $client first (cmake -DLLMTRIAGE_BENCH=ON, target bench_fleet_scale_client)"; exit 2; }
cases=${CASES:-"50:15 500:15 500:5"}
minutes=${MINUTES:-60}
. "$here/prom_common.sh"
prom_common_init llmtriage-fleet-scale
rss_mb() { awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$1"; }
wall_s() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; printf "%.2f", s}' "$1"; }

# Data ends on a minute boundary an hour ago, so the whole range is in the past; queries end 1 min
# before the last sample.
start=$(( ($(date +%s) / 60) * 60 - 2 * 3600 ))
end=$(( start + minutes * 60 - 60 ))
has_fleet=0
if [ -x "$bin" ] && "$bin" fleet --help >/dev/null 2>&1; then has_fleet=1; fi
at_flag=""
if [ $has_fleet = 1 ]; then
  help=$("$bin" fleet --help 2>&1)
  if grep -q -- '--at' <<<"$help"; then at_flag="--at"; elif grep -q -- '--end' <<<"$help"; then at_flag="--end"; fi
fi

printf '%-9s %-6s %8s %8s %6s %7s %9s %8s %9s %8s %8s %13s %9s %9s %8s  %s\n' replicas scrape samples gen_s tsdb_s queries MB wire_MB points \
  store_s parse_s plain_store/parse curl_s py_parse_s rss_MB "fleet(wall_s rss_MB)"
for c in $cases; do
  replicas=${c%%:*}
  interval=${c##*:}
  om=$tmp/fleet.om
  t0=$(date +%s.%N)
  python3 "$here/fleet_scale_gen.py" --replicas "$replicas" --start "$start" --minutes "$minutes" --interval "$interval" > "$om"
  t1=$(date +%s.%N)
  samples=$(grep -vc '^#' "$om")
  data=$tmp/data-$replicas-$interval
  promtool tsdb create-blocks-from openmetrics "$om" "$data" > "$tmp/promtool.log" 2>&1 || { cat "$tmp/promtool.log"; exit 1; }
  t2=$(date +%s.%N)
  rm -f "$om"
  prom_serve "$data"
  url=$prom_url

  # 1. Our client, then the peer on the same queries.
  /usr/bin/time -v "$client" --prometheus "$url" --end "$end" > "$tmp/client.json" 2> "$tmp/client.time" || { cat "$tmp/client.time"; exit 1; }
  read -r queries bytes wire points store parse < <(jq -r '"\(.queries) \(.bytes_decoded) \(.bytes) \(.points) \(.store_s) \(.parse_s)"' "$tmp/client.json")
  # The same without gzip (the store's compression CPU vs fewer bytes).
  "$client" --prometheus "$url" --end "$end" --no-gzip > "$tmp/client-plain.json" 2>/dev/null || true
  read -r store_plain parse_plain < <(jq -r '"\(.store_s) \(.parse_s)"' "$tmp/client-plain.json")
  curl_s=0
  n=0
  while IFS=$'\t' read -r path q; do
    n=$((n + 1))
    s=$(curl -s -o "$tmp/body-$n.json" -w '%{time_total}' -G "$url$path" --data-urlencode "query=$q" \
      --data-urlencode "start=$((end - 1800))" --data-urlencode "end=$end" --data-urlencode "step=15")
    curl_s=$(python3 -c "print($curl_s + $s)")
  done < <("$client" --print-plan)
  py_parse=$(python3 - "$tmp" "$n" <<'PY'
import json, sys, time
d, n = sys.argv[1], int(sys.argv[2])
bodies = [open(f"{d}/body-{i}.json", "rb").read() for i in range(1, n + 1)]
t = time.perf_counter()
points = 0
for b in bodies:
    for s in json.loads(b)["data"]["result"]:
        vals = [(float(ts), float(v)) for ts, v in s["values"]]
        points += len(vals)
print(f"{time.perf_counter() - t:.3f}")
PY
)
  rm -f "$tmp"/body-*.json

  # 2. The fleet command, when it exists.
  fleet_cell="(no fleet command)"
  if [ $has_fleet = 1 ]; then
    args=(fleet --prometheus "$url" --window 30m --json)
    [ -n "$at_flag" ] && args+=("$at_flag" "$end")
    rc=0
    /usr/bin/time -v "$bin" "${args[@]}" > "$tmp/fleet.json" 2> "$tmp/fleet.time" || rc=$?
    [ -n "${KEEP_FLEET_JSON:-}" ] && cp "$tmp/fleet.json" "$KEEP_FLEET_JSON-$replicas-$interval.json"
    # Its own account of the store (fleet --json: .store.queries, store/parse/analysis seconds).
    fq=$(jq -r '.store | "queries \(.queries), store \(.store_seconds*1000|round/1000) s, parse \(.parse_seconds*1000|round/1000) s, analysis \(.analysis_seconds*1000|round/1000) s"' \
      "$tmp/fleet.json" 2>/dev/null || echo "no .store in its JSON")
    fleet_cell="$(wall_s "$tmp/fleet.time") s, $(rss_mb "$tmp/fleet.time") MB, exit $rc, $fq"
  fi
  printf '%-9s %-6s %8s %8.1f %6.1f %7s %9.1f %8.1f %9s %8.3f %8.3f %13s %9.3f %9s %8s  %s\n' "$replicas" "${interval}s" "$samples" \
    "$(python3 -c "print($t1 - $t0)")" "$(python3 -c "print($t2 - $t1)")" "$queries" \
    "$(python3 -c "print($bytes / 1e6)")" "$(python3 -c "print($wire / 1e6)")" "$points" "$store" "$parse" \
    "$store_plain/$parse_plain" "$curl_s" "$py_parse" \
    "$(rss_mb "$tmp/client.time")" "$fleet_cell"
  echo "  client: $(cat "$tmp/client.json")"
  prom_stop
  rm -rf "$data"
done
