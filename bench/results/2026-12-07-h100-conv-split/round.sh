#!/usr/bin/env bash
# Experiments on the slow seed-77 convolutions (boxes, split C, padded F),
# then (on an H200 only) the seed-2026 corpus for issue 19.
set -uo pipefail
t0=$(date +%s)
root=/tmp/g; mkdir -p $root
rm -rf $root/qimeng-gpu-pack; tar -xJf dist/qimeng-gpu-pack.tar.xz -C $root
P=$root/qimeng-gpu-pack; export PATH=$P/bin:$PATH
R=$OUT/sx; mkdir -p $R/ab
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
cat $P/VERSION >> $R/gpu.txt; head -2 $R/gpu.txt
name=$(nvidia-smi --query-gpu=name --format=csv,noheader)
for f in dist/sx/*@*.mlir dist/sx/base009.mlir dist/sx/ref*.mlir; do
  n=$(basename $f .mlir); id=${n%@*}; id=${id#v}; id=${id#s}; id=${id#base}; id=${id#ref}
  timeout 40 qimeng-run $f --verify --reference=dist/sx/ref$id.mlir --trials 1 --time --runs 30 --no-reference-timing --report $R/ab/$n.json > $R/ab/$n.log 2>&1
  echo "$n rc $? $(grep -o '"median_ms":[^,]*' $R/ab/$n.json | head -1) $(tail -1 $R/ab/$n.log | cut -c1-60)"
done
echo "ab done at $(( $(date +%s) - t0 )) s"
python3 - <<'PY' > $R/eager.txt 2>&1
import torch, torch.nn.functional as F
def t(fn, n=50):
    for _ in range(5): fn()
    torch.cuda.synchronize(); s=torch.cuda.Event(enable_timing=True); e=torch.cuda.Event(enable_timing=True)
    g=torch.cuda.CUDAGraph()
    with torch.cuda.graph(g): fn()
    s.record()
    for _ in range(n): g.replay()
    e.record(); torch.cuda.synchronize(); return s.elapsed_time(e)/n
torch.backends.cudnn.allow_tf32=False
x=torch.randn(16,96,32,32,device='cuda',dtype=torch.half); w=torch.randn(8,96,3,3,device='cuda',dtype=torch.half)
print("009 eager-graph ms", t(lambda: F.conv2d(x,w,padding=1)))
x=torch.randn(3,8,112,112,device='cuda'); w=torch.randn(31,8,5,5,device='cuda'); b=torch.randn(31,device='cuda')
print("004 eager-graph ms", t(lambda: F.conv2d(x,w,b,stride=2)))
x=torch.randn(4,256,18,18,device='cuda').to(memory_format=torch.channels_last); w=torch.randn(16,256,3,3,device='cuda').to(memory_format=torch.channels_last)
print("nhwc eager-graph ms", t(lambda: F.conv2d(x,w)))
PY
cat $R/eager.txt
case "$name" in
*H200*)
  W=$root/corpus
  python3 $P/bench/corpus/generate.py --out $W/corpus --seed 2026 --per-family 14 > /dev/null
  timeout ${CORPUS_BUDGET:-400} bash $P/bench/corpus/corpus.sh $P/bin $W --per-family 14 --compile-every 8 --steps compile,check,time > $R/corpus-run.log 2>&1
  python3 $P/bench/corpus/run.py report --corpus $W/corpus --work $W --markdown $W/corpus.md >> $R/corpus-run.log 2>&1
  mkdir -p $R/seed-2026; cp $W/*.json $W/corpus.md $R/seed-2026/ 2>/dev/null
  echo "corpus done at $(( $(date +%s) - t0 )) s"; grep -A14 "^| family" $R/corpus-run.log | head -16 ;;
*)
  timeout ${LIT_BUDGET:-170} $P/run-gpu-tests.sh -j4 > $R/lit.log 2>&1; echo "lit rc $?" >> $R/lit.log
  tail -4 $R/lit.log; grep -E "^(FAIL|XPASS|UNRESOLVED)" $R/lit.log; echo "lit done at $(( $(date +%s) - t0 )) s"
  C=$root/cc
  python3 $P/bench/corpus/generate.py --out $C/corpus --seed 77 --per-family 20 --families conv > /dev/null
  timeout ${CONV_BUDGET:-120} bash $P/bench/corpus/corpus.sh $P/bin $C --per-family 20 --compile-every 4 --steps compile,check,time > $R/conv-run.log 2>&1
  python3 $P/bench/corpus/run.py report --corpus $C/corpus --work $C --markdown $C/corpus.md >> $R/conv-run.log 2>&1
  mkdir -p $R/conv-77; cp $C/*.json $C/corpus.md $R/conv-77/ 2>/dev/null
  echo "conv corpus done at $(( $(date +%s) - t0 )) s"; grep -A3 "^| family" $R/conv-run.log | head -5 ;;
esac
tar -C $OUT -czf $OUT/results-sx.tar.gz sx
