# Sourced by the benchmarks that run a real Prometheus (fleet_scale.sh, rules_eval.sh,
# rules_scenarios.sh): checks prometheus/promtool, makes $tmp (removed on exit, with the
# Prometheus whose pid is in $prom_pid), and defines free_port.
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
