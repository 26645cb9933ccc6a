#!/usr/bin/env bash
# Installs what cusim and its test suite need from Debian packages, builds it
# into build/ (executables in build/bin/) and runs the first sample kernel.
#   scripts/setup.sh            # as root, or with sudo available
# CUSIM_BUILD_TYPE (default RelWithDebInfo) and CUSIM_JOBS may be set;
# CUSIM_SETUP_BENCH=1 adds PoCL for bench/pocl/ (below).
set -euo pipefail
cd "$(dirname "$0")/.."

# valgrind: cusim programs run under it (fiber stacks registered), which finds
# reads of device memory nothing wrote; its header is what registers them.
# clang: the test suite builds cusim with it too (platform.clang).
# clang 14's libraries: cusim-cc's front end parses .cu files with them
# (kernel facts: docs/cusim-cc.md).
# libthrust-dev (with libcub-dev): Thrust, which CUDA programs include and
# cusim runs on Thrust's C++ system with cusim's device memory
# (docs/libraries.md#thrust).
packages=(build-essential cmake libboost-context-dev catch2 libfmt-dev valgrind clang
          libclang-14-dev libclang-cpp14-dev llvm-14-dev libthrust-dev)
# The test suite also cross-builds cusim for arm64 Linux and runs it under
# qemu-user (platform.aarch64, docs/platforms.md): Debian's cross compiler,
# qemu-user and the arm64 builds of cusim's libraries, from Debian's arm64
# architecture (multiarch). CUSIM_SETUP_ARM64=0 leaves them out (and the
# suite leaves that test out).
add_arm64=false
if [[ "${CUSIM_SETUP_ARM64:-1}" != 0 && $(dpkg --print-architecture) == amd64 ]]; then
  packages+=(g++-aarch64-linux-gnu qemu-user libboost-context-dev:arm64 libfmt-dev:arm64)
  dpkg --print-foreign-architectures | grep -qx arm64 || add_arm64=true
fi
# CUSIM_SETUP_BENCH=1 also installs PoCL (OpenCL on the CPU), the OpenCL
# loader and headers, and clinfo: only bench/pocl/ (issue 25's side-by-side
# table, docs/performance.md) uses them, so cusim's build and tests do not
# need them and they are left out by default.
if [[ "${CUSIM_SETUP_BENCH:-0}" == 1 ]]; then
  packages+=(pocl-opencl-icd ocl-icd-opencl-dev opencl-headers clinfo)
fi
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
  if $add_arm64; then
    echo "setup: adding Debian's arm64 architecture (for the arm64 libraries)"
    "${sudo_cmd[@]}" dpkg --add-architecture arm64
  fi
  echo "setup: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE="${CUSIM_BUILD_TYPE:-RelWithDebInfo}"
cmake --build build -j "${CUSIM_JOBS:-$(nproc)}"
echo "setup: built. Running the first sample (samples/010-vector-add):"
./build/bin/010-vector-add
