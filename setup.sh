#!/usr/bin/env bash
# Installs the Debian packages tessel needs (only those missing; clang and
# libclang-rt-14-dev, which holds libFuzzer, build fuzz/; bc and jq are
# the bench scripts' arithmetic and JSON reader, which tests run; parallel
# runs their rows), then configures and builds into build/. Safe to run
# again: a no-op install. Enough on a minimal Debian bookworm
# (docs/fresh_machine.md checks it).
set -euo pipefail
cd "$(dirname "$0")"

packages=(g++ cmake make libz3-dev libcadical-dev libboost-program-options-dev
          nlohmann-json3-dev catch2 python3-torch librsvg2-bin
          pybind11-dev python3-dev python3-pytest parallel
          clang libclang-rt-14-dev python3-jsonschema bc jq)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >&2

# `import tessel` for Debian's python3 (the one with PyTorch), without pip: a
# .pth file puts build/python on its path. Only when we may write there.
site=$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null || true)
if [ -n "$site" ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd mkdir -p "$site" && echo "$(pwd)/build/python" | $sudo_cmd tee "$site/tessel.pth" >/dev/null ||
    echo "setup: could not write $site/tessel.pth; use PYTHONPATH=$(pwd)/build/python" >&2
fi
