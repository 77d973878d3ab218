#!/usr/bin/env bash
# The stage-partitioning table (issue 7): the GPT-2-like graphs of
# cases/graphs/ into 2, 4 and 8 stages. Per row: nodes, the exact solve time
# and status (bottleneck objective, CaDiCaL), the bottleneck against the
# ideal total/S, the communication, how much the exact answer improves on the
# DP baseline (bottleneck, communication), and on the partition of the
# `pippy` objective (least communication, parameter bytes within 1 +- TOL of
# the mean; "infeasible" when no partition keeps that balance).
#
#   cases/bench/partition_table.sh [--jobs N] [path/to/tessel]     (TOL=0.1 TIME=60 BACKEND=cadical)
# --jobs N: N rows at a time (GNU parallel, cases/bench/rows.sh); default 1.
set -eu
source "$(dirname "$0")/rows.sh"
bench_parse_jobs "$@"
set -- ${bench_args[@]+"${bench_args[@]}"}
here=$(cd "$(dirname "$0")/../.." && pwd)
tessel=${1:-$here/build/tessel}
tol=${TOL:-0.1}
limit=${TIME:-60}
backend=${BACKEND:-cadical}
export here tessel tol limit backend
printf '%-12s %2s %5s %8s %-8s %8s %13s %12s %8s %8s %-22s\n' \
  graph S nodes solve_s status "bn/ideal" "bottleneck" "comm_bytes" "dp_bn%" "dp_comm%" "vs_pippy(tol=$tol)"
# One row: GRAPH STAGES.
partition_row() {
  local graph=$1 stages=$2 file nodes exact pippy versus
  file=$here/cases/graphs/$graph.json
  nodes=$(jq '.nodes | length' "$file")
  exact=$("$tessel" partition "$file" --stages "$stages" --backend "$backend" --time-limit "$limit" --json 2>/dev/null || true)
  pippy=$("$tessel" partition "$file" --stages "$stages" --objective pippy --tolerance "$tol" --backend "$backend" \
          --time-limit "$limit" --json 2>/dev/null || true)
  versus=$(printf '%s\n%s\n' "$exact" "$pippy" | jq -rs '
    if .[1].status == "infeasible" then "infeasible"
    elif (.[1].bottleneck // null) == null then .[1].status
    else "bn -\(((.[1].bottleneck - .[0].bottleneck) * 10000 / .[1].bottleneck | floor) / 100)% comm x\(((.[0].communication_bytes / .[1].communication_bytes) * 100 | floor) / 100)" end')
  printf '%s\n' "$exact" | jq -r --arg graph "$graph" --arg nodes "$nodes" --arg versus "$versus" '
    [$graph, .stages, $nodes, ((.solve_seconds * 1000 | floor) / 1000), .status,
     ((.bottleneck / .ideal_bottleneck * 10000 | floor) / 10000), .bottleneck, .communication_bytes,
     ((.improvement_over_dp.bottleneck * 10000 | floor) / 100), ((.improvement_over_dp.communication * 10000 | floor) / 100),
     $versus] | @tsv' |
    awk -F'\t' '{ printf "%-12s %2s %5s %8s %-8s %8s %13s %12s %8s %8s %-22s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 }'
}
export -f partition_row

for graph in gpt2-small gpt2-medium gpt2-large; do
  for stages in 2 4 8; do
    echo "$graph $stages"
  done
done | bench_rows partition_row
