#!/usr/bin/env bash
# Runs QiMeng's GPU lit tests (test/Integration/GPU, all `REQUIRES: cuda`)
# with the tools of this pack; made by scripts/pack.sh, see
# docs/gpu-testing.md. Works from any directory.
#
#   ./run-gpu-tests.sh [LIT_OPTION ...]   e.g. -a, --filter=verify, -j1,
#                                         --param qimeng_out=/tmp/out
#   ./run-gpu-tests.sh --self-check       checks that the packed tools start
#                                         and compile an example (no GPU needed)
#
# The binaries find their libraries in lib/ through their RUNPATH
# ($ORIGIN/../lib); nothing from an LLVM installation is used.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$here/bin

if [ "${1:-}" = --self-check ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cat >"$tmp/relu.check" <<'CHECKS'
CHECK: gpu.launch_func <{{.*}}> @relu_kernel::@relu_kernel
CHECK: gpu.binary @relu_kernel
CHECK-SAME: #nvvm.target
CHECKS
  "$bin/qimeng-opt" --llm-plan --lower-to-nvvm "$here/examples/relu.mlir" |
    "$bin/FileCheck" "$tmp/relu.check"
  "$bin/qimeng-run" --version >/dev/null
  "$bin/not" false
  printf 'a\nb\n' | "$bin/count" 2
  "$bin/split-file" --version >/dev/null
  python3 "$here/lit/lit.py" --version
  echo "self-check passed: qimeng-opt compiled examples/relu.mlir to a gpu.binary;" \
    "qimeng-run, FileCheck, not, count, split-file and lit run"
  exit 0
fi

exec python3 "$here/lit/lit.py" -v "$@" "$here/test/Integration/GPU"
