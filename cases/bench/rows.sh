# Sourced by the bench tables (cases/bench/*_table.sh): their rows are
# independent runs of tessel, so `--jobs N` runs N of them at a time through
# GNU parallel, keeping the printed rows in order (parallel -k); the default,
# 1, runs them one after another in this shell as before. A table script
# defines one bash function per row, exports it and the variables it reads
# (scalars: bash cannot export arrays),
# and feeds one line of arguments per row to `bench_rows FUNCTION`.

bench_jobs=1
bench_args=()

# Takes `--jobs N` out of the script's arguments; the rest are left in bench_args.
bench_parse_jobs() {
  while [ $# -gt 0 ]; do
    if [ "$1" = --jobs ]; then
      bench_jobs="${2:-}"
      case "$bench_jobs" in
        ''|*[!0-9]*|0) echo "$(basename "$0"): --jobs needs a whole number >= 1, not '$bench_jobs'" >&2; exit 2 ;;
      esac
      shift 2
      continue
    fi
    bench_args+=("$1")
    shift
  done
}

# Runs FUNCTION once per line of stdin (the line's words are its arguments).
bench_rows() {
  local function=$1 line
  if [ "$bench_jobs" = 1 ]; then
    while read -r line; do
      # shellcheck disable=SC2086  # the words of the line are the arguments
      "$function" $line </dev/null
    done
    return 0
  fi
  SHELL=/bin/bash parallel --keep-order --jobs "$bench_jobs" --colsep ' ' "$function"
}
