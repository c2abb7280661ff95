#!/usr/bin/env bash
# The accuracy sweep with the checking pass on a machine's GPU (issue 29's GPU half):
# `sculptflow sweep --verify --gpu --csv`, one process a core, resumable, its
# results packed in one archive (a device machine returns only a few files).
#
#   tools/gpu-sweep.sh --bundle BUNDLE [--seeds N] [--budget SECONDS] [--work DIR] [OUTDIR]
#   tools/gpu-sweep.sh --sculptflow EXE [...]
#       Seeds 0 to N-1 (default 2000) for at most SECONDS (default 480), from a
#       bundle made by ../shared/tools/device-bundle.sh (source BUNDLE/env.sh
#       first), or with a built sculptflow here (build/tools/sculptflow).
#       Writes OUTDIR/sweep.tgz (default OUTDIR: sweep-out): the CSVs, each
#       process's output and progress.txt. Run again with the same --work folder
#       (default build-sweep), it goes on after the seeds its CSVs hold.
#
# Each process takes one family (a seed's family is seed % 12), or a part of one
# where there are more cores than families: a pipeline is built per tool set and
# method, about a second each on an H200, and each tool set belongs to one family
# (seeds 0-1999 hold 305 sets, about 25 a family, where 125 consecutive seeds
# hold about 100).
set -euo pipefail

sculptflow="" seeds=2000 budget=480 out=sweep-out work=build-sweep
while [ $# -gt 0 ]; do
  case $1 in
    --bundle) sculptflow=${2:?--bundle needs a folder}/bin/tools/sculptflow; shift 2 ;;
    --sculptflow) sculptflow=${2:?--sculptflow needs an executable}; shift 2 ;;
    --seeds) seeds=${2:?--seeds needs a count}; shift 2 ;;
    --budget) budget=${2:?--budget needs seconds}; shift 2 ;;
    --work) work=${2:?--work needs a folder}; shift 2 ;;
    -h | --help) sed -n '2,19p' "$0"; exit 0 ;;
    -*) echo "gpu-sweep: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) out=$1; shift ;;
  esac
done
for n in "$seeds" "$budget"; do
  case $n in '' | *[!0-9]*) echo "gpu-sweep: --seeds and --budget take whole numbers, not '$n'" >&2; exit 2 ;; esac
done
[ -n "$sculptflow" ] || { echo "gpu-sweep: say --bundle BUNDLE or --sculptflow EXE (see --help)" >&2; exit 2; }
[ -x "$sculptflow" ] || { echo "gpu-sweep: no $sculptflow (build it, or make the bundle with device-bundle.sh)" >&2; exit 2; }

mkdir -p "$work/nvcache" "$out"
# NVIDIA's shader disk cache, shared by the processes and kept for a rerun.
export __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=$(cd "$work" && pwd)/nvcache __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1
families=12 rows_per_seed=32 # 4 methods x 4 tolerances, on the CPU reference and the GPU
shards=$(nproc) && [ "$shards" -lt "$families" ] && shards=$families
call=$(find "$work" -name 'shard*.csv' | sed -n 's/.*-\([0-9]*\)\.csv$/\1/p' | sort -n | tail -n1)
call=$((${call:--1} + 1))

# The last seed of a shard that one of its CSVs holds whole (-1: none).
last_complete() {
  for f in "$work"/shard"$1"-*.csv; do
    if [ -f "$f" ]; then awk -F, 'NR > 1 { print $1 }' "$f" | sort -n | uniq -c; fi
  done | awk -v n=$rows_per_seed 'BEGIN { last = -1 } $1 == n && $2 > last { last = $2 } END { print last }'
}

start=$(date +%s)
pids=()
for ((s = 0; s < shards; s++)); do
  family=$((s % families)) part=$((s / families))
  parts=$(((shards - 1 - family) / families + 1))
  first=$((part * seeds / parts)) end=$(((part + 1) * seeds / parts))
  last=$(last_complete "$s")
  [ "$last" -ge "$first" ] && first=$((last + 1))
  first=$((first + ((family - first % families) % families + families) % families)) # the family's next seed
  [ "$first" -ge "$end" ] && continue
  name=shard$s-$call
  timeout "$budget" "$sculptflow" sweep --first "$first" --count $((end - first)) --family "$family" \
    --verify --gpu --csv "$work/$name.csv" >"$work/$name.out" 2>&1 &
  pids+=($!)
done
seeds_done() {
  cat "$work"/shard*.csv 2>/dev/null | awk -F, '$1 != "seed" { print $1 }' | sort -n | uniq -c |
    awk -v n=$rows_per_seed '$1 >= n' | wc -l
}
for ((tick = 1; ; tick++)); do
  running=0
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && running=$((running + 1)); done
  if [ "$running" -eq 0 ] || [ $((tick % 6)) -eq 0 ]; then
    echo "$(($(date +%s) - start)) s: $(seeds_done) seeds done, $running processes running" | tee -a "$work/progress.txt"
  fi
  [ "$running" -eq 0 ] && break
  sleep 5
done
over=$(cat "$work"/shard*.csv 2>/dev/null | awk -F, '$1 != "seed" && $8 > 1 { print $6 }' | sort | uniq -c | xargs || true)
echo "gpu-sweep: runs over tol: ${over:-none}" | tee -a "$work/progress.txt"
(cd "$work" && tar czf - shard*.csv shard*.out progress.txt) >"$out/sweep.tgz"
echo "gpu-sweep: $out/sweep.tgz"
