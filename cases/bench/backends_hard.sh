#!/bin/sh
# The backend comparison of the README: the built-in hard list (6- and
# 8-device mshape/nnshape/xshape/kshape repetends at memory D and 1.5 D, and
# the full search on mshape, 4 devices, memory 4, with 4/6/8 micro-batches)
# on CaDiCaL and Z3 in one run, 30 s per problem and backend: about 10
# minutes on 2 cores, dominated by Z3's time-outs.
# usage: cases/bench/backends_hard.sh [BUILD_DIR] [extra bench options, e.g. --csv]
set -e
build=${1:-build}
[ $# -gt 0 ] && shift
exec "$build/tessel" bench --hard --backends cadical,z3 --time-limit 30 "$@"
