#!/usr/bin/env bash
# GPU round for the dynamic-M split versions and the one-row Linear:
# STAGE=a: GPU lit, the GEMM level's few-tile and one-row problems, a seed-91
# sweep of 16-bit matmuls (the 0.43x kernel of the last round);
# STAGE=b: the seed-2026 corpus (the issue-19 table when on an H200).
set -uo pipefail
t0=$(date +%s)
root=/tmp/g; mkdir -p $root
[ -d $root/qimeng-gpu-pack ] || tar -xJf dist/qimeng-gpu-pack.tar.xz -C $root
P=$root/qimeng-gpu-pack; export PATH=$P/bin:$PATH
# The work tree's GPU tests and examples (newer than the pack's).
cp -r test/Integration/GPU/. $P/test/Integration/GPU/
cp examples/*.mlir $P/examples/
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
python3 -c "import torch;print(torch.__version__)" >> $R/gpu.txt 2>&1
cat $P/VERSION >> $R/gpu.txt; head -2 $R/gpu.txt
if [ "${STAGE:-a}" = a ]; then
  timeout ${LIT_BUDGET:-170} $P/run-gpu-tests.sh -j4 > $R/lit.log 2>&1; echo "lit rc $?" >> $R/lit.log
  tail -5 $R/lit.log; echo "lit done at $(( $(date +%s) - t0 )) s"
  timeout ${GEMM_BUDGET:-150} python3 bench/gemm.py --bin $P/bin --runs 30 --out $R/gemm.json \
    --problems 'f16-few-tiles-nk-384x500x4096,f16-few-tiles-nk-384x500x4096-dynM,bf16-linear-nk-97x4096x4096,bf16-decode-nk-97x4096x4096,bf16-decode-nk-1x4096x4096,bf16-decode-kn-1x4096x4096,bf16-linear-nk-4096,bf16-irregular-1000x1544x1000-dynM' \
    > $R/gemm.log 2>&1
  echo "gemm rc $? at $(( $(date +%s) - t0 )) s"; grep "^|" $R/gemm.log | head -12
  M=$root/mm
  python3 $P/bench/corpus/generate.py --out $M/corpus --seed 91 --per-family 30 --families matmul --dtypes bf16,f16 > /dev/null
  timeout ${MM_BUDGET:-200} bash $P/bench/corpus/corpus.sh $P/bin $M --per-family 30 --compile-every 4 --steps compile,check,time > $R/mm-run.log 2>&1
  python3 $P/bench/corpus/run.py report --corpus $M/corpus --work $M --markdown $M/corpus.md >> $R/mm-run.log 2>&1
  for j in check time summary compile; do cp $M/$j.json $R/mm-$j.json 2>/dev/null; done
  cp $M/corpus.md $R/mm-corpus.md 2>/dev/null; head -4 $R/mm-run.log; grep -i "below\|slowest" $R/mm-run.log | head -5
  echo "mm done at $(( $(date +%s) - t0 )) s"
else
  W=$root/corpus
  python3 $P/bench/corpus/generate.py --out $W/corpus --seed 2026 --per-family 14 > /dev/null
  timeout ${CORPUS_BUDGET:-480} bash $P/bench/corpus/corpus.sh $P/bin $W --per-family 14 --compile-every 8 --steps compile,check,time > $R/corpus-run.log 2>&1
  python3 $P/bench/corpus/run.py report --corpus $W/corpus --work $W --markdown $W/corpus.md >> $R/corpus-run.log 2>&1
  cp $W/*.json $W/corpus.md $R/ 2>/dev/null
  echo "corpus done at $(( $(date +%s) - t0 )) s"; head -4 $R/corpus-run.log; grep -i "below\|slowest" $R/corpus-run.log | head
fi
tar -C $OUT -czf $OUT/results-${STAGE:-a}.tar.gz r && rm -rf $R
ls -l $OUT
