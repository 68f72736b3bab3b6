#!/usr/bin/env bash
# Builds what the NVIDIA GPU check needs into one folder that can be copied
# to a GPU machine without LLVM: every example and every benchmark (built by
# slmc++; C for Metal kernel files as program files), the benchmarks' PTX as
# slmc++ emits it (for comparison with nvcc's), libslmrt, the CUDA reference
# sources and the runner.
#   scripts/gpu-bundle.sh [BUNDLE_DIR=gpu-bundle]
# then, on the GPU machine: BUNDLE_DIR/gpu-run.sh
#
# Layout: examples/<dialect>-<name> (programs/<dialect>-<name>.isa is the
# kernel program a C for Metal example takes as its first argument),
# bench/<dialect>-<name> (bench/cm-<name>.isa likewise), bench/cuda/*.cu,
# ptx/<dialect>-<name>.ptx, lib/libslmrt.so*, gpu-run.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$here/build}
out=${1:-$here/gpu-bundle}
slmcxx="$build/bin/slmc++"
[ -x "$slmcxx" ] || { echo "build first: scripts/dev.sh test (or cmake --build build)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/examples" "$out/programs" "$out/lib" "$out/bench/cuda" "$out/ptx"

# Examples. A C for Metal example is a host program x.cpp and its kernel
# file x_genx.cpp (built with --emit=program).
for src in "$here"/examples/*/*.cpp; do
  dialect=$(basename "$(dirname "$src")")
  base=$(basename "$src" .cpp)
  case "$base" in *_genx) continue ;; esac
  name="$dialect-$base"
  echo "== $name"
  kernel="$(dirname "$src")/${base}_genx.cpp"
  if [ -f "$kernel" ]; then
    "$slmcxx" --emit=program "$kernel" -o "$out/programs/$name.isa"
  fi
  "$slmcxx" -O2 "$src" -o "$out/examples/$name"
done

# Benchmarks: <dialect>/<name>_bench.cpp. A benchmark includes its example's
# kernel code; a C for Metal benchmark runs its example's kernel file,
# examples/cm/<name>_genx.cpp.
for src in "$here"/benchmarks/{amp,sycl,cm,cilk}/*_bench.cpp; do
  dialect=$(basename "$(dirname "$src")")
  base=$(basename "$src" _bench.cpp)
  name="$dialect-$base"
  echo "== bench $name"
  kernel="$here/examples/$dialect/${base}_genx.cpp"
  if [ -f "$kernel" ]; then
    "$slmcxx" --emit=program "$kernel" -o "$out/bench/$name.isa"
    "$slmcxx" -O3 --emit=ptx "$kernel" -o "$out/ptx/$name.ptx"
  else
    "$slmcxx" -O3 --emit=ptx "$src" -o "$out/ptx/$name.ptx"
  fi
  "$slmcxx" -O3 "$src" -o "$out/bench/$name"
done
# Run tests of the lit suite that build one program and check what it
# prints (`RUN: %slmcxx ... %s -o %t` then `RUN: %t | FileCheck %s`): built
# here as checks/<dir>-<name>; gpu-run.sh saves what each prints on the GPU
# and scripts/gpu-check-outputs.sh checks it against the test's CHECK lines.
mkdir -p "$out/checks"
: >"$out/checks/index"
for test in $(grep -rlx '// RUN: %t | FileCheck %s' "$here/test/lit" | sort); do
  build_line=$(grep -m1 '^// RUN: %slmcxx ' "$test" | sed 's|^// RUN: ||')
  # Only the plain form: no other substitutions, no continuation lines.
  rest=$(echo "$build_line" | sed -e 's/%slmcxx//' -e 's/%s\b//' -e 's/%t\b//')
  case "$rest" in *%*|*\\) echo "== check $(basename "$test"): skipped"; continue ;; esac
  rel=${test#"$here/"}
  name=$(basename "$(dirname "$test")")-$(basename "$test" | sed 's/\.[a-z]*$//')
  echo "== check $name"
  read -ra words <<<"$build_line"
  cmd=()
  for w in "${words[@]}"; do
    case "$w" in
      %slmcxx) cmd+=("$slmcxx") ;;
      %s) cmd+=("$test") ;;
      %t) cmd+=("$out/checks/$name") ;;
      *) cmd+=("$w") ;;
    esac
  done
  (cd "$(dirname "$test")" && "${cmd[@]}")
  echo "$name $rel" >>"$out/checks/index"
done

cp "$here"/benchmarks/cuda/*.cu "$out/bench/cuda/"
cp -P "$build"/lib/libslmrt.so* "$out/lib/"
cp "$here/scripts/gpu-run.sh" "$out/"
echo "bundle ready: $out (run gpu-run.sh there)"
