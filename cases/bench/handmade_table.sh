#!/usr/bin/env bash
# The search against the hand-made schedules on their own placements: for
# every `generate` scheme x stages x micro-batches x spans, the hand-made
# schedule is generated with its placement, its peak memory per device
# becomes the search's limit, and `tessel search --total-micros N` runs on
# that placement. Columns: the hand-made makespan, tessel's, the idle-aware
# bound, tessel's gap to it, whether tessel's makespan is proven optimal for
# N (it reaches the bound, or the full search from the best candidate proved
# every shorter one impossible within its budget), the winning candidate,
# the search's seconds, and where tessel ties the hand-made schedule, why no
# shorter schedule is claimed: "= bound (proven optimal)", "hand-made proven
# optimal by the full solver", or "not decided:" and the reason `search`
# gives.
# Every schedule `search` writes is checked again here with `tessel verify`.
# The last lines count the rows where tessel is below, equal to and above
# the hand-made schedule (the target: none above). DualPipe's placement is
# one micro-batch PAIR (one per direction): its N/2 pairs are searched.
#
# usage: cases/bench/handmade_table.sh [TESSEL_BINARY] [STAGES...]
set -u
tessel=${1:-build/tessel}
shift $(( $# < 1 ? $# : 1 ))
stage_counts=${*:-4 8}
schemes="gpipe 1f1b interleaved-1f1b looped-bfs interleaved-zb zb-h1 zb-h2 zb-v zb-auto v-half v-min dualpipev dualpipe"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The --span values of a span set in the scheme's own keys ("" = its defaults).
spans_of() {
  local scheme=$1 set=$2
  [ "$set" = unit ] && { echo ""; return; }
  case $scheme in
    dualpipe|dualpipev) [ "$set" = F2B2W1 ] && echo "F=2,I=2,W=1" || echo "F=3,I=2,W=1" ;;
    *) [ "$set" = F2B2W1 ] && echo "F=2,B=2,W=1" || echo "F=3,B=2,W=1" ;;
  esac
}

below=0 equal=0 equal_optimal=0 equal_bound=0 above=0 failed=0
echo "| scheme | stages | N | spans | hand-made | tessel | bound | gap % | optimal | winner | seconds | why not shorter (tessel = hand-made) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for scheme in $schemes; do
  for stages in $stage_counts; do
    for nmicros in 16 32; do
      for set in unit F2B2W1 F3B2W1; do
        spans=$(spans_of "$scheme" "$set")
        span_flag=()
        [ -n "$spans" ] && span_flag=(--span "$spans")
        if ! "$tessel" generate "$scheme" --stages "$stages" --nmicros "$nmicros" "${span_flag[@]}" \
             --placement-out "$work/pl.json" -o "$work/hand.json" 2>/dev/null; then
          continue  # sizes the scheme refuses
        fi
        "$tessel" verify "$work/hand.json" --json > "$work/hand.verify" 2>/dev/null
        hand=$(jq -r .makespan "$work/hand.verify")
        memory=$(jq -r '.peak_memory | map(tostring) | join(",")' "$work/hand.verify")
        total=$(jq -r .nmicros "$work/hand.json")  # dualpipe: N/2 micro-batch pairs
        start=$(date +%s.%N)
        "$tessel" search --placement "$work/pl.json" --memory "$memory" --total-micros "$total" \
          --time-limit 60 --json -o "$work/found.json" > "$work/found.report" 2>/dev/null
        code=$?
        seconds=$(echo "$(date +%s.%N) - $start" | bc)
        if [ $code -ne 0 ] || ! "$tessel" verify "$work/found.json" > /dev/null 2>&1; then
          failed=$((failed + 1))
          echo "| $scheme | $stages | $nmicros | $set | $hand | exit $code | - | - | - | - | $(printf %.2f "$seconds") | |"
          continue
        fi
        ours=$(jq -r .makespan_at_total "$work/found.report")
        bound=$(jq -r .makespan_bound_at_total "$work/found.report")
        winner=$(jq -r .best_construction "$work/found.report")
        optimal=$(jq -r 'if .makespan_proven_optimal then "yes" else "-" end' "$work/found.report")
        gap=$(echo "scale=2; 100 * ($ours - $bound) / $bound" | bc)
        why=""
        if [ "$(echo "$ours == $hand" | bc)" = 1 ]; then
          if [ "$(echo "$ours == $bound" | bc)" = 1 ]; then
            why="= bound (proven optimal)"
          elif [ "$optimal" = yes ]; then
            why="hand-made proven optimal by the full solver"
          else
            why="not decided: $(jq -r 'if .makespan_gap_reason == "" then "within 1% of the bound; no shorter schedule found in the time given, none proven impossible" else .makespan_gap_reason end' "$work/found.report")"
          fi
        fi
        if [ "$(echo "$ours < $hand" | bc)" = 1 ]; then below=$((below + 1))
        elif [ "$(echo "$ours == $hand" | bc)" = 1 ]; then
          equal=$((equal + 1))
          [ "$optimal" = yes ] && equal_optimal=$((equal_optimal + 1))
          [ "$(echo "$ours == $bound" | bc)" = 1 ] && equal_bound=$((equal_bound + 1))
        else above=$((above + 1)); fi
        echo "| $scheme | $stages | $nmicros | $set | $hand | $ours | $bound | $gap | $optimal | $winner | $(printf %.2f "$seconds") | $why |"
      done
    done
  done
done
echo
echo "tessel below hand-made: $below, equal: $equal ($equal_optimal of them proven optimal: $equal_bound at the bound, $((equal_optimal - equal_bound)) by the full solver; $((equal - equal_optimal)) not decided), above: $above, failed: $failed"
