#!/usr/bin/env bash
# Runs on a machine with an NVIDIA GPU, from a bundle made by
# scripts/gpu-bundle.sh: every example through the CUDA backend (each checks
# its own result), then the tiled matmul benchmark against the same
# algorithm written in CUDA and built by nvcc, both in this run.
set -uo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
N=${N:-4096}
REPS=${REPS:-20}
ROUNDS=${ROUNDS:-3}
fail=0

command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

echo "== examples on the CUDA backend"
for exe in "$dir"/examples/*; do
  if out=$(SLMC_DEVICE=cuda "$exe" 2>&1); then
    echo "PASS $(basename "$exe"): $(echo "$out" | tail -1)"
  else
    echo "FAIL $(basename "$exe"):"; echo "$out" | tail -5; fail=1
  fi
done

echo "== benchmark: tiled matmul N=$N, 16x16 tiles, $REPS repetitions x $ROUNDS rounds"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if ! "$nvcc" -O3 -arch=native -o "$dir/bench/cuda-matmul" "$dir/bench/matmul_tiled.cu"; then
  echo "nvcc failed"; exit 1
fi
best_amp=""; best_cuda=""
for r in $(seq "$ROUNDS"); do
  a=$(SLMC_DEVICE=cuda "$dir/bench/amp-matmul" "$N" "$REPS") || fail=1
  c=$("$dir/bench/cuda-matmul" "$N" "$REPS") || fail=1
  echo "$a"; echo "$c"
  am=$(echo "$a" | awk '{print $3}'); cm=$(echo "$c" | awk '{print $3}')
  best_amp=$(awk -v x="$am" -v y="${best_amp:-1e30}" 'BEGIN{print (x<y)?x:y}')
  best_cuda=$(awk -v x="$cm" -v y="${best_cuda:-1e30}" 'BEGIN{print (x<y)?x:y}')
done
awk -v a="$best_amp" -v c="$best_cuda" -v n="$N" 'BEGIN{
  printf "RESULT N=%d best: slmc (C++ AMP) %.3f ms, nvcc (CUDA) %.3f ms, ratio (nvcc time / slmc time) %.3f\n", n, a, c, c/a }'
exit $fail
