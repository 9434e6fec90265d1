#!/usr/bin/env bash
# On the GPU machine, in the unpacked qimeng-torch-pack (scripts/pack-torch.sh):
# runs problem files through torch.compile(model, backend="qimeng") against
# eager PyTorch (python -m qimeng.torch check --time), one process per file
# under a time limit, and writes one JSON report per file.
# Usage: run-torch-checks.sh TORCH_MLIR_DIR OUT_DIR FILE.py...
#   TORCH_MLIR_DIR: the unpacked torch-mlir-cp312 (the directory holding
#   torch_mlir/). Environment: PYTHON (default python3), LIMIT (seconds per
#   file, default 120), RUNS (timed calls, default 20), CHECK_ARGS (more
#   arguments of check, e.g. --cpu for a smoke test without a GPU).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
torch_mlir=$(cd "$1" && pwd)
out=$2
shift 2
mkdir -p "$out"
export QIMENG_HOME=$here
export PYTHONPATH=$here/python:$torch_mlir${PYTHONPATH:+:$PYTHONPATH}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$out/cache}
python=${PYTHON:-python3}
for f in "$@"; do
  name=$(basename "$f" .py)
  timeout -k 5 "${LIMIT:-120}" "$python" -m qimeng.torch check --time \
    --trials 1 --runs "${RUNS:-20}" ${CHECK_ARGS:-} --json "$out/$name.json" "$f" \
    >"$out/$name.log" 2>&1
  rc=$?
  if [ ! -s "$out/$name.json" ]; then
    # No report: it ran past the limit or died; say so in one, so that
    # `python -m qimeng.torch report` counts it.
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      status=timeout why="ran past ${LIMIT:-120} s"
    else
      status=error why="exited with status $rc without a report"
    fi
    printf '[{"problem": "%s", "name": "%s", "status": "%s", "why": "%s"}]\n' \
      "$f" "$name" "$status" "$why" >"$out/$name.json"
    echo "$name: $status ($why)"
  else
    tail -n 1 "$out/$name.log"
  fi
done
