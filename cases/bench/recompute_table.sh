#!/bin/sh
# Memory traded for time (docs/algorithms.md, "Memory traded for time"):
# the default search on nnshape and mllm, 8 and 16 devices, N = 128, at
# memory D and 2D, without offers and with recomputation offered on every
# forward block at its own span (cases/bench/offer_recompute.py). Prints one
# row per case: makespan without, with, the change, what was recomputed,
# the search's seconds with offers; every schedule is checked by
# `tessel verify`.  Usage: cases/bench/recompute_table.sh [build/tessel]
set -eu
tessel=${1:-build/tessel}
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| case | D | memory | without | with recompute | change | recomputed | seconds (with) |"
echo "|---|---:|---:|---:|---:|---:|---|---:|"
for case in nnshape mllm; do
  for d in 8 16; do
    "$tessel" placement --case "$case" --ndevs "$d" -o "$work/p.json" >/dev/null
    python3 "$here/offer_recompute.py" "$work/p.json" -o "$work/r.json" 2>/dev/null
    for memory in "$d" $((2 * d)); do
      "$tessel" search --placement "$work/p.json" --memory "$memory" --total-micros 128 -o "$work/a.json" >/dev/null 2>&1
      start=$(date +%s.%N)
      "$tessel" search --placement "$work/r.json" --memory "$memory" --total-micros 128 -o "$work/b.json" \
        >"$work/b.txt" 2>/dev/null
      seconds=$(echo "$(date +%s.%N) - $start" | bc)
      a=$("$tessel" verify "$work/a.json" | sed -n 's/^makespan: //p')
      b=$("$tessel" verify "$work/b.json" | sed -n 's/^makespan: //p')
      traded=$(sed -n 's/^memory traded *//p' "$work/b.txt" | sed 's/ (.*//; s/recomputes //')
      case "$traded" in *x*) count=$(echo "$traded" | tr ',' '\n' | sed 's/.*x//' | paste -sd+ | bc)
                              traded="$count instances ($(echo "$traded" | tr ',' '\n' | wc -l) blocks)";; esac
      change=$(echo "scale=1; 100 * ($b - $a) / $a" | bc)
      printf '| %s | %s | %s | %s | %s | %s%% | %s | %.1f |\n' "$case" "$d" "$memory" "$a" "$b" "$change" "$traded" "$seconds"
    done
  done
done
