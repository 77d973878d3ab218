#!/usr/bin/env bash
# The hard instances of the repetend search (period refutations that take
# tens of seconds to minutes on one core), each run with --threads 1 and
# --threads 2 in turn, REPEATS times, in the same session, so that the 2/1
# speedup is read from one run of the machine however loaded it is. Windows
# k = 1 only and no boundary shortening: the time is the period proof and
# the latency, which the threads share, plus the makespan phases at 128
# micro-batches (a plan of 4.5 s from the start, at least 1 s after the
# period, which the threads do not shorten). Columns: status, period
# found, proven bound (optimal when equal), the median seconds of each
# thread count, and speedup = t1 / t2. Every run's schedule is checked by
# `tessel verify` (column verified: every run's); the last line sums the
# list. With 2 threads a program's periods take both threads (their phase
# choices shared), the solver's periods are raced, the latency has a second
# solver and the last hard period is split into cubes (docs/algorithms.md,
# "Threads" and the latency in "The repetend as a modulo schedule"); 1
# thread is the plain descent. What two cores can give at most on this
# work: cases/bench/core_ceiling.sh.
#
# The default list is what is hard today: mllm at memory D/4, whose periods
# above the chain program's reach go to SAT, and kshape 64/16 (a scan of
# the built-in cases on 16-64 devices at memory D/4 and D/2, one thread,
# 2026-11-27: every other row decided within 5 s). The list of before
# (nnshape 32/24, xshape 16/8 and 32/16, nnshape 64/32) is decided by the
# chain and crossed-chains programs in 2-5 s on either thread count; with
# "--tune period_method=1" it measures the SAT machinery on them.
#
# usage: cases/bench/hard_list.sh [TESSEL_BINARY] [TIME_LIMIT_SECONDS] [LIST] [FLAGS] [REPEATS]
#   LIST: "case:D:M ..." (default: the four hard instances below)
#   FLAGS: more `search` flags for every run, e.g. "--tune period_method=1"
#     to decide the periods by the unit-step encoding instead of the
#     chains' programs (the SAT machinery the threads share)
#   REPEATS: runs of each thread count per row, 1 and 2 threads taking
#     turns (default 3); each column is the median of its runs, so that
#     one run slowed by another job on the machine does not make the ratio
#     (single runs of the same row moved by 30% here)
set -u
tessel=${1:-build/tessel}
limit=${2:-300}
list=${3:-"mllm:16:4 mllm:32:8 mllm:64:16 kshape:64:16"}
read -r -a flags <<< "${4:-}"
repeats=${5:-3}
if ! [[ "$repeats" =~ ^[1-9][0-9]*$ ]]; then
  echo "$(basename "$0"): REPEATS needs a whole number of at least 1, got '$repeats'" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run: prints "status period proven seconds verified".
run() {
  local name=$1 ndevs=$2 memory=$3 threads=$4
  local begin json code wall verified
  begin=$(date +%s.%N)
  json=$("$tessel" search --case "$name" --ndevs "$ndevs" --memory "$memory" --threads "$threads" \
           --micros-per-window 1 --time-limit "$limit" --tune boundary_seconds=0 \
           --repetend-output "$work/schedule.json" --json "${flags[@]}" 2>/dev/null)
  code=$?
  wall=$(echo "$(date +%s.%N) - $begin" | bc)
  verified=no
  [ -s "$work/schedule.json" ] && "$tessel" verify "$work/schedule.json" >/dev/null 2>&1 && verified=yes
  rm -f "$work/schedule.json"
  if [ -z "$json" ]; then
    echo "error($code) - - $wall $verified"
    return
  fi
  echo "$json" | jq -r --arg w "$wall" --arg v "$verified" \
    '[.status, (.period // "-" | tostring), (.proven_lower_bound|tostring), $w, $v] | join(" ")'
}

printf '%-8s %3s %4s | %-13s %6s %6s | %8s %8s | %7s | %s\n' \
  case D mem status period proven t1_s t2_s speedup verified
total1=0 total2=0
# The median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for item in $list; do
  IFS=: read -r name ndevs memory <<< "$item"
  times1="" times2="" v1=yes v2=yes
  for ((r = 0; r < repeats; ++r)); do
    read -r s1 p1 b1 t v <<< "$(run "$name" "$ndevs" "$memory" 1)"
    times1+="$t"$'\n'; [ "$v" = yes ] || v1=no
    read -r s2 p2 b2 t v <<< "$(run "$name" "$ndevs" "$memory" 2)"
    times2+="$t"$'\n'; [ "$v" = yes ] || v2=no
  done
  t1=$(printf '%s' "$times1" | median) t2=$(printf '%s' "$times2" | median)
  speedup=$(echo "scale=2; $t1 / $t2" | bc)
  status=$s1 period=$p1 proven=$b1
  # Different answers (one thread count timed out): both, 1 thread first.
  [ "$s1:$p1:$b1" != "$s2:$p2:$b2" ] && status="$s1/$s2" period="$p1/$p2" proven="$b1/$b2"
  printf '%-8s %3s %4s | %-13s %6s %6s | %8.1f %8.1f | %6sx | %s\n' \
    "$name" "$ndevs" "$memory" "$status" "$period" "$proven" "$t1" "$t2" "$speedup" "$v1/$v2"
  total1=$(echo "$total1 + $t1" | bc) total2=$(echo "$total2 + $t2" | bc)
done
# The whole list, as a user running it would wait for it (a time-out counts
# as its limit, so a row that times out on one thread understates the ratio).
printf '%-8s %3s %4s | %-13s %6s %6s | %8.1f %8.1f | %6sx |\n' \
  total "" "" "" "" "" "$total1" "$total2" "$(echo "scale=2; $total1 / $total2" | bc)"
