#!/usr/bin/env bash
# Runs every fuzz target for a bounded number of inputs (and at most a
# bounded time each), seeded from tests/data, cases/ and files the tessel
# binary writes. Prints one line per target with the inputs it ran; exits 1
# when a target found a crash, a sanitizer report, a leak or a hang (the
# input is kept in BUILD/findings/).
#   fuzz/run.sh BUILD_FUZZ RUNS SECONDS [TESSEL_BINARY]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: fuzz/run.sh BUILD_FUZZ RUNS SECONDS [TESSEL_BINARY]}
runs=${2:-10000}
seconds=${3:-60}
tessel=${4:-$root/build/tessel}
seeds=$build/seeds
rm -rf "$seeds" && mkdir -p "$seeds" "$build/findings"

# Seeds: the fixtures the tests use (none over 64 KiB: large ones only slow
# every mutation down), plus outputs of the real binary when it is built.
copy() {  # copy TARGET PREFIX FILES...: each file, after a mode byte PREFIX
  local target=$1 prefix=$2; shift 2
  mkdir -p "$seeds/$target"
  for f in "$@"; do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] || continue
    { printf "$prefix"; cat "$f"; } > "$seeds/$target/$(printf "$prefix" | od -An -tx1 | tr -d ' ')$(basename "$f")"
  done
}
data=$root/tests/data
gen=$build/generated && rm -rf "$gen" && mkdir -p "$gen"
if [ -x "$tessel" ]; then (
  "$tessel" placement --case vshape --ndevs 2 -o "$gen/vshape.placement.json" 2>/dev/null
  "$tessel" placement --case mshape --ndevs 4 -o "$gen/mshape.placement.json" 2>/dev/null
  "$tessel" generate 1f1b --stages 2 --nmicros 4 -o "$gen/1f1b.schedule.json" 2>/dev/null
  "$tessel" search --case vshape --ndevs 2 --memory 2 --time-limit 5 -o "$gen/search.schedule.json" 2>/dev/null
  "$tessel" partition "$data/repro/graph_diamond.json" --stages 2 -o "$gen/diamond.partition.json" 2>/dev/null
  "$tessel" export --to pytorch-csv "$gen/1f1b.schedule.json" -o "$gen/1f1b.csv" 2>/dev/null
) >/dev/null; fi
copy placement "" "$data"/*.placement.json "$data"/repro/*.placement.json "$gen"/*.placement.json
copy schedule "" "$data"/*.schedule.json "$data"/repro/*.schedule.json "$data"/repro/sched_vshape.json \
  "$data"/repro/r03.input "$data"/repro/r06.input "$gen"/*.schedule.json
copy graph "" "$data"/repro/graph_*.json "$root"/cases/graphs/vit-small.json
copy partition "" "$data"/repro/partition_check_*.json "$data"/repro/r04.input "$gen"/*.partition.json
copy pytorch_csv '\x00' "$data"/pytorch/*.csv "$data"/zero_bubble/*.csv "$data"/repro/csv_1f1b.csv \
  "$data"/repro/r10.input "$gen"/*.csv
copy pytorch_csv '\x01' "$data"/pytorch/zb1p_2rank_2stagep_comms.csv
copy megatron_order '\x00' "$data"/megatron_*.json "$data"/repro/r01.input "$data"/repro/r05.input \
  "$data"/repro/r11.input "$data"/repro/megatron_int64_min.json
copy megatron_order '\x02' "$data"/megatron_moe_*.json
copy tessel_json '\x01' "$root"/fuzz/seeds/tessel_json/*.json "$data"/repro/tessel_json_step_5e8.json
copy tessel_json '\x04' "$root"/fuzz/seeds/tessel_json/*.json
copy limits "" "$root"/fuzz/seeds/limits/*
copy verify '\x00' "$data"/*.schedule.json "$data"/repro/*.schedule.json "$data"/repro/r03.input "$gen"/*.schedule.json
copy verify '\x01' "$gen"/*.schedule.json
copy verify '\x02' "$data"/repro/partition_check_*.json "$data"/repro/r04.input "$gen"/*.partition.json

failed=0
for target in placement schedule graph partition pytorch_csv megatron_order tessel_json limits verify; do
  corpus=$build/corpus/$target && mkdir -p "$corpus"
  log=$build/fuzz_$target.log
  # -timeout: one input past 10 s is a hang; leaks are findings too.
  "$build/fuzz_$target" -runs="$runs" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 \
    -max_len=16384 -dict="$root/fuzz/json.dict" -artifact_prefix="$build/findings/${target}-" \
    -print_final_stats=1 "$corpus" "$seeds/$target" >"$log" 2>&1
  status=$?
  done_runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  echo "fuzz $target: ${done_runs:-?} inputs, exit $status"
  if [ $status -ne 0 ]; then
    failed=1
    grep -m5 -E 'ERROR|runtime error|terminate|Test unit written' "$log"
  fi
done
exit $failed
