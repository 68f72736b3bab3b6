#!/usr/bin/env bash
# The install test: see CMakeLists.txt. $1 is a scratch directory.
set -euo pipefail
# A failing check says which one (a bare `grep -q` prints nothing).
# Pipes end in `grep ... > /dev/null`, not `grep -q`: under pipefail, the
# writer (ldd, a test program) fails with SIGPIPE when `grep -q` exits at
# its first match before the writer is done.
trap 'echo "install test: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
work=$1
rm -rf "$work" && mkdir -p "$work"
prefix="$work/prefix"
"$SLMC_CMAKE" --install "$SLMC_BUILD_DIR" --prefix "$prefix" > "$work/install.log"

libdir=$(dirname "$(find "$prefix" -name 'libslmrt.so' | sed -n 1p)")
for f in "$prefix/bin/slmc++" "$prefix/bin/slmc-cmc" "$libdir/slmcPlugin.so" "$libdir/slmcCheck.so" "$libdir/slmcWorkItemLoops.so" \
         "$libdir/slmcOffloadedCopy.so" "$libdir/slmc/include/amp.h" \
         "$libdir/slmc/include/slmc/offload.h" "$prefix/include/slmc/runtime.h" \
         "$libdir/cmake/slmc/slmcConfig.cmake" "$libdir/pkgconfig/slmrt.pc"; do
  [ -e "$f" ] || { echo "not installed: $f"; exit 1; }
done

# The installed compiler finds its headers and runtime by itself.
"$prefix/bin/slmc++" -O2 "$SLMC_SOURCE_DIR/examples/amp/matmul.cpp" -o "$work/matmul"
"$work/matmul" 48 | grep "PASSED" > /dev/null
# slmc++ names the library directory by its real path (it finds itself
# through /proc/self/exe), so compare real paths: the scratch directory may
# lie under a symbolic link.
ldd "$work/matmul" | grep "$(cd "$libdir" && pwd -P)/libslmrt.so" > /dev/null

# slmc-cmc (cmc's command line) is installed next to slmc++ and works there.
"$prefix/bin/slmc-cmc" -Qxcm_jit_target=tgllp "$SLMC_SOURCE_DIR/examples/cm/transpose_genx.cpp" \
  -o "$work/transpose_genx.isa"
"$prefix/bin/slmc++" -O2 "$SLMC_SOURCE_DIR/examples/cm/transpose.cpp" -o "$work/transpose"
"$work/transpose" "$work/transpose_genx.isa" 64 | grep "PASSED" > /dev/null

# The installed plugin works with stock clang.
clang=$(grep -o '"[^"]*clang++"' <("$prefix/bin/slmc++" -### -c "$SLMC_SOURCE_DIR/examples/amp/matmul.cpp" 2>&1) | sed -n 1p | tr -d '"')
"$clang" -std=c++17 -fplugin="$libdir/slmcPlugin.so" -fsyntax-only "$SLMC_SOURCE_DIR/examples/amp/matmul.cpp"

# find_package(slmc) in a CMake project using the runtime's C API.
"$SLMC_CMAKE" -S "$(dirname "$0")/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" > "$work/consumer.log"
"$SLMC_CMAKE" --build "$work/consumer" >> "$work/consumer.log"
"$work/consumer/slmc-info" | grep "backend: cpu" > /dev/null

# pkg-config slmrt.
if command -v pkg-config > /dev/null; then
  flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs slmrt)
  c++ "$(dirname "$0")/consumer/info.cpp" $flags -Wl,-rpath,"$libdir" -o "$work/info-pc"
  "$work/info-pc" | grep "backend: cpu" > /dev/null
fi
echo "install test: PASSED"
