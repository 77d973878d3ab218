#!/bin/sh
# Measured costs at the speed of unit steps (the measured-costs issue): for
# each paper placement and device count, the same search on the unit spans
# and on spans x SCALE moved by +-10% noise (cases/bench/scale_placement.py,
# seeded), written as integers and as decimals (x SCALE / 1000, so 1.234
# style milliseconds). The target: the scaled search proves its optimal
# period within 3x the unit-span time plus 1 s, on both backends with the
# same period. Every schedule is verified by the search itself (on the real
# numbers), so a row with a period is a valid schedule.
#
# One row per (case, devices, form): case, devices, memory, scale, unit
# seconds, scaled seconds (cadical) and of them the period phase, ratio,
# period found (per window, in
# the placement's unit), proven?, within target? (the period proven within
# 3x the unit search + 1 s: the period phase, and the whole search, which
# also spends a budget on the latency and wider windows), then the same scaled
# search on z3: seconds, period, proven?, and whether the two agree ("yes":
# both proven, same period; "unproven": z3 did not prove its period in the
# limit; "NO": two different proven periods, a bug).
#
# usage: cases/bench/measured_costs.sh [BUILD_DIR] [CASES] [DEVICES] [TIME_LIMIT]
#   defaults: build "mshape nnshape xshape kshape vshape mllm" "8 16" 60
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
cases=${2:-mshape nnshape xshape kshape vshape mllm}
devices=${3:-8 16}
limit=${4:-60}
scale=1000
tessel=$build/tessel
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# search ARGS...: prints "seconds period proven period-seconds" of one
# search (the period of the best schedule also after a time-out; none at
# all: "-"); period-seconds is the search's own period phase.
search() {
  "$tessel" search "$@" --time-limit "$limit" --json --quiet >"$work/out.json" 2>/dev/null || true
  python3 - "$work/out.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("0 - no 0"); sys.exit()
period = d.get("period") or "-"
proven = d.get("status") == "found" and d.get("optimal")
phase = d.get("phase_seconds", {}).get("period", 0)
print(f'{d.get("solve_seconds", 0):.2f} {period} {"yes" if proven else "no"} {phase:.2f}')
PY
}

echo "| case | D | memory | scale | form | unit s | scaled s | of it period | ratio | period | proven | target: period | target: whole | z3 s | z3 period | z3 proven | agree |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for case in $cases; do
  for d in $devices; do
    memory=$d
    "$tessel" placement --case "$case" --ndevs "$d" -o "$work/unit.json" 2>/dev/null || continue
    set -- $(search --placement "$work/unit.json" --memory "$memory")
    unit_s=$1
    for form in integer decimal; do
      decimals=0
      [ "$form" = decimal ] && decimals=3
      python3 "$here/scale_placement.py" "$work/unit.json" "$work/scaled.json" --scale $scale --noise 0.1 \
        --seed "$d" --decimals $decimals
      set -- $(search --placement "$work/scaled.json" --memory "$memory")
      scaled_s=$1 period=$2 proven=$3 period_s=$4
      set -- $(search --placement "$work/scaled.json" --memory "$memory" --backend z3)
      z3_s=$1 z3_period=$2 z3_proven=$3
      agrees=unproven
      if [ "$proven" = yes ] && [ "$z3_proven" = yes ]; then
        agrees=NO
        [ "$z3_period" = "$period" ] && agrees=yes
      fi
      verdict=$(python3 -c "u,s,p=$unit_s,$scaled_s,$period_s; ok=lambda t: 'yes' if t <= 3*u + 1 else 'no'
print(f'{s/max(u,1e-3):.2f}', ok(p), ok(s))")
      set -- $verdict
      ratio=$1 period_within=$2 within=$3
      [ "$proven" = yes ] || { within=no; period_within=no; }
      echo "| $case | $d | $memory | $scale | $form | $unit_s | $scaled_s | $period_s | $ratio | $period | $proven | $period_within | $within | $z3_s | $z3_period | $z3_proven | $agrees |"
    done
  done
done
