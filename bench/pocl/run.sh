#!/usr/bin/env bash
# Runs bench/w1-w5's workloads as OpenCL kernels under PoCL (OpenCL on the
# CPU) and prints one Markdown table, for issue 25's side-by-side comparison
# (docs/performance.md, "PoCL side by side"). Builds bench/pocl/build/pocl_bench
# first if needed (plain g++ and -lOpenCL: cusim's CMake build needs no OpenCL).
#
#   bench/pocl/run.sh [--repeat R] [--workers N] [--quick]
#
# The options go to the program: --workers is PoCL's thread count (default 1,
# as cusim's per-core ratios). PoCL and the OpenCL headers are not part of
# cusim's setup; install them with CUSIM_SETUP_BENCH=1 scripts/setup.sh.
# Exits with 1 when a kernel's result differs from the native loop's, never
# because of a time; with 2 when the program cannot be built, 3 when OpenCL
# fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [[ ! -e /usr/include/CL/cl.h ]] || ! ldconfig -p | grep -q 'libOpenCL\.so\b' ||
   [[ ! -e /etc/OpenCL/vendors/pocl.icd ]]; then
  echo "run.sh: PoCL or the OpenCL headers are missing: CUSIM_SETUP_BENCH=1 scripts/setup.sh" \
       "(or apt-get install pocl-opencl-icd ocl-icd-opencl-dev opencl-headers)" >&2
  exit 2
fi
# make's own output to stderr, so that stdout is the table only.
make -s -C "$here" >&2 || { echo "run.sh: building $here/build/pocl_bench failed" >&2; exit 2; }

rc=0
out=$("$here/build/pocl_bench" "$@") || rc=$?
if [[ $rc -ne 0 && $rc -ne 1 ]]; then  # not a disagreement: an error, already on stderr
  printf '%s\n' "$out" >&2
  exit "$rc"
fi

echo "PoCL benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
  "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load average$(uptime | sed 's/.*load average://')"
echo
echo "| workload | native ms | PoCL ms | ratio | check |"
echo "|---|---:|---:|---:|---|"
# A result line: the name (its words), then native ms, PoCL ms, ratio, check.
grep -v '^#' <<<"$out" |
  awk '{ name = $1; for (i = 2; i <= NF - 4; ++i) name = name " " $i
         printf "| %s | %s | %s | %s | %s |\n", name, $(NF-3), $(NF-2), $(NF-1), $NF }'
echo
# The program's notes (the device, its threads, how W3 was done) as a list:
# "# text" starts an item, "#   text" continues it; the column headers go.
grep '^#' <<<"$out" | grep -v 'native_ms' |
  awk '/^# [^ ]/ { sub(/^# /, "- "); print; next } { sub(/^# +/, "  "); print }'
exit $rc
