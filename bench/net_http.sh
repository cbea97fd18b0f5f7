#!/usr/bin/env bash
# net benchmarks, each a ratio against a peer measured in the same run (see docs/benchmarks.md):
#  1. requests/s of our server's small JSON endpoint vs nginx serving the same bytes (wrk, one
#     server thread / one nginx worker, same connections and duration);
#  2. CPU seconds per SSE event of our client vs a python3-aiohttp client reading the same
#     1M-event stream from our server.
# Usage: bench/net_http.sh BUILD_DIR   (env: CONNS=50 DURATION=5s EVENTS=1000000)
set -euo pipefail
build=${1:-build}
bin=$build/bench/bench_net_http
[ -x "$bin" ] || { echo "build $bin first (cmake -DLLMTRIAGE_BENCH=ON, target bench_net_http)"; exit 2; }
command -v wrk >/dev/null || { echo "wrk not installed (Debian package wrk)"; exit 2; }
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
conns=${CONNS:-50}
duration=${DURATION:-5s}
events=${EVENTS:-1000000}
tmp=$(mktemp -d)
chmod 755 "$tmp"
cleanup() {
  [ -n "${srv_pid:-}" ] && kill "$srv_pid" 2>/dev/null || true
  [ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# Our server (one loop thread); it prints its port and runs until its stdin closes.
mkfifo "$tmp/in"
"$bin" serve < "$tmp/in" > "$tmp/port" &
srv_pid=$!
exec 3> "$tmp/in"
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
port=$(head -1 "$tmp/port")

# nginx serving the same bytes from memory (`return 200`, its cheapest path), one worker, no
# access log. The file copy is only used to check the bytes are the same.
mkdir -p "$tmp/www/v1"
"$bin" body > "$tmp/www/v1/models"
nport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$tmp/nginx.conf" <<CONF
worker_processes 1;
pid $tmp/nginx.pid;
error_log $tmp/nginx.err;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 10000000;
  default_type application/json;
  client_body_temp_path $tmp;
  proxy_temp_path $tmp;
  fastcgi_temp_path $tmp;
  uwsgi_temp_path $tmp;
  scgi_temp_path $tmp;
  server {
    listen 127.0.0.1:$nport;
    location = /v1/models { return 200 '$(cat "$tmp/www/v1/models")'; }
  }
}
CONF
"$nginx_bin" -c "$tmp/nginx.conf" -p "$tmp" 2>/dev/null
sleep 0.3
curl -fsS "http://127.0.0.1:$nport/v1/models" | cmp -s - "$tmp/www/v1/models" || { echo "nginx did not serve the body"; exit 1; }

rps() { wrk -t1 -c"$conns" -d"$duration" "$1" | awk '/Requests\/sec/ {print $2}'; }
echo "== server: wrk -t1 -c$conns -d$duration, /v1/models ($(wc -c < "$tmp/www/v1/models") bytes)"
ours1=$(rps "http://127.0.0.1:$port/v1/models")
nginx1=$(rps "http://127.0.0.1:$nport/v1/models")
ours2=$(rps "http://127.0.0.1:$port/v1/models")
nginx2=$(rps "http://127.0.0.1:$nport/v1/models")
python3 - "$ours1" "$ours2" "$nginx1" "$nginx2" <<'PY'
import sys
o1, o2, n1, n2 = map(float, sys.argv[1:])
o, n = (o1 + o2) / 2, (n1 + n2) / 2
print(f"llmtriage req/s: {o1:.0f} {o2:.0f} (mean {o:.0f})")
print(f"nginx     req/s: {n1:.0f} {n2:.0f} (mean {n:.0f})")
print(f"ratio llmtriage/nginx: {o / n:.2f}  (target >= 0.70)")
PY

echo "== SSE client: $events events from our server, CPU seconds of the client process"
ours=$("$bin" sse-client "http://127.0.0.1:$port/sse?n=$events")
echo "llmtriage: $ours"
py=$(/usr/bin/python3 - "http://127.0.0.1:$port/sse?n=$events" <<'PY'
import asyncio, resource, sys, time
import aiohttp

async def main(url):
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.monotonic()
    events = 0
    timeout = aiohttp.ClientTimeout(total=None, sock_read=30)
    async with aiohttp.ClientSession(timeout=timeout) as s:
        async with s.get(url) as resp:
            # The common pattern of Python load generators: one line at a time, count data lines.
            async for line in resp.content:
                if line.startswith(b"data: ") and line != b"data: [DONE]\n":
                    events += 1
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    print(f"events={events} cpu_s={cpu:.4f} wall_s={time.monotonic() - t0:.4f}")

asyncio.run(main(sys.argv[1]))
PY
)
echo "aiohttp:   $py"
python3 - "$ours" "$py" <<'PY'
import sys
def parse(s): return {k: float(v) for k, v in (kv.split("=") for kv in s.split())}
o, p = parse(sys.argv[1]), parse(sys.argv[2])
assert o["events"] == p["events"], "clients saw different event counts"
po, pp = o["cpu_s"] / o["events"] * 1e9, p["cpu_s"] / p["events"] * 1e9
print(f"CPU per event: llmtriage {po:.0f} ns, aiohttp {pp:.0f} ns; aiohttp/llmtriage = {pp / po:.1f}x  (target >= 20x)")
PY
