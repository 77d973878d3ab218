#!/usr/bin/env bash
# Certificates of the paper's cases at the scale table's memories (issue 50,
# item 4): for mshape nnshape xshape kshape vshape on 4 and 8 devices at
# memories D/2, D and 2D, `tessel search --certify DIR --threads 1` writes a
# certificate (docs/formats.md, "tessel.certificate/1") and
# `tessel check-certificate DIR` checks it. The table counts the claims
# (period-side: load, period and latency claims; makespan claims apart),
# how many are certified, the CaDiCaL time with proof (the manifest's
# solve_seconds, ends included), the checker's time (its --json seconds),
# their ratio, the checker's exit, and every not-certified claim's reason.
#
# usage: cases/bench/certify_grid.sh [TESSEL_BINARY] [WORK_DIR] [ROW...]
#   ROW is CASE:DEVICES:MEMORY (default: the 30 rows above). Each row's
#   results go to WORK_DIR/CASE-D-M/ (search.json, check.json, times); a row
#   already there is skipped, so the grid can be run in pieces (e.g. the
#   slow xshape:8:4 beside the rest). After the rows, the table is rendered
#   from every row in WORK_DIR to cases/bench/certify_grid.md; a row with no
#   result is "not finished" (with the seconds spent, if it was started).
#   Environment: CERTIFY_SECONDS (a claim's solve limit; default the
#   tool's), SEARCH_ARGS (more search options, e.g. "--tune largest_window=2
#   --tune window_seconds=300" so that a loaded machine still decides k = 2),
#   RENDER_ONLY=1 (render, run nothing).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
tessel=${1:-$repo/build/tessel}
work=${2:-/tmp/certify_grid}
shift $(( $# < 2 ? $# : 2 ))
rows=${*:-}
if [ -z "$rows" ]; then
  for d in 4 8; do
    for c in mshape nnshape xshape kshape vshape; do
      for m in $((d / 2)) $d $((2 * d)); do rows="$rows $c:$d:$m"; done
    done
  done
fi
mkdir -p "$work"

run_row() {  # CASE DEVICES MEMORY
  local dir="$work/$1-$2-$3"
  [ -f "$dir/done" ] && return
  rm -rf "$dir" && mkdir -p "$dir"
  date +%s > "$dir/started"
  local extra=()
  [ -n "${CERTIFY_SECONDS:-}" ] && extra=(--certify-seconds "$CERTIFY_SECONDS")
  [ -n "${SEARCH_ARGS:-}" ] && read -r -a more <<< "$SEARCH_ARGS" && extra+=("${more[@]}")
  local t0=$(date +%s.%N)
  "$tessel" search --case "$1" --ndevs "$2" --memory "$3" --certify "$dir/cert" --threads 1 "${extra[@]}" \
    --json > "$dir/search.json" 2> "$dir/search.err"
  echo $? > "$dir/search.exit"
  local t1=$(date +%s.%N)
  "$tessel" check-certificate "$dir/cert" --json > "$dir/check.json" 2> "$dir/check.err"
  echo $? > "$dir/check.exit"
  local t2=$(date +%s.%N)
  echo "$t0 $t1 $t2" > "$dir/times"
  touch "$dir/done"
}

if [ "${RENDER_ONLY:-0}" != 1 ]; then
  for row in $rows; do
    IFS=: read -r c d m <<< "$row"
    echo "$(date -u +%H:%M:%S) $c $d $m" >&2
    run_row "$c" "$d" "$m"
  done
fi
exec python3 "$repo/cases/bench/certify_grid_render.py" "$work" "$repo/cases/bench/certify_grid.md"
