#!/usr/bin/env bash
# The main job on the embedded default (no LLM configured): plan, realize and
# lower an example kernel to PTX for sm_90, and show what happened.
# Usage: scripts/demo.sh [examples/<kernel>.mlir]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
example=${1:-examples/matmul.mlir}
name=$(basename "$example" .mlir)
out=build/demo/$name
mkdir -p "$out"

echo "== plan chosen by the built-in planner for $example"
build/bin/qimeng-opt --qimeng-prepare --qimeng-plan "$example" |
  sed -n '/qimeng.plan/,/^  }/p'

echo "== qimeng-opt --llm-plan --lower-to-nvvm $example"
build/bin/qimeng-opt --llm-plan \
  --lower-to-nvvm="dump-ptx=$out/ptx launch-manifest=$out/launches.json" \
  "$example" -o "$out/$name.gpu.mlir"
echo "wrote $out/$name.gpu.mlir (host code + gpu.binary with PTX for sm_90)"
for ptx in "$out"/ptx/*.ptx; do
  entries=$(grep -c '^\.visible \.entry' "$ptx" || true)
  echo "  $(basename "$ptx"): $entries kernel(s), $(wc -l < "$ptx") lines of PTX"
done
