#!/usr/bin/env bash
# Builds and runs the CPU benchmark: the C++ AMP examples' algorithms built by
# slmc++ on the CPU fallback, against serial and OpenMP versions built by the
# system compiler. One run prints the whole table (about a minute on 2 cores).
#   benchmarks/cpu/run.sh [scale=1.0] [repetitions=3]
# Environment: BUILD_DIR (slmc build, default build/), HOST_CXX (default g++),
# OMP_LIBS (default -lgomp), SLMC_CPU_THREADS / OMP_NUM_THREADS (threads).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
slmcxx="$build/bin/slmc++"
[ -x "$slmcxx" ] || { echo "run.sh: no slmc++ in $build (set BUILD_DIR)" >&2; exit 1; }
host_cxx=${HOST_CXX:-g++}
omp_libs=${OMP_LIBS:--lgomp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# slmc++ compiles kernels for the host too (the CPU fallback); device code is
# not needed here. The OpenMP references are a separate object: slmc++'s host
# pass is a HIP compilation, which clang does not combine with -fopenmp.
"$host_cxx" -O3 -fopenmp -c "$here/host_kernels.cpp" -o "$work/host_kernels.o"
# (-I: slmc++ compiles a lowered copy of the source elsewhere, so a quoted
# include is not found next to the source without it.)
"$slmcxx" -O3 --offload-targets=none -I "$here" "$here/cpu_bench.cpp" "$work/host_kernels.o" \
  $omp_libs -o "$work/cpu_bench"
uname -m
grep -m1 "model name" /proc/cpuinfo 2>/dev/null || true
echo "cores: $(nproc)"
SLMC_DEVICE=cpu "$work/cpu_bench" "$@"
