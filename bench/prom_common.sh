# Sourced by the benchmarks that run a real Prometheus (fleet_scale.sh, rules_eval.sh,
# rules_scenarios.sh): checks prometheus/promtool, makes $tmp (removed on exit, with the
# Prometheus whose pid is in $prom_pid), and defines free_port, prom_serve and prom_stop.
# Usage: prom_common_init PREFIX   (the temp dir's name prefix)
prom_common_init() {
  command -v prometheus >/dev/null && command -v promtool >/dev/null || { echo "prometheus/promtool not installed"; exit 2; }
  tmp=$(mktemp -d "/tmp/$1-XXXXXX")
  prom_pid=""
  trap prom_common_cleanup EXIT
}
prom_common_cleanup() {
  [ -n "$prom_pid" ] && kill "$prom_pid" 2>/dev/null && wait "$prom_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# prom_serve DATA_DIR: a Prometheus (no scrapes) over a backfilled TSDB on a free loopback port;
# sets $prom_pid and $prom_url, returns once /-/ready answers (or after 60 s).
prom_serve() {
  local port; port=$(free_port)
  printf 'global:\n  scrape_interval: 1h\nscrape_configs: []\n' > "$tmp/prometheus.yml"
  prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$1" --storage.tsdb.retention.time=10y \
    --web.listen-address="127.0.0.1:$port" > "$tmp/prometheus.log" 2>&1 &
  prom_pid=$!
  prom_url="http://127.0.0.1:$port"
  for _ in $(seq 300); do curl -sf "$prom_url/-/ready" >/dev/null 2>&1 && break; sleep 0.2; done
}
prom_stop() {
  [ -n "$prom_pid" ] && { kill "$prom_pid" 2>/dev/null; wait "$prom_pid" 2>/dev/null || true; }
  prom_pid=""
}
