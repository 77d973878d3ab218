#!/usr/bin/env bash
# Every built-in case on 4 devices, training at memory 4 and 6 and inference
# at memory 4, with the default search (CaDiCaL, windows k = 1..4): one
# markdown table in one run, written whole to stdout so that docs/results.md
# links a file the script made instead of a table copied by hand. Each
# schedule is checked again by `tessel verify`. Period `19/2` is a window of
# 19 steps for 2 micro-batches, and so is its proven bound; L is per
# micro-batch; bound = the idle-aware bound at 128.
#
# usage: cases/bench/all_cases_table.sh [TESSEL_BINARY] [TIME_LIMIT_SECONDS] > cases/bench/all_cases_table.md
set -u
tessel=${1:-build/tessel}
limit=${2:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "# Every built-in case on 4 devices (cases/bench/all_cases_table.sh)"
echo
echo "Command: \`cases/bench/all_cases_table.sh $tessel $limit\`, one run, $(nproc) cores, $(date -u +%Y-%m-%d),"
echo "commit $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown)."
echo
echo "| case | memory | period | L | proven bound | makespan @128 | bound @128 | K | seconds | exit | verified |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
total_begin=$(date +%s.%N)
for name in vshape xshape mshape nnshape nnshape_eager kshape mllm finetune alphafold; do
  for setting in "4" "6" "4 infer"; do
    memory=${setting%% *}
    infer=""
    [ "$setting" != "${setting% infer}" ] && infer="--infer"
    json=$("$tessel" search --case "$name" --ndevs 4 --memory "$memory" $infer --time-limit "$limit" \
             --json --quiet -o "$work/s.json" 2>/dev/null)
    code=$?
    verified=False
    "$tessel" verify "$work/s.json" >/dev/null 2>&1 && verified=True
    if [ -z "$json" ]; then
      echo "| $name | $setting | error | | | | | | | $code | $verified |"
      continue
    fi
    echo "$json" | jq -r --arg n "$name" --arg m "$setting" --arg c "$code" --arg v "$verified" '
      "| \($n) | \($m) | "
      + (if (.micros_per_period // 1) > 1 then "\(.period)/\(.micros_per_period)" else "\(.period)" end)
      + " | \(.lower_bound / (.micros_per_period // 1) | floor)"
      + (if (.micros_per_period // 1) > 1 then " | \(.proven_lower_bound)/\(.micros_per_period)" else " | \(.proven_lower_bound)" end)
      + " | \(.makespan_at_total) | \(.makespan_bound_at_total)"
      + " | \(.nmicros_in_flight) | \(.solve_seconds*100|round/100) | \($c) | \($v) |"'
  done
done
echo
echo "All $(( 9 * 3 )) searches: $(echo "$(date +%s.%N) - $total_begin" | bc | cut -c1-6) s."
