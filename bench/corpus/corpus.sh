#!/usr/bin/env bash
# The held-out corpus, end to end, on a GPU machine with PyTorch (from the GPU
# pack or a checkout with a build): generate, compile, check every form
# against PyTorch, time against eager (and torch.compile for every Nth
# kernel), report. Results accumulate in OUT; a step already done is not
# redone unless its JSON is removed.
#
# Usage: bench/corpus/corpus.sh BIN OUT [--per-family N] [--seed S]
#                               [--compile-every N] [--steps compile,check,verify,time,report]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$1 out=$2
shift 2
per_family=24 seed=2026 compile_every=6 steps=compile,check,time,report
while [ $# -gt 0 ]; do
  case $1 in
    --per-family) per_family=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --compile-every) compile_every=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
corpus=$out/corpus
[ -f "$corpus/manifest.json" ] ||
  python3 "$here/generate.py" --out "$corpus" --seed "$seed" --per-family "$per_family"
jobs=$(nproc)
step() { [[ ",$steps," == *",$1,"* ]]; }
if step compile && [ ! -f "$out/compile.json" ]; then
  # Cubins where ptxas is there: no PTX JIT in every timed process.
  format=isa
  if command -v ptxas >/dev/null || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ]; then format=bin; fi
  python3 "$here/run.py" compile --corpus "$corpus" --work "$out" --opt "$bin/qimeng-opt" -j "$jobs" --format $format || true
fi
if step check && [ ! -f "$out/check.json" ]; then
  python3 "$here/run.py" check --corpus "$corpus" --work "$out" --run "$bin/qimeng-run" -j $(( jobs < 8 ? jobs : 8 ))
fi
if step verify; then
  python3 "$here/run.py" verify --corpus "$corpus" --work "$out" --run "$bin/qimeng-run" -j $(( jobs < 8 ? jobs : 8 ))
fi
if step time; then
  python3 "$here/run.py" time --corpus "$corpus" --work "$out" --run "$bin/qimeng-run" --compile-every "$compile_every"
fi
if step report; then
  python3 "$here/run.py" report --corpus "$corpus" --work "$out" --markdown "$out/corpus.md"
fi
