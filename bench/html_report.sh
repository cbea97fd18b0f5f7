#!/usr/bin/env bash
# The HTML report's size and render time for 1k, 10k and 100k requests (issue 16), against reading
# the same folder without drawing in the same run: `llmtriage report DIR --html` vs `llmtriage
# records summary DIR/records.jsonl --json` (both read and parse the same records; the ratio is
# what drawing adds). Synthetic bench folders from bench/html_report_gen.py (100 requests/s, one
# scrape a second).
# Usage: bench/html_report.sh BUILD_DIR [N ...]
set -euo pipefail
build=${1:?usage: bench/html_report.sh BUILD_DIR [N ...]}
shift
sizes=("${@:-1000 10000 100000}")
[ $# -eq 0 ] && sizes=(1000 10000 100000)
bin="$build/llmtriage"
[ -x "$bin" ] || { echo "no $bin: build the llmtriage target first" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT='%R'
printf '%8s %12s %10s %12s %8s\n' requests "page bytes" "render s" "read-only s" ratio
for n in "${sizes[@]}"; do
  d="$tmp/run$n"
  mkdir -p "$d"
  python3 "$here/html_report_gen.py" "$n" "$d"
  r=$( { time "$bin" report "$d" --html "$tmp/p$n.html" >/dev/null 2>&1; } 2>&1 | tail -1)
  s=$( { time "$bin" records summary "$d/records.jsonl" --json >/dev/null 2>&1; } 2>&1 | tail -1)
  printf '%8d %12d %10s %12s %8.2f\n' "$n" "$(stat -c %s "$tmp/p$n.html")" "$r" "$s" "$(echo "$r / $s" | bc -l)"
done
