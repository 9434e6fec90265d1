#!/usr/bin/env bash
# Times three fused mma.sync examples on the warm machine against PyTorch.
set -uo pipefail
mkdir -p /tmp/g; [ -d /tmp/g/qimeng-gpu-pack ] || tar -xJf dist/qimeng-gpu-pack.tar.xz -C /tmp/g
P=/tmp/g/qimeng-gpu-pack; export PATH=$P/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
R=$OUT/ab; mkdir -p $R
t() { qimeng-run --time --runs=50 --report=$R/$1.json "${@:2}" > $R/$1.log 2>&1; python3 -c "import json;print('$1', json.load(open('$R/$1.json'))['timing']['median_ms'])"; }
t f64-batched --shape=0=3 examples/batch_matmul_f64.mlir
t linear-f32 examples/linear_bias_relu.mlir
t linear-tf32 --allow-tf32 examples/linear_bias_relu.mlir
qimeng-opt --llm-plan=target=sm_80 test/Integration/GPU/Inputs/linear-f16-bias-relu.mlir -o $R/f16.mlir 2>/dev/null
t linear-f16-sm80 $R/f16.mlir
python3 - <<'PY' > $R/torch.txt 2>&1
import torch
def tm(f, n=50):
    for _ in range(5): f()
    s=torch.cuda.Event(enable_timing=True); e=torch.cuda.Event(enable_timing=True)
    ts=[]
    for _ in range(n):
        torch.cuda.synchronize(); s.record(); f(); e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); return ts[len(ts)//2]
a=torch.randn(3,200,300,dtype=torch.float64,device='cuda'); b=torch.randn(3,300,250,dtype=torch.float64,device='cuda')
print('f64-batched eager', tm(lambda: torch.bmm(a,b)))
x=torch.randn(1024,1024,device='cuda'); w=torch.randn(1024,2048,device='cuda'); bb=torch.randn(2048,device='cuda')
torch.backends.cuda.matmul.allow_tf32=False
print('linear-f32 eager', tm(lambda: torch.relu(x@w+bb)))
torch.backends.cuda.matmul.allow_tf32=True
print('linear-tf32 eager', tm(lambda: torch.relu(x@w+bb)))
xh=torch.randn(512,256,device='cuda',dtype=torch.half); wh=torch.randn(256,768,device='cuda',dtype=torch.half); bh=torch.randn(768,device='cuda',dtype=torch.half)
print('linear-f16 eager', tm(lambda: torch.relu(xh@wh+bh)))
PY
cat $R/torch.txt
tar -C $OUT -czf $OUT/ab.tar.gz ab
