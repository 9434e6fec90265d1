#!/usr/bin/env bash
# Online softmax, masked lane trips and 128-bit lane vectors: plans of
# bffce5d (old), 9112a94 (new: online sums, masked trips) and 0fa89d8 (vec:
# and 128-bit vectors), each verified against the source, then timed
# (median of the runs, flushed L2) by the same qimeng-run.
cd "$(dirname "$0")"
B=/tmp/g/qimeng-gpu-pack/bin
R=$OUT/r/exp3; mkdir -p $R
for f in softmax-f32-004 softmax-f32-009 softmax-f32-008 softmax-f16-000 softmax-bf16-011 logsoftmax-f32-005 softmax-f32-013 sm4096 lsm masked attn_bf16 ln rms kb_softmax; do
  shape=""
  case $f in softmax-f16-000) shape="--shape=0=100";; softmax-f32-013|logsoftmax-f32-005) shape=$(cat $f.shape 2>/dev/null);; esac
  trials=3; runs=100; tl=30; [ $f = kb_softmax ] && { trials=1; runs=10; tl=90; }
  for v in old new vec; do
    [ -f $f.$v.mlir ] || continue
    [ $f = kb_softmax ] && [ $v = new ] && continue
    timeout $tl $B/qimeng-run $f.$v.mlir --verify --trials=$trials --reference=$f.mlir --time --runs=$runs --warmup=5 \
      --no-reference-timing $shape --report=$R/$f.$v.json > $R/$f.$v.log 2>&1
    echo "$f $v rc=$? $(grep -h -E 'median|matches|mismatch|error' $R/$f.$v.log | head -2 | tr '\n' ' ')"
  done
done
python3 eager.py > $R/eager.txt 2>&1
cat $R/eager.txt
