#!/usr/bin/env bash
# Builds and runs the CPU benchmark: the C++ AMP examples' algorithms built by
# slmc++ on the CPU fallback, against serial and OpenMP versions built by the
# system compiler. One run prints the whole table (about a minute on 2 cores).
#   benchmarks/cpu/run.sh [scale=1.0] [repetitions=3]
# Environment: BUILD_DIR (slmc build, default build/), HOST_CXX (default g++),
# OMP_LIBS (default -lgomp), SLMC_CPU_THREADS / OMP_NUM_THREADS (threads),
# SLMC_BENCH_FLAGS (more slmc++ flags for the C++ AMP kernels, e.g.
# -DSLMC_AMP_BUFFER_BOUNDS=0), SLMC_BENCH_ONLY (one group of rows: matmul, transpose, reduction, stencil,
# scan, histogram, dialect, nbody), KEEP_WORK=1 (keep the build folder, named on
# the last line, to rerun or profile its cpu_bench).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
slmcxx="$build/bin/slmc++"
[ -x "$slmcxx" ] || { echo "run.sh: no slmc++ in $build (set BUILD_DIR)" >&2; exit 1; }
host_cxx=${HOST_CXX:-g++}
omp_libs=${OMP_LIBS:--lgomp}
work=$(mktemp -d)
trap '[ -n "${KEEP_WORK:-}" ] && echo "kept: $work" || rm -rf "$work"' EXIT

# slmc++ compiles kernels for the host too (the CPU fallback); device code is
# not needed here. The OpenMP references are a separate object: slmc++'s host
# pass is a HIP compilation, which clang does not combine with -fopenmp.
# -fno-math-errno: the N-body reference vectorises its square roots, as
# the GPU dialects' rsqrt does.
"$host_cxx" -O3 -fno-math-errno -fopenmp -c "$here/host_kernels.cpp" -o "$work/host_kernels.o"
# The OpenCL C twins' host code, for PoCL (any OpenCL CPU device): linked
# only when the OpenCL headers and ICD loader are installed.
cl_objs=()
cl_libs=()
if echo '#include <CL/cl.h>' | "$host_cxx" -x c++ -E - >/dev/null 2>&1 &&
   "$host_cxx" -print-file-name=libOpenCL.so | grep -q /; then
  "$host_cxx" -O2 -std=c++17 -c "$here/opencl_twins.cpp" -o "$work/opencl_twins.o"
  cl_objs=("$work/opencl_twins.o")
  cl_libs=(-lOpenCL)
else
  "$host_cxx" -O2 -std=c++17 -DSLMC_NO_OPENCL -c "$here/opencl_twins.cpp" -o "$work/opencl_twins.o"
  cl_objs=("$work/opencl_twins.o")
fi
# (-I: slmc++ compiles a lowered copy of the source elsewhere, so a quoted
# include is not found next to the source without it.)
# The other dialects' kernels, one source each (the Cilk Plus sample's size
# is a compile-time constant, as in Intel's sample).
"$slmcxx" -O3 --offload-targets=none -c "$here/sycl_kernels.cpp" -o "$work/sycl_kernels.o"
"$slmcxx" -O3 --offload-targets=none -DMATMUL_N=${CILK_MATMUL_N:-384} -c "$here/cilk_kernels.cpp" \
  -o "$work/cilk_kernels.o"
"$slmcxx" -O3 --offload-targets=none -c "$here/cm_kernels.cpp" -o "$work/cm_kernels.o"
"$slmcxx" -O3 --emit=program "$root/examples/cm/nbody_genx.cpp" -o "$work/nbody_genx.isa"
"$slmcxx" -O3 --offload-targets=none ${SLMC_BENCH_FLAGS:-} -I "$here" "$here/cpu_bench.cpp" "$work/host_kernels.o" \
  "$work/sycl_kernels.o" "$work/cilk_kernels.o" "$work/cm_kernels.o" "${cl_objs[@]}" \
  $omp_libs "${cl_libs[@]}" -o "$work/cpu_bench"
uname -m
grep -m1 "model name" /proc/cpuinfo 2>/dev/null || true
echo "cores: $(nproc)"
# PoCL gets the same number of threads as the others.
threads=${SLMC_CPU_THREADS:-$(nproc)}
SLMC_DEVICE=cpu SLMC_BENCH_CL_DIR="$root/benchmarks/intel" \
  SLMC_BENCH_CM_PROGRAM="$work/nbody_genx.isa" \
  POCL_MAX_PTHREAD_COUNT=${POCL_MAX_PTHREAD_COUNT:-$threads} "$work/cpu_bench" "$@"
