#!/usr/bin/env bash
# Installs the Debian packages tessel needs (only those missing), then
# configures and builds into build/. Safe to run again: a no-op install.
set -euo pipefail
cd "$(dirname "$0")"

packages=(g++ cmake make libz3-dev libcadical-dev libboost-program-options-dev
          nlohmann-json3-dev catch2 python3-torch librsvg2-bin)
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
