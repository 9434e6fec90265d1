#!/usr/bin/env bash
# Compiles every example (or the ones named) with the embedded default
# pipeline, writing for each: <out>/<name>.gpu.mlir, the PTX of each kernel
# module under <out>/<name>.ptx.d/, and <out>/<name>.launch.json.
# Usage: scripts/compile-examples.sh OUT_DIR [examples/x.mlir ...]
# QIMENG_OPT selects the qimeng-opt binary (default build/bin/qimeng-opt).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1; shift
opt=${QIMENG_OPT:-build/bin/qimeng-opt}
mkdir -p "$out"
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(examples/*.mlir)
status=0
for f in "${files[@]}"; do
  name=$(basename "$f" .mlir)
  start=$(date +%s.%N)
  if "$opt" --llm-plan \
      --lower-to-nvvm="dump-ptx=$out/$name.ptx.d launch-manifest=$out/$name.launch.json" \
      "$f" -o "$out/$name.gpu.mlir" 2>"$out/$name.log"; then
    printf "%-32s ok   %.2fs\n" "$name" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')"
  else
    printf "%-32s FAIL (see %s)\n" "$name" "$out/$name.log"
    status=1
  fi
done
exit $status
