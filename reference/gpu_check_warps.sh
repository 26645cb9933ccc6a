#!/usr/bin/env bash
# Builds the warp semantics tests with nvcc on a GPU machine and runs them:
# their expected values come from CUDA's documented rules, so a pass there
# confirms the rules cusim implements (reference/h100-warp-outputs.txt).
#   OUT=dir reference/gpu_check_warps.sh
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/gpu-check}
mkdir -p "$out"
log=$out/gpu-warp-outputs.txt
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$log" 2>&1
for f in tests/semantics/warp/*.cu; do
  name=$(basename "$f" .cu)
  if ! nvcc -arch=sm_90 -o "$work/$name" "$f" > "$work/$name.build" 2>&1; then
    echo "== $name: build failed" >> "$log"
    cat "$work/$name.build" >> "$log"
    continue
  fi
  if [ "$name" = warp_errors ]; then
    for c in mask different missing width; do
      echo "== $name $c" >> "$log"
      timeout 20 "$work/$name" "$c" >> "$log" 2>&1
      echo "exit $?" >> "$log"
    done
  else
    echo "== $name" >> "$log"
    timeout 60 "$work/$name" >> "$log" 2>&1
    echo "exit $?" >> "$log"
  fi
done
cat "$log"
