#!/usr/bin/env bash
# The repetend search on the paper's 4-device cases (training at memory 4
# and 6, inference), one table in one run: period, its lower bound L, the
# proven lower bound, the makespan at 128 micro-batches against its bound,
# and the solve time (period_s: deciding the period and the latency; total_s:
# with warmup/cooldown, whose solver budget is --boundary-seconds), beside the Python Tessel's numbers for the same case
# (its results CSV given as TESSEL_REFERENCE, suite a; "-" where it has none).
#
# usage: cases/bench/search_table.sh [--jobs N] [TESSEL_BINARY] [BACKEND] [TIME_LIMIT_SECONDS] [BOUNDARY_SECONDS]
# --jobs N: N rows at a time (GNU parallel, cases/bench/rows.sh); default 1.
set -u
source "$(dirname "$0")/rows.sh"
bench_parse_jobs "$@"
set -- "${bench_args[@]}"
tessel=${1:-build/tessel}
backend=${2:-z3}
limit=${3:-600}
boundary=${4:-20}
repo=$(cd "$(dirname "$0")/../.." && pwd)
reference=${TESSEL_REFERENCE:-$repo/cases/paper/reference/python-tessel-results.csv}   # the Python Tessel's results
export tessel backend limit boundary reference

# Python Tessel, suite a: "period makespan128 search_seconds" for placement/memory/infer.
reference_of() {
  [ -f "$reference" ] || { echo "- - -"; return; }
  awk -F, -v p="$1" -v m="$2" -v i="$3" '
    $1 == "a" && $4 == p && $7 == m && $8 == i {
      if ($9 == "found") print $17, $20, $11; else print "none", "-", $11; found = 1 }
    END { if (!found) print "- - -" }' "$reference"
}

printf '%-8s %-5s %3s | %6s %3s %6s %3s %3s %8s %8s %5s %8s %8s | %7s %9s %8s\n' \
  case mode mem period L proven opt K ms128 bound128 gap period_s total_s ref_per ref_ms128 ref_sec
# One row: NAME MODE MEMORY.
search_row() {
  local name=$1 mode=$2 memory=$3 infer_flag infer_key json code ref_period ref_ms ref_sec
  infer_flag="" infer_key=False
  [ "$mode" = infer ] && infer_flag="--infer" infer_key=True
  json=$("$tessel" search --case "$name" --ndevs 4 $infer_flag --memory "$memory" --backend "$backend" \
           --time-limit "$limit" --tune boundary_seconds="$boundary" --json 2>/dev/null)
  code=$?
  read -r ref_period ref_ms ref_sec <<<"$(reference_of "$name" "$memory" "$infer_key")"
  if [ -z "$json" ]; then
    printf '%-8s %-5s %3s | exit %d\n' "$name" "$mode" "$memory" "$code"
    return
  fi
  echo "$json" | jq -r --arg n "$name" --arg mo "$mode" --arg me "$memory" \
    --arg rp "$ref_period" --arg rm "$ref_ms" --arg rs "$ref_sec" '
    [$n, $mo, $me,
     (.period|tostring), (.lower_bound|tostring), (.proven_lower_bound|tostring),
     (if .optimal then "yes" else "no" end), (.nmicros_in_flight|tostring),
     (.makespan_at_total|tostring), (.makespan_bound_at_total|tostring),
     ((.makespan_at_total - .makespan_bound_at_total)|tostring),
     (((.phase_seconds.period // 0) + (.phase_seconds.latency // 0))*1000|round/1000|tostring),
     (.solve_seconds*1000|round/1000|tostring), $rp, $rm, $rs] | @tsv' |
    awk -F'\t' '{ printf "%-8s %-5s %3s | %6s %3s %6s %3s %3s %8s %8s %5s %8s %8s | %7s %9s %8s\n",
                  $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16 }'
}
export -f search_row reference_of

for name in vshape xshape mshape nnshape kshape; do
  for setting in "train 4" "train 6" "infer 4"; do
    echo "$name $setting"
  done
done | bench_rows search_row
