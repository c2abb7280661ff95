#!/usr/bin/env bash
# The tests and benchmarks on a machine's real GPU, in one command. Builds
# (Release) into build-gpu/, finds the device the library picks (a discrete GPU
# first; SCULPTFLOW_DEVICE overrides) and runs everything on it, then writes to
# OUTDIR (default build-gpu/suite):
#   suite.json          device, test counts, and the benchmark's records and summary
#   ctest.log           the test suite's output
#   bench.txt, bench.json, work-precision.svg, scaling.svg   `sculptflow bench`
#   chunks.json         the renderer path's frame times (Google Benchmark)
#   deform.txt, deform.json   the main job on the built-in case
# On a machine without a GPU it runs on lavapipe and says so. Needs nothing
# beyond tools/install-deps.sh.
#   tools/gpu-suite.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build-gpu/suite}
mkdir -p "$out" && out=$(cd "$out" && pwd)

./tools/install-deps.sh
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-gpu

# The device: the one the main job ran on.
build-gpu/tools/sculptflow deform --out "$out/deformed.obj" --stats "$out/deform.json" | tee "$out/deform.txt"
device=$(sed -n 's/^ *"device": "\(.*\)",\{0,1\}$/\1/p' "$out/deform.json" | head -n1)
case $device in
  *llvmpipe* | *lavapipe* | *SwiftShader*) echo "gpu-suite: WARNING: no GPU found; running on $device" ;;
  *) echo "gpu-suite: running on $device" ;;
esac
export SCULPTFLOW_DEVICE=${SCULPTFLOW_DEVICE:-$device} # every test and benchmark on it

tests_ok=true
ctest --test-dir build-gpu --output-on-failure -j4 >"$out/ctest.log" 2>&1 || tests_ok=false
tests=$(grep -E 'tests passed' "$out/ctest.log" || echo "the test run did not finish")
echo "gpu-suite: $tests"

build-gpu/tools/sculptflow bench --json "$out/bench.json" --chart "$out/work-precision.svg" \
  --scaling-chart "$out/scaling.svg" | tee "$out/bench.txt"
build-gpu/bench/sculptflow_bench_chunks --benchmark_out="$out/chunks.json" --benchmark_out_format=json

{
  printf '{\n  "device": "%s",\n  "tests": "%s",\n  "tests_passed": %s,\n  "bench": ' \
    "$device" "$tests" "$tests_ok"
  cat "$out/bench.json"
  printf '\n}\n'
} >"$out/suite.json"
echo "gpu-suite: wrote $out/suite.json"
$tests_ok
