#!/usr/bin/env bash
# Builds the libFuzzer harness of cusim-cc's rewriter with clang (no CMake
# needed) and fuzzes it, starting from the checked-in corpus:
#   scripts/fuzz-rewriter.sh [SECONDS]      # default 60
# One process in the foreground, so one core. The corpus is copied to
# build-fuzz/corpus, so that inputs found while fuzzing stay out of the
# source tree; crash-*/timeout-*/oom-* files land in build-fuzz/artifacts/.
# Extra arguments after SECONDS go to libFuzzer. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
cxx=${CXX_FUZZ:-clang++}
out=build-fuzz
mkdir -p "$out/corpus" "$out/artifacts"

"$cxx" -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=undefined \
  -I tools/cusim-cc tools/cusim-cc/rewrite.cpp tests/fuzz/rewrite_fuzzer.cpp -o "$out/rewrite_fuzzer"

cp tests/fuzz/corpus/* "$out/corpus/"
# The project's own .cu files are seeds too.
find samples tests/semantics tests/rewrite -name '*.cu' -exec cp {} "$out/corpus/" \;
exec "$out/rewrite_fuzzer" "$out/corpus" \
  -max_total_time="$seconds" -timeout=5 -max_len=4096 \
  -artifact_prefix="$out/artifacts/" "${@:2}"
