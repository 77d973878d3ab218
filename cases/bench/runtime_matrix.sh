#!/bin/sh
# The runtime's targets (docs/runtime.md): the tiny GPT and encoder-decoder
# of tests/python/runtime_models.py (float64), planned with every mapping
# (chain, interleaved, v), with and without split backward, on 2 and 4
# ranks (4 micro-batches), each run by `tessel run` for 2 steps with
# traces, then checked by `tessel verify --trace`. One row per run: the run's
# wall time (processes started to finished), the largest relative gradient
# difference against the unpipelined model over both steps, the exit codes
# of run and check, and the achieved step times.
#
#   cases/bench/runtime_matrix.sh [path/to/tessel] > cases/bench/runtime_matrix.md
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
tessel=${1:-$here/build/tessel}
models=$here/tests/python/runtime_models.py
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "Written by cases/bench/runtime_matrix.sh ($(date -u +%F), $(nproc) cores shared with other work). Run wall: processes started to finished, Python start-up excluded."
echo
echo "| model | ranks | mapping | split | run wall (s) | max rel. grad. diff | run exit | trace check | step times |"
echo "|---|---:|---|---|---:|---:|---:|---|---|"
for model in gpt encdec; do
  /usr/bin/python3 "$here/tools/tessel_fx.py" "$models:make_$model" -o "$out/$model.json" 2>/dev/null
  for ranks in 2 4; do
    for mapping in chain interleaved v; do
      for split in no yes; do
        dir=$out/$model-$ranks-$mapping-$split
        flag=""; [ $split = yes ] && flag=--split-backward
        "$tessel" plan "$out/$model.json" --devices $ranks --mapping $mapping $flag --memory 1GiB --nmicros 4 \
          -o "$dir" >/dev/null 2>&1 || { echo "| $model | $ranks | $mapping | $split | plan failed | | | | |"; continue; }
        set +e
        "$tessel" run "$dir" "$models:make_$model" --steps 2 --trace-dir "$dir/traces" >"$dir/run.txt" 2>&1
        run=$?
        "$tessel" verify --trace "$dir/traces" --schedule "$dir/schedule.json" >"$dir/check.txt" 2>&1
        check=$?
        set -e
        wall=$(sed -n 's/^ran .* in \([0-9.]*\) s$/\1/p' "$dir/run.txt")
        rel=$(sed -n 's/.*absolute, \([^ ]*\) relative.*/\1/p' "$dir/run.txt" | sort -g | tail -1)
        steps=$(sed -n 's/^step time: //p' "$dir/check.txt")
        verdict=$([ $check = 0 ] && echo conforms || echo "exit $check")
        echo "| $model | $ranks | $mapping | $split | $wall | $rel | $run | $verdict | $steps |"
      done
    done
  done
done
