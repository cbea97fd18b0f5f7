# Sourced by the benchmarks that run `llmtriage sim serve` on a free loopback port (dcgm.sh,
# top_refresh.sh). sim_serve_start BIN ARGS...: starts it with ARGS, waits for its address (up to
# 10 s), sets SIM_URL and SIM_PID, and stops it on exit.
sim_serve_start() {
  local bin=$1 out
  shift
  out=$(mktemp)
  "$bin" sim serve --port 0 --no-access-log "$@" >"$out" 2>/dev/null &
  SIM_PID=$!
  trap 'kill $SIM_PID 2>/dev/null; wait $SIM_PID 2>/dev/null' EXIT
  for _ in $(seq 100); do grep -qo 'http://[0-9.:]*' "$out" && break; sleep 0.1; done
  SIM_URL=$(grep -o 'http://[0-9.:]*' "$out" | head -1)
  rm -f "$out"
  [ -n "$SIM_URL" ] || { echo "sim serve did not start" >&2; exit 2; }
}
