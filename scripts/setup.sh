#!/usr/bin/env bash
# Installs what cusim needs from Debian packages, builds it into build/
# (executables in build/bin/) and runs the first sample kernel.
#   scripts/setup.sh            # as root, or with sudo available
# CUSIM_BUILD_TYPE (default RelWithDebInfo) and CUSIM_JOBS may be set.
set -euo pipefail
cd "$(dirname "$0")/.."

# valgrind: cusim programs run under it (fiber stacks registered), which finds
# reads of device memory nothing wrote; its header is what registers them.
packages=(build-essential cmake libboost-context-dev catch2 libfmt-dev valgrind)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo_cmd=(sudo)
  fi
  echo "setup: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE="${CUSIM_BUILD_TYPE:-RelWithDebInfo}"
cmake --build build -j "${CUSIM_JOBS:-$(nproc)}"
echo "setup: built. Running the first sample (samples/010-vector-add):"
./build/bin/010-vector-add
