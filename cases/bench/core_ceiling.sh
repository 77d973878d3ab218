#!/usr/bin/env bash
# What a second core can give at most on this machine, for the hard list's
# own work: each row searched on one thread alone, then two copies of that
# same one-thread search at once. If the cores were independent, the pair
# would finish in the time of one; ceiling = 2 x alone / pair is the work
# per second two cores do against one (2.00x at best). Two threads of one
# search cannot beat it on the same work, so it is the yardstick for
# cases/bench/hard_list.sh's speedup column. On a shared virtual machine
# the two cores may share caches, memory bandwidth or a physical core.
#
# usage: cases/bench/core_ceiling.sh [TESSEL_BINARY] [LIST] [REPEATS]
#   LIST: "case:D:M ..." (default: hard_list.sh's list); REPEATS: runs of
#   each (alone, pair) taking turns, medians reported (default 3)
set -u
tessel=${1:-build/tessel}
list=${2:-"mllm:16:4 mllm:32:8 mllm:64:16 kshape:64:16"}
repeats=${3:-3}
if ! [[ "$repeats" =~ ^[1-9][0-9]*$ ]]; then
  echo "$(basename "$0"): REPEATS needs a whole number of at least 1, got '$repeats'" >&2
  exit 2
fi

search() {
  "$tessel" search --case "$1" --ndevs "$2" --memory "$3" --threads 1 --micros-per-window 1 \
    --tune boundary_seconds=0 --json >/dev/null 2>&1
}

# Seconds of wall time the command takes.
timed() {
  local begin
  begin=$(date +%s.%N)
  "$@"
  echo "$(date +%s.%N) - $begin" | bc
}

pair() {
  search "$@" &
  search "$@"
  wait
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-8s %3s %4s | %8s %8s | %7s\n' case D mem alone_s pair_s ceiling
total_alone=0 total_pair=0
for item in $list; do
  IFS=: read -r name ndevs memory <<< "$item"
  alone="" paired=""
  for ((r = 0; r < repeats; ++r)); do
    alone+="$(timed search "$name" "$ndevs" "$memory")"$'\n'
    paired+="$(timed pair "$name" "$ndevs" "$memory")"$'\n'
  done
  a=$(printf '%s' "$alone" | median) p=$(printf '%s' "$paired" | median)
  printf '%-8s %3s %4s | %8.1f %8.1f | %6sx\n' "$name" "$ndevs" "$memory" "$a" "$p" "$(echo "scale=2; 2 * $a / $p" | bc)"
  total_alone=$(echo "$total_alone + $a" | bc) total_pair=$(echo "$total_pair + $p" | bc)
done
printf '%-8s %3s %4s | %8.1f %8.1f | %6sx\n' total "" "" "$total_alone" "$total_pair" \
  "$(echo "scale=2; 2 * $total_alone / $total_pair" | bc)"
