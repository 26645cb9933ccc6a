#!/usr/bin/env bash
# Builds the annotated rewriter tests, the fp16 semantics test and the
# integration projects with nvcc on a GPU machine and runs them, so that what
# cusim prints for the same files can be compared with a real GPU
# (reference/h100-cusim-cc-outputs.txt holds the H100's answers).
#   OUT=dir reference/gpu_check_cusim_cc.sh
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/gpu-check}
work=$(mktemp -d)
reference/gpu_run.sh tests/rewrite/launches.cu tests/rewrite/shared.cu tests/rewrite/constant.cu \
  tests/rewrite/line_numbers.cu tests/semantics/fp16/half_precision.cu > /dev/null
log=$out/gpu-run.txt
{
  echo "== consumer"
  nvcc -arch=sm_90 -DCONSUMER_FACTOR=3 -Itests/integration/consumer/include -o "$work/consumer" \
    tests/integration/consumer/main.cu tests/integration/consumer/scale.cu tests/integration/consumer/report.cpp &&
    "$work/consumer"
  echo "exit $?"
  echo "== make"
  cp -r tests/integration/make "$work/make"
  make -s -C "$work/make" NVCC=nvcc > "$work/make.build" 2>&1 && "$work/make/histogram" || cat "$work/make.build"
} >> "$log" 2>&1
cat "$log"
