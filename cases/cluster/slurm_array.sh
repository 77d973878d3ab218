#!/usr/bin/env bash
# The paper experiments on a Slurm cluster: one experiment row per array task.
# The rows are the same as run_all.sh's (`exp_*.py --list`, written to
# OUT/schedules-local/rows.txt); task i runs line i+1 as
# `exp_*.py --row KEY/NAME`, keeping its result under OUT/schedules-local/;
# a second job, started after the whole array (afterany), tabulates them
# (`--collect`), draws the plots, writes the README and runs the gate, as
# run_all.sh does. OUT must be on a file system every node sees.
#
#   cases/cluster/slurm_array.sh [--quick] [--out DIR] [--dry-run] [--max-parallel M] [-- SBATCH_OPTION ...]
#
# --dry-run prints the two sbatch commands and every task's command, submits
# nothing. --max-parallel M caps the tasks running at once (--array=0-N%M).
# Options after -- go to both sbatch calls (partition, account, time, ...).
# Needs build/tessel on the nodes (or TESSEL=/path/to/tessel in the environment).
# Internal modes (what the submitted jobs run): --task (the row of
# SLURM_ARRAY_TASK_ID) and --collect.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$(dirname "$here")")"
paper="$repo/cases/paper"
python=python3
experiments="exp_a_paper_table exp_b_ablation exp_c_scaling exp_d_full exp_e_lazy exp_f_beyond exp_g_handmade"
quick=()
out="$repo/papers"
mode=submit
max_parallel=""
sbatch_options=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --out) out="${2:?--out needs a directory}"; shift ;;
    --dry-run) mode=dry-run ;;
    --task) mode=task ;;
    --collect) mode=collect ;;
    --max-parallel)
      max_parallel="${2:-}"; shift
      case "$max_parallel" in ''|*[!0-9]*|0) echo "slurm_array.sh: --max-parallel needs a whole number >= 1" >&2; exit 2 ;; esac ;;
    --) shift; sbatch_options=("$@"); break ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "slurm_array.sh: unknown argument $1 (use --quick, --out DIR, --dry-run, --max-parallel M, -- SBATCH_OPTION...)" >&2
       exit 2 ;;
  esac
  shift
done
mkdir -p "$out/schedules-local/slurm"
out="$(cd "$out" && pwd)"
rows="$out/schedules-local/rows.txt"

# One row's command, from line `index + 1` of the row list ("SCRIPT KEY/NAME").
task_args() {
  local script row
  read -r script row < <(sed -n "$(( $1 + 1 ))p" "$rows")
  [ -n "${row:-}" ] || { echo "slurm_array.sh: no row $1 in $rows" >&2; return 1; }
  task=("$python" "$paper/$script.py" "${quick[@]}" --out "$out" --row "$row")
}

case "$mode" in
  task)
    index="${SLURM_ARRAY_TASK_ID:?--task runs inside a Slurm array job (SLURM_ARRAY_TASK_ID unset)}"
    task_args "$index" || exit 2
    exec "${task[@]}" ;;
  collect)
    status=0
    for experiment in $experiments; do
      "$python" "$paper/$experiment.py" "${quick[@]}" --out "$out" --collect || status=1
    done
    for step in plots make_readme check_tables; do
      "$python" "$paper/$step.py" "${quick[@]}" --out "$out" || status=1
    done
    exit $status ;;
esac

for experiment in $experiments; do
  "$python" "$paper/$experiment.py" "${quick[@]}" --out "$out" --list | sed "s|^|$experiment |" ||
    { echo "slurm_array.sh: $experiment --list failed" >&2; exit 1; }
done > "$rows"
count=$(wc -l < "$rows")
array="0-$(( count - 1 ))${max_parallel:+%$max_parallel}"
logs="$out/schedules-local/slurm"
# Slurm runs a copy of a submitted script from its spool, where this one would
# not find the repository; so the jobs run this file by its path (--wrap).
self="$here/$(basename "$0")"
wrap() { printf -v wrapped '%q ' bash "$self" "$@"; echo "--wrap=${wrapped% }"; }
array_job=(sbatch --parsable --job-name=tessel-rows --array="$array" --output="$logs/row-%a.log"
           "${sbatch_options[@]}" "$(wrap --task "${quick[@]}" --out "$out")")
collect_job() {  # the tables, once every row task has ended (successfully or not)
  collect=(sbatch --parsable --job-name=tessel-collect --dependency="afterany:$1" --output="$logs/collect.log"
           "${sbatch_options[@]}" "$(wrap --collect "${quick[@]}" --out "$out")")
}
if [ "$mode" = dry-run ]; then
  echo "# $count rows in $rows; nothing submitted (--dry-run)"
  printf '%q ' "${array_job[@]}"; echo
  collect_job ARRAY_JOB_ID
  printf '%q ' "${collect[@]}"; echo
  for (( i = 0; i < count; i++ )); do
    task_args "$i" || exit 1
    printf 'task %d: ' "$i"; printf '%q ' "${task[@]}"; echo
  done
  exit 0
fi
command -v sbatch >/dev/null || { echo "slurm_array.sh: sbatch not found (use --dry-run to see the commands)" >&2; exit 2; }
job=$("${array_job[@]}") || exit 1
job="${job%%;*}"  # --parsable prints JOBID or JOBID;CLUSTER
collect_job "$job"
"${collect[@]}" >/dev/null || exit 1
echo "slurm_array.sh: array job $job ($count tasks), then the tables; logs in $logs" >&2
