#!/usr/bin/env bash
# Everything a user runs, on a machine with no Vulkan driver (the loader pointed
# at no driver file): the test binary, every benchmark binary and the CLI must
# skip or refuse with a clear message, never crash, abort or fail.
#   tools/no-driver-check.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: no-driver-check.sh BUILD_DIR}" && pwd)
export VK_DRIVER_FILES=/nonexistent/no-driver.json VK_ICD_FILENAMES=/nonexistent/no-driver.json
log=$(mktemp -d) && trap 'rm -rf "$log"' EXIT
failed=0
check() { # name, expected status (0, or "refused": 1), command...
  local name=$1 want=$2 status=0; shift 2
  "$@" >"$log/out" 2>&1 || status=$?
  if [ "$status" -ge 128 ] || { [ "$want" = 0 ] && [ "$status" -ne 0 ]; } ||
    { [ "$want" = refused ] && [ "$status" -ne 1 ]; }; then
    echo "no-driver-check: FAIL: $name exited $status"; tail -n 30 "$log/out"; failed=1
  else
    echo "no-driver-check: ok: $name (exit $status): $(grep -m1 -iE 'no Vulkan|skipped|error' "$log/out" | cut -c1-160)"
  fi
}
# The test binary in two shards: GPU tests skip, CPU tests run, nothing fails.
for i in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i "$build/tests/sculptflow_tests" --gtest_brief=1 >"$log/shard$i" 2>&1 &
done
for i in 0 1; do
  status=0 && wait -n || status=$?
  [ "$status" -eq 0 ] || failed=1
done
for i in 0 1; do
  if ! grep -q '^\[  PASSED  \]' "$log/shard$i" || grep -q '^\[  FAILED  \]' "$log/shard$i"; then
    echo "no-driver-check: FAIL: test shard $i"; tail -n 40 "$log/shard$i"; failed=1
  else
    echo "no-driver-check: ok: test shard $i: $(grep -h '^\[  PASSED  \]\|^\[  SKIPPED \]' "$log/shard$i" | tr '\n' ' ')"
  fi
done
for bench in "$build"/bench/sculptflow_bench*; do
  [ -x "$bench" ] || continue
  check "$(basename "$bench")" 0 "$bench" --benchmark_filter='no_vulkan|gpu|Gpu|GPU' --benchmark_min_time=0.01
done
check "sculptflow deform" refused "$build/tools/sculptflow" deform --built-in sphere --out "$log/x.obj"
check "sculptflow --version --verbose" 0 "$build/tools/sculptflow" --version --verbose
check "sculptflow bench --quick --no-chart" 0 "$build/tools/sculptflow" bench --quick --no-chart --no-key
exit $failed
