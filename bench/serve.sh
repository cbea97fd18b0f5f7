#!/usr/bin/env bash
# Benchmarks of `llmtriage sim serve` (docs/benchmarks.md, "sim serve"):
#  1. 2000 concurrent streaming requests held without an error or a dropped connection;
#  2. virtual-clock lag vs the wall clock at 1000 concurrent streams (GET /sim/stats);
#  3. wrk on /metrics at 64 connections.
# Usage: bench/serve.sh BUILD_DIR   (needs node and wrk)
set -euo pipefail
BUILD=${1:?usage: bench/serve.sh BUILD_DIR}
BIN="$BUILD/llmtriage"
HERE=$(cd "$(dirname "$0")" && pwd)
ulimit -n 65536 2>/dev/null || ulimit -n 8192
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null || true; }
trap cleanup EXIT

start() {  # start ARGS...: runs the server on a free port, sets URL and PID
  local out; out=$(mktemp)
  "$BIN" sim serve --port 0 --log-file /dev/null --no-access-log "$@" > "$out" &
  PID=$!
  for _ in $(seq 1 300); do grep -q "listening on" "$out" && break; sleep 0.1; done
  URL=$(sed -n 's/.*listening on //p' "$out")
  rm -f "$out"
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""; }

echo "== 2000 concurrent streams (max_num_seqs 256: 256 decode, the rest wait in the queue, all connections held)"
start --model meta-llama/Llama-3.1-8B-Instruct --gpu H100
node "$HERE/serve_streams.mjs" "$URL" 2000 100
curl -s "$URL/sim/stats"; echo
stop

echo "== clock lag at 1000 concurrent streams (max_num_seqs 1024: all 1000 decode at once)"
start --model meta-llama/Llama-3.1-8B-Instruct --gpu H100 --max-num-seqs 1024
node "$HERE/serve_streams.mjs" "$URL" 1000 300
curl -s "$URL/sim/stats"; echo
stop

echo "== wrk on /metrics, 64 connections, 10 s"
start --model meta-llama/Llama-3.1-8B-Instruct --gpu H100
wrk -t2 -c64 -d10s "$URL/metrics"
stop
