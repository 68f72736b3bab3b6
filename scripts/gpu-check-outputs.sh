#!/usr/bin/env bash
# Checks what the lit suite's run tests printed on a GPU (gpu-run.sh's
# check-outputs folder: index, <name>.out, <name>.rc) against each test's
# CHECK lines, with LLVM's FileCheck, here on the build machine.
#   scripts/gpu-check-outputs.sh CHECK_OUTPUTS_DIR
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
outputs=${1:?usage: gpu-check-outputs.sh CHECK_OUTPUTS_DIR}
filecheck=${FILECHECK:-/usr/lib/llvm-22/bin/FileCheck}
pass=0 fail=0
while read -r name rel; do
  rc=$(cat "$outputs/$name.rc" 2>/dev/null || echo missing)
  if [ "$rc" = 0 ] && "$filecheck" --input-file="$outputs/$name.out" "$here/$rel" 2>"$outputs/$name.filecheck"; then
    pass=$((pass + 1)); echo "PASS $name"
  else
    fail=$((fail + 1)); echo "FAIL $name (exit $rc)"
    head -20 "$outputs/$name.filecheck" 2>/dev/null | sed 's/^/  /'
  fi
done <"$outputs/index"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
