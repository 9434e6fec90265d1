#!/bin/bash
# One command for the benchmark on a GPU machine (PyTorch and NumPy there),
# from the GPU pack (scripts/pack.sh puts bench/ beside bin/) or a checkout
# with a build:
#
#   bench/bench.sh [--problems 'L1-*'] [--quick] [--no-compile] [--out DIR]
#
# Measures the chosen problems (all by default) into DIR/results-<time>.json
# and merges every results file in DIR into DIR/benchmarks.md and
# DIR/merged.json. A machine that limits one command to a few minutes runs
# subsets (--problems 'L1-0*', --problems 'L1-1*,L1-20*', ...) into the same
# DIR; the last call's report covers them all. Copy DIR/benchmarks.md to
# docs/benchmarks.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=bench-out
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
bin=$root/bin
[ -x "$bin/qimeng-opt" ] || bin=$root/build/bin
mkdir -p "$out"
stamp=$(date -u +%Y%m%d-%H%M%S)
python3 "$here/run.py" --bin "$bin" --out "$out/results-$stamp.json" ${args[@]+"${args[@]}"}
python3 "$here/report.py" "$out"/results-*.json --out "$out/benchmarks.md" \
  --json "$out/merged.json" \
  --command "bench/bench.sh ${args[*]:-} (merged: $(cd "$out" && ls results-*.json | tr '\n' ' '))"
echo "bench: wrote $out/benchmarks.md"
