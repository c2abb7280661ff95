#!/usr/bin/env bash
# The Windows leg of CI: the windows-mingw presets built with Debian's MinGW-w64,
# the test binary and the CLI run under wine64, and the DLL's export table.
#   tools/windows-check.sh
# Under Wine the tests run twice, each in two shards: with no Vulkan driver (GPU
# tests skip: the CPU tests) and then with Wine's Vulkan (winevulkan → the host
# loader → lavapipe), where GPU tests that find a device run.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-windows
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
[ -x "$wine" ] || { echo "windows-check: wine64 not found (Debian: wine64)"; exit 1; }

cmake --preset windows-mingw >/dev/null
cmake --build --preset windows-mingw
echo "windows-check: static build, CLI and tests built at ${SECONDS}s"
cmake --preset windows-mingw-shared >/dev/null
cmake --build --preset windows-mingw-shared
echo "windows-check: DLL built at ${SECONDS}s"

# Wine's Vulkan needs its X11 driver, hence a virtual X server (Debian: xvfb).
if [ -z "${DISPLAY:-}" ]; then exec xvfb-run -a -s "-screen 0 64x64x24" "$0" "$@"; fi
# Wine's own prefix in the build folder, quiet, and no Mono or Gecko installers.
export WINEPREFIX=$PWD/$build/wine WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
"$wine" wineboot --init >/dev/null 2>&1 || true
log=$build/windows-check && rm -rf "$log" && mkdir -p "$log"
failed=0

# name, gtest filter, then extra environment for both shards (VAR=value ...).
run_tests() {
  local name=$1 filter=$2; shift 2
  for i in 0 1; do
    env "$@" GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i \
      "$wine" $build/tests/sculptflow_tests.exe --gtest_brief=1 --gtest_filter="$filter" >"$log/$name$i" 2>&1 &
  done
  local status=0 ran=0 passed=0 skipped=0 failures=0
  for i in 0 1; do wait -n || status=1; done
  count() { sed -n "s/$1/\\1/p" "$2" | head -n 1 | grep . || echo 0; }
  for i in 0 1; do
    grep -q '^\[  PASSED  \]' "$log/$name$i" || status=1
    ran=$((ran + $(count '^\[==========\] \([0-9]*\) tests\? from .* ran.*' "$log/$name$i")))
    passed=$((passed + $(count '^\[  PASSED  \] \([0-9]*\) tests\?.*' "$log/$name$i")))
    skipped=$((skipped + $(count '^\[  SKIPPED \] \([0-9]*\) tests\?.*' "$log/$name$i")))
    # Wine's programs end their lines with CR LF: no $ anchor.
    failures=$((failures + $(grep -c '^\[  FAILED  \] .* ([0-9]* ms)' "$log/$name$i" || true)))
  done
  echo "windows-check: $name: $ran tests ran, $passed passed, $skipped skipped, $failures failed"
  if [ "$status" -ne 0 ]; then
    failed=1
    for i in 0 1; do { grep -E '^\[  FAILED  \]|Failure|error' "$log/$name$i" || true; } | head -n 20; tail -n 5 "$log/$name$i"; done
  fi
}
run_tests cpu '*' VK_DRIVER_FILES=/nonexistent/no-driver.json VK_ICD_FILENAMES=/nonexistent/no-driver.json
echo "windows-check: CPU run done at ${SECONDS}s"
# The whole GPU suite takes over ten minutes under Wine on 2 cores; CI runs the
# Windows-specific part (loader, context, solver, pipeline cache, faults, render).
# SCULPTFLOW_WINE_GPU_TESTS='*' runs them all.
run_tests gpu "${SCULPTFLOW_WINE_GPU_TESTS:-GpuContext.*:Contexts.*:GpuSolverTest.*:PipelineCacheFile.*:GpuFaults.*:Render.*}"
echo "windows-check: GPU run done at ${SECONDS}s"

# The CLI's smoke run: the built-in case on the CPU, written as an OBJ.
mesh=$log/sphere.obj
if "$wine" $build/tools/sculptflow.exe deform --backend cpu --built-in sphere --out "$mesh" >"$log/deform" 2>&1 &&
  [ "$(grep -c '^v ' "$mesh")" -gt 0 ]; then
  echo "windows-check: sculptflow.exe deform wrote $(grep -c '^v ' "$mesh") vertices to $mesh"
else
  echo "windows-check: FAIL: sculptflow.exe deform"; tail -n 20 "$log/deform"; failed=1
fi

# The DLL exports the sculptflow C++ API (and later the sf C functions) only: no vk*, volk* or std name.
dll=$(find build-windows-shared -maxdepth 1 -name '*sculptflow*.dll' | head -1)
x86_64-w64-mingw32-objdump -p "$dll" | sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' |
  sed -n 's/^\s*\[ *[0-9]*\] //p' >"$log/exports"
# Functions, vtables and type info of namespace sculptflow (_ZN[K]10sculptflow, _ZT?[N]10sculptflow), or sf* C names.
foreign=$(grep -vE '^(_ZNK?10sculptflow|_ZT[VIST]N?10sculptflow|sf[A-Z])' "$log/exports" || true)
if [ ! -s "$log/exports" ] || [ -n "$foreign" ]; then
  echo "windows-check: FAIL: $dll exports $(wc -l <"$log/exports") names, these not sculptflow's:"
  echo "$foreign" | head -n 20; failed=1
else
  echo "windows-check: $dll exports $(wc -l <"$log/exports") names, all sculptflow's"
fi
"$(dirname "$wine")/wineserver" -k 2>/dev/null || true # before the X server goes
echo "windows-check: done in ${SECONDS}s"
exit $failed
