#!/usr/bin/env bash
# Regenerates papers/: every experiment of the Tessel paper rerun with tessel
# beside the Python Tessel's measured figures, the pictures, the README, and
# the gate (tables parse, every schedule passes tessel verify).
#   cases/paper/run_all.sh [--quick] [--out DIR]     (default DIR: papers/)
# --quick runs a small subset (CI, under 2 minutes). Needs build/tessel
# (./setup.sh), or TESSEL=/path/to/tessel. Exit non-zero when a schedule
# fails the verifier or a table does not parse.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$(dirname "$here")")"
args=()
out="$repo/papers"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) args+=(--quick) ;;
    --out) out="$2"; shift ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_all.sh: unknown argument $1 (use --quick, --out DIR)" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"
python=python3
status=0
start=$(date +%s)
for experiment in exp_a_paper_table exp_b_ablation exp_c_scaling exp_d_full exp_e_lazy exp_f_beyond; do
  echo "run_all: $experiment ($(( $(date +%s) - start )) s so far)" >&2
  "$python" "$here/$experiment.py" "${args[@]}" --out "$out" || status=1
done
echo "run_all: plots and README ($(( $(date +%s) - start )) s so far)" >&2
"$python" "$here/plots.py" "${args[@]}" --out "$out" || status=1
"$python" "$here/make_readme.py" "${args[@]}" --out "$out" || status=1
"$python" "$here/check_tables.py" "${args[@]}" --out "$out" || status=1
echo "run_all: done in $(( $(date +%s) - start )) s, exit $status; see $out/README.md" >&2
exit $status
