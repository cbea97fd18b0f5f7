#!/usr/bin/env bash
# diagnose on a large engine log: how much of `llmtriage diagnose --log` is reading the log and how
# much is the analysis. The same synthetic vLLM V1 log (bench_log_ingest's realistic mix) is parsed
# by the reader alone (bench_log_ingest, best of 2) and diagnosed end to end (best of 2), same run.
# Usage: bench/diagnose_log_split.sh BUILD_DIR [MiB]
set -euo pipefail
build=${1:?build dir}
mib=${2:-1024}
log=/tmp/llmtriage_diagnose_split.log
"$build/bench/bench_log_ingest" "$mib" "$log" keep | grep -E "^(file|ours|grep|ratio)"
best=1e30
for i in 1 2; do
  t0=$(date +%s.%N)
  "$build/llmtriage" diagnose --log "$log" --no-what-if --json > /tmp/llmtriage_diagnose_split.json || true
  t1=$(date +%s.%N)
  best=$(python3 -c "print(min($best, $t1 - $t0))")
done
echo "diagnose --log (end to end, best of 2): ${best} s"
python3 - <<PY
import json
j = json.load(open("/tmp/llmtriage_diagnose_split.json"))
print("findings:", [f["id"] for f in j["findings"]][:5])
print("inputs:", [i["note"][:100] for i in j["inputs"]])
PY
rm -f "$log" /tmp/llmtriage_diagnose_split.json
