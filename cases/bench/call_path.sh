#!/bin/sh
# Issue 48's layout measure: how often the search command's path through the
# calls returns to a source file it had left (cases/bench/call_path.py says
# how it is counted). Builds tessel once more with -finstrument-functions
# (-O0, so that every source-level call is seen and the build is quick) in
# SOURCE_DIR/build-callpath/, runs
#   tessel search --case mshape --ndevs 4 --memory 4 --threads 1
# (one thread, so that the order of first calls is the same run to run) and
# prints the files crossed, the crossings and the returns.
#   cases/bench/call_path.sh [SOURCE_DIR]   (default: this checkout; give an
#   exported older commit to measure "before")
set -e
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${1:-$here/../..}" && pwd)
build=$src/build-callpath
mkdir -p "$build"
gcc -c -O2 -o "$build/call_path_hook.o" "$here/call_path_hook.c"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_CXX_FLAGS=-O0 -g1 -finstrument-functions -finstrument-functions-exclude-file-list=/usr/" \
  "-DCMAKE_EXE_LINKER_FLAGS=$build/call_path_hook.o" >/dev/null
# ccache (CMakeLists.txt) may share objects between checkouts: with a
# base_dir above them and hash_dir off, an object compiled in another
# checkout is a hit here, and its debug information names that checkout's
# files, which call_path.py then takes for code outside this one (a worktree
# measured 594 returns where the same sources exported to /tmp measured 704).
# Hashing the build directory keeps every hit from this one.
CCACHE_HASHDIR=1 cmake --build "$build" --target tessel -j2 >/dev/null
calls=$build/calls.txt
TESSEL_CALL_PATH=$calls "$build/tessel" search --case mshape --ndevs 4 --memory 4 --threads 1 >/dev/null
python3 "$here/call_path.py" "$build/tessel" "$calls" "$src"
