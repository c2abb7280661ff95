#!/usr/bin/env bash
# tools/gpu-sweep.sh as it runs on a GPU machine, here: a bundle of this build's
# sculptflow (a link, in device-bundle.sh's layout), seeds 0-11 (one a process,
# one a family), then a second call, given the executable itself, that finds
# them done and runs nothing.
# Exit 77 (skipped) without a Vulkan device.
#   tests/gpu_sweep_bundle.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: gpu_sweep_bundle.sh BUILD_DIR}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bundle/bin/tools" && ln -s "$build/tools/sculptflow" "$tmp/bundle/bin/tools/sculptflow"
"$build/tools/sculptflow" device >/dev/null 2>&1 || { echo "gpu_sweep_bundle: no Vulkan device here: skipped"; exit 77; }

fail() { echo "gpu_sweep_bundle: FAIL: $*" >&2; exit 1; }
# Each process's budget: 12 share two cores here, and seed 10's drags, solved rather
# than capped since the attempt plan counts the move's step limit, take 36 s alone.
sweep() { "$top/tools/gpu-sweep.sh" "$@" --seeds 12 --budget 420 --work "$tmp/work" "$tmp/out"; }
sweep --bundle "$tmp/bundle" >"$tmp/first.log" 2>&1 || fail "the first call exited $? ($(cat "$tmp/first.log"))"
cat "$tmp/first.log"
grep -q '^gpu-sweep: runs over tol: none$' "$tmp/first.log" || fail "a run over tol, or no summary"
mkdir "$tmp/got" && tar xzf "$tmp/out/sweep.tgz" -C "$tmp/got"
for ((s = 0; s < 12; s++)); do
  csv=$tmp/got/shard$s-0.csv
  [ -s "$csv" ] || fail "no shard$s-0.csv in the archive"
  seeds=$(grep -v '^seed' "$csv" | cut -d, -f1 | sort -u | xargs)
  [ "$seeds" = "$s" ] || fail "shard $s ran seeds '$seeds', not its family's seed $s"
  rows=$(grep -vc '^seed' "$csv")
  [ "$rows" -eq 32 ] || fail "shard $s wrote $rows rows, not 32 (4 methods x 4 tolerances x CPU and GPU)"
done

sweep --sculptflow "$build/tools/sculptflow" >"$tmp/second.log" 2>&1 || fail "the second call exited $?"
grep -q '12 seeds done, 0 processes running' "$tmp/second.log" || fail "the second call did not find the seeds done: $(cat "$tmp/second.log")"
[ -z "$(find "$tmp/work" -name 'shard*-1.csv')" ] || fail "the second call ran seeds again"
echo "gpu_sweep_bundle: 12 seeds, 384 runs, resumed with nothing left"
