#!/usr/bin/env bash
# On the GPU machine, in the unpacked qimeng-torch-pack (scripts/pack-torch.sh):
# runs problem files through torch.compile(model, backend="qimeng") against
# eager PyTorch (python -m qimeng.torch check --time), one process per file
# under a time limit, and writes one JSON report per file.
# Usage: run-torch-checks.sh TORCH_MLIR_DIR OUT_DIR FILE.py...
#   TORCH_MLIR_DIR: the unpacked torch-mlir-cp312 (the directory holding
#   torch_mlir/). Environment: PYTHON (default python3), LIMIT (seconds per
#   file, default 120), RUNS (timed calls, default 20), JOBS (files checked
#   at once, default 1: compiles and checks overlap, the GPU parts still run
#   one at a time under a lock in OUT_DIR; a file that runs out of GPU
#   memory beside the others is checked again alone), CHECK_ARGS (more arguments of
#   check, e.g. --cpu for a smoke test without a GPU), RESUME (1: a file
#   with a report in OUT_DIR is not checked again, unless it ran out of
#   memory; for a run that a machine's time limit cut short).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
torch_mlir=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2
export QIMENG_HOME=$here
export PYTHONPATH=$here/python:$torch_mlir${PYTHONPATH:+:$PYTHONPATH}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$out/cache}
export out python=${PYTHON:-python3} limit=${LIMIT:-120} runs=${RUNS:-20}
export check_args=${CHECK_ARGS:-} resume=${RESUME:-0}

# Whether the file's report says it ran out of GPU memory.
out_of_memory() {
  grep -q '"status": "error"' "$out/$1.json" 2>/dev/null &&
    grep -qE 'OutOfMemoryError|CUDA_ERROR_OUT_OF_MEMORY|CUDA error: out of memory' "$out/$1.log"
}
export -f out_of_memory

check_one() {
  local f=$1 name rc status why
  name=$(basename "$f" .py)
  if [ "$resume" = 1 ] && [ -s "$out/$name.json" ] && ! out_of_memory "$name"; then
    echo "$name: reported already"
    return
  fi
  # shellcheck disable=SC2086 # check_args is a list of arguments
  timeout -k 5 "$limit" "$python" -m qimeng.torch check --time \
    --trials 1 --runs "$runs" --gpu-lock "$out/.gpu-lock" $check_args \
    --json "$out/$name.json" "$f" >"$out/$name.log" 2>&1
  rc=$?
  if [ ! -s "$out/$name.json" ]; then
    # No report: it ran past the limit or died; say so in one, so that
    # `python -m qimeng.torch report` counts it.
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      status=timeout why="ran past $limit s"
    else
      status=error why="exited with status $rc without a report"
    fi
    printf '[{"problem": "%s", "name": "%s", "status": "%s", "why": "%s"}]\n' \
      "$f" "$name" "$status" "$why" >"$out/$name.json"
    echo "$name: $status ($why)"
  else
    tail -n 1 "$out/$name.log"
  fi
}
export -f check_one

printf '%s\0' "$@" | xargs -0 -n 1 -P "${JOBS:-1}" bash -c 'check_one "$1"' _

# Files checked at once share the GPU's memory: those that ran out of it
# are checked again, one at a time.
if [ "${JOBS:-1}" -gt 1 ]; then
  for f in "$@"; do
    name=$(basename "$f" .py)
    if out_of_memory "$name"; then
      echo "$name: out of memory beside other files; checked again alone"
      rm -f "$out/$name.json"
      check_one "$f"
    fi
  done
fi
