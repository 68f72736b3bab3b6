#!/usr/bin/env bash
# Compares the Intel GPU code of slmc's benchmark kernels with their OpenCL C
# twins (benchmarks/intel/*.cl, translations of benchmarks/cuda/*.cu):
#  1. builds each benchmark's SPIR-V with slmc++ (-O3, as scripts/gpu-bundle.sh
#     builds the benchmarks; the C for Metal benchmark's kernel file
#     examples/cm/nbody_genx.cpp);
#  2. builds that SPIR-V and the twin's OpenCL C with ocloc for every device
#     (zebin; SPIR-V without options, as the Level Zero runtime builds it, the
#     OpenCL C with -cl-std=CL2.0 only);
#  3. disassembles every kernel with iga64 (its .text.<kernel> section) and
#     reads its .ze_info;
#  4. prints one markdown table per device, one row per kernel, each cell
#     "slmc / twin".
#
# Kernels are paired by name: each benchmark below lists pairs
# "<regex>=<twin kernel>", the regular expression matching the (mangled)
# name of exactly one kernel of slmc's module. A kernel of either module
# left unpaired, or a regex matching none or several, is an error.
#
# Columns: instructions (every instruction iga64 prints but the illegal
# padding after the end of the kernel), ratio (slmc / twin instructions),
# sends (send, sends, sendc, sendsc: memory, SLM, barrier signal, fences,
# end of thread), mad (mad, mac, dp4a), mach/addc/subb (32x32-bit
# multiplies' high halves and carries: what 64-bit integer arithmetic is
# emulated with where the ISA has none), :q (instructions with a 64-bit
# integer operand), sync.bar (barrier waits), SIMD (simd_size), scratch
# (bytes per work-item of scratch: private memory and spills), SLM (slm_size,
# static group-local memory; a __local kernel argument is not included).
#
#   benchmarks/intel/isa-report.sh
#
# Environment: BUILD_DIR (default build; slmc++ is $BUILD_DIR/bin/slmc++),
# SLMCXX, OCLOC, IGA64, OBJCOPY (programs), DEVICES (default: tgllp, dg2 and
# the newer of pvc, mtl, arl-h, lnl-m, bmg-g21, ptl-h that ocloc and iga64
# know), ONLY (a regular expression: only the benchmarks whose key, such as
# amp-matmul, matches), JOBS (parallel slmc++ builds, default 2), KEEP (a
# folder: keep the SPIR-V, binaries and disassembly there), TWIN_OPTIONS
# (more ocloc -options for the twins, e.g. -cl-fast-relaxed-math).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BUILD_DIR:-$here/build}
slmcxx=${SLMCXX:-$build/bin/slmc++}
ocloc=${OCLOC:-$(command -v ocloc || true)}
iga64=${IGA64:-$(command -v iga64 || true)}
objcopy=${OBJCOPY:-$(command -v llvm-objcopy-22 || command -v /usr/lib/llvm-22/bin/llvm-objcopy ||
  command -v llvm-objcopy || true)}
ONLY=${ONLY:-}
JOBS=${JOBS:-2}

die() { echo "isa-report: $*" >&2; exit 1; }
[ -x "$slmcxx" ] || die "no slmc++ at $slmcxx: build first (scripts/dev.sh test), or set BUILD_DIR or SLMCXX"
[ -n "$ocloc" ] && [ -x "$ocloc" ] ||
  die "ocloc not found: install intel-opencl-icd (scripts/dev.sh deps) or set OCLOC"
[ -n "$iga64" ] && [ -x "$iga64" ] ||
  die "iga64 not found: install libigc-tools (scripts/dev.sh deps) or set IGA64"
[ -n "$objcopy" ] && [ -x "$objcopy" ] ||
  die "llvm-objcopy not found: install llvm-22 (scripts/dev.sh deps) or set OBJCOPY"

if [ -n "${KEEP:-}" ]; then
  work=$KEEP
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# key | slmc++ source | twin | pairs
benches=(
  "amp-matmul|benchmarks/amp/matmul_bench.cpp|matmul_tiled|MatrixMultiplyTiled=matmul"
  "amp-transpose|benchmarks/amp/transpose_bench.cpp|transpose|TransposeTiled=transpose"
  "amp-reduction|benchmarks/amp/reduction_bench.cpp|reduction|ReduceTreePass=tree_pass ReduceCascade.*tiled_indexILi512E=cascade ReduceCascade.*tiled_indexILi64E=cascade_final"
  "amp-nbody|benchmarks/amp/nbody_bench.cpp|nbody|NBodyStep=nbody_step"
  "amp-scan|benchmarks/amp/scan_bench.cpp|scan|tiled_launcherIZ13ScanExclusive=scan_blocks extent_launcherIZ13ScanExclusive=add_offsets"
  "amp-stencil|benchmarks/amp/stencil_bench.cpp|stencil|JacobiSweep=jacobi"
  "amp-histogram|benchmarks/amp/histogram_bench.cpp|histogram|Histogram=histogram"
  "sycl-reduction|benchmarks/sycl/reduction_bench.cpp|sycl_reduction|ReduceR.*nd_itemILi1EEEE_=partial_sums ReduceR.*nd_itemILi1EEEE0_=fold 16reduction_kernel=builtin_partial 23reduction_finish_kernel=builtin_finish"
  "sycl-matmul|benchmarks/sycl/matmul_bench.cpp|sycl_matmul|MultiplyTiled=matmul"
  "sycl-histogram|benchmarks/sycl/histogram_bench.cpp|sycl_histogram|Histogram=histogram"
  "sycl-spec_example|benchmarks/sycl/spec_example_bench.cpp|sycl_spec_example|SpecExample=spec_example"
  "sycl-mixed|benchmarks/sycl/mixed_bench.cpp|sycl_mixed|Mixed=mixed"
  "cm-nbody|examples/cm/nbody_genx.cpp|nbody_cm|^nbody\$=nbody"
  "cilk-matmul|benchmarks/cilk/matmul_bench.cpp|cilk_matmul|matmul_slm=matmul_slm"
)
selected=()
for b in "${benches[@]}"; do
  key=${b%%|*}
  [ -n "$ONLY" ] && ! [[ $key =~ $ONLY ]] && continue
  selected+=("$b")
done
[ ${#selected[@]} -gt 0 ] || die "ONLY=$ONLY matches no benchmark"

# The iga64 platform of an ocloc device (empty: unknown).
iga_platform() {
  case $1 in
    tgllp | dg1 | rkl | adl*) echo 12p1 ;;
    dg2* | acm-* | ats-m*) echo 12p71 ;;
    mtl* | arl*) echo 12p71 ;; # Xe-LPG runs the Xe-HPG instruction set
    pvc*) echo 12p72 ;;
    lnl* | bmg*) echo xe2 ;;
    ptl*) echo xe3 ;;
  esac
}

# Devices: tgllp and dg2, and the newer ones both ocloc and iga64 know.
printf '__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }\n' >"$work/probe.cl"
probe() { # device -> success if ocloc builds for it and iga64 disassembles it
  local dev=$1 plat
  plat=$(iga_platform "$dev")
  [ -n "$plat" ] || return 1
  "$ocloc" compile -q -file "$work/probe.cl" -device "$dev" --format zebin \
    -output_no_suffix -output "probe-$dev" -out_dir "$work" >/dev/null 2>&1 || return 1
  "$objcopy" --dump-section=.text.k="$work/probe-$dev.krn" "$work/probe-$dev" \
    "$work/probe-$dev.ignored" 2>/dev/null || return 1
  "$iga64" -d -p="$plat" "$work/probe-$dev.krn" >/dev/null 2>&1
}
if [ -n "${DEVICES:-}" ]; then
  read -ra devices <<<"$DEVICES"
  for dev in "${devices[@]}"; do
    probe "$dev" || die "ocloc or iga64 cannot build or disassemble for device $dev"
  done
else
  devices=(tgllp dg2)
  for dev in "${devices[@]}"; do
    probe "$dev" || die "ocloc or iga64 cannot build or disassemble for device $dev"
  done
  for dev in pvc mtl arl-h lnl-m bmg-g21 ptl-h; do
    probe "$dev" && devices+=("$dev")
  done
fi

# 1. SPIR-V, JOBS builds at a time.
echo "slmc++ --emit=spirv -O3: ${#selected[@]} benchmarks" >&2
running=0
for b in "${selected[@]}"; do
  IFS='|' read -r key src twin pairs <<<"$b"
  ( "$slmcxx" -O3 --emit=spirv "$here/$src" -o "$work/$key.spv" >"$work/$key.spv.log" 2>&1 ||
      rm -f "$work/$key.spv" ) &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
for b in "${selected[@]}"; do
  key=${b%%|*}
  [ -f "$work/$key.spv" ] || { cat "$work/$key.spv.log" >&2; die "slmc++ failed on $key"; }
done

# Kernel names of a zebin, from its .ze_info.
kernel_names() { awk '/^kernels:/ { k = 1; next } /^[^ ]/ { k = 0 } k && /^  - name:/ { print $3 }' "$1"; }

# One side's numbers for one kernel: insts sends mad emu q bar simd scratch slm.
kernel_stats() { # zebin ze_info-yaml kernel platform asm-out
  local bin=$1 yaml=$2 kernel=$3 plat=$4 asm=$5
  "$objcopy" --dump-section=".text.$kernel=$asm.krn" "$bin" "$asm.ignored" ||
    die "no .text.$kernel in $bin"
  # (iga64 warns about the padding after a kernel's end: kept out of sight)
  "$iga64" -d -p="$plat" "$asm.krn" -o "$asm" 2>"$asm.log" ||
    { cat "$asm.log" >&2; die "iga64 failed on $kernel ($bin)"; }
  rm -f "$asm.krn" "$asm.ignored"
  local counts env
  counts=$(awk '
    { sub(/\/\/.*/, ""); sub(/^[ \t]+/, "") }
    /^$/ || /^L[0-9]+:/ { next }
    { line = $0; sub(/^\([^)]*\)[ \t]*/, "", line); split(line, w, /[ \t(]+/); op = w[1] }
    op == "illegal" { next }
    { n++ }
    op ~ /^send/ { sends++ }
    op ~ /^(mad|mac|dp4a)$/ { mad++ }
    op ~ /^(mach|addc|subb)$/ { emu++ }
    /:(q|uq)([^a-z]|$)/ { q++ }
    op == "sync.bar" { bar++ }
    END { printf "%d %d %d %d %d %d", n, sends, mad, emu, q, bar }' "$asm")
  env=$(awk -v k="$kernel" '
    /^kernels:/ { in_k = 1; next }
    /^[^ ]/ { in_k = 0 }
    !in_k { next }
    /^  - name:/ { cur = ($3 == k); buf = 0; next }
    !cur { next }
    /^    [a-z_]+:/ { buf = ($1 == "per_thread_memory_buffers:") }
    /^      simd_size:/ { simd = $2 }
    /^      slm_size:/ { slm = $2 }
    buf && /size:/ { scratch += $NF }
    END { printf "%d %d %d", simd, scratch, slm }' "$yaml")
  echo "$counts $env"
}

# 2-4. Per device: build, disassemble, tabulate.
for dev in "${devices[@]}"; do
  plat=$(iga_platform "$dev")
  echo
  echo "### $dev (iga64 -p=$plat)"
  echo
  echo "| benchmark | kernel | instructions | ratio | sends | mad | mach/addc/subb | :q | sync.bar | SIMD | scratch | SLM |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for b in "${selected[@]}"; do
    IFS='|' read -r key src twin pairs <<<"$b"
    d="$work/$dev/$key"
    mkdir -p "$d"
    "$ocloc" compile -q -spirv_input -file "$work/$key.spv" -device "$dev" --format zebin \
      -output_no_suffix -output slmc -out_dir "$d" >"$d/slmc.log" 2>&1 ||
      { cat "$d/slmc.log" >&2; die "ocloc failed on slmc's $key for $dev"; }
    # shellcheck disable=SC2086
    "$ocloc" compile -q -file "$here/benchmarks/intel/$twin.cl" -device "$dev" --format zebin \
      -options "-cl-std=CL2.0 -I $here/benchmarks/intel ${TWIN_OPTIONS:-}" -output_no_suffix -output twin -out_dir "$d" \
      >"$d/twin.log" 2>&1 || { cat "$d/twin.log" >&2; die "ocloc failed on $twin.cl for $dev"; }
    for side in slmc twin; do
      "$objcopy" --dump-section=.ze_info="$d/$side.yaml" "$d/$side" "$d/$side.ignored"
      rm -f "$d/$side.ignored"
    done
    mapfile -t slmc_kernels < <(kernel_names "$d/slmc.yaml")
    mapfile -t twin_kernels < <(kernel_names "$d/twin.yaml")
    paired_slmc=() paired_twin=()
    for p in $pairs; do
      re=${p%=*} tk=${p##*=}
      matches=()
      for k in "${slmc_kernels[@]}"; do [[ $k =~ $re ]] && matches+=("$k"); done
      [ ${#matches[@]} -eq 1 ] ||
        die "$key: '$re' matches ${#matches[@]} of slmc's kernels (${slmc_kernels[*]})"
      printf '%s\n' "${twin_kernels[@]}" | grep -qx -- "$tk" || die "$key: $twin.cl has no kernel $tk"
      paired_slmc+=("${matches[0]}")
      paired_twin+=("$tk")
      read -r a_n a_s a_m a_e a_q a_b a_simd a_scr a_slm < \
        <(kernel_stats "$d/slmc" "$d/slmc.yaml" "${matches[0]}" "$plat" "$d/slmc.$tk.asm")
      read -r b_n b_s b_m b_e b_q b_b b_simd b_scr b_slm < \
        <(kernel_stats "$d/twin" "$d/twin.yaml" "$tk" "$plat" "$d/twin.$tk.asm")
      ratio=$(awk -v a="$a_n" -v b="$b_n" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
      echo "| $key | $tk | $a_n / $b_n | $ratio | $a_s / $b_s | $a_m / $b_m | $a_e / $b_e |" \
        "$a_q / $b_q | $a_b / $b_b | $a_simd / $b_simd | $a_scr / $b_scr | $a_slm / $b_slm |"
    done
    for k in "${slmc_kernels[@]}"; do
      printf '%s\n' "${paired_slmc[@]}" | grep -qxF -- "$k" || die "$key: slmc's kernel $k is unpaired"
    done
    for k in "${twin_kernels[@]}"; do
      printf '%s\n' "${paired_twin[@]}" | grep -qxF -- "$k" || die "$key: $twin.cl's kernel $k is unpaired"
    done
  done
done
echo
version=$(cd "$work" && "$ocloc" query OCL_DRIVER_VERSION >/dev/null 2>&1 && tr -d '\0' <OCL_DRIVER_VERSION || true)
echo "(each cell: slmc++ / OpenCL C twin; ratio: slmc / twin instructions; ocloc ${version:-version unknown})"
