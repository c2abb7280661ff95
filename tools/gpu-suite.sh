#!/usr/bin/env bash
# The tests and benchmarks on a machine's real GPU, in one command. Builds
# (Release) into build-gpu/, finds the device the library picks (a discrete GPU
# first; SCULPTFLOW_DEVICE overrides) and runs everything on it, then writes to
# OUTDIR (default build-gpu/suite):
#   suite.json          device, test counts, and the benchmark's records and summary
#   ctest.log           the test suite's output
#   bench.txt, bench.json, work-precision.svg, scaling.svg   `sculptflow bench`
#   chunks.json         the renderer path (Google Benchmark): frame times, the 1M-vertex
#                       sculpt with 10% moving, the first grab with a cold and a warm
#                       pipeline cache
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
driver=$(sed -n 's/^ *"driver": "\(.*\)",\{0,1\}$/\1/p' "$out/deform.json" | head -n1)
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

# A benchmark's time (its unit: ms) from Google Benchmark's JSON, by name.
bench_ms() {
  awk -v name="\"$1\"" '$1 == "\"name\":" && $2 == name"," { found = 1 }
    found && $1 == "\"real_time\":" { sub(",", "", $2); print $2 + 0; exit }' "$out/chunks.json"
}
live_frame=$(bench_ms chunkFrame/1M_vertices_10pct_moving/manual_time)
grab_cold=$(bench_ms firstGrab/cold_pipeline_cache/iterations:3/manual_time)
grab_warm=$(bench_ms firstGrab/warm_pipeline_cache/iterations:3/manual_time)
echo "gpu-suite: live frame (1M vertices, 10% moving) ${live_frame} ms; first grab ${grab_cold} ms cold, ${grab_warm} ms warm"

{
  printf '{\n  "device": "%s",\n  "driver": "%s",\n  "tests": "%s",\n  "tests_passed": %s,\n' \
    "$device" "$driver" "$tests" "$tests_ok"
  printf '  "live_frame_ms_1M_vertices_10pct_moving": %s,\n' "${live_frame:-null}"
  printf '  "first_grab_ms": {"cold_pipeline_cache": %s, "warm_pipeline_cache": %s},\n' \
    "${grab_cold:-null}" "${grab_warm:-null}"
  printf '  "bench": '
  cat "$out/bench.json"
  printf '\n}\n'
} >"$out/suite.json"
echo "gpu-suite: wrote $out/suite.json"
$tests_ok
