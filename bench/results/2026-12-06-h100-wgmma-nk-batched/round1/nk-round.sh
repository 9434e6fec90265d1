#!/usr/bin/env bash
# GPU round for the (n, k) weight change: GPU lit, the 16-bit GEMM level
# (kn and nk pairs), the nk problems compiled by the previous commit timed
# beside them, then an unseen seed-91 sweep of the reduction families.
set -uo pipefail
t0=$(date +%s)
root=/tmp/g; mkdir -p $root
tar -xJf dist/qimeng-gpu-pack.tar.xz -C $root
P=$root/qimeng-gpu-pack
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
python3 -c "import torch;print(torch.__version__)" >> $R/gpu.txt 2>&1
cat $P/VERSION >> $R/gpu.txt
echo "start $(( $(date +%s) - t0 )) s"
if [ "${LIT:-1}" = 1 ]; then
  timeout ${LIT_BUDGET:-170} $P/run-gpu-tests.sh -j4 > $R/lit.log 2>&1; echo "lit rc $?" >> $R/lit.log
  tail -4 $R/lit.log
fi
echo "lit done at $(( $(date +%s) - t0 )) s"
export PATH=$P/bin:$PATH
# The GEMM level: kn problems beside their nk twins.
timeout ${GEMM_BUDGET:-200} python3 bench/gemm.py --bin $P/bin --runs 30 --out $R/gemm.json \
  --problems 'bf16-sq-4096,bf16-linear-nk-4096,bf16-sq-8192,bf16-sq-8192-nk,f16-sq-4096,f16-sq-4096-nk,bf16-llama7b-mlp-up,bf16-llama7b-mlp-up-nk,bf16-irregular-3000x5000x4000,bf16-irregular-3000x5000x4000-nk,bf16-linear-nk-97x4096x4096,bf16-linear-nk-2048x1023x4096' \
  > $R/gemm.log 2>&1
echo "gemm rc $? at $(( $(date +%s) - t0 )) s"; grep "^|" $R/gemm.log | head -20
# The previous commit's plans of the nk problems (transposed copy + kn
# kernel) and this commit's, timed by the same qimeng-run.
for f in dist/nk/src/*.mlir; do
  b=$(basename $f .mlir)
  case $b in *97x*) s=97;; *3000x*) s=3000;; *8192*) s=8192;; *) s=4096;; esac
  qimeng-opt $f --llm-plan --lower-to-nvvm -o $R/new-$b.mlir 2>/dev/null
  for v in old new; do
    src=dist/nk/old/$b.mlir; [ $v = new ] && src=$R/new-$b.mlir
    timeout 60 qimeng-run $src --time --runs=30 --warmup=5 --shape=0=$s --report=$R/time-$v-$b.json > /dev/null 2>&1
    echo "$b $v rc $? $(python3 -c "import json;print(json.load(open('$R/time-$v-$b.json'))['timing']['median_ms'])" 2>/dev/null)"
  done
  rm -f $R/new-$b.mlir
done | tee $R/old-new.txt
echo "old/new done at $(( $(date +%s) - t0 )) s"
# Batched on wgmma against torch (cuBLAS bmm; the scores with their scale).
for spec in bmm_bf16:32 bmm_bf16:3 attention_scores_f16:0; do
  name=${spec%%:*}; n=${spec##*:}; sh=""; [ $n != 0 ] && sh="--shape=0=$n"
  qimeng-opt examples/$name.mlir --llm-plan --lower-to-nvvm -o $R/c.mlir 2>/dev/null
  timeout 60 qimeng-run $R/c.mlir --time --runs=30 --warmup=5 $sh --report=$R/time-$name-$n.json > /dev/null 2>&1
  echo "$name batches $n rc $? $(python3 -c "import json;print(json.load(open('$R/time-$name-$n.json'))['timing']['median_ms'])" 2>/dev/null)"
done | tee $R/batched.txt
python3 - <<'PY' 2>&1 | tee -a $R/batched.txt
import sys; sys.path.insert(0, "bench"); import run as h, torch
for b in (32, 3):
    x = torch.randn(b, 500, 1024, device="cuda").bfloat16(); y = torch.randn(b, 1024, 1544, device="cuda").bfloat16()
    print("torch.bmm bf16 batches", b, h.time_torch(torch.bmm, [x, y], 5, 30, torch)["median_ms"])
q = torch.randn(12, 1000, 80, device="cuda").half(); k = torch.randn(12, 1000, 80, device="cuda").half()
print("torch scores f16", h.time_torch(lambda a, c: (a @ c.transpose(-2, -1)) * 0.1118, [q, k], 5, 30, torch)["median_ms"])
PY
echo "batched done at $(( $(date +%s) - t0 )) s"
if [ "${MM:-1}" = 1 ]; then
  M=$root/mm
  python3 $P/bench/corpus/generate.py --out $M/corpus --seed ${MM_SEED:-91} --per-family ${MM_N:-12} --families ${MM_FAMILIES:-argmax,softmax,norm,reduce} ${MM_DTYPES:+--dtypes $MM_DTYPES} > /dev/null
  timeout ${MM_BUDGET:-130} bash $P/bench/corpus/corpus.sh $P/bin $M --per-family ${MM_N:-12} --compile-every 4 --steps compile,check,time > $R/mm-run.log 2>&1
  python3 $P/bench/corpus/run.py report --corpus $M/corpus --work $M --markdown $M/corpus.md >> $R/mm-run.log 2>&1
  for j in check time summary compile; do cp $M/$j.json $R/mm-$j.json 2>/dev/null; done
  cp $M/corpus.md $R/mm-corpus.md 2>/dev/null
fi
echo "mm done at $(( $(date +%s) - t0 )) s"
tar -C $OUT -czf $OUT/results.tar.gz r && rm -rf $R
ls -l $OUT
