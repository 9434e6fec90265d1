#!/usr/bin/env bash
# Ninth session's A/B of the accumulator hoisting through reshaped views:
# each kernel of dist/ab9/list.txt compiled by the pack's qimeng-opt (new)
# and by the previous pack's (dist/ab9/base, compiled on the host), both
# verified against the source and timed in this call (qimeng-run --time
# --runs=50, flushed L2); then PyTorch eager for the example convolutions
# and the large-K matmul, TF32 off and on.
set -uo pipefail
root=/tmp/g; mkdir -p $root
[ -d $root/qimeng-gpu-pack ] || tar -xJf dist/qimeng-gpu-pack.tar.xz -C $root
P=$root/qimeng-gpu-pack; export PATH=$P/bin:$PATH
R=$OUT/ab; mkdir -p $R/new
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
head -1 $P/VERSION | tee -a $R/gpu.txt
t() { # name gpu.mlir source
  qimeng-run "$2" --verify --reference="$3" --time --runs=50 --no-reference-timing \
    --timeout=120 --report=$R/$1.json > $R/$1.log 2>&1
  python3 - "$R/$1.json" "$1" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
    print(sys.argv[2], r.get("status", r.get("outcome", "?")), r.get("timing", {}).get("median_ms"))
except Exception as e:
    print(sys.argv[2], "no report", e)
PY
}
while read n f; do
  for v in "" "-tf32"; do
    [ -f dist/ab9/base/$n$v.gpu.mlir ] || continue
    flag=""; [ "$v" = "-tf32" ] && flag="--allow-tf32"
    qimeng-opt $f $flag --llm-plan --lower-to-nvvm -o $R/new/$n$v.gpu.mlir 2> $R/new/$n$v.err
    t base-$n$v dist/ab9/base/$n$v.gpu.mlir $f
    t new-$n$v $R/new/$n$v.gpu.mlir $f
  done
done < dist/ab9/list.txt | tee $R/summary.txt
python3 - <<'PY' > $R/torch.txt 2>&1
import torch
import torch.nn.functional as F
def tm(f, n=50):
    for _ in range(5): f()
    s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
    ts = []
    for _ in range(n):
        torch.cuda.synchronize(); s.record(); f(); e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); return ts[len(ts) // 2]
d = 'cuda'
cases = {
  'conv2d_nchw_stride2': lambda: F.conv2d(x1, w1, stride=2),
  'conv2d_nhwc': lambda: F.conv2d(x2, w2),
  'conv2d_padded': lambda: F.conv2d(x3, w3, padding=1),
  'conv_bias_relu': lambda: torch.relu(F.conv2d(x4, w4, b4)),
  'matmul_large_k': lambda: a5 @ b5,
  'linear_3d_f32': lambda: torch.relu(x6 @ w6 + b6),
  'linear_3d_bf16': lambda: torch.relu(x7 @ w7 + b7),
}
x6 = torch.randn(4, 128, 768, device=d); w6 = torch.randn(768, 3072, device=d); b6 = torch.randn(3072, device=d)
x7 = x6.bfloat16(); w7 = w6.bfloat16(); b7 = b6.bfloat16()
x1 = torch.randn(8, 64, 129, 129, device=d); w1 = torch.randn(128, 64, 3, 3, device=d)
x2 = torch.randn(8, 64, 66, 66, device=d).to(memory_format=torch.channels_last); w2 = torch.randn(128, 64, 3, 3, device=d).to(memory_format=torch.channels_last)
x3 = torch.randn(8, 64, 64, 64, device=d).to(memory_format=torch.channels_last); w3 = torch.randn(64, 64, 3, 3, device=d).to(memory_format=torch.channels_last)
x4 = torch.randn(8, 64, 34, 34, device=d).to(memory_format=torch.channels_last); w4 = torch.randn(128, 64, 3, 3, device=d).to(memory_format=torch.channels_last); b4 = torch.randn(128, device=d)
a5 = torch.randn(256, 16384, device=d); b5 = torch.randn(16384, 256, device=d)
for tf32 in (False, True):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    for k, f in cases.items():
        print(k, 'tf32' if tf32 else 'f32', 'eager', round(tm(f), 4))
PY
cat $R/torch.txt
tar -C $OUT -czf $OUT/ab.tar.gz ab
