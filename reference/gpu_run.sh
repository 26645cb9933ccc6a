#!/usr/bin/env bash
# Builds each given .cu file with nvcc on a GPU machine and runs it (20 s at
# most), printing what it prints: the GPU's answers to compare with cusim's.
#   OUT=dir reference/gpu_run.sh file.cu[:arg] ...   (output also in $OUT/gpu-run.txt)
# A file may carry one argument after a colon (warp_errors.cu:mask).
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/gpu-check}
mkdir -p "$out"
log=$out/gpu-run.txt
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$log" 2>&1
for spec in "$@"; do
  file=${spec%%:*}
  arg=${spec#"$file"}
  arg=${arg#:}
  name=$(basename "$(dirname "$file")")-$(basename "$file" .cu)  # files of the same name in different folders
  echo "== $name${arg:+ $arg}" >> "$log"
  flags=
  case "$file" in */dp/* | *-dp-*/*) flags="-rdc=true -lcudadevrt" ;; esac  # kernels that launch kernels
  flags="$flags $(sed -n 's|^// FLAGS: ||p' "$file" | tr '\n' ' ')"  # an annotated test's own options
  if [ ! -x "$work/$name" ] && ! nvcc -arch=sm_90 $flags -o "$work/$name" "$file" > "$work/$name.build" 2>&1; then
    echo "build failed:" >> "$log"
    cat "$work/$name.build" >> "$log"
    continue
  fi
  timeout 20 "$work/$name" $arg >> "$log" 2>&1
  echo "exit $?" >> "$log"
done
cat "$log"
