#!/usr/bin/env bash
# Builds a libFuzzer harness of cusim-cc with clang (no CMake needed) and
# fuzzes it, starting from its checked-in corpus:
#   scripts/fuzz.sh rewrite|options|device_pass [SECONDS] [libFuzzer options...]   # default 60 s
# rewrite: the source rewriter (any bytes are a .cu file; the project's own
# .cu files are seeds too). options: the command-line parser (one argument
# a line). device_pass: the merge of the __CUDA_ARCH__ passes (host text,
# NUL, device text). One process in the foreground, so one core. The corpus is copied
# to build-fuzz/<harness>/corpus (FUZZ_OUT overrides the folder), so that
# inputs found while fuzzing stay out of the source tree; crash-*,
# timeout-* and oom-* files land in its artifacts/. CXX_FUZZ names the
# compiler (default clang++). CTest runs each for 20 s (fuzz.*_short) where
# clang's libFuzzer is installed. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

harness=${1:?"usage: $0 rewrite|options|device_pass [SECONDS] [libFuzzer options...]"}
seconds=${2:-60}
cxx=${CXX_FUZZ:-clang++}
out=${FUZZ_OUT:-build-fuzz/$harness}
mkdir -p "$out/corpus" "$out/artifacts" "$out/include"

flags=(-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I tools/cusim-cc)
case $harness in
  rewrite)
    # With the inline-PTX translation and its PTX parser (asm statements in device code).
    sources=(tools/cusim-cc/rewrite.cpp tools/cusim-cc/lambda_captures.cpp tools/cusim-cc/inline_asm.cpp
             tools/cusim-cc/front_end_marks.cpp src/ptx/ptx_parse.cpp tests/fuzz/rewrite_fuzzer.cpp)
    flags+=(-I src)
    cp tests/fuzz/corpus/* "$out/corpus/"
    find samples tests/semantics tests/rewrite -name '*.cu' -exec cp {} "$out/corpus/" \;
    max_len=4096
    ;;
  options)
    # The parser prints its version from the build's settings; any will do.
    printf '#pragma once\n#define CUSIM_CC_VERSION "fuzz"\n#define CUSIM_CC_CUDA_VERSION "fuzz"\n#define CUSIM_CC_CUDA_VERSION_BUILD 0\n' >"$out/include/settings.hpp"
    flags+=(-I "$out/include")
    sources=(tools/cusim-cc/options.cpp tests/fuzz/options_fuzzer.cpp)
    cp tests/fuzz/options_corpus/* "$out/corpus/"
    max_len=1024
    ;;
  device_pass)
    sources=(tools/cusim-cc/preprocessed.cpp tools/cusim-cc/sequence_diff.cpp tools/cusim-cc/pass_alignment.cpp
             tools/cusim-cc/function_heads.cpp tools/cusim-cc/device_pass.cpp tests/fuzz/device_pass_fuzzer.cpp)
    cp tests/fuzz/device_pass_corpus/* "$out/corpus/"
    max_len=4096
    ;;
  *) echo "fuzz.sh: no harness $harness (rewrite, options or device_pass)" >&2; exit 2 ;;
esac

"$cxx" "${flags[@]}" "${sources[@]}" -o "$out/${harness}_fuzzer"
exec "$out/${harness}_fuzzer" "$out/corpus" \
  -max_total_time="$seconds" -timeout=5 -max_len="$max_len" \
  -artifact_prefix="$out/artifacts/" "${@:3}"
