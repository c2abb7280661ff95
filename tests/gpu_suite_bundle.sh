#!/usr/bin/env bash
# tools/gpu-suite.sh in bundle mode, as it runs on a GPU machine, here: a bundle
# of this build's executables (links, in device-bundle.sh's layout), the suite's
# quick mode inside a 240 s budget, then its folder checked. Exit 77 (skipped)
# without a Vulkan device.
#   tests/gpu_suite_bundle.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: gpu_suite_bundle.sh BUILD_DIR}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
for exe in tools/sculptflow tests/sculptflow_tests bench/sculptflow_bench_chunks; do
  mkdir -p "$work/bundle/bin/$(dirname "$exe")" && ln -s "$build/$exe" "$work/bundle/bin/$exe"
done
touch "$work/bundle/env.sh"

fail() { echo "gpu_suite_bundle: FAIL: $*" >&2; exit 1; }
status=0
"$top/tools/gpu-suite.sh" --bundle "$work/bundle" --budget 240 --quick "$work/out" >"$work/suite.log" 2>&1 || status=$?
cat "$work/suite.log"
suite=$work/out/suite.json
[ -s "$suite" ] || fail "no suite.json"
if grep -q '"device": ""' "$suite"; then echo "gpu_suite_bundle: no Vulkan device here: skipped"; exit 77; fi
[ "$status" -eq 0 ] || fail "gpu-suite exited $status"
files=$(find "$work/out" -type f | wc -l)
[ "$files" -le 8 ] || fail "$files files in the folder (at most 8)"
for f in suite.json tests.log bench.txt deform.txt chunks.json; do [ -s "$work/out/$f" ] || fail "$f missing or empty"; done
grep -q '"tests_passed": true' "$suite" || fail "tests did not pass"
grep -Eq '"tests": "[1-9][0-9]* passed, 0 failed' "$suite" || fail "no test ran"
grep -q '"format": "sculptflow-bench/2"' "$suite" || fail "the bench's records are not in suite.json"
grep -q '"gpu_timing": {' "$suite" || fail "no GPU record carries its timing"
seconds=$(sed -n 's/^  "seconds": \([0-9]*\),$/\1/p' "$suite")
[ -n "$seconds" ] && [ "$seconds" -le 240 ] || fail "took ${seconds:-?} s, over the 240 s budget"
echo "gpu_suite_bundle: $files files, ${seconds} s, $(sed -n 's/^  "tests": "\(.*\)",$/\1/p' "$suite")"
