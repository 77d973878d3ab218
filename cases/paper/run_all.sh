#!/usr/bin/env bash
# Regenerates papers/: every experiment of the Tessel paper rerun with tessel
# beside the Python Tessel's measured figures, the pictures, the README, and
# the gate (tables parse, every schedule passes tessel verify).
#   cases/paper/run_all.sh [--quick] [--out DIR] [--jobs N] [--only a,b,...]   (default DIR: papers/)
# --quick runs a small subset (CI, under 2 minutes). --only picks experiments
# by letter (a-g; default all), so that a long one can be left out or rerun
# alone; the tables of the others stay as they are. --jobs N runs the rows of
# all experiments N at a time through GNU parallel (each row its own process,
# `exp_*.py --row KEY/NAME`), then tabulates them (`--collect`); the default,
# 1, runs each experiment in one process as before. Needs build/tessel
# (./setup.sh), or TESSEL=/path/to/tessel. Exit non-zero when a schedule
# fails the verifier or a table does not parse.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$(dirname "$here")")"
args=()
out="$repo/papers"
jobs=1
only=a,b,c,d,e,f,g
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) args+=(--quick) ;;
    --out) out="$2"; shift ;;
    --jobs)
      jobs="${2:-}"; shift
      case "$jobs" in ''|*[!0-9]*|0) echo "run_all.sh: --jobs needs a whole number >= 1, not '$jobs'" >&2; exit 2 ;; esac ;;
    --only)
      only="${2:-}"; shift
      case "$only" in ''|*[!a-g,]*) echo "run_all.sh: --only takes experiment letters a-g separated by commas, not '$only'" >&2; exit 2 ;; esac ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_all.sh: unknown argument $1 (use --quick, --out DIR, --jobs N, --only a,b,...)" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"
python=python3
status=0
start=$(date +%s)
experiments=""
for experiment in exp_a_paper_table exp_b_ablation exp_c_scaling exp_d_full exp_e_lazy exp_f_beyond exp_g_handmade; do
  letter="${experiment#exp_}"; letter="${letter%%_*}"
  case ",$only," in *",$letter,"*) experiments="$experiments $experiment" ;; esac
done
if [ "$jobs" = 1 ]; then
  for experiment in $experiments; do
    echo "run_all: $experiment ($(( $(date +%s) - start )) s so far)" >&2
    "$python" "$here/$experiment.py" "${args[@]}" --out "$out" || status=1
  done
else
  # Every row of every experiment as "SCRIPT KEY/NAME", run N at a time.
  rows="$out/schedules-local/rows.txt"
  mkdir -p "$(dirname "$rows")"
  for experiment in $experiments; do
    "$python" "$here/$experiment.py" "${args[@]}" --out "$out" --list | sed "s|^|$experiment |"
  done > "$rows" || status=1
  echo "run_all: $(wc -l < "$rows") rows, $jobs at a time (GNU parallel)" >&2
  parallel --jobs "$jobs" --colsep ' ' --joblog "$out/schedules-local/rows.joblog" \
    "$python" "$here/{1}.py" "${args[@]}" --out "$out" --row {2} :::: "$rows" || status=1
  for experiment in $experiments; do
    "$python" "$here/$experiment.py" "${args[@]}" --out "$out" --collect || status=1
  done
fi
echo "run_all: plots and README ($(( $(date +%s) - start )) s so far)" >&2
"$python" "$here/plots.py" "${args[@]}" --out "$out" || status=1
"$python" "$here/make_readme.py" "${args[@]}" --out "$out" || status=1
"$python" "$here/check_tables.py" "${args[@]}" --out "$out" || status=1
echo "run_all: done in $(( $(date +%s) - start )) s, exit $status; see $out/README.md" >&2
exit $status
