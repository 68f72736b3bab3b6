#!/usr/bin/env bash
# slmc++ as the C++ compiler of build systems (see CMakeLists.txt):
#   CMake (Ninja and Unix Makefiles): configure (compiler identification,
#   ABI detection, check_cxx_source_compiles), build, run, rebuild after a
#   header change (only the sources that include it), ccache hits on a
#   second build; a plain Makefile with -MMD -MP; objects and shared
#   libraries built by slmc++ linked by the system c++; a C for Metal
#   project whose kernel file CMake builds with slmc-cmc (cmc's flags).
# $1 is a scratch directory; SLMCXX, SLMC_LIB_DIR, SLMC_CMAKE come from ctest.
set -euo pipefail
work=$1
here=$(cd "$(dirname "$0")" && pwd)
project=$here/project
rm -rf "$work" && mkdir -p "$work"
log() { echo "== $*"; }
fail() { echo "FAILED: $*"; exit 1; }

run_app() {
  "$1" | tee "$work/app.out"
  grep -q "PASSED" "$work/app.out" || fail "$1 did not pass"
}

# Objects rebuilt by a build command ($1: a file to capture the log).
rebuilt() { grep -oE '(main|sums|scale|version)\.cpp\.o' "$1" | sort -u | tr '\n' ' '; }

for generator in Ninja "Unix Makefiles"; do
  command -v ninja > /dev/null || [ "$generator" != Ninja ] || continue
  dir="$work/${generator// /-}"
  cp -r "$project" "$dir.src"
  log "$generator: configure"
  "$SLMC_CMAKE" -S "$dir.src" -B "$dir" -G "$generator" -DCMAKE_CXX_COMPILER="$SLMCXX" \
    > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; fail "configure ($generator)"; }
  grep -q "The CXX compiler identification is Clang" "$dir.configure.log" \
    || { cat "$dir.configure.log"; fail "compiler identification ($generator)"; }
  grep -q "Detecting CXX compiler ABI info - done" "$dir.configure.log" \
    || { cat "$dir.configure.log"; fail "ABI detection ($generator)"; }
  grep -q "Performing Test HAVE_CXX_AMP - Success" "$dir.configure.log" \
    || { cat "$dir.configure.log"; fail "check_cxx_source_compiles ($generator)"; }
  log "$generator: build"
  "$SLMC_CMAKE" --build "$dir" > "$dir.build.log" 2>&1 || { cat "$dir.build.log"; fail "build ($generator)"; }
  run_app "$dir/tile_sum"

  log "$generator: nothing to do"
  "$SLMC_CMAKE" --build "$dir" > "$dir.noop.log" 2>&1
  [ -z "$(rebuilt "$dir.noop.log")" ] || { cat "$dir.noop.log"; fail "a no-change build rebuilt $(rebuilt "$dir.noop.log")"; }

  log "$generator: touch kernels.h"
  sleep 1 && touch "$dir.src/kernels.h"
  "$SLMC_CMAKE" --build "$dir" > "$dir.rebuild.log" 2>&1 || { cat "$dir.rebuild.log"; fail "rebuild"; }
  [ "$(rebuilt "$dir.rebuild.log")" = "main.cpp.o scale.cpp.o sums.cpp.o " ] \
    || { cat "$dir.rebuild.log"; fail "after touching kernels.h, rebuilt: $(rebuilt "$dir.rebuild.log")"; }
  run_app "$dir/tile_sum"
done

# ccache in front of slmc++: the second build of a fresh tree hits.
if command -v ccache > /dev/null; then
  export CCACHE_DIR="$work/ccache" CCACHE_CONFIGPATH="$work/ccache.conf"
  : > "$CCACHE_CONFIGPATH"
  for round in 1 2; do
    log "ccache: build $round"
    dir="$work/ccache-$round"
    "$SLMC_CMAKE" -S "$project" -B "$dir" -G "Unix Makefiles" -DCMAKE_CXX_COMPILER="$SLMCXX" \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache > "$dir.log" 2>&1 || { cat "$dir.log"; fail "configure (ccache)"; }
    [ $round = 2 ] && ccache -z > /dev/null
    "$SLMC_CMAKE" --build "$dir" >> "$dir.log" 2>&1 || { cat "$dir.log"; fail "build (ccache)"; }
    run_app "$dir/tile_sum"
  done
  ccache --print-stats > "$work/ccache.stats"
  hits=$(awk '$1 ~ /^(direct|preprocessed)_cache_hit$/ { n += $2 } END { print n + 0 }' "$work/ccache.stats")
  misses=$(awk '$1 == "cache_miss" { print $2 }' "$work/ccache.stats")
  echo "ccache second build: $hits hits, $misses misses"
  [ "$hits" -ge 4 ] && [ "$misses" = 0 ] || { cat "$work/ccache.stats"; fail "ccache did not hit"; }
fi

# A C for Metal project: the kernel file built by CM_COMPILER (slmc-cmc,
# with cmc's flags) in a custom command, the host by slmc++.
generator=Ninja
command -v ninja > /dev/null || generator="Unix Makefiles"
cm="$work/cm"
cp -r "$here/cm-project" "$cm.src"
log "C for Metal project ($generator): configure, build, run"
"$SLMC_CMAKE" -S "$cm.src" -B "$cm" -G "$generator" -DCMAKE_CXX_COMPILER="$SLMCXX" \
  -DCM_COMPILER="$(dirname "$SLMCXX")/slmc-cmc" > "$cm.configure.log" 2>&1 \
  || { cat "$cm.configure.log"; fail "configure (C for Metal)"; }
"$SLMC_CMAKE" --build "$cm" > "$cm.build.log" 2>&1 || { cat "$cm.build.log"; fail "build (C for Metal)"; }
[ -s "$cm/kernels/scale_genx.isa" ] || fail "no kernels/scale_genx.isa"
run_app "$cm/cm_scale"
"$SLMC_CMAKE" --build "$cm" > "$cm.noop.log" 2>&1
! grep -q "CM kernel" "$cm.noop.log" || { cat "$cm.noop.log"; fail "a no-change build rebuilt the kernel"; }
sleep 1 && touch "$cm.src/scale_params.h"
"$SLMC_CMAKE" --build "$cm" > "$cm.rebuild.log" 2>&1 || { cat "$cm.rebuild.log"; fail "rebuild (C for Metal)"; }
grep -q "CM kernel scale_genx.isa" "$cm.rebuild.log" && grep -q "host.cpp" "$cm.rebuild.log" \
  || { cat "$cm.rebuild.log"; fail "touching scale_params.h rebuilt neither kernel nor host"; }
run_app "$cm/cm_scale"

# A Makefile as people write them, with compiler-made dependencies.
log "make with -MMD -MP"
mk="$work/make"
cp -r "$project" "$mk"
cat > "$mk/Makefile" <<'MAKE'
CXXFLAGS = -O2 -std=c++17 -MMD -MP
OBJS = main.o sums.o scale.o version.o
tile_sum: $(OBJS)
	$(CXX) $(OBJS) -o $@
%.o: %.cpp
	$(CXX) $(CXXFLAGS) -c $< -o $@
-include $(OBJS:.o=.d)
MAKE
make -C "$mk" CXX="$SLMCXX" > "$mk.log" 2>&1 || { cat "$mk.log"; fail "make"; }
grep -q "^sums.o: sums.cpp kernels.h" "$mk/sums.d" || { cat "$mk/sums.d"; fail "sums.d"; }
grep -q "^kernels.h:" "$mk/sums.d" || fail "-MP: no phony target for kernels.h"
run_app "$mk/tile_sum"
sleep 1 && touch "$mk/kernels.h"
make -C "$mk" CXX="$SLMCXX" > "$mk.rebuild.log" 2>&1
[ "$(grep -c -- '-c ' "$mk.rebuild.log")" = 3 ] || { cat "$mk.rebuild.log"; fail "make rebuilt the wrong set"; }

# The other way round: objects and a shared library made by slmc++, linked
# by the system's C++ compiler with libslmrt.
log "system c++ links slmc++ objects"
cxx=$(command -v c++ || command -v g++ || command -v clang++-22)
cd "$mk"
"$SLMCXX" -O2 -fPIC -shared scale.cpp -o "$work/libscale.so"
"$SLMCXX" -O2 -c sums.cpp -o "$work/sums.o"
cat > "$work/host_main.cpp" <<'CPP'
// Plain C++: no dialect header; the kernels are in slmc++'s objects.
#include <cstdio>
#include <vector>
namespace kernels {
int sum_of_tiles(const std::vector<int> &values);
void scale_all(std::vector<int> &values, int by);
}
int main() {
  std::vector<int> values(256, 1);
  kernels::scale_all(values, 3);
  int expected = 0;
  for (int i = 0; i < 256; ++i)
    expected += 3 * (i % 3 + 1);
  int got = kernels::sum_of_tiles(values);
  std::printf("linked by c++: %d (expected %d): %s\n", got, expected,
              got == expected ? "PASSED" : "FAILED");
  return got != expected;
}
CPP
"$cxx" -O2 -c "$work/host_main.cpp" -o "$work/host_main.o"
"$cxx" "$work/host_main.o" "$work/sums.o" "$work/libscale.so" \
  -L"$SLMC_LIB_DIR" -lslmrt -Wl,-rpath,"$SLMC_LIB_DIR" -Wl,-rpath,"$work" -o "$work/linked"
run_app "$work/linked"
echo "build systems test: PASSED"
