#!/usr/bin/env bash
# Builds what the NVIDIA GPU check needs into one folder that can be copied
# to a GPU machine without LLVM: every example and the matmul benchmark
# (built by slmc++), libslmrt, the CUDA reference source and the runner.
#   scripts/gpu-bundle.sh [BUNDLE_DIR=gpu-bundle]
# then, on the GPU machine: BUNDLE_DIR/gpu-run.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$here/build}
out=${1:-$here/gpu-bundle}
slmcxx="$build/bin/slmc++"
[ -x "$slmcxx" ] || { echo "build first: scripts/dev.sh test (or cmake --build build)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/examples" "$out/lib" "$out/bench"
for src in "$here"/examples/*/*.cpp; do
  dialect=$(basename "$(dirname "$src")")
  name="$dialect-$(basename "$src" .cpp)"
  echo "== $name"
  "$slmcxx" -O2 "$src" -o "$out/examples/$name"
done
"$slmcxx" -O3 "$here/benchmarks/amp/matmul_bench.cpp" -o "$out/bench/amp-matmul"
cp "$here/benchmarks/cuda/matmul_tiled.cu" "$out/bench/"
cp -P "$build"/lib/libslmrt.so* "$out/lib/"
cp "$here/scripts/gpu-run.sh" "$out/"
echo "bundle ready: $out (run gpu-run.sh there)"
