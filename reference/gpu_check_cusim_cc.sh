#!/usr/bin/env bash
# Builds the annotated rewriter tests, the fp16 semantics test and the
# integration projects with nvcc on a GPU machine and runs them, so that what
# cusim prints for the same files can be compared with a real GPU
# (reference/h100-cusim-cc-outputs.txt holds the H100's answers).
#   OUT=dir reference/gpu_check_cusim_cc.sh
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/gpu-check}
mkdir -p "$out"
log=$out/gpu-outputs.txt
work=$(mktemp -d)
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -1
} > "$log" 2>&1

run_program() {  # name, then the nvcc arguments
  local name=$1
  shift
  echo "== $name"
  if nvcc -arch=sm_90 -o "$work/$name" "$@" > "$work/$name.build" 2>&1; then
    "$work/$name"
    echo "exit $?"
  else
    cat "$work/$name.build"
  fi
}

{
  for f in tests/rewrite/launches.cu tests/rewrite/shared.cu tests/rewrite/constant.cu \
           tests/rewrite/line_numbers.cu tests/semantics/fp16/half_precision.cu; do
    run_program "$(basename "$f" .cu)" "$f"
  done
  run_program consumer -DCONSUMER_FACTOR=3 -Itests/integration/consumer/include tests/integration/consumer/main.cu \
    tests/integration/consumer/scale.cu tests/integration/consumer/report.cpp
  echo "== make"
  cp -r tests/integration/make "$work/make"
  make -s -C "$work/make" NVCC=nvcc > "$work/make.build" 2>&1 && "$work/make/histogram" || cat "$work/make.build"
} >> "$log" 2>&1
cat "$log"
