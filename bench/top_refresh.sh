#!/usr/bin/env bash
# `llmtriage top`'s CPU per refresh, against the plain fetch of the same pages in the same run:
# `top --json` (scrape /metrics and /dcgm, parse, window, quantiles, the frame, and the layer
# judgement: a diagnosis every 3 s, so every 30th refresh at --interval 100ms, every 3rd at 1 s;
# INTERVAL sets it) for N refreshes, and one `curl` fetching /metrics and /dcgm N times (the bytes any scraper
# must receive: the floor under a refresh).
# sim serve: 4 replicas x TP 2 (an 8-GPU node), so /metrics has 4 engines' series and /dcgm 8 GPUs.
# Usage: bench/top_refresh.sh BUILD_DIR [N [INTERVAL]]
set -euo pipefail
build=${1:?usage: bench/top_refresh.sh BUILD_DIR [N]}
n=${2:-200}
interval=${3:-100ms}
bin="$build/llmtriage"
[ -x "$bin" ] || { echo "no $bin: build the llmtriage target first" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is not installed" >&2; exit 2; }
# shellcheck source=bench/sim_serve_common.sh
. "$(dirname "$0")/sim_serve_common.sh"
sim_serve_start "$bin" --replicas 4 --tp 2 --kv-cache-tokens 200000 --max-model-len 4096
url=$SIM_URL
echo "server $url: /metrics $(curl -s "$url/metrics" | wc -c) bytes, /dcgm $(curl -s "$url/dcgm" | wc -c) bytes"
TIMEFORMAT='%U %S'
top_cpu=$( { time "$bin" top --endpoint "$url" --dcgm "$url/dcgm" --no-local-gpu --json --count "$n" --interval "$interval" >/dev/null; } 2>&1 | tail -1)
# One curl process for every fetch (kept-alive connection): the fetch itself, not process start-up.
urls=$(for _ in $(seq "$n"); do printf '%s/metrics %s/dcgm ' "$url" "$url"; done)
# shellcheck disable=SC2086
curl_cpu=$( { time curl -s $urls >/dev/null; } 2>&1 | tail -1)
awk -v t="$top_cpu" -v c="$curl_cpu" -v n="$n" 'BEGIN {
  split(t, a, " "); split(c, b, " ");
  tt = (a[1] + a[2]) / n * 1000; cc = (b[1] + b[2]) / n * 1000;
  printf "top --json: %.2f ms CPU per refresh (user+sys over %d, interval '"$interval"')\ncurl /metrics + /dcgm: %.2f ms CPU per refresh\nratio top / curl: %.2f\n", tt, n, cc, tt / cc }'
