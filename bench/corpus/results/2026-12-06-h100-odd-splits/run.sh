#!/usr/bin/env bash
# Odd reduction lengths split by a divisor: old (bffce5d) against new plans.
cd "$(dirname "$0")"
B=/tmp/g/qimeng-gpu-pack/bin
R=$OUT/exp2; mkdir -p $R
for f in keepdim_5x1001x37 colsum_1001x256; do
  for v in old new; do
    timeout 60 $B/qimeng-run $f.$v.gpu.mlir --verify --reference=$f.mlir --time --runs=100 --warmup=10 \
      --no-reference-timing --report=$R/$f.$v.json > $R/$f.$v.log 2>&1
    echo "$f $v rc=$? $(grep median $R/$f.$v.log)"
  done
done
python3 - <<'PY' > $R/eager.txt 2>&1
import torch
def t(fn):
    for _ in range(10): fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph(); s = torch.cuda.Stream(); s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s): fn()
    torch.cuda.current_stream().wait_stream(s)
    with torch.cuda.graph(g): fn()
    ts = []
    for _ in range(100):
        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
        a.record(); g.replay(); b.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(b))
    return sorted(ts)[50]
x = torch.randint(-100, 100, (5, 1001, 37), dtype=torch.int32, device="cuda")
y = torch.randn(1001, 256, device="cuda")
print("keepdim_5x1001x37 eager graph ms", t(lambda: x.sum(1, keepdim=True)))
print("colsum_1001x256 eager graph ms", t(lambda: y.sum(0)))
PY
cat $R/eager.txt
