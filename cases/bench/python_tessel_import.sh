#!/usr/bin/env bash
# Do the Python Tessel's own saved schedules import into tessel and pass
# its verifier? For each of the 43 configurations for which the reference
# measurements of the Python Tessel (commit 44f72c3) report a schedule
# (the `found` rows of its suites a, b, c and e: the paper's table, the
# repetend-size ablation, Tessel-fast scaling and the lazy scale), this
# script
#   1. runs the Python Tessel's own simulator script
#      (examples/simulator/cases_tessel.py: `Composer.compose_n(micro,
#      memory, nmicros)`, or `Composer.compose_fast(micro, memory,
#      wc_ratio=(128, 0.05))` with --fast-search) under `nice -n 19` and a
#      per-configuration time-out, saving the schedule with `SchedPlan.save()`;
#   2. imports it: `tessel import --from tessel-json FILE --case P --ndevs D
#      [--infer] --memory-limit M` (training only: inference zeroes memory);
#   3. checks the result with `tessel verify`.
# Saved files are kept in SAVED_DIR and reused when present, so the slow
# searches (up to 400 s each in the reference) run once.
#
# Columns: suite, configuration, the Python search's status and CPU seconds
# (user + system, this run, interpreter start-up included), its schedule length (`nsteps` from its log) against the
# reference's, tessel's import exit code and repetend note, tessel verify's
# verdict and makespan. The last line counts the configurations whose saved
# schedule imports and verifies.
#
# usage: cases/bench/python_tessel_import.sh TESSEL_BINARY PYTHON_TESSEL_DIR [SAVED_DIR] [NAME_FILTER]
#   PYTHON_TESSEL_DIR: a checkout of github.com/zhiqi-0/Tessel (commit 44f72c3),
#   which needs numpy, more_itertools and z3 (Debian: python3-z3) for /usr/bin/python3.
#   TIMEOUT_SCALE (default 4): each search may take this many times the
#   reference's seconds plus 120 s of CPU time before it is stopped.
set -u
tessel=$(realpath "${1:?usage: $0 TESSEL_BINARY PYTHON_TESSEL_DIR [SAVED_DIR] [NAME_FILTER]}")
pytessel=$(realpath "${2:?Python Tessel checkout}")
saved=${3:-/tmp/python-tessel-saved}
filter=${4:-}
scale=${TIMEOUT_SCALE:-4}
python=${TESSEL_PYTHON:-/usr/bin/python3}
mkdir -p "$saved"
saved=$(realpath "$saved")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# suite name mode placement ndevs nmicros memory infer reference_seconds reference_nsteps
# (ordered by the reference's search time, so the quick ones come first)
configurations="
a tessel-vshape-d4-m4-mem4-infer tessel vshape 4 4 4 infer 0.0467 9
a tessel-kshape-d4-m2-mem4-infer tessel kshape 4 2 4 infer 0.0701 5
a tessel-xshape-d4-m3-mem4-infer tessel xshape 4 3 4 infer 0.0842 12
a tessel-nnshape-d4-m6-mem4-infer tessel nnshape 4 6 4 infer 0.3887 22
a tessel-vshape-d4-m4-mem4 tessel vshape 4 4 4 train 0.8203 37
c fast-vshape-d4-mem20 fast vshape 4 - 20 train 1.1895 37
b tessel-vshape-d4-m2-mem16 tessel vshape 4 2 16 train 2.6324 30
a tessel-kshape-d4-m3-mem6 tessel kshape 4 3 6 train 2.9223 25
c fast-mshape-d4-mem20 fast mshape 4 - 20 train 2.9789 51
e tessel-vshape-d4-m4-mem4 tessel vshape 4 4 4 train 3.7599 37
b tessel-mshape-d4-m2-mem16 tessel mshape 4 2 16 train 4.347 29
c fast-vshape-d5-mem20 fast vshape 5 - 20 train 5.1218 44
b tessel-vshape-d4-m4-mem16 tessel vshape 4 4 16 train 6.1696 37
b tessel-kshape-d4-m2-mem16 tessel kshape 4 2 16 train 6.7647 20
b tessel-nnshape-d4-m2-mem16 tessel nnshape 4 2 16 train 7.1403 33
b tessel-vshape-d4-m3-mem16 tessel vshape 4 3 16 train 8.0924 34
b tessel-vshape-d4-m5-mem16 tessel vshape 4 5 16 train 9.0834 41
b tessel-kshape-d4-m3-mem16 tessel kshape 4 3 16 train 9.4979 25
b tessel-vshape-d4-m6-mem16 tessel vshape 4 6 16 train 10.1038 41
c fast-xshape-d4-mem20 fast xshape 4 - 20 train 11.1179 69
c fast-nnshape-d4-mem20 fast nnshape 4 - 20 train 12.8892 67
a tessel-xshape-d4-m3-mem4 tessel xshape 4 3 4 train 14.7094 38
b tessel-mshape-d4-m3-mem16 tessel mshape 4 3 16 train 16.1539 38
b tessel-xshape-d4-m2-mem16 tessel xshape 4 2 16 train 17.17 28
c fast-mshape-d5-mem20 fast mshape 5 - 20 train 22.2036 67
e tessel-vshape-d5-m5-mem5 tessel vshape 5 5 5 train 26.4054 48
b tessel-kshape-d4-m4-mem16 tessel kshape 4 4 16 train 26.8385 33
b tessel-xshape-d4-m3-mem16 tessel xshape 4 3 16 train 30.0267 38
b tessel-kshape-d4-m5-mem16 tessel kshape 4 5 16 train 39.2566 39
b tessel-nnshape-d4-m3-mem16 tessel nnshape 4 3 16 train 42.3441 44
b tessel-mshape-d4-m4-mem16 tessel mshape 4 4 16 train 60.7327 40
a tessel-mshape-d4-m6-mem6 tessel mshape 4 6 6 train 64.0408 48
c fast-vshape-d6-mem20 fast vshape 6 - 20 train 85.7054 56
b tessel-mshape-d4-m5-mem16 tessel mshape 4 5 16 train 108.6769 44
e tessel-vshape-d6-m6-mem6 tessel vshape 6 6 6 train 141.7535 59
b tessel-xshape-d4-m4-mem16 tessel xshape 4 4 16 train 146.6 44
b tessel-mshape-d4-m6-mem16 tessel mshape 4 6 16 train 152.4967 48
b tessel-nnshape-d4-m4-mem16 tessel nnshape 4 4 16 train 160.5046 48
b tessel-kshape-d4-m6-mem16 tessel kshape 4 6 16 train 173.6744 45
c fast-mshape-d6-mem20 fast mshape 6 - 20 train 223.8294 102
c fast-nnshape-d5-mem20 fast nnshape 5 - 20 train 281.426 76
a tessel-nnshape-d4-m6-mem6 tessel nnshape 4 6 6 train 286.6915 60
c fast-vshape-d7-mem20 fast vshape 7 - 20 train 407.1313 68
"

# Runs the Python search for one configuration unless its file is saved;
# prints "status seconds nsteps".
python_search() {
  local name=$1 mode=$2 placement=$3 ndevs=$4 nmicros=$5 memory=$6 infer=$7 reference=$8
  local file="$saved/$name.json" log="$saved/$name.log"
  if [ ! -s "$file" ]; then
    local args=(--placement "$placement" --ndevs "$ndevs" --memory "$memory" --save "$file.part")
    [ "$mode" = fast ] && args+=(--fast-search) || args+=(--nmicros "$nmicros")
    [ "$infer" = infer ] && args+=(--infer)
    # The limit is on the search's CPU seconds (ulimit -t), so a loaded
    # machine does not stop it early; a wall limit 10 times longer guards
    # against a hang.
    local limit code
    limit=$(echo "$reference * $scale + 120" | bc | cut -d. -f1)
    (cd "$pytessel" && ulimit -t "$limit" &&
     TIMEFORMAT='%U %S' && { time PYTHONPATH=. nice -n 19 timeout "$((limit * 10))" "$python" \
       examples/simulator/cases_tessel.py "${args[@]}" > "$log" 2>&1; } 2> "$saved/$name.time")
    code=$?
    awk '{print $1 + $2}' "$saved/$name.time" > "$saved/$name.seconds"
    # 124: the wall guard; 137/152: SIGKILL/SIGXCPU at the CPU limit
    case $code in 124|137|152) echo "timeout ${limit}cpu -"; return ;; esac
    if [ $code -ne 0 ] || [ ! -s "$file.part" ]; then echo "error($code) - -"; return; fi
    mv "$file.part" "$file"
  fi
  local nsteps
  nsteps=$(grep -o 'warmup nsteps: [0-9]*, repetend nsteps: [0-9]*, cooldown nsteps: [0-9]*' "$log" |
           grep -o '[0-9]*' | paste -sd+ | bc)
  printf 'saved %.1f %s\n' "$(cat "$saved/$name.seconds")" "${nsteps:--}"
}

passed=0 total=0
echo "| suite | configuration | Python search | seconds | nsteps (reference) | import | repetend | verify | makespan |"
echo "|---|---|---|---|---|---|---|---|---|"
while read -r suite name mode placement ndevs nmicros memory infer reference ref_nsteps; do
  [ -z "$suite" ] && continue
  [ -n "$filter" ] && ! echo "$suite-$name" | grep -q -- "$filter" && continue
  total=$((total + 1))
  read -r status seconds nsteps < <(python_search "$name" "$mode" "$placement" "$ndevs" "$nmicros" "$memory" \
                                     "$infer" "$reference")
  if [ "$status" != saved ]; then
    echo "| $suite | $name | $status | $seconds | - ($ref_nsteps) | - | - | - | - |"
    continue
  fi
  import_args=(--case "$placement" --ndevs "$ndevs")
  [ "$infer" = infer ] && import_args+=(--infer) || import_args+=(--memory-limit "$memory")
  "$tessel" import --from tessel-json "$saved/$name.json" "${import_args[@]}" -o "$work/s.json" \
    2> "$work/import.err"
  imported=$?
  repetend=$(jq -r 'if .repetend then "period \(.repetend.period)" else (.meta.repetend_note // "none") end' \
             "$work/s.json" 2>/dev/null | cut -c1-60)
  verdict="-" makespan="-"
  if [ $imported -eq 0 ]; then
    "$tessel" verify "$work/s.json" --json > "$work/verify.json" 2>/dev/null
    verdict=$(jq -r 'if .valid then "valid" else "INVALID: " + (.violation_counts | tostring) end' "$work/verify.json")
    makespan=$(jq -r .makespan "$work/verify.json")
  else
    repetend=$(head -c 120 "$work/import.err" | tr '\n|' ' /')
  fi
  [ "$verdict" = valid ] && passed=$((passed + 1))
  echo "| $suite | $name | $status | $seconds | $nsteps ($ref_nsteps) | exit $imported | $repetend | $verdict | $makespan |"
done <<< "$configurations"
echo
echo "$passed of $total saved schedules import and verify"
