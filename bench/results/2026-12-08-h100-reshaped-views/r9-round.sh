#!/usr/bin/env bash
# Ninth session's GPU round, by the GPU it gets:
#   H200: STAGES "corpus lit" (the seed-2026 corpus: issue 19's table;
#         the GPU lit tests);
#   else: STAGES "lit gemm".
# Budgets (s): CORPUS_BUDGET, GEMM_BUDGET, LIT_BUDGET.
set -uo pipefail
t0=$(date +%s)
root=/tmp/g; mkdir -p $root
[ -d $root/qimeng-gpu-pack ] || tar -xJf dist/qimeng-gpu-pack.tar.xz -C $root
P=$root/qimeng-gpu-pack; export PATH=$P/bin:$PATH
cp -r test/Integration/GPU/. $P/test/Integration/GPU/
cp examples/*.mlir $P/examples/
cp bench/*.py $P/bench/ 2>/dev/null
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
python3 -c "import torch;print(torch.__version__)" >> $R/gpu.txt 2>&1
cat $P/VERSION >> $R/gpu.txt; head -2 $R/gpu.txt; sed -n 4p $R/gpu.txt
if grep -q H200 $R/gpu.txt; then stages=${STAGES:-corpus lit}; else stages=${STAGES_OTHER:-}; fi
echo "stages: $stages"
for stage in $stages; do
  case $stage in
  corpus)
    W=$root/corpus
    python3 $P/bench/corpus/generate.py --out $W/corpus --seed 2026 --per-family 14 > /dev/null
    timeout ${CORPUS_BUDGET:-330} bash $P/bench/corpus/corpus.sh $P/bin $W --per-family 14 --compile-every 8 --steps compile,check,time > $R/corpus-run.log 2>&1
    python3 $P/bench/corpus/run.py report --corpus $W/corpus --work $W --markdown $W/corpus.md >> $R/corpus-run.log 2>&1
    mkdir -p $R/seed-2026; cp $W/*.json $W/corpus.md $R/seed-2026/ 2>/dev/null
    echo "corpus done at $(( $(date +%s) - t0 )) s"; head -4 $R/corpus-run.log; grep -i "below\|slowest" $R/corpus-run.log | head ;;
  gemm)
    timeout ${GEMM_BUDGET:-200} python3 $P/bench/gemm.py --bin $P/bin --runs 30 --out $R/gemm-tf32.json \
      --problems "${GEMM_PROBLEMS:-tf32-*}" > $R/gemm-tf32.log 2>&1
    echo "gemm rc $? at $(( $(date +%s) - t0 )) s"; grep "^|" $R/gemm-tf32.log | head -12 ;;
  lit)
    timeout ${LIT_BUDGET:-200} $P/run-gpu-tests.sh -j4 > $R/lit.log 2>&1; echo "lit rc $?" >> $R/lit.log
    tail -8 $R/lit.log; echo "lit done at $(( $(date +%s) - t0 )) s" ;;
  esac
done
tar -C $OUT -czf $OUT/results.tar.gz r && rm -rf $R
ls -l $OUT
