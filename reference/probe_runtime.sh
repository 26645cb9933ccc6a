#!/bin/bash
# Compiles probe_runtime.cu and runs each part as its own process (sticky
# errors in one part cannot affect another). Build messages go to stderr;
# stdout holds a 3-line header and the program's output only.
cd "$(dirname "$0")" || exit 1
export CUDA_VISIBLE_DEVICES=0
nvcc -arch=sm_90 -o /tmp/probe probe_runtime.cu 1>&2 || { echo "BUILD FAILED"; exit 1; }
echo "gpu $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
nvcc --version | tail -2 | sed 's/^/nvcc /'
for p in 1 2 3 4 4a 5 6 7 8 9a 9b; do
  timeout -s KILL 60 /tmp/probe "$p" 2>&1
  echo "exitcode part=$p rc=$?"
done
