#!/usr/bin/env bash
# What the checking builds cost: builds the five workloads (W1-W5) with
# cusim-cc once plainly and once per checker (--check=race, --check=memory,
# --check=banks, --warp-mode=lockstep), runs each at the same size, and
# prints one Markdown table of cusim's kernel time and the slowdown against
# the plain build. The native loop is not part of the comparison.
#
#   bench/checkers.sh [BUILD_DIR] [--full] [--repeat R]   (BUILD_DIR: default build)
#
# By default the workloads run at their --quick sizes (2^16 elements; race
# checking runs every access through ThreadSanitizer, and at full size takes
# many minutes); --full runs the sizes of bench/run.sh. Needs cusim-cc and
# the checking runtimes built:
#   cmake --build build --target cusim-cc cusim_runtime cusim_runtime_race cusim_runtime_memcheck \
#         cusim_banks cusim_lockstep
# Exits with 1 when a checked build fails or its result differs.
set -euo pipefail

build=build
if [[ $# -gt 0 && $1 != --* ]]; then
  build=$1
  shift
fi
size=(--quick)
repeat=5
while [[ $# -gt 0 ]]; do
  case $1 in
    --full) size=() ;;
    --repeat) repeat=$2; shift ;;
    *) echo "checkers.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
cc=$build/bin/cusim-cc
for needed in bin/cusim-cc lib/libcusim.a lib/libcusim-race.a lib/libcusim-memcheck.a lib/libcusim-banks.a \
              lib/libcusim-lockstep.a; do
  [[ -e $build/$needed ]] || { echo "checkers.sh: no $build/$needed: build the targets at the top of $0" >&2; exit 2; }
done
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cusim-checkers.XXXXXX")
trap 'rm -rf "$work"' EXIT

workloads=(w1_vector_add w2_dot_product w3_warp_reduce w4_matmul w5_histogram)
variants=(plain race memory banks lockstep)
declare -A flags=([plain]="" [race]="--check=race" [memory]="--check=memory" [banks]="--check=banks"
                  [lockstep]="--warp-mode=lockstep")
status=0

# Kernel milliseconds of one build, or the reason there are none.
kernel_ms() {
  local line
  if ! line=$("$1" --workers 1 --repeat "$repeat" "${size[@]}" 2>"$work/stderr" | grep -v '^#' | tail -n 1); then
    echo "failed"
    return
  fi
  awk '{ print ($NF == "agree") ? $(NF-2) : "DIFFER" }' <<<"$line"
}

echo "cusim checking builds, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
  "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load average$(uptime | sed 's/.*load average://')," \
  "${size[*]:-full sizes}, median of $repeat, 1 worker"
echo
echo "| workload | plain ms | race | memory | banks | lockstep |"
echo "|---|---:|---:|---:|---:|---:|"
for w in "${workloads[@]}"; do
  row="| $w"
  plain=""
  for v in "${variants[@]}"; do
    # shellcheck disable=SC2086  # the flags are words
    "$cc" -O2 ${flags[$v]} -I"$here" "$here/$w.cu" -o "$work/$w.$v" 2>"$work/build.log" ||
      { echo "checkers.sh: building $w with '${flags[$v]}' failed:" >&2; cat "$work/build.log" >&2; exit 1; }
    ms=$(kernel_ms "$work/$w.$v")
    [[ $ms == failed || $ms == DIFFER ]] && status=1
    if [[ $v == plain ]]; then
      plain=$ms
      row+=" | $ms"
    elif [[ $ms =~ ^[0-9.]+$ && $plain =~ ^[0-9.]+$ ]]; then
      row+=" | $(awk -v a="$ms" -v b="$plain" 'BEGIN { printf "%.1fx", a / b }') ($ms ms)"
    else
      row+=" | $ms"
    fi
    rm -f "$work/$w.$v"
  done
  echo "$row |"
done
exit $status
