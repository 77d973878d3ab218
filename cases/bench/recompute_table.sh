#!/bin/sh
# Memory traded for time (docs/algorithms.md, "Memory traded for time"):
# the default search on nnshape and mllm, 8 and 16 devices, N = 128, at
# memory D and 2D, without offers and with recomputation offered on every
# forward block at its own span (cases/bench/offer_recompute.py). Prints one
# row per case: makespan without, with, the change, what was recomputed,
# the period kept, the one found with a recompute chosen per forward and the
# proven period bound, the search's seconds with offers; every schedule is checked by
# `tessel verify`. A second table offers offload at memory D (each copy as
# long as the forward), alone and beside recomputation, with the same
# periods and each search's seconds.
# Usage: cases/bench/recompute_table.sh [build/tessel]
set -eu
tessel=${1:-build/tessel}
# "f0 x3, f1 x2" -> "5 instances (2 blocks)", "nothing" as it is.
count() {
  case "$1" in *x*) n=$(echo "$1" | tr ',' '\n' | sed 's/.*x//' | paste -sd+ | bc)
                    echo "$n instances ($(echo "$1" | tr ',' '\n' | wc -l) blocks)";;
               *) echo "${1:-nothing}";; esac
}
# The makespan of a schedule the verifier accepts, or "skipped" when the
# search wrote its repetend only (too close to the limit to build the answer
# at N on a loaded machine); change A B: B against A in percent.
checked() {
  if [ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["nmicros"])' "$1")" != 128 ]; then
    echo skipped; return
  fi
  "$tessel" verify "$1" | sed -n 's/^makespan: //p'
}
# "kept; chosen; proven" from a search's output: the period kept, the one
# found with a recompute or an offload chosen per forward, the proven bound.
periods() {
  kept=$(sed -n 's/^period  *\([0-9]*\) .*/\1/p' "$1")
  chosen=$(sed -n 's/^with recompute   period \([0-9]*\).*/\1/p' "$1")
  proven=$(sed -n 's/^period .*proven lower bound \([0-9]*\).*/\1/p' "$1")
  echo "$kept; ${chosen:--}; $proven"
}
change() {
  case "$1$2" in *skipped*) echo "n/a";; *) echo "$(echo "scale=1; 100 * ($2 - $1) / $1" | bc)%";; esac
}
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| case | D | memory | without | with recompute | change | recomputed | period kept; chosen; proven >= | seconds (with) |"
echo "|---|---:|---:|---:|---:|---:|---|---|---:|"
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
      # The period kept, the one found with a recompute chosen per forward, the proven bound.
      periods=$(periods "$work/b.txt")
      printf '| %s | %s | %s | %s | %s | %s%% | %s | %s | %.1f |\n' "$case" "$d" "$memory" "$a" "$b" "$change" "$traded" \
        "$periods" "$seconds"
    done
  done
done
echo
echo "| case | D | memory | without | offload only | change | offloaded | period kept; chosen; proven >= | seconds (offload) | both offered | change | recomputed; offloaded | period kept; chosen; proven >= | seconds (both) |"
echo "|---|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---|---|---:|"
for case in nnshape mllm; do
  for d in 8 16; do
    "$tessel" placement --case "$case" --ndevs "$d" -o "$work/p.json" >/dev/null
    python3 "$here/offer_recompute.py" "$work/p.json" --offload 1 --no-recompute -o "$work/o.json" 2>/dev/null
    python3 "$here/offer_recompute.py" "$work/p.json" --offload 1 -o "$work/ro.json" 2>/dev/null
    "$tessel" search --placement "$work/p.json" --memory "$d" --total-micros 128 -o "$work/a.json" >/dev/null 2>&1
    start=$(date +%s.%N)
    "$tessel" search --placement "$work/o.json" --memory "$d" --total-micros 128 -o "$work/b.json" \
      >"$work/b.txt" 2>/dev/null
    offload_seconds=$(echo "$(date +%s.%N) - $start" | bc)
    start=$(date +%s.%N)
    "$tessel" search --placement "$work/ro.json" --memory "$d" --total-micros 128 -o "$work/c.json" \
      >"$work/c.txt" 2>/dev/null
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    a=$(checked "$work/a.json"); b=$(checked "$work/b.json"); c=$(checked "$work/c.json")
    offloaded=$(sed -n 's/^memory traded *//p' "$work/b.txt" | sed 's/ (best.*//; s/.*offloads //; s/recomputes nothing//')
    both=$(sed -n 's/^memory traded *//p' "$work/c.txt" | sed 's/ (best.*//; s/ ([^)]* of device time)//')
    recomputed=$(echo "$both" | sed -n 's/^recomputes \([^;]*\).*/\1/p')
    copied=$(echo "$both" | sed -n 's/.*offloads //p')
    both="recomputed $(count "$recomputed"); offloaded $(count "$copied")"
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s | %s | %s | %.1f |\n' "$case" "$d" "$d" "$a" "$b" \
      "$(change "$a" "$b")" "$(count "$offloaded")" "$(periods "$work/b.txt")" "$offload_seconds" "$c" \
      "$(change "$a" "$c")" "$both" "$(periods "$work/c.txt")" "$seconds"
  done
done
