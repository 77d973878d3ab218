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
#   TESSEL_REFERENCE: the reference measurements (default
#   cases/paper/reference/python-tessel-results.csv, README there).
#   IMPORT_ONLY=1: no Python search, only the files already saved.
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

# suite name mode placement ndevs nmicros memory infer reference_seconds
# reference_nsteps, from the reference measurements (the found rows of
# suites a, b, c, e), quickest first.
reference_csv=${TESSEL_REFERENCE:-$(dirname "$0")/../paper/reference/python-tessel-results.csv}
configurations=$(awk -F, '$9 == "found" && $1 != "d" {
  printf "%s %s %s %s %s %s %s %s %s %s\n", $1, $2, $3, $4, $5, ($3 == "fast" ? "-" : $6), $7,
         ($8 == "True" ? "infer" : "train"), $11, $16 }' "$reference_csv" | sort -k9 -g)

# Runs the Python search for one configuration unless its file is saved;
# prints "status seconds nsteps".
python_search() {
  local name=$1 mode=$2 placement=$3 ndevs=$4 nmicros=$5 memory=$6 infer=$7 reference=$8
  local file="$saved/$name.json" log="$saved/$name.log"
  if [ ! -s "$file" ] && [ -n "${IMPORT_ONLY:-}" ]; then echo "not-saved - -"; return; fi
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
