#!/usr/bin/env bash
# Accuracy of `llmtriage rules` on the bundled fault scenarios: does an alert wake you, and does
# it point at the layer (or symptom) the scenario's fault is in?
# For each data/scenarios/*.json with a diagnosis: `llmtriage drill SCENARIO --no-remedy` runs it
# (sim serve + its traffic + /metrics scraped over the run); the run's scrapes (virtual time) are
# backfilled into a real Prometheus (`promtool tsdb create-blocks-from openmetrics`, job="vllm");
# every alert expression of `llmtriage rules --rate-window 30s` runs as a range query over the
# run (step 5 s, `for:` ignored); an alert "fired" when its expression returned a series at any
# step. Compared with the scenario's expected diagnosis (layer, symptom) and with the drill's own.
# No DCGM series in a drill: the GPU alerts cannot fire here (their symptom alert can).
# Usage: bench/rules_scenarios.sh BUILD_DIR   (env: SCENARIOS="name ..." to run a subset)
set -euo pipefail
build=${1:-build}
bin=$build/llmtriage
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
[ -x "$bin" ] || { echo "build $bin first"; exit 2; }
. "$here/prom_common.sh"
prom_common_init llmtriage-rules-scen

"$bin" rules --engine vllm --selector '{job="vllm"}' --rate-window 30s --json --out "$tmp/rules.json" 2>/dev/null
scenarios=${SCENARIOS:-$(for f in "$repo"/data/scenarios/*.json; do
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["name"] if j.get("diagnosis") else "")' "$f"; done)}
base=$(( ($(date +%s) / 60) * 60 - 3 * 3600 ))
printf '%-34s %-44s %-28s %s\n' scenario "expected (layer / symptom)" "drill's diagnosis" "alerts fired (layer)"
for s in $scenarios; do
  out=$tmp/drill-$s
  "$bin" drill "$s" --no-remedy --out "$out" > "$tmp/drill.log" 2>&1 || true
  [ -f "$out/a/snapshot.json" ] || { echo "$s: drill wrote no snapshot"; tail -5 "$tmp/drill.log"; continue; }
  # The scrapes as OpenMetrics (untyped samples, timestamps = virtual seconds from $base).
  python3 - "$out/a/snapshot.json" "$base" > "$tmp/run.om" <<'PY'
import json, re, sys
snap = json.load(open(sys.argv[1]))
base = float(sys.argv[2])
rows = {}
line_re = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)')
for sc in snap["scrapes"]:
    if not sc.get("ok"):
        continue
    ts = base + float(sc["t_s"])
    for line in sc["raw"].splitlines():
        m = line_re.match(line)
        if not m or line.startswith("#") or m.group(1).endswith("_created"):
            continue
        name, labels, value = m.group(1), (m.group(2) or "{}")[1:-1], m.group(3)
        labels = 'job="vllm",instance="drill"' + ("," + labels if labels else "")
        rows.setdefault(name, {}).setdefault(labels, []).append((ts, value))
for name in sorted(rows):
    print(f"# TYPE {name} unknown")
    for labels in sorted(rows[name]):
        last = None
        for ts, value in sorted(rows[name][labels]):
            if last is not None and ts <= last:
                continue
            print(f"{name}{{{labels}}} {value} {ts:.3f}")
            last = ts
print("# EOF")
PY
  data=$tmp/data-$s
  promtool tsdb create-blocks-from openmetrics "$tmp/run.om" "$data" > "$tmp/promtool.log" 2>&1 || { echo "$s: backfill failed"; tail -3 "$tmp/promtool.log"; continue; }
  prom_serve "$data"
  python3 - "$prom_url" "$tmp/rules.json" "$out" "$base" "$s" <<'PY'
import json, sys, urllib.parse, urllib.request
url, rules_file, out, base, name = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
snap = json.load(open(out + "/a/snapshot.json"))
ts = [base + float(s["t_s"]) for s in snap["scrapes"] if s.get("ok")]
drill = json.load(open(out + "/drill.json"))
exp = drill.get("expected") or {}
diag = json.load(open(out + "/diagnosis.json"))
top = diag["findings"][0] if diag.get("findings") else None
fired = []
for g in json.load(open(rules_file))["groups"]:
    for r in g["rules"]:
        if not r.get("alert"):
            continue
        q = urllib.parse.urlencode({"query": r["expr"], "start": min(ts) + 30, "end": max(ts), "step": 5}).encode()
        with urllib.request.urlopen(url + "/api/v1/query_range", q, timeout=60) as resp:
            j = json.load(resp)
        if j.get("status") == "success" and j["data"]["result"] and r["alert"] != "LLMTriageEngineTargetsAbsent":
            fired.append(f'{r["alert"].replace("LLMTriage", "")} ({r["labels"]["layer"]})')
print(f'{name:34s} {exp.get("layer", "?") + " / " + exp.get("symptom", "?"):44s} '
      f'{(top["id"] if top else "none"):28s} {", ".join(fired) or "none"}')
PY
  prom_stop
done
