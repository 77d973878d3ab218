#!/bin/sh
# The mapping table of docs/plan.md: `tessel plan` on the graphs of
# cases/graphs/ for each mapping (chain = 1F1B, chain with split backward,
# interleaved, v, v with split backward), 4 ranks, N micro-batches, one
# memory limit per run. Per row: the makespan in the graph's compute unit
# (steps x step size, so plans of different step sizes compare), its ratio
# to the chain's, the bubble ratio, the outcome and the wall time.
#
#   cases/bench/plan_table.sh [path/to/tessel]   (GRAPHS="gpt2-small vit-small gpt2-medium"
#                                                  MEMORY=8GiB N=8 TIME=60)
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
tessel=${1:-$here/build/tessel}
graphs=${GRAPHS:-gpt2-small vit-small gpt2-medium}
memory=${MEMORY:-8GiB}
nmicros=${N:-8}
limit=${TIME:-60}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-12s %-18s %14s %8s %7s %-9s %6s\n' graph mapping makespan vs_chain bubble outcome wall_s
for graph in $graphs; do
  chain=""
  for mapping in "chain" "chain --split-backward" "interleaved" "v" "v --split-backward"; do
    begin=$(date +%s.%N)
    # shellcheck disable=SC2086
    line=$("$tessel" plan "$here/cases/graphs/$graph.json" --devices 4 --mapping $mapping --memory "$memory" \
           --nmicros "$nmicros" --time-limit "$limit" --quiet -o "$out/plan" 2>/dev/null | head -1 || true)
    wall=$(echo "$(date +%s.%N) - $begin" | bc)
    makespan=$(echo "$line" | sed -n 's/.*= \([0-9.e+]*\) compute.*/\1/p')
    bubble=$(echo "$line" | sed -n 's/.*bubble ratio \([0-9.]*\).*/\1/p')
    outcome=$(echo "$line" | sed -n 's/.*(\([a-z]*\), verified).*/\1/p')
    case $line in *"no schedule"*) outcome=no-fit ;; esac
    [ -z "$chain" ] && chain=$makespan
    ratio=$(awk -v a="${makespan:-0}" -v b="${chain:-0}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
    printf '%-12s %-18s %14s %8s %7s %-9s %6.2f\n' "$graph" "$(echo "$mapping" | sed 's/ --split-backward/+split/')" \
      "${makespan:--}" "$ratio" "${bubble:--}" "${outcome:-none}" "$wall"
  done
done
