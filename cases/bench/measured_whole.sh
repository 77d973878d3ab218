#!/bin/sh
# The measured-costs target of the whole default search (issue 48): with
# spans x1000 and +-10% noise (cases/bench/scale_placement.py, seeded), the
# whole default search on D devices takes at most 3x the same search on the
# unit spans plus 1 s. Times are CPU seconds of the process (user + sys,
# from /usr/bin/time), which a loaded machine does not inflate the way it
# inflates wall time; the search's own phase seconds (wall) follow.
#
# One row per case: case, D, unit CPU s, scaled CPU s, limit (3 x unit + 1),
# within?, unit and scaled period and makespan at N, and the scaled search's
# phase seconds (the largest three).
#
# usage: cases/bench/measured_whole.sh [BUILD_DIR] [CASES] [DEVICES] [TIME_LIMIT]
#   defaults: build "mshape vshape nnshape xshape kshape mllm" 8 60
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
cases=${2:-mshape vshape nnshape xshape kshape mllm}
devices=${3:-8}
limit=${4:-60}
tessel=$build/tessel
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run PLACEMENT MEMORY: prints "cpu period makespan phases" of one search.
run() {
  /usr/bin/time -f "%U %S" -o "$work/time" "$tessel" search --placement "$1" --memory "$2" \
    --time-limit "$limit" --threads 1 --json --quiet >"$work/out.json" 2>/dev/null || true
  python3 - "$work/out.json" "$work/time" <<'PY'
import json, sys
user, system = open(sys.argv[2]).read().split()[-2:]
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    d = {}
phases = sorted(d.get("phase_seconds", {}).items(), key=lambda kv: -kv[1])[:3]
text = ",".join(f"{k}={v:.2f}" for k, v in phases) or "-"
makespan = d.get("makespan_at_total", "-")
print(f'{float(user) + float(system):.2f} {d.get("period", "-")} {makespan} {text}')
PY
}

echo "| case | D | unit CPU s | scaled CPU s | 3 x unit + 1 | within | unit period | scaled period | scaled makespan at N | scaled phases (s) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for case in $cases; do
  for d in $devices; do
    "$tessel" placement --case "$case" --ndevs "$d" -o "$work/unit.json" 2>/dev/null || continue
    python3 "$here/scale_placement.py" "$work/unit.json" "$work/scaled.json" --scale 1000 --noise 0.1 --seed "$d"
    set -- $(run "$work/unit.json" "$d")
    unit_cpu=$1 unit_period=$2
    set -- $(run "$work/scaled.json" "$d")
    scaled_cpu=$1 scaled_period=$2 scaled_makespan=$3 phases=$4
    verdict=$(python3 -c "u,s=$unit_cpu,$scaled_cpu; print(f'{3*u+1:.2f}', 'yes' if s <= 3*u + 1 else 'no')")
    echo "| $case | $d | $unit_cpu | $scaled_cpu | ${verdict% *} | ${verdict#* } | $unit_period | $scaled_period | $scaled_makespan | $phases |"
  done
done
