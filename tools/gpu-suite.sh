#!/usr/bin/env bash
# The tests and benchmarks on a machine's real GPU, in one command, written to
# one folder of at most 8 files:
#   suite.json          device, driver, SM clocks, test counts, the main job's
#                       stats, the renderer path's figures and the bench's records
#   tests.log           the test suite's output
#   bench.txt, work-precision.svg, scaling.svg   `sculptflow bench`
#   chunks.json         the renderer path (Google Benchmark): frame times, the 1M-vertex
#                       sculpt with 10% moving, the first grab with a cold and a warm
#                       pipeline cache
#   deform.txt          the main job on the built-in case
#
#   tools/gpu-suite.sh [OUTDIR]
#       Installs the dependencies, builds (Release) into build-gpu/ and runs
#       ctest there (default OUTDIR build-gpu/suite).
#   tools/gpu-suite.sh --bundle BUNDLE [--budget SECONDS] [--quick] [OUTDIR]
#       For a GPU machine with the driver and nothing else: runs from a bundle
#       made here by ../shared/tools/device-bundle.sh (source BUNDLE/env.sh first
#       where the loader must be unpacked). No install, no build: the test binary
#       sharded across the cores, the bench, the renderer-path bench and the
#       main job, each given a share of the budget (default 420 s), so that the
#       suite ends inside it with whatever finished (default OUTDIR suite).
#       --quick: a small bench and a few tests, to check the suite itself.
# Finds the device the library picks (a discrete GPU first; SCULPTFLOW_DEVICE
# overrides). On a machine without a GPU it runs on lavapipe and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

bundle="" budget=420 quick=false out=""
while [ $# -gt 0 ]; do
  case $1 in
    --bundle) bundle=${2:?--bundle needs a folder}; shift 2 ;;
    --budget) budget=${2:?--budget needs seconds}; shift 2 ;;
    --quick) quick=true; shift ;;
    -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
    -*) echo "gpu-suite: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) out=$1; shift ;;
  esac
done
case $budget in '' | *[!0-9]*) echo "gpu-suite: --budget takes whole seconds, not '$budget'" >&2; exit 2 ;; esac

start=$(date +%s)
left() { echo $((budget - ($(date +%s) - start))); }
# A step's time limit: its share of what is left, at least 5 s.
share() { local s=$(($(left) * $1 / 100)); [ "$s" -lt 5 ] && s=5; echo "$s"; }

if [ -n "$bundle" ]; then
  bin=$(cd "$bundle/bin" && pwd) || { echo "gpu-suite: no $bundle/bin (make it with device-bundle.sh)" >&2; exit 2; }
  out=${out:-suite}
  cores=$(nproc)
else
  ./tools/install-deps.sh
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build-gpu
  bin=$(pwd)/build-gpu
  out=${out:-build-gpu/suite}
  budget=86400
  cores=4
fi
mkdir -p "$out" && out=$(cd "$out" && pwd)
scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
for f in suite.json tests.log bench.txt work-precision.svg scaling.svg chunks.json deform.txt; do rm -f "$out/$f"; done

# The main job, which also names the device everything else runs on.
timeout "$(share 10)" "$bin/tools/sculptflow" deform --verbose --out "$scratch/deformed.obj" \
  --stats "$scratch/deform.json" >"$out/deform.txt" 2>&1 || echo "gpu-suite: the main job failed (deform.txt)"
cat "$out/deform.txt"
json_field() { [ -s "$scratch/deform.json" ] && sed -n "s/^ *\"$1\": \"\(.*\)\",\{0,1\}$/\1/p" "$scratch/deform.json" | head -n1 || true; }
device=$(json_field device) driver=$(json_field driver)
case $device in
  '') echo "gpu-suite: WARNING: no Vulkan device found" ;;
  *llvmpipe* | *lavapipe* | *SwiftShader*) echo "gpu-suite: WARNING: no GPU found; running on $device" ;;
  *) echo "gpu-suite: running on $device ($driver)" ;;
esac
[ -n "$device" ] && export SCULPTFLOW_DEVICE=${SCULPTFLOW_DEVICE:-$device} # every test and benchmark on it
sm_clock() { nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits 2>/dev/null | head -n1 || true; }
clock_at_start=$(sm_clock)

# The tests, under validation (the suite turns it on itself).
tests_ok=true
if [ -n "$bundle" ]; then
  # No ctest there: the test binary's shards, one a core, each with its own log.
  filter='*'
  $quick && filter='GpuSolverTest.*'
  shards=$cores && [ "$shards" -gt 16 ] && shards=16
  limit=$(share 40)
  for ((i = 0; i < shards; i++)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i timeout "$limit" \
      "$bin/tests/sculptflow_tests" --gtest_filter="$filter" >"$scratch/shard$i.log" 2>&1 &
  done
  status=0
  for ((i = 0; i < shards; i++)); do wait -n || status=1; done
  passed=0 failed=0 skipped=0
  for ((i = 0; i < shards; i++)); do
    log=$scratch/shard$i.log
    { echo "=== shard $i of $shards"; cat "$log"; } >>"$out/tests.log"
    grep -q '^\[  PASSED  \]' "$log" || { status=1; echo "=== shard $i did not finish (crash or time limit)" >>"$out/tests.log"; }
    passed=$((passed + $(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | head -n1 | grep . || echo 0)))
    failed=$((failed + $(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | head -n1 | grep . || echo 0)))
    skipped=$((skipped + $(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | head -n1 | grep . || echo 0)))
  done
  [ "$status" -eq 0 ] && [ "$failed" -eq 0 ] || tests_ok=false
  tests="$passed passed, $failed failed, $skipped skipped ($shards shards; the package and windowed-viewer ctest entries need cmake and X, not run here)"
else
  ctest --test-dir build-gpu --output-on-failure -j"$cores" >"$out/tests.log" 2>&1 || tests_ok=false
  tests=$(grep -E 'tests passed' "$out/tests.log" || echo "the test run did not finish")
fi
echo "gpu-suite: tests: $tests"

# The bench: every GPU figure after a warm-up, batched and with its SM clock.
bench_args=(--json "$scratch/bench.json" --chart "$out/work-precision.svg" --scaling-chart "$out/scaling.svg")
if $quick; then
  bench_args+=(--quick)
elif [ -n "$bundle" ]; then
  bench_args+=(--sizes 100000,1000000,4000000,16000000,64000000)
fi
limit=$(share 75)
# The bench stops measuring a while before its limit, to write what it has.
bench_args+=(--budget $((limit * 3 / 4)))
timeout "$limit" "$bin/tools/sculptflow" bench "${bench_args[@]}" >"$out/bench.txt" 2>&1 ||
  echo "gpu-suite: the bench did not finish (bench.txt)"
tail -n 3 "$out/bench.txt"

chunk_args=(--benchmark_out="$out/chunks.json" --benchmark_out_format=json)
$quick && chunk_args+=(--benchmark_filter='chunkFrame/2_chunks_alone')
timeout "$(share 90)" "$bin/bench/sculptflow_bench_chunks" "${chunk_args[@]}" >"$scratch/chunks.txt" 2>&1 ||
  echo "gpu-suite: the renderer-path bench did not finish"

# A benchmark's time (its unit: ms) from Google Benchmark's JSON, by name.
bench_ms() {
  awk -v name="\"$1\"" '$1 == "\"name\":" && $2 == name"," { found = 1 }
    found && $1 == "\"real_time\":" { sub(",", "", $2); print $2 + 0; exit }' "$out/chunks.json" 2>/dev/null
}
live_frame=$(bench_ms chunkFrame/1M_vertices_10pct_moving/manual_time)
grab_cold=$(bench_ms firstGrab/cold_pipeline_cache/iterations:3/manual_time)
grab_warm=$(bench_ms firstGrab/warm_pipeline_cache/iterations:3/manual_time)
echo "gpu-suite: live frame (1M vertices, 10% moving) ${live_frame:-n/a} ms; first grab ${grab_cold:-n/a} ms cold, ${grab_warm:-n/a} ms warm"

json_or_null() { [ -s "$1" ] && cat "$1" || printf 'null'; }
{
  printf '{\n  "format": "sculptflow-gpu-suite/2",\n  "device": "%s",\n  "driver": "%s",\n' "$device" "$driver"
  printf '  "mode": "%s",\n  "budget_s": %s,\n  "seconds": %s,\n' \
    "$([ -n "$bundle" ] && echo bundle || echo build)" "$budget" "$(($(date +%s) - start))"
  printf '  "sm_clock_mhz_at_start": %s,\n  "sm_clock_mhz_at_end": %s,\n' "${clock_at_start:-null}" "$(sm_clock | grep . || echo null)"
  printf '  "tests": "%s",\n  "tests_passed": %s,\n' "$tests" "$tests_ok"
  printf '  "live_frame_ms_1M_vertices_10pct_moving": %s,\n' "${live_frame:-null}"
  printf '  "first_grab_ms": {"cold_pipeline_cache": %s, "warm_pipeline_cache": %s},\n' \
    "${grab_cold:-null}" "${grab_warm:-null}"
  printf '  "deform": '; json_or_null "$scratch/deform.json"
  printf ',\n  "bench": '; json_or_null "$scratch/bench.json"
  printf '\n}\n'
} >"$out/suite.json"
echo "gpu-suite: wrote $out ($(ls "$out" | wc -l) files) in $(($(date +%s) - start)) s"
$tests_ok
