#!/usr/bin/env bash
# Runs on a machine with an NVIDIA GPU, from a bundle made by
# scripts/gpu-bundle.sh:
#  1. every example through the CUDA backend (each checks its own result and
#     prints PASSED; C for Metal examples get their kernel program);
#  2. builds the CUDA references (bench/cuda/*.cu) with nvcc;
#  3. runs each benchmark built by slmc++ and its CUDA twin alternately,
#     ROUNDS times (which of the two goes first alternates too), and prints
#     a table of the best time of each and the ratio nvcc time / slmc time
#     (1.0: as fast as nvcc; above 1: faster).
# Every benchmark prints "<tag> <name> N=<size> <ms> ms ... verified" per
# measurement; a missing "verified", a crash or a timeout is a failure.
#
# Environment: ROUNDS (default 3), NVCC (default: nvcc on PATH, else
# /usr/local/cuda/bin/nvcc), NVCC_FLAGS (default -O3 -arch=native),
# BENCH_TIMEOUT (seconds per benchmark run, default 120), DEVICE (the
# SLMC_DEVICE for slmc's programs, default cuda), SIZES=small (small
# problems, to try the script out), ONLY (a regular expression: run only
# the benchmarks whose key, such as amp-nbody, matches; skips the examples).
set -uo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ROUNDS=${ROUNDS:-3}
DEVICE=${DEVICE:-cuda}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-120}
NVCC_FLAGS=${NVCC_FLAGS:--O3 -arch=native}
ONLY=${ONLY:-}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Benchmarks: key, slmc program and arguments, CUDA program and arguments.
# Sizes make the kernels of one run take tens of milliseconds on an H100.
keys=() slmc_cmds=() cuda_cmds=()
pair() { keys+=("$1"); slmc_cmds+=("$2"); cuda_cmds+=("$3"); }
isa="$dir/bench/cm-nbody.isa"
if [ "${SIZES:-}" = small ]; then
  pair amp-matmul      "amp-matmul 256 2"            "matmul_tiled 256 2"
  pair amp-transpose   "amp-transpose 200 300 2"     "transpose 200 300 2"
  pair amp-reduction   "amp-reduction 100000 2"      "reduction 100000 2"
  pair amp-nbody       "amp-nbody 1024 2"            "nbody 1024 2"
  pair amp-scan        "amp-scan 300000 2"           "scan 300000 2"
  pair amp-stencil     "amp-stencil 200 2"           "stencil 200 2"
  pair amp-histogram   "amp-histogram 400000 2"      "histogram 400000 2"
  pair sycl-reduction  "sycl-reduction 262144 2"     "sycl_reduction 262144 2"
  pair sycl-matmul     "sycl-matmul 128 2"           "sycl_matmul 128 2"
  pair sycl-histogram  "sycl-histogram 131072 2"     "sycl_histogram 131072 2"
  pair sycl-spec_example "sycl-spec_example 4096 2"  "sycl_spec_example 4096 2"
  pair sycl-mixed      "sycl-mixed 65536 2"          "sycl_mixed 65536 2"
  pair cm-nbody        "cm-nbody $isa 4096 32 1"     "nbody_cm 4096 32 1"
  pair cilk-matmul     "cilk-matmul 1"               "cilk_matmul 1"
else
  pair amp-matmul      "amp-matmul 4096 10"          "matmul_tiled 4096 10"
  pair amp-transpose   "amp-transpose 4096 8192 200" "transpose 4096 8192 200"
  pair amp-reduction   "amp-reduction 33554432 200"  "reduction 33554432 200"
  pair amp-nbody       "amp-nbody 65536 5"           "nbody 65536 5"
  pair amp-scan        "amp-scan 33554432 100"       "scan 33554432 100"
  pair amp-stencil     "amp-stencil 4608 200"        "stencil 4608 200"
  pair amp-histogram   "amp-histogram 134217728 50"  "histogram 134217728 50"
  pair sycl-reduction  "sycl-reduction 33554432 100" "sycl_reduction 33554432 100"
  pair sycl-matmul     "sycl-matmul 2048 10"         "sycl_matmul 2048 10"
  pair sycl-histogram  "sycl-histogram 16777216 10"  "sycl_histogram 16777216 10"
  pair sycl-spec_example "sycl-spec_example 2097152 100" "sycl_spec_example 2097152 100"
  pair sycl-mixed      "sycl-mixed 67108864 100"     "sycl_mixed 67108864 100"
  pair cm-nbody        "cm-nbody $isa 262144 128 3"  "nbody_cm 262144 128 3"
  pair cilk-matmul     "cilk-matmul 5"               "cilk_matmul 5"
fi

command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader

# nvcc builds in the background while the examples run.
mkdir -p "$work/cuda"
read -ra nvcc_flags <<<"$NVCC_FLAGS"
for src in "$dir"/bench/cuda/*.cu; do
  name=$(basename "$src" .cu)
  ( "$nvcc" "${nvcc_flags[@]}" -o "$work/cuda/$name" "$src" >"$work/cuda/$name.log" 2>&1 ||
      rm -f "$work/cuda/$name" ) &
done

if [ -z "$ONLY" ]; then
  echo "== examples (SLMC_DEVICE=$DEVICE)"
  for exe in "$dir"/examples/*; do
    name=$(basename "$exe")
    args=()
    [ -f "$dir/programs/$name.isa" ] && args=("$dir/programs/$name.isa")
    out=$(SLMC_DEVICE=$DEVICE timeout "$BENCH_TIMEOUT" "$exe" "${args[@]}" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && echo "$out" | grep -q PASSED && ! echo "$out" | grep -q FAILED; then
      echo "PASS $name: $(echo "$out" | grep PASSED | tail -1)"
    else
      echo "FAIL $name (exit $rc):"; echo "$out" | tail -30; fail=1
    fi
  done
fi

if [ -z "$ONLY" ] && [ -f "$dir/checks/index" ]; then
  # What each checked lit program prints on the GPU, for
  # scripts/gpu-check-outputs.sh to hold against the test's CHECK lines.
  outputs=${CHECK_OUTPUTS:-$dir/check-outputs}
  mkdir -p "$outputs"
  cp "$dir/checks/index" "$outputs/index"
  echo "== checked lit programs (SLMC_DEVICE=$DEVICE) -> $outputs"
  while read -r name rel; do
    SLMC_DEVICE=$DEVICE timeout "$BENCH_TIMEOUT" "$dir/checks/$name" >"$outputs/$name.out" 2>"$outputs/$name.err"
    rc=$?
    echo "$rc" >"$outputs/$name.rc"
    [ $rc -eq 0 ] && echo "ran $name" || { echo "FAIL $name (exit $rc):"; tail -20 "$outputs/$name.err"; fail=1; }
  done <"$dir/checks/index"
fi

wait # for nvcc
echo "== nvcc: $("$nvcc" --version | tail -1) ($NVCC_FLAGS)"
for src in "$dir"/bench/cuda/*.cu; do
  name=$(basename "$src" .cu)
  if [ ! -x "$work/cuda/$name" ]; then
    echo "nvcc failed on $name.cu:"; tail -20 "$work/cuda/$name.log"; fail=1
  fi
done

# One run of one benchmark program; appends "<key> <side> <tag> <name> <size> <ms>"
# for each verified line to $work/results.
run_one() {
  local key=$1 side=$2 cmd=$3 prog out rc
  local -a words
  read -ra words <<<"$cmd"
  prog=${words[0]}
  if [ "$side" = slmc ]; then
    out=$(SLMC_DEVICE=$DEVICE timeout "$BENCH_TIMEOUT" "$dir/bench/$prog" "${words[@]:1}" 2>&1)
  elif [ -x "$work/cuda/$prog" ]; then
    out=$(timeout "$BENCH_TIMEOUT" "$work/cuda/$prog" "${words[@]:1}" 2>&1)
  else
    return 0 # reported above
  fi
  rc=$?
  printf '%s\n' "$out" | sed 's/^/  /'
  if [ $rc -ne 0 ] || ! echo "$out" | grep -q " ms .*verified"; then
    echo "  FAIL $key ($side, exit $rc)"; fail=1
  fi
  echo "$out" | awk -v key="$key" -v side="$side" \
    '$3 ~ /^N=/ && $5 == "ms" && / verified/ { print key, side, $1, $2, $3, $4 }' \
    >>"$work/results"
}

echo "== benchmarks: $ROUNDS rounds, slmc++ (SLMC_DEVICE=$DEVICE) and nvcc alternately"
touch "$work/results"
for r in $(seq "$ROUNDS"); do
  echo "-- round $r"
  for i in "${!keys[@]}"; do
    [ -n "$ONLY" ] && ! [[ ${keys[$i]} =~ $ONLY ]] && continue
    if [ $((r % 2)) -eq 1 ]; then
      run_one "${keys[$i]}" slmc "${slmc_cmds[$i]}"
      run_one "${keys[$i]}" cuda "${cuda_cmds[$i]}"
    else
      run_one "${keys[$i]}" cuda "${cuda_cmds[$i]}"
      run_one "${keys[$i]}" slmc "${slmc_cmds[$i]}"
    fi
  done
done

echo "== best of $ROUNDS rounds (ratio = nvcc time / slmc time)"
awk '
  { row = $1 " " $4                       # benchmark key and measurement name
    if (!(row in seen)) { seen[row] = 1; order[++n] = row }
    if ($2 == "slmc") { tag[row] = $3; size[row] = $5 }
    best = ($2 == "slmc") ? "s" : "c"
    k = best SUBSEP row
    if (!(k in ms) || $6 < ms[k]) ms[k] = $6 }
  END {
    printf "| benchmark | size | slmc++ (ms) | nvcc (ms) | ratio |\n"
    printf "| --- | --- | --- | --- | --- |\n"
    for (i = 1; i <= n; ++i) {
      row = order[i]; split(row, p, " ")
      s = ("s" SUBSEP row) in ms ? ms["s" SUBSEP row] : ""
      c = ("c" SUBSEP row) in ms ? ms["c" SUBSEP row] : ""
      name = (row in tag ? tag[row] : "?") " " p[2]
      printf "| %s | %s | %s | %s | %s |\n", name, size[row], s == "" ? "-" : s,
             c == "" ? "-" : c, (s != "" && c != "") ? sprintf("%.3f", c / s) : "-"
    }
  }' "$work/results"
[ $fail -eq 0 ] && echo "gpu-run: all passed" || echo "gpu-run: FAILURES (see above)"
exit $fail
