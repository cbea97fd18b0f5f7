#!/usr/bin/env bash
# Load-generator benchmark (issue 8): against one fast local peer (bench_loadgen_peer), rising
# target rates for llmtriage bench and for an asyncio+aiohttp client (bench/loadgen_aiohttp.py),
# each judged the same way: delivered = realized rate within 1% of the schedule's rate AND
# dispatch lag p99 < 1 ms. Prints each try and each client's highest delivered rate, then CPU per
# streamed token of llmtriage bench at 1000 concurrent streams.
# Usage: bench/loadgen.sh BUILD_DIR [RATES...]   (BUILD_DIR configured with -DLLMTRIAGE_BENCH=ON)
set -euo pipefail
B=${1:?build dir}
shift || true
RATES=${*:-"100 200 500 1000 2000 5000 10000 20000"}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'exec 3>&-; kill $PEER 2>/dev/null || true; rm -rf "$TMP"' EXIT

start_peer() {  # $1 tokens per request
  mkfifo "$TMP/in.$1"
  "$B/bench/bench_loadgen_peer" 0 1 "$1" < "$TMP/in.$1" > "$TMP/port.$1" &
  PEER=$!
  exec 3>"$TMP/in.$1"
  for _ in $(seq 50); do grep -q port "$TMP/port.$1" 2>/dev/null && break; sleep 0.1; done
  PORT=$(awk '{print $2}' "$TMP/port.$1")
}

start_peer 2
URL=http://127.0.0.1:$PORT
best_ours=0; best_py=0
printf "%-8s %-10s %10s %10s %12s %s\n" client target schedule realized lag_p99_ms delivered
for r in $RATES; do
  n=$(( r * 3 )); (( n < 300 )) && n=300; (( n > 30000 )) && n=30000
  j=$("$B/llmtriage" bench --endpoint "$URL" --model m --input-len 8 --output-len 2 --num-requests $n \
        --rate "$r" --seed 1 --scrape-interval 0 --json 2>/dev/null || true)
  read -r sr rr lag <<<"$(echo "$j" | $PY -c 'import json,sys; d=json.load(sys.stdin); print(d["schedule_rate"], d["realized_rate"], d["dispatch_lag_ms"].get("p99", 0))')"
  ok=$($PY -c "print(int(abs($rr/$sr-1)<=0.01 and $lag<1.0))")
  printf "%-8s %-10s %10.1f %10.1f %12.3f %s\n" llmtriage "$r" "$sr" "$rr" "$lag" "$ok"
  (( ok )) && best_ours=$r
  j=$($PY "$HERE/loadgen_aiohttp.py" "$URL/v1/completions" "$r" $n 1)
  read -r sr rr lag <<<"$(echo "$j" | $PY -c 'import json,sys; d=json.load(sys.stdin); print(d["schedule_rate"], d["realized_rate"], d["dispatch_lag_p99_ms"])')"
  ok=$($PY -c "print(int(abs($rr/$sr-1)<=0.01 and $lag<1.0))")
  printf "%-8s %-10s %10.1f %10.1f %12.3f %s\n" aiohttp "$r" "$sr" "$rr" "$lag" "$ok"
  (( ok )) && best_py=$r
done
echo "highest delivered rate: llmtriage $best_ours req/s, aiohttp $best_py req/s"
exec 3>&-; wait $PEER 2>/dev/null || true

# CPU per streamed token at 1000 concurrent streams (100 tokens each, peer streams without delay).
start_peer 100
/usr/bin/time -f "%U %S" -o "$TMP/time" "$B/llmtriage" bench --endpoint "http://127.0.0.1:$PORT" --model m \
  --input-len 8 --output-len 100 --num-requests 5000 --concurrency 1000 --scrape-interval 0 --json > "$TMP/c.json" 2>/dev/null || true
read -r u s < <(tail -1 "$TMP/time")
tok=$($PY -c "import json; print(json.load(open('$TMP/c.json'))['output_tokens'])")
$PY -c "print(f'1000 streams: {$tok} tokens, client CPU {$u + $s:.2f} s -> {($u + $s) / max(1, $tok) * 1e6:.2f} us per streamed token')"
