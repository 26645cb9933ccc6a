#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and the CUDA toolkit (no cusim build
# needed): builds every program of tests/differential.txt with nvcc for
# sm_90, runs it, and records its output as a golden with cusim-diff
# --record, then prints one line per program. Copy the goldens into
# tests/golden/ and commit them; `ctest -L differential` then compares
# cusim's builds with them on any machine.
#   OUT=dir scripts/record-gpu-goldens.sh [name-regex]   (goldens in $OUT/golden/)
# The nvcc options follow the rules of tests/differential.cmake: -rdc=true
# -lcudadevrt for kernels that launch kernels, and a file's "// FLAGS:" lines.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/gpu-goldens}
only=${1:-.}
mkdir -p "$out/golden"
work=$(mktemp -d)
nvcc=${NVCC:-nvcc}
command -v "$nvcc" > /dev/null || nvcc=/usr/local/cuda/bin/nvcc

g++ -std=c++17 -O2 -Itools/common -o "$work/cusim-diff" tools/cusim-diff/*.cpp tools/common/*.cpp || exit 1
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 | sed 's/, / (driver /; s/$/)/')
toolkit=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p')
note="recorded on: $gpu, nvcc $toolkit, $(date -u +%Y-%m-%d)"
echo "$note"

recorded=0 failed=0
while read -r name target source rest; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  [[ "$name" =~ $only ]] || continue
  [[ " $rest " == *" --build-only "* ]] && continue  # nothing to record: its outcome on a GPU is undefined
  # The program's arguments: what is left once cusim-diff's options are out.
  read -r -a fields <<< "$rest"
  args=()
  for ((i = 0; i < ${#fields[@]}; i++)); do
    case "${fields[i]}" in
      --unordered | --known-difference | --needs-front-end | --needs-thrust) ;;
      --rel | --abs | --env) ((i++)) ;;
      *) args+=("${fields[i]}") ;;
    esac
  done
  program=$work/$target
  if [[ ! -x "$program" ]]; then
    flags=(-arch=sm_90 -Isamples)
    [[ "$source" =~ /dp/|-dp- ]] && flags+=(-rdc=true -lcudadevrt)
    read -r -a annotated <<< "$(sed -n 's|^// FLAGS: ||p' "$source" | tr '\n' ' ')"
    flags+=("${annotated[@]}")
    if ! "$nvcc" "${flags[@]}" -o "$program" "$source" > "$work/$target.build" 2>&1; then
      echo "$name: nvcc failed"; sed 's/^/  /' "$work/$target.build" | head -20
      failed=$((failed + 1))
      continue
    fi
  fi
  if "$work/cusim-diff" --record "$out/golden/$name.txt" --note "$note" --timeout 60 -- "$program" "${args[@]}" \
      > "$work/record.txt"; then
    echo "$name: $(cat "$work/record.txt" | sed 's/^cusim-diff: recorded [^ ]* //')"
    recorded=$((recorded + 1))
  else
    echo "$name: $(cat "$work/record.txt")"; failed=$((failed + 1))
  fi
done < tests/differential.txt
tar -czf "$out/goldens.tar.gz" -C "$out" golden  # one file to carry back
echo "recorded $recorded goldens, $failed failed, in $out/golden (and $out/goldens.tar.gz)"
