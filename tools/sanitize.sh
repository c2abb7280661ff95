#!/usr/bin/env bash
# Builds the whole test suite with ASan + UBSan (g++, Debug, in build-asan/) and runs
# all of it, GPU tests on lavapipe included; any sanitizer report fails the run.
#
# UBSan: every check but vptr, which needs RTTI for each polymorphic class it meets and
# so cannot link against Debian's glslang (built with -fno-rtti); sculptflow itself has
# no virtual functions for it to check.
#
# Leaks: LeakSanitizer runs at exit, after the Vulkan loader has dlclose'd the driver,
# so the driver's own leaks show "<unknown module>" frames that no suppression can
# match; the slow unwinder that would reach our frames (fast_unwind_on_malloc=0)
# deadlocks in libgcc when LLVM's JIT registers its frames. So the test binary runs
# with lavapipe preloaded (after libasan, which must come first), which keeps it mapped
# until exit, and tools/lsan-suppressions.txt drops leaks allocated inside lavapipe or
# LLVM; a leak allocated in our code has no such frame and still fails the run (checked
# with a deliberate leak in a CPU test and one in Context's constructor). The binary
# runs directly, not under ctest, so that only it gets the preload. The validation
# layer is not preloaded (it exports vkGetInstanceProcAddr, which would interpose the
# loader's own) and leaks nothing today; its object tracker already fails any test
# that leaks a Vulkan object. VK_DRIVER_FILES keeps the loader to lavapipe, whose
# leaks the suppressions cover, even where a GPU exists.
#
# Then ThreadSanitizer over the thread tests (tests/test_contexts.cpp: two Contexts on
# two threads, and the hooks drivers call from their own threads), in build-tsan/,
# with tools/tsan-suppressions.txt for races inside the uninstrumented Vulkan
# loader, lavapipe, LLVM and the validation layer. About 1 min more.
#
# Every test but the heaviest GPU runs (tools/sanitize-skip.txt, which ctest runs
# unsanitized) runs, in two gtest shards in parallel, each under a 30 min timeout.
# The build is -O1, as ASan advises for speed, with line tables only (-g1: enough
# for the reports' frames; full debug info doubled the build); Debug keeps assertions.
# Like every build it is a unity build (see CMakeLists.txt): about 5 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
# configure DIR FLAGS: a Debug build of the tests with g++ and these compiler flags.
configure() {
  cmake -S . -B "$1" -G Ninja -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" -DCMAKE_C_FLAGS_DEBUG="-g1 -O1" \
    -DSCULPTFLOW_BUILD_BENCHMARKS=OFF \
    "-DCMAKE_C_FLAGS=$2" "-DCMAKE_CXX_FLAGS=$2" >/dev/null
}

build=build-asan
configure "$build" "-fsanitize=address,undefined -fno-sanitize=vptr -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cmake --build "$build" --target sculptflow_tests

bin=$build/tests/sculptflow_tests
asan=$(ldd "$bin" | awk '$1 ~ /^libasan/ {print $3}')
icd=$(compgen -G "/usr/share/vulkan/icd.d/lvp_icd.*.json" | head -n1) || true
driver=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "${icd:-/dev/null}")
[ -n "$asan" ] && [ -n "$driver" ] || { echo "sanitize: libasan or lavapipe not found" >&2; exit 1; }

export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1
export LSAN_OPTIONS=suppressions=$PWD/tools/lsan-suppressions.txt
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export VK_DRIVER_FILES=$icd

skipped=$(grep -v '^#' tools/sanitize-skip.txt | paste -sd:)
shards=2
pids=()
for ((i = 0; i < shards; i++)); do
  LD_PRELOAD="$asan $driver" GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i \
    timeout 1800 "$bin" --gtest_brief=1 --gtest_filter="-$skipped" --gtest_output="json:$build/sanitize-$i.json" >"$build/sanitize-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for ((i = 0; i < shards; i++)); do
  if wait "${pids[$i]}"; then
    echo "sanitize: shard $i: $(grep -E '^\[  PASSED  \]' "$build/sanitize-$i.log")," \
      "leaks suppressed:" $(awk '/^Suppressions used/ {s = 1} s && NF == 3 && $1 ~ /^[0-9]+$/ {print $3 " x" $1}' "$build/sanitize-$i.log")
  else
    echo "sanitize: shard $i failed (exit $?); its log, $build/sanitize-$i.log:" >&2
    cat "$build/sanitize-$i.log" >&2
    status=1
  fi
done
[ $status -eq 0 ] || exit $status

tsan=build-tsan
configure "$tsan" "-fsanitize=thread -fno-omit-frame-pointer"
cmake --build "$tsan" --target sculptflow_thread_tests
if TSAN_OPTIONS="suppressions=$PWD/tools/tsan-suppressions.txt:halt_on_error=1" VK_DRIVER_FILES=$icd \
    timeout 600 "$tsan/tests/sculptflow_thread_tests" --gtest_brief=1 >"$tsan/sanitize-thread.log" 2>&1; then
  echo "sanitize: thread: $(grep -E '^\[  PASSED  \]' "$tsan/sanitize-thread.log")"
else
  echo "sanitize: ThreadSanitizer run failed; its log, $tsan/sanitize-thread.log:" >&2
  cat "$tsan/sanitize-thread.log" >&2
  exit 1
fi
