#!/usr/bin/env bash
# Runs every benchmark of a build tree and prints one table (Markdown) of the
# five workloads against issue 25's targets, the 1 -> 2 worker speedup of each
# (issue 25 asks 1.8 of all five), and the microbenchmarks at 1 and 2 workers. Builds nothing:
#
#   cmake --build build --target bench_w1_vector_add bench_w2_dot_product bench_w3_warp_reduce \
#         bench_w4_matmul bench_w5_histogram bench_micro bench_memory
#   bench/run.sh [BUILD_DIR] [--repeat R] [--quick] [--with-pocl]   (BUILD_DIR: default build)
#
# Extra options go to every benchmark. Exits with 1 when a kernel's result
# differs from the native loop's, never because of a time. The times are
# only as good as the machine is idle: the header gives its load.
# --with-pocl also runs the five workloads under PoCL (bench/pocl/run.sh,
# which builds its own program; issue 25) and appends its columns to the
# first table; without it the output is unchanged.
set -euo pipefail

build=build
if [[ $# -gt 0 && $1 != --* ]]; then
  build=$1
  shift
fi
bin=$build/bin
# --with-pocl is ours, not the benchmarks': take it out of the options.
with_pocl=false
options=()
for a in "$@"; do
  if [[ $a == --with-pocl ]]; then with_pocl=true; else options+=("$a"); fi
done
set -- "${options[@]}"
workloads=(w1_vector_add w2_dot_product w3_warp_reduce w4_matmul w5_histogram)
for b in "${workloads[@]}" micro memory; do
  if [[ ! -x $bin/bench_$b ]]; then
    echo "run.sh: no $bin/bench_$b: build the bench_* targets of $build first (see the top of $0)" >&2
    exit 2
  fi
done

# issue 25's targets (issue 11's were 1.3, 10, 40, 3.5, 15): time(cusim) /
# time(native) with one worker.
declare -A target=([w1_vector_add]=1.2 [w2_dot_product]=8 [w3_warp_reduce]=30 [w4_matmul]=3 [w5_histogram]=8)
status=0

# The result line of one run: "name|native ms|cusim ms|ratio|check".
result_line() {
  local line
  line=$("$bin/bench_$1" --workers "$2" "${@:3}" | grep -v '^#' | tail -n 1)
  awk '{ name = $1; for (i = 2; i <= NF - 4; ++i) name = name " " $i
         printf "%s|%s|%s|%s|%s\n", name, $(NF-3), $(NF-2), $(NF-1), $NF }' <<<"$line"
}

echo "cusim benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
  "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load average$(uptime | sed 's/.*load average://')"
echo
# With --with-pocl: PoCL's columns by workload (W1..W5), from its table's
# rows "| name | native ms | PoCL ms | ratio | check |". Its ratio is against
# its own program's native loop (the same loop, another process).
declare -A pocl_cols
pocl_head='' pocl_rule=''
if $with_pocl; then
  pocl_rc=0
  pocl_table=$("$(dirname "$0")/pocl/run.sh" --workers 1 "$@") || pocl_rc=$?
  ((pocl_rc <= 1)) || exit "$pocl_rc"  # not a disagreement: it said why on stderr
  ((pocl_rc == 0)) || status=1
  while IFS='|' read -r w pocl_ms pocl_ratio pocl_check; do
    pocl_cols[$w]=" $pocl_ms | $pocl_ratio | $pocl_check |"
  done < <(grep '^| W[1-5] ' <<<"$pocl_table" |
             awk -F' *[|] *' '{ printf "%s|%s|%s|%s\n", substr($2, 1, 2), $4, $5, $6 }')
  pocl_head=' PoCL ms | PoCL ratio | PoCL check |' pocl_rule='---:|---:|---|'
fi

echo "| workload | native ms | cusim ms | ratio | target | met | check |$pocl_head"
echo "|---|---:|---:|---:|---:|---|---|$pocl_rule"
declare -A one_worker
for b in "${workloads[@]}"; do
  IFS='|' read -r name native cusim ratio check < <(result_line "$b" 1 "$@")
  one_worker[$b]=$cusim
  met=$(awk -v r="$ratio" -v t="${target[$b]}" 'BEGIN { print (r <= t) ? "yes" : "no" }')
  [[ $check == agree ]] || status=1
  echo "| $name | $native | $cusim | $ratio | ≤ ${target[$b]} | $met | $check |${pocl_cols[${name:0:2}]:-}"
done

echo
echo "| workload | cusim ms, 1 worker | cusim ms, 2 workers | speedup | target |"
echo "|---|---:|---:|---:|---:|"
for b in "${workloads[@]}"; do
  IFS='|' read -r name native cusim ratio check < <(result_line "$b" 2 "$@")
  [[ $check == agree ]] || status=1
  speedup=$(awk -v a="${one_worker[$b]}" -v b="$cusim" 'BEGIN { printf "%.2f", a / b }')
  echo "| $name | ${one_worker[$b]} | $cusim | $speedup | ≥ 1.8 |"
done

echo
echo "| microbenchmark | 1 worker | 2 workers | unit |"
echo "|---|---:|---:|---|"
micro1=$("$bin/bench_micro" --workers 1 "$@") || status=1
micro2=$("$bin/bench_micro" --workers 2 "$@") || status=1
# Columns of a micro line: name (up to column 49), cost, unit, check.
join -t '|' <(grep -v '^#' <<<"$micro1" | grep -v '^microbenchmarks:' |
                awk '{ printf "%s|%s|%s\n", substr($0, 1, 49), $0 ~ /needs/ ? "-" : substr($0, 51, 10), substr($0, 62, 20) }' | nl -w3 -s'|') \
            <(grep -v '^#' <<<"$micro2" | grep -v '^microbenchmarks:' |
                awk '{ printf "%s\n", substr($0, 51, 10) }' | nl -w3 -s'|') |
  awk -F'|' '{ gsub(/ +$/, "", $2); gsub(/^ +| +$/, "", $3); gsub(/ +$/, "", $4); gsub(/^ +| +$/, "", $5)
               printf "| %s | %s | %s | %s |\n", $2, $3, $5, $4 }'
grep -q 'all agree' <<<"$micro1" && grep -q 'all agree' <<<"$micro2" || status=1

echo
echo "Peak memory, 2 workers (one resident block each):"
echo
echo '```'
"$bin/bench_memory" --workers 2 || status=1
echo '```'
exit $status
