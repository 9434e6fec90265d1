#!/usr/bin/env bash
# The main job on the embedded default (no LLM configured): plan, realize and
# lower an example kernel to PTX for sm_90.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
example=${1:-examples/matmul.mlir}
mkdir -p build/demo
out=build/demo/$(basename "$example" .mlir).gpu.mlir
build/bin/qimeng-opt --llm-plan --lower-to-nvvm "$example" -o "$out"
echo "wrote $out"
