#!/usr/bin/env bash
# Builds the parser fuzzers with clang's libFuzzer (+ASan/UBSan) and runs each one
# for SECONDS (default 7: the CI smoke run; use 300 or more for a real session).
# Crashes are saved under build-fuzz/artifacts/ and make the script fail.
set -euo pipefail
seconds=${1:-7}
cd "$(dirname "$0")/.."
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DSCULPTFLOW_BUILD_FUZZERS=ON \
  -DSCULPTFLOW_BUILD_TESTS=OFF -DSCULPTFLOW_BUILD_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
targets=(obj ply gltf stroke_json stroke_bin)
cmake --build build-fuzz --target "${targets[@]/#/fuzz_}"
mkdir -p build-fuzz/artifacts
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t # grows across runs; the committed seeds stay untouched
  mkdir -p "$corpus"
  echo "fuzz_$t: ${seconds}s"
  build-fuzz/tests/fuzz/fuzz_$t -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix=build-fuzz/artifacts/"$t"- "$corpus" tests/fuzz/corpus/$t 2>&1 |
    grep -E "^(stat::number_of_executed_units|stat::new_units_added|==[0-9]+==|SUMMARY|Done)" || true
  [ -z "$(ls build-fuzz/artifacts/"$t"-* 2>/dev/null)" ] || { echo "fuzz_$t found a crash" >&2; exit 1; }
done
