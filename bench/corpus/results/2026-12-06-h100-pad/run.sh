#!/usr/bin/env bash
# Experiment round: time plan variants compiled on the build machine
# (verified against their references), and eager PyTorch for the same shapes.
set -uo pipefail
cd "$(dirname "$0")"
B=${B:-/tmp/g/qimeng-gpu-pack/bin}
R=$OUT/exp; mkdir -p $R
t() { # name module reference [flags...]
  local name=$1 mod=$2 ref=$3; shift 3
  timeout 60 $B/qimeng-run $mod --verify --reference=$ref --time --runs=100 --warmup=10 \
    --no-reference-timing --report=$R/$name.json "$@" > $R/$name.log 2>&1
  echo "$name rc=$? $(python3 -c "import json,sys;d=json.load(open('$R/$name.json'));print(d.get('status'),d.get('timing',{}).get('median_ms'))" 2>/dev/null)"
}
for f in f64.*.gpu.mlir; do n=${f%.gpu.mlir}; t $n $f f64.ref.mlir; done
t conv13.static.window conv.static.window.gpu.mlir conv.static.mlir
t conv13.static.im2col conv.static.im2col.gpu.mlir conv.static.mlir
t conv13.ret.window conv.returned.window.gpu.mlir conv.returned.mlir --shape=0=16
t conv13.ret.im2col conv.returned.im2col.gpu.mlir conv.returned.mlir --shape=0=16
t conv12.ret.window conv12.returned.window.gpu.mlir conv12.returned.mlir --shape=0=16
t conv12.ret.im2col conv12.returned.im2col.gpu.mlir conv12.returned.mlir --shape=0=16
for f in plan.*.gpu.mlir; do n=${f%.gpu.mlir}; t $n $f ${n}.mlir; done
python3 eager.py > $R/eager.txt 2>&1; cat $R/eager.txt
