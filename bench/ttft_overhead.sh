#!/usr/bin/env bash
# The load generator's TTFT overhead against the server's own TTFT (issue 8, last benchmark
# bullet): `llmtriage sim serve --records` at time scale 1 (max_num_seqs 1024, so 1000 streams
# decode at once) and `llmtriage bench --concurrency C` against it; the two record sets join on
# the X-Request-Id the client sends. Per request: overhead = client TTFT (send -> first content
# chunk read) - server TTFT (whole request received -> first token handed to the socket).
# Prints its p50/p90/p99/max in ms, the client's CPU per streamed token (/usr/bin/time of the
# bench process) and the server's clock lag, with `uptime` before and after (a shared host's
# load is part of the figure).
# Usage: bench/ttft_overhead.sh BUILD_DIR [NUM_REQUESTS=4000] [CONCURRENCY=1000] [OUTPUT_LEN=100]
#   BENCH_ARGS="--range-ratio 0.5" adds bench flags (jittered lengths spread the closed loop's
#   completions; with fixed lengths all C streams finish in one step and restart as one burst).
set -euo pipefail
B=${1:?usage: bench/ttft_overhead.sh BUILD_DIR [NUM_REQUESTS] [CONCURRENCY] [OUTPUT_LEN]}
N=${2:-4000}
C=${3:-1000}
OUT_LEN=${4:-100}
BIN="$B/llmtriage"
[ -x "$BIN" ] || { echo "no $BIN: build the llmtriage target first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
PY=/usr/bin/python3
MODEL=meta-llama/Llama-3.1-8B-Instruct
ulimit -n 65536 2>/dev/null || ulimit -n 8192
TMP=$(mktemp -d)
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

"$BIN" sim serve --port 0 --log-file /dev/null --no-access-log --model "$MODEL" --gpu H100 \
  --max-num-seqs 1024 --time-scale 1 --records "$TMP/server.jsonl" > "$TMP/url" &
PID=$!
for _ in $(seq 1 300); do grep -q "listening on" "$TMP/url" && break; sleep 0.1; done
URL=$(sed -n 's/.*listening on //p' "$TMP/url")
[ -n "$URL" ] || { echo "sim serve did not start" >&2; exit 2; }

echo "uptime before: $(uptime)"
set +e
/usr/bin/time -f "%U %S %e" -o "$TMP/time" "$BIN" bench --endpoint "$URL" --model "$MODEL" \
  --input-len 16 --output-len "$OUT_LEN" --num-requests "$N" --concurrency "$C" --seed 1 \
  --scrape-interval 0 --request-timeout 120 ${BENCH_ARGS:-} --out "$TMP/client" --json > "$TMP/summary.json" 2> "$TMP/bench.err"
rc=$?
set -e
echo "uptime after:  $(uptime)"
echo "bench exit status $rc (1 = findings, e.g. CLIENT-BOUND on a loaded host)"
curl -s "$URL/sim/stats" > "$TMP/stats.json" || echo '{}' > "$TMP/stats.json"
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""  # SIGTERM flushes the server's records

$PY - "$TMP" "$N" "$C" "$OUT_LEN" <<'EOF'
import json, os, sys
tmp, n, c, out_len = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

def load(path):
    recs = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith('{'):
                continue
            r = json.loads(line)
            if r.get("schema", "llmtriage.request.v1") == "llmtriage.request.v1" and "id" in r:
                recs[r["id"]] = r
    return recs

def q(v, p):  # linear interpolation between closest ranks (numpy's default, core/quantile.h)
    v = sorted(v)
    if not v:
        return float("nan")
    h = (len(v) - 1) * p
    lo = int(h)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (h - lo)

def line(name, v, unit_ms=True):
    k = 1e3 if unit_ms else 1
    print(f"{name:<28} n={len(v):<6} p50={q(v,.5)*k:8.3f} p90={q(v,.9)*k:8.3f} p99={q(v,.99)*k:8.3f} max={max(v)*k if v else float('nan'):8.3f} ms")

client = load(f"{tmp}/client/records.jsonl")
server = load(f"{tmp}/server.jsonl")
summary = json.load(open(f"{tmp}/summary.json"))
stats = json.load(open(f"{tmp}/stats.json"))
u, s, e = (float(x) for x in open(f"{tmp}/time").read().split()[-3:])

# Both processes stamp CLOCK_MONOTONIC and convert with one (Unix, steady) pair read back to back,
# so the overhead splits, to microseconds plus any NTP slew, into the request's way in (client
# send -> server received) and the first token's way out (server socket -> client read).
t0_unix = summary.get("run", {}).get("start_unix_s", 0)
over, cl, sv, way_in, way_out, dispatch, server_read, unjoined = [], [], [], [], [], [], [], 0
first_wave, later = [], []  # the first C requests open their connections; later ones reuse them
for rid, r in client.items():
    if r.get("status") != "ok" or r.get("warmup"):
        continue
    sr = server.get(rid)
    if sr is None or sr.get("status") != "ok" or "ttft_s" not in sr or "ttft_s" not in r:
        unjoined += 1
        continue
    cl.append(r["ttft_s"]); sv.append(sr["ttft_s"]); over.append(r["ttft_s"] - sr["ttft_s"])
    (first_wave if r.get("index", 0) < c else later).append(over[-1])
    if t0_unix and "send_s" in r:
        way_in.append(sr["arrival_s"] - (t0_unix + r["send_s"]))
        way_out.append(over[-1] - way_in[-1])
        if "written_s" in r:
            dispatch.append(r["written_s"] - r["send_s"])
            server_read.append(way_in[-1] - dispatch[-1])

print(f"run: {n} requests, closed loop {c} concurrent streams, 16 prompt / {out_len} output tokens {os.environ.get('BENCH_ARGS', '')}, "
      f"run tag {summary.get('run', {}).get('run_tag')}")
print(f"client: completed {summary.get('completed')} failed {summary.get('failed')} "
      f"client_bound {summary.get('client_bound')} dispatch lag p99 {summary.get('dispatch_lag_ms', {}).get('p99')} ms")
print(f"server records {len(server)}, joined ok {len(over)}, client ok without a server match {unjoined}")
line("client TTFT", cl)
line("server TTFT (socket)", sv)
line("overhead = client - server", over)
if way_in:
    line("  in: send -> received", way_in)
    if dispatch:
        line("    client: send -> written", dispatch)
        line("    server: written -> received", server_read)
    line("  out: socket -> read", way_out)
if first_wave and later:
    line("  first wave (new conns)", first_wave)
    line("  later (pooled conns)", later)
neg = sum(1 for x in over if x < 0)
print(f"negative overheads: {neg} (stamp order across threads; min {min(over)*1e3 if over else 0:.3f} ms)")
tok = summary.get("output_tokens", 0)
print(f"client CPU: user {u:.2f} s + sys {s:.2f} s over {e:.1f} s wall for {tok} streamed tokens -> "
      f"{(u + s) / max(1, tok) * 1e6:.2f} us per streamed token")
lag = stats.get("clock_lag_ms", {})
print(f"server clock lag: p50 {lag.get('p50')} p99 {lag.get('p99')} max {lag.get('max')} ms over {lag.get('count')} steps")
EOF
