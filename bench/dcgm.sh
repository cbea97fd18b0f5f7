#!/usr/bin/env bash
# GET /dcgm of `llmtriage sim serve` against GET /metrics of the same server in the same run:
# wrk at 64 connections on each, on an 8-GPU node (4 replicas x TP 2). The ratio is the figure
# that travels between machines; both routes render on the engine thread.
# Usage: bench/dcgm.sh BUILD_DIR   (needs wrk)
set -euo pipefail
build=${1:?usage: bench/dcgm.sh BUILD_DIR}
bin="$build/llmtriage"
[ -x "$bin" ] || { echo "no $bin: build the llmtriage target first" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed" >&2; exit 2; }
# shellcheck source=bench/sim_serve_common.sh
. "$(dirname "$0")/sim_serve_common.sh"
sim_serve_start "$bin" --replicas 4 --tp 2 --kv-cache-tokens 200000 --max-model-len 4096
url=$SIM_URL
echo "server $url: /dcgm has $(curl -s "$url/dcgm" | grep -vc '^#') series, /metrics $(curl -s "$url/metrics" | grep -vc '^#')"
for path in /dcgm /metrics; do
  echo "== wrk -t2 -c64 -d5s $path"
  wrk -t2 -c64 -d5s "$url$path" | grep -E 'Requests/sec|Latency'
done
