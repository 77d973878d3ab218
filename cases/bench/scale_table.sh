#!/usr/bin/env bash
# The exact repetend search at scale (issue 8 item 3): mshape, nnshape,
# xshape and kshape on 8, 16, 32 and 64 devices under memory D/2, D and 2D,
# automatic windows (k = 1 .. 4, k > 1 within WINDOW_SECONDS), one table in one run: status (found /
# infeasible, both proven, or TIMEOUT with the best schedule so far), the
# best average period P_k / k with its k, the per-micro-batch bound L, the
# proven bound on P_k for the chosen k, whether that is optimal, and the
# search time (seconds = solve_seconds: period, latency, windows; the
# warmup/cooldown shortening is --boundary-seconds, 0 here by default so the
# time is the search itself) and k1_s, the part spent deciding k = 1 (period
# and latency; the rest is the k > 1 share). Targets on 2 cores: 16 devices
# < 1 s, 32 < 5 s, 64 < 30 s.
#
# usage: cases/bench/scale_table.sh [--jobs N] [TESSEL_BINARY] [BACKEND] [TIME_LIMIT_SECONDS] [BOUNDARY_SECONDS] [WINDOW_SECONDS]
# --jobs N: N rows at a time (GNU parallel, cases/bench/rows.sh); default 1.
# Rows running side by side share the cores, so their times are not those of a quiet machine.
set -u
source "$(dirname "$0")/rows.sh"
bench_parse_jobs "$@"
set -- "${bench_args[@]}"
tessel=${1:-build/tessel}
backend=${2:-cadical}
limit=${3:-30}
boundary=${4:-0}
windows=${5:-5}
export tessel backend limit boundary windows

printf '%-8s %3s %4s | %-10s %7s %2s %3s %9s %3s %8s %7s %4s\n' \
  case D mem status avg_per k L proven_Pk opt seconds k1_s exit
# One row: NAME DEVICES MEMORY.
scale_row() {
  local name=$1 ndevs=$2 memory=$3 begin json code wall
  begin=$(date +%s.%N)
  json=$("$tessel" search --case "$name" --ndevs "$ndevs" --memory "$memory" --backend "$backend" \
           --time-limit "$limit" --tune boundary_seconds="$boundary" --tune window_seconds="$windows" --json 2>/dev/null)
  code=$?
  wall=$(echo "$(date +%s.%N) - $begin" | bc)
  if [ -z "$json" ]; then
    printf '%-8s %3s %4s | %-10s %54s %4s\n' "$name" "$ndevs" "$memory" error "wall $wall s" "$code"
    return
  fi
  echo "$json" | jq -r --arg n "$name" --arg d "$ndevs" --arg m "$memory" --arg c "$code" '
    [$n, $d, $m,
     (if .status == "timeout" then "TIMEOUT" else .status end),
     (if .average_period == null then "-" else (.average_period*100|round/100|tostring) end),
     (if .micros_per_period == null or .micros_per_period == 0 then "-" else (.micros_per_period|tostring) end),
     (if .period_lower_bound_per_micro == null then (.lower_bound|tostring)
      else (.period_lower_bound_per_micro|tostring) end),
     (.proven_lower_bound|tostring),
     (if .optimal then "yes" else "no" end),
     (.solve_seconds*100|round/100|tostring),
     (if (.windows // []) | length > 0 then (.windows[0].seconds*100|round/100|tostring) else "-" end),
     $c] | @tsv' |
    awk -F'\t' '{ printf "%-8s %3s %4s | %-10s %7s %2s %3s %9s %3s %8s %7s %4s\n",
                  $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12 }'
}
export -f scale_row

for name in mshape nnshape xshape kshape; do
  for ndevs in 8 16 32 64; do
    for memory in $((ndevs / 2)) $ndevs $((ndevs * 2)); do
      echo "$name $ndevs $memory"
    done
  done
done | bench_rows scale_row
