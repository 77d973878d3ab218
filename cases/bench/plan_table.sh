#!/bin/sh
# The mapping table of docs/plan.md and the README: `tessel plan` on the
# graphs of cases/graphs/ for each mapping (chain = 1F1B, chain with split
# backward, interleaved, v, v with split backward), 4 ranks, N micro-batches,
# one memory limit per run. Per row, from `plan --json`: the makespan in
# GFLOP (the same unit in every plan), its ratio to the 1F1B chain at the
# same memory (the yardstick every plan builds), the bubble ratio, the
# outcome and the wall time. A plan that kept a chain over the asked mapping
# (not faster within the time limit) is marked with a `*`.
#
#   cases/bench/plan_table.sh [path/to/tessel]   (GRAPHS="gpt2-small vit-small gpt2-medium"
#                                                  MEMORY=8GiB N=8 TIME=60)
#   cases/bench/plan_table.sh --write [path/to/tessel]
#
# --write runs the documented set (every graph at 8GiB, GPT-2 medium also at
# 4GiB and 3GiB), writes cases/bench/plan_table.md and replaces the tables
# between the `plan_table:` markers of README.md and docs/plan.md, so that
# the numbers there are this script's, never copied by hand.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
write=0
if [ "${1:-}" = "--write" ]; then write=1; shift; fi
tessel=${1:-$here/build/tessel}
nmicros=${N:-8}
limit=${TIME:-60}
mappings="chain|chain --split-backward|interleaved|v|v --split-backward"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One plan: prints "graph memory mapping makespan ratio bubble outcome wall".
plan_row() {
  graph=$1 memory=$2 mapping=$3
  begin=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$tessel" plan "$here/cases/graphs/$graph.json" --devices 4 --mapping $mapping --memory "$memory" \
      --nmicros "$nmicros" --time-limit "$limit" --quiet --json -o "$out/plan" > "$out/answer.json" 2>/dev/null || true
  wall=$(echo "$(date +%s.%N) - $begin" | bc)
  asked=$(echo "$mapping" | sed 's/ --split-backward/+split/')
  fields=$(jq -r --arg asked "$asked" '[(.makespan // "-"), (if .ratio_to_1f1b then (.ratio_to_1f1b * 1000 | round / 1000) else "-" end),
      (if .bubble_ratio then (.bubble_ratio * 1000 | round / 1000) else "-" end),
      (if .status == "infeasible" then "no-fit" else .status end),
      (if (.mapping + (if .split_backward then "+split" else "" end)) == $asked then "" else "*" end)] | join(" ")' \
      "$out/answer.json" 2>/dev/null || echo "- - - none")
  set -f  # the marker is a literal *
  # shellcheck disable=SC2086
  set -- $fields
  ratio=$(awk -v r="$2" 'BEGIN { if (r == "-") print "-"; else printf "%.3f", r }')
  printf '%s %s %s %s %s%s %s %s %.2f\n' "$graph" "$memory" "$asked" "$1" "$ratio" "${5:-}" "$3" "$4" "$wall"
  set +f
}

# Every mapping of GRAPHS at MEMORY, appended to FILE.
plan_rows() {
  graphs=$1 memory=$2 file=$3
  for graph in $graphs; do
    IFS='|'
    for mapping in $mappings; do
      unset IFS
      row=$(plan_row "$graph" "$memory" "$mapping")
      echo "$row" >> "$file"
      echo "$row" | awk '{ printf "%-12s %-6s %-18s %14s %8s %7s %-9s %6s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
      IFS='|'
    done
    unset IFS
  done
}

# A markdown table of ratios to the chain, one line per (graph, memory).
summary() {
  awk '
    BEGIN { print "| model | memory | chain (1F1B) | chain, split | interleaved | v | v, split |";
            print "|---|---|---:|---:|---:|---:|---:|" }
    { key = $1 " | " $2; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
      # a trailing * on the ratio: the plan kept a chain over the asked mapping
      kept = sub(/\*$/, "", $5) ? "*" : ""
      cell[key, $3] = ($7 == "no-fit") ? "no fit" : ($5 == "-" ? "-" : $5 "x" kept) }
    END { for (i = 1; i <= n; i++) { k = order[i]; printf "| %s | %s | %s | %s | %s | %s |\n", k,
            cell[k, "chain"], cell[k, "chain+split"], cell[k, "interleaved"], cell[k, "v"], cell[k, "v+split"] } }' "$1"
}

# Replaces the lines between <!-- plan_table:NAME --> and <!-- /plan_table:NAME --> in FILE.
replace_block() {
  file=$1 name=$2 content=$3
  awk -v name="$name" -v content="$content" '
    $0 == "<!-- plan_table:" name " -->" { print; while ((getline line < content) > 0) print line; skip = 1; next }
    $0 == "<!-- /plan_table:" name " -->" { skip = 0 }
    !skip { print }' "$file" > "$file.tmp" && mv "$file.tmp" "$file"
}

printf '%-12s %-6s %-18s %14s %8s %7s %-9s %6s\n' graph memory mapping makespan vs_1f1b bubble outcome wall_s
if [ "$write" = 0 ]; then
  plan_rows "${GRAPHS:-gpt2-small vit-small gpt2-medium}" "${MEMORY:-8GiB}" "$out/rows"
  exit 0
fi
plan_rows "gpt2-small vit-small gpt2-medium" 8GiB "$out/models"
for memory in 4GiB 3GiB; do plan_rows gpt2-medium "$memory" "$out/memory"; done
grep gpt2-medium "$out/models" | cat - "$out/memory" > "$out/memory_all"
summary "$out/models" > "$out/models.md"
summary "$out/memory_all" > "$out/memory.md"
{
  echo "# The mapping table (cases/bench/plan_table.sh --write)"
  echo
  echo "\`tessel plan\` with 4 ranks, N = $nmicros, a ${limit} s limit per plan, one run on $(nproc) cores" \
       "shared with other jobs, $(date -u +%Y-%m-%d), at $(git -C "$here" rev-parse --short HEAD)."
  echo "Makespan in GFLOP (compute, the same unit in every plan); vs_1f1b: its ratio to the 1F1B chain at the same"
  echo "memory (the 1F1B order, with fewer micro-batches in flight when the memory does not hold D); a * marks a plan"
  echo "that kept a chain over the asked mapping (the search of the asked one found nothing faster in the time limit)."
  echo
  cat "$out/models.md"
  echo
  cat "$out/memory.md"
  echo
  echo '```'
  printf '%-12s %-6s %-18s %14s %8s %7s %-9s %6s\n' graph memory mapping makespan vs_1f1b bubble outcome wall_s
  cat "$out/models" "$out/memory" |
    awk '{ printf "%-12s %-6s %-18s %14s %8s %7s %-9s %6s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
  echo '```'
} > "$here/cases/bench/plan_table.md"
plan_doc=$here/docs/plan.md
replace_block "$here/README.md" models "$out/models.md"
replace_block "$plan_doc" models "$out/models.md"
replace_block "$plan_doc" memory "$out/memory.md"
echo "wrote cases/bench/plan_table.md, README.md and docs/plan.md tables"
