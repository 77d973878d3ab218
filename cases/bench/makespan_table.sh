#!/usr/bin/env bash
# Makespans at 128 micro-batches against their lower bound (issue 8 item 4):
# every built-in paper case on 4 devices (the configurations of suite a of
# the Python Tessel's reference: 5 placements x training memory 4 and 6,
# inference memory 4) beside the Python Tessel's makespan128, then the same
# placements on 8 and 16 devices (training memory D and 2D, inference memory
# D; ours alone). Columns: the repetend's period and L, the makespan at 128,
# the idle-aware bound and the simple bound (solver/makespan/closed_bound/makespan_bound.hpp), the
# gap to the idle-aware bound in steps and %, and for gaps above 1% the
# reason `tessel search` gives, and where it gives one, the staged schedule
# `search` then builds (memory-free all-device blocks batched first and last,
# solver/makespan/constructions/staged_schedule.hpp; built for N = 128 only, it does not unroll).
# Every schedule is verified by `search` itself
# (exit 4 otherwise) and again here with `tessel verify`.
#
# usage: cases/bench/makespan_table.sh [--jobs N] [TESSEL_BINARY] [BACKEND] [TIME_LIMIT_SECONDS] [BOUNDARY_SECONDS] [DEVICES...]
# --jobs N: N rows at a time (GNU parallel, cases/bench/rows.sh); default 1.
set -u
source "$(dirname "$0")/rows.sh"
bench_parse_jobs "$@"
set -- "${bench_args[@]}"
tessel=${1:-build/tessel}
backend=${2:-cadical}
limit=${3:-120}
boundary=${4:-20}
shift $(( $# < 4 ? $# : 4 ))
devices=${*:-4 8 16}
repo=$(cd "$(dirname "$0")/../.." && pwd)
reference=${TESSEL_REFERENCE:-$repo/cases/paper/reference/python-tessel-results.csv}   # the Python Tessel's results
export tessel backend limit boundary reference

# The Python Tessel's makespan128, suite a (4 devices), "-" where it has none.
python_of() {
  [ "$1" = 4 ] && [ -f "$reference" ] || { echo "-"; return; }
  awk -F, -v p="$2" -v m="$3" -v i="$4" '
    $1 == "a" && $4 == p && $7 == m && $8 == i { print ($9 == "found" ? $20 : $9); found = 1 }
    END { if (!found) print "-" }' "$reference"
}

echo "| case | devices | mode | memory | period | L | makespan @128 | bound @128 | simple bound | Python Tessel @128 | gap | gap % | seconds | exit | why (gap > 1%) | staged @128 | staged gap % |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
# One row: NAME DEVICES MODE MEMORY.
makespan_row() {
  local name=$1 ndevs=$2 mode=$3 memory=$4
  local work code seconds python verified infer_flag infer_key start
  work=$(mktemp -d)
  infer_flag="" infer_key=False
  [ "$mode" = infer ] && infer_flag="--infer" infer_key=True
  echo "$name $ndevs $mode $memory" >&2
  start=$(date +%s.%N)
  "$tessel" search --case "$name" --ndevs "$ndevs" $infer_flag --memory "$memory" --backend "$backend" \
    --time-limit "$limit" --tune boundary_seconds="$boundary" --json -o "$work/s.json" >"$work/out.json" 2>/dev/null
  code=$?
  seconds=$(echo "$(date +%s.%N) - $start" | bc | xargs printf '%.2f')
  python=$(python_of "$ndevs" "$name" "$memory" "$infer_key")
  if [ "$code" != 0 ] && [ "$code" != 3 ]; then
    echo "| $name | $ndevs | $mode | $memory | | | | | | $python | | | $seconds | $code | no schedule | | |"
    rm -rf "$work"
    return
  fi
  verified=$("$tessel" verify "$work/s.json" >/dev/null 2>&1 && echo "" || echo " NOT VERIFIED")
  jq -r --arg n "$name" --arg d "$ndevs" --arg mo "$mode" --arg me "$memory" --arg py "$python" \
    --arg s "$seconds" --arg c "$code" --arg v "$verified" '
    "| \($n) | \($d) | \($mo) | \($me) | \(.period) | \(.period_lower_bound_per_micro // .lower_bound) | \(.makespan_at_total) | " +
    "\(.makespan_bound_at_total) | \(.makespan_simple_bound_at_total) | \($py) | \(.makespan_gap_at_total) | " +
    "\((.makespan_gap_at_total / .makespan_bound_at_total * 1000 | round) / 10) | \($s) | \($c)\($v) | " +
    "\(.makespan_gap_reason) | \(.staged_makespan_at_total // "-") | " +
    "\(if .staged_makespan_at_total then ((.staged_makespan_at_total - .makespan_bound_at_total) / .makespan_bound_at_total * 1000 | round) / 10 else "-" end) |"' "$work/out.json"
  rm -rf "$work"
}
export -f makespan_row python_of

for ndevs in $devices; do
  for name in vshape xshape mshape nnshape kshape mllm; do
    [ "$ndevs" = 4 ] && settings="train 4 train 6 infer 4" || settings="train $ndevs train $((2 * ndevs)) infer $ndevs"
    set -- $settings
    while [ $# -ge 2 ]; do
      echo "$name $ndevs $1 $2"
      shift 2
    done
  done
done | bench_rows makespan_row
