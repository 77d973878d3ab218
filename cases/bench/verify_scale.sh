#!/bin/sh
# The verifier at scale (issue 2, item 4): verifying a 1F1B schedule of 64
# devices x 8192 micro-batches (1,048,576 instances, with a claimed repetend
# of about 8000 copies) should take seconds. Generates the schedule with the
# standard-library script beside this file, then times `tessel verify`,
# reporting the JSON reading and the checks separately (--timing) and the
# peak resident memory. Not part of the test suite.
#
# usage: cases/bench/verify_scale.sh [TESSEL_BINARY] [DEVICES] [NMICROS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tessel=${1:-$here/../../build/tessel}
devices=${2:-64}
nmicros=${3:-8192}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
schedule=$work/1f1b-${devices}x${nmicros}.json

python3 "$here/gen_1f1b_schedule.py" "$devices" "$nmicros" "$schedule"
echo "file: $(du -m "$schedule" | cut -f1) MB"

start=$(date +%s.%N)
if command -v /usr/bin/time >/dev/null 2>&1; then
  /usr/bin/time -f "peak resident memory: %M KB" "$tessel" verify "$schedule" --timing
else
  "$tessel" verify "$schedule" --timing
fi
end=$(date +%s.%N)
echo "tessel verify wall time: $(echo "$end - $start" | bc) s"
