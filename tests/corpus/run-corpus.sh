#!/usr/bin/env bash
# Builds and runs a corpus of public CUDA programs with cusim-cc, unmodified,
# and prints a table: which build, which pass, and why the others do not.
#
#   tests/corpus/run-corpus.sh [options] [sample-regex]
#     --manifest FILE   the corpus (default tests/corpus/cuda-samples.txt;
#                       also tests/corpus/cuda-by-example.txt)
#     --corpus DIR      where the sources are (default $CUSIM_CORPUS_DIR or
#                       ~/.cache/cusim-corpus); manifest NAME.txt's corpus
#                       lives in DIR/NAME
#     --fetch GITDIR    first extract the manifest's commit from a git
#                       repository of the corpus (e.g. the bare mirror that
#                       `fetch github:NVIDIA/cuda-samples` makes) into DIR/NAME
#     --nvcc PATH       the nvcc of cusim's toolkit directory, which the
#                       samples' CMake files get as CMAKE_CUDA_COMPILER and
#                       single-file programs are compiled with
#                       (default build/toolkit/bin/nvcc)
#     --smoke           only the samples marked 'smoke'
#     --jobs N          build and run N samples at once (default nproc)
#     --table FILE      also write the table as Markdown to FILE
#     --timeout S       seconds one sample may run (default 300)
#     --if-present      exit 77 (CTest's skip), saying so, when the corpus is
#                       not there: CI cannot fetch it
# Exit status: 0 when every sample whose expectation is 'pass' passed.
# Logs: <corpus>/build/NAME/<sample>/{build.log,run.log}.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

manifest=$here/cuda-samples.txt
corpus=${CUSIM_CORPUS_DIR:-$HOME/.cache/cusim-corpus}
fetch_from=""
nvcc=$root/build/toolkit/bin/nvcc
smoke=false
jobs=$(nproc)
table=""
timeout_s=300
if_present=false
filter=""
while (($#)); do
  case $1 in
    --manifest) manifest=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --fetch) fetch_from=$2; shift 2 ;;
    --nvcc) nvcc=$2; shift 2 ;;
    --smoke) smoke=true; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --table) table=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --if-present) if_present=true; shift ;;
    --one) one=$2; shift 2 ;;   # internal: build and run one manifest line
    -h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run-corpus: unknown option $1 (--help lists them)" >&2; exit 2 ;;
    *) filter=$1; shift ;;
  esac
done

name=$(basename "$manifest" .txt)
# The manifest's header: the commit, and how its programs are built
# ("build cmake <folder>": each entry is a folder under <folder> with its own
# CMakeLists.txt; "build nvcc <options>": each entry is one .cu file,
# compiled alone with nvcc's options, paths relative to the corpus).
header() { sed -n "s/^#[[:space:]]*$1[[:space:]]\{1,\}\(.*\)/\1/p" "$manifest" | head -1 | sed 's/[[:space:]]*$//'; }
commit=$(header commit | cut -c1-40)
read -r build_mode build_args <<<"$(header build)"
src=$corpus/$name
out=$corpus/build/$name

# Extracts the manifest's commit without the blobs a partial mirror lacks
# (Git LFS documents and data), which `git archive` would stop at.
extract() {
  local git_dir=$1 missing=() path
  echo "run-corpus: extracting $commit from $git_dir into $src"
  while read -r path; do missing+=(":(exclude)$path"); done < <(
    git -C "$git_dir" ls-tree -r "$commit" | awk '{print $3 "\t" $4}' |
      while IFS=$'\t' read -r blob path; do
        git -C "$git_dir" cat-file -e "$blob" 2>/dev/null || printf '%s\n' "$path"
      done)
  rm -rf "$src.tmp" && mkdir -p "$src.tmp" &&
    git -C "$git_dir" archive "$commit" -- . "${missing[@]}" | tar -x -C "$src.tmp" &&
    rm -rf "$src" && mv "$src.tmp" "$src" && echo "$commit" > "$src/.cusim-commit"
}

# One line of text as a table cell: ASCII ('...' for other characters), no
# '|' or '\', at most 160 characters.
table_cell() {
  LC_ALL=C sed 's/\xe2\x80[\x98\x99]/'"'"'/g; s/[^[:print:]]//g; s/[|\\]/\//g' | cut -c1-160
}

# Builds and runs one sample; prints "sample|build|result|seconds|note".
run_one() {
  local line=$1 dir args signal expect sample_dir work start status=pass note=""
  IFS='|' read -r dir args signal expect _ <<<"$line"
  dir=$(xargs <<<"$dir"); args=$(xargs <<<"$args"); signal=$(sed 's/^ *//; s/ *$//' <<<"$signal")
  work=$out/$dir
  rm -rf "$work" && mkdir -p "$work"
  start=$(date +%s)
  local app=""
  if [[ $build_mode == nvcc ]]; then
    sample_dir=$(dirname "$src/$dir")
    local options=() option
    read -ra options <<<"$build_args"
    for option in "${!options[@]}"; do  # -Idir, -I dir: relative to the corpus
      if [[ ${options[option]} == -I?* ]]; then
        options[option]=-I$src/${options[option]#-I}
      elif [[ ${options[option]} == -I ]] && ((option + 1 < ${#options[@]})); then
        options[option + 1]=$src/${options[option + 1]}
      fi
    done
    "$nvcc" "${options[@]}" "$src/$dir" -o "$work/app" >"$work/build.log" 2>&1 && app=$work/app
  else
    # Its own CMakeLists.txt, with cusim's toolkit as the CUDA toolkit. -O2:
    # nvcc optimises device code unless told otherwise (-G), and on cusim
    # device code is host code, which CMake builds unoptimised by default.
    sample_dir=$src/$build_args/$dir
    if cmake -S "$sample_dir" -B "$work/build" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_FLAGS=-O2 \
         -DCMAKE_CXX_FLAGS=-O2 >"$work/build.log" 2>&1 &&
       cmake --build "$work/build" -j 1 >>"$work/build.log" 2>&1; then
      app=$work/build/$(basename "$dir")
      [[ -x $app ]] || app=$(find "$work/build" -maxdepth 1 -type f -executable | head -1)
    fi
  fi
  if [[ -z $app || ! -x $app ]]; then
    note=$(grep -m1 -E 'error|Error' "$work/build.log" | sed "s#$src/##g" | table_cell)
    echo "$dir|no|fail|$(($(date +%s) - start))|$note"
    return
  fi
  # NAME=VALUE words first are the run's environment (CUSIM_DEVICES=2).
  local run_args=() environment=()
  [[ $args != - ]] && read -ra run_args <<<"$args"
  while ((${#run_args[@]})) && [[ ${run_args[0]} =~ ^[A-Z_][A-Z0-9_]*= ]]; do
    environment+=("${run_args[0]}"); run_args=("${run_args[@]:1}")
  done
  (cd "$sample_dir" && env "${environment[@]}" timeout "$timeout_s" "$app" "${run_args[@]}") >"$work/run.log" 2>&1 </dev/null
  local rc=$?
  if ((rc == 124)); then
    status=fail; note="ran past ${timeout_s} s"
  elif ((rc != 0)); then
    status=fail; note="exit status $rc: $(grep -m1 -iE 'error|fail|abort' "$work/run.log" | table_cell)"
  # A device assertion's message ("Assertion `...` failed.") is output that
  # simpleAssert expects; a failed assertion elsewhere also fails the run.
  elif failure=$(grep -E 'FAIL|[^a-z]failed|[Mm]ismatch' "$work/run.log" | grep -vE "$signal|Assertion .* failed" |
                   head -1) &&
       [[ -n $failure ]]; then
    status=fail; note="output: $(table_cell <<<"$failure")"
  elif [[ $signal != exit ]] && ! grep -qE "$signal" "$work/run.log"; then
    status=fail; note="no '$signal' in the output"
  fi
  echo "$dir|yes|$status|$(($(date +%s) - start))|$note"
}

if [[ -n ${one:-} ]]; then run_one "$one"; exit 0; fi

if [[ -n $fetch_from ]]; then
  extract "$fetch_from" || { echo "run-corpus: could not extract $commit" >&2; exit 2; }
fi
if [[ ! -f $src/.cusim-commit ]]; then
  msg="run-corpus: no $name sources in $src (fetch $(header source | sed 's#https://github.com/#github:#'), then run with --fetch <its git dir>)"
  if $if_present; then echo "$msg; skipped"; exit 77; fi
  echo "$msg" >&2; exit 2
fi
[[ $(cat "$src/.cusim-commit") != "$commit" ]] &&
  echo "run-corpus: warning: $src holds $(cat "$src/.cusim-commit"), the manifest wants $commit" >&2
[[ -x $nvcc ]] || { echo "run-corpus: no cusim toolkit at $nvcc (build cusim first)" >&2; exit 2; }

lines=$(grep -v '^[[:space:]]*#' "$manifest" | grep '|')
$smoke && lines=$(grep -E '\|[[:space:]]*smoke[[:space:]]*$' <<<"$lines")
[[ -n $filter ]] && lines=$(grep -E "^[[:space:]]*[^|]*($filter)" <<<"$lines")
[[ -n $lines ]] || { echo "run-corpus: no sample matches" >&2; exit 2; }

results=$(tr '\n' '\0' <<<"$lines" |
  xargs -0 -P "$jobs" -I{} "$0" --manifest "$manifest" --corpus "$corpus" \
    --nvcc "$nvcc" --timeout "$timeout_s" --one {} | sort)

# The table: one row per sample, then the counts.
expect_of() { grep -E "^[[:space:]]*$1[[:space:]]*\|" <<<"$lines" | cut -d'|' -f4 | xargs; }
total=0 built=0 passed=0 expected=0 expected_passed=0 unexpected=0
report="| sample | builds | passes | seconds | expected | note |
|---|---|---|---|---|---|"
while IFS='|' read -r dir b r secs note; do
  expect=$(expect_of "$dir")
  total=$((total + 1))
  [[ $b == yes ]] && built=$((built + 1))
  [[ $r == pass ]] && passed=$((passed + 1))
  if [[ $expect == pass ]]; then
    expected=$((expected + 1))
    if [[ $r == pass ]]; then expected_passed=$((expected_passed + 1)); else unexpected=$((unexpected + 1)); fi
  fi
  report+=$'\n'"| $dir | $b | $r | $secs | $expect | $note |"
done <<<"$results"
summary="$passed of $total samples pass ($built build); of the $expected expected to pass, $expected_passed do. Commit $commit."
printf '%s\n\n%s\n' "$report" "$summary"
if [[ -n $table ]]; then
  printf '%s\n\n%s\n' "$report" "$summary" >"$table"
fi
((unexpected == 0))
