#!/usr/bin/env bash
# slmc developer entry point: installs what is missing (Debian bookworm),
# builds, and either runs the C++ AMP matrix multiply or runs every test.
#
#   scripts/dev.sh run    build, compile examples/amp/matmul.cpp with slmc++,
#                         run it on the best device present
#   scripts/dev.sh test   build and run every test (ctest)
#   scripts/dev.sh sanitize
#                         build the runtime and its tests with ASan+UBSan and
#                         with TSan (build-asan/, build-tsan/ beside the build)
#                         and run them (docs/testing.md)
#   scripts/dev.sh fuzz   build the libFuzzer targets with clang-22 (build-fuzz/
#                         beside the build) and fuzz each for FUZZ_SECONDS
#                         (default 20) from the seed corpus (docs/testing.md)
#   scripts/dev.sh deps   only install the packages
#
# BUILD_DIR (default: build) and JOBS (default: all cores) can be set.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$here/build}
jobs=${JOBS:-$(nproc)}

packages=(
  cmake ninja-build ccache g++ pkg-config zlib1g-dev
  clang-22 llvm-22-dev llvm-22-tools libclang-22-dev libclang-cpp22-dev
  spirv-tools spirv-headers libze-dev libze1 intel-opencl-icd libigc-tools libclc-22
  libboost-context-dev libgtest-dev libgmock-dev
  clang-tidy-22 libgrpc++-dev libprotobuf-dev libomp-22-dev
  libclang-rt-22-dev
)

install_deps() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure_and_build() {
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
  fi
  cmake --build "$build" -j "$jobs"
}

case "${1:-}" in
  deps)
    install_deps ;;
  run)
    install_deps
    configure_and_build
    out="$build/examples/amp-matmul"
    mkdir -p "$(dirname "$out")"
    echo "== slmc++ -O2 examples/amp/matmul.cpp -o $out"
    "$build/bin/slmc++" -O2 "$here/examples/amp/matmul.cpp" -o "$out"
    echo "== running it (SLMC_VERBOSE=1 shows the device chosen)"
    SLMC_VERBOSE=1 "$out" "${2:-256}" ;;
  test)
    install_deps
    configure_and_build
    ctest --test-dir "$build" --output-on-failure -j "$jobs" ;;
  sanitize)
    install_deps
    # The system's Intel GPU driver is not instrumented, and on WSL it opens
    # libdxcore with RTLD_DEEPBIND, which sanitizer runtimes refuse: hide the
    # system Level Zero drivers (the Level Zero tests bring their own).
    export ZE_ENABLE_ALT_DRIVERS=/nonexistent/libze_none.so.1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export LSAN_OPTIONS="suppressions=$here/test/sanitizers/lsan.supp:print_suppressions=0"
    export TSAN_OPTIONS="halt_on_error=1:suppressions=$here/test/sanitizers/tsan.supp"
    tsan_tests="Concurrent|InParallel|PerThread|Thread|Enqueue|TasksRun|Unshare|Wait|GfxRt"
    for sanitizer in address,undefined thread; do
      [ "$sanitizer" = thread ] && dir="$build-tsan" || dir="$build-asan"
      if [ ! -f "$dir/build.ninja" ]; then
        cmake -S "$here" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
          -DSLMC_SANITIZE="$sanitizer" -DSLMC_ENABLE_COMPILER=OFF
      fi
      cmake --build "$dir" -j "$jobs"
      echo "== ctest under -fsanitize=$sanitizer"
      if [ "$sanitizer" = thread ]; then
        # The runtime's concurrency tests: thread pool, queues, tasks, shared
        # mirrors, per-thread state (the rest adds time, not threads).
        ctest --test-dir "$dir" --output-on-failure -j "$jobs" \
          -R "$tsan_tests"
      else
        ctest --test-dir "$dir" --output-on-failure -j "$jobs"
      fi
    done ;;
  fuzz)
    install_deps
    dir="$build-fuzz"
    # Configured every time, so that FUZZ_SECONDS takes effect (cheap when
    # nothing else changed).
    cmake -S "$here" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DSLMC_FUZZ=ON -DSLMC_FUZZ_SECONDS="${FUZZ_SECONDS:-20}" >/dev/null
    cmake --build "$dir" -j "$jobs" --target slmc-fuzzers
    echo "== ctest -L fuzz (each target ${FUZZ_SECONDS:-20} s, one at a time)"
    # One fuzzer at a time: each already keeps a core busy.
    ctest --test-dir "$dir" --output-on-failure -L fuzz ;;
  *)
    echo "usage: scripts/dev.sh run|test|sanitize|fuzz|deps" >&2
    exit 2 ;;
esac
