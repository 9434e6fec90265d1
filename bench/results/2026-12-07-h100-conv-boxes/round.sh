#!/usr/bin/env bash
# GPU round for convolution boxes: GPU lit; A/B of box plans against the
# previous plans (written into the inputs) with the same binaries; bench
# problems; then (when on an H200) the seed-2026 corpus.
set -uo pipefail
t0=$(date +%s)
root=/tmp/g; mkdir -p $root
rm -rf $root/qimeng-gpu-pack; tar -xJf dist/qimeng-gpu-pack.tar.xz -C $root
P=$root/qimeng-gpu-pack; export PATH=$P/bin:$PATH
R=$OUT/cb; mkdir -p $R
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
python3 -c "import torch;print(torch.__version__)" >> $R/gpu.txt 2>&1
cat $P/VERSION >> $R/gpu.txt; head -2 $R/gpu.txt
name=$(nvidia-smi --query-gpu=name --format=csv,noheader)
if [ "${STAGE:-a}" = b ]; then
  case "$name" in *H200*) ;; *) echo NOT_H200; exit 3 ;; esac
  W=$root/corpus
  python3 $P/bench/corpus/generate.py --out $W/corpus --seed 2026 --per-family 14 > /dev/null
  timeout ${CORPUS_BUDGET:-480} bash $P/bench/corpus/corpus.sh $P/bin $W --per-family 14 --compile-every 8 --steps compile,check,time > $R/corpus-run.log 2>&1
  python3 $P/bench/corpus/run.py report --corpus $W/corpus --work $W --markdown $W/corpus.md >> $R/corpus-run.log 2>&1
  mkdir -p $R/seed-2026; cp $W/*.json $W/corpus.md $R/seed-2026/ 2>/dev/null
  echo "corpus done at $(( $(date +%s) - t0 )) s"; grep -A14 "^| family" $R/corpus-run.log | head -16
  tar -C $OUT -czf $OUT/results-cb-b.tar.gz cb; exit 0
fi
mkdir -p $R/ab
for f in dist/cb/inputs/*.mlir; do
  n=$(basename $f .mlir)
  for v in box base; do
    src=$f; [ $v = base ] && src=dist/cb/base/$n.mlir
    timeout 100 qimeng-run $src --verify --reference=$f --trials 1 --time --runs 30 --no-reference-timing --report $R/ab/$n.$v.json > $R/ab/$n.$v.log 2>&1
    echo "$n $v rc $? $(grep -o '"median_ms":[^,]*' $R/ab/$n.$v.json | head -1) $(tail -1 $R/ab/$n.$v.log | cut -c1-70)"
  done
done
for f in dist/cb/variants/*.mlir; do
  n=$(basename $f .mlir); ref=dist/cb/inputs/${n%@*}.mlir
  timeout 100 qimeng-run $f --verify --reference=$ref --trials 1 --time --runs 30 --no-reference-timing --report $R/ab/$n.json > $R/ab/$n.log 2>&1
  echo "$n rc $? $(grep -o '"median_ms":[^,]*' $R/ab/$n.json | head -1) $(tail -1 $R/ab/$n.log | cut -c1-70)"
done
echo "ab done at $(( $(date +%s) - t0 )) s"
timeout ${LIT_BUDGET:-150} $P/run-gpu-tests.sh -j4 > $R/lit.log 2>&1; echo "lit rc $?" >> $R/lit.log
tail -4 $R/lit.log; grep -E "^(FAIL|XPASS|UNRESOLVED)" $R/lit.log; echo "lit done at $(( $(date +%s) - t0 )) s"
timeout ${BENCH_BUDGET:-90} python3 bench/run.py --bin $P/bin --problems 'L1-18-*,L1-19-*,L1-20-*,L2-04-*' --out $R/bench.json > $R/bench.log 2>&1
echo "bench rc $? at $(( $(date +%s) - t0 )) s"; grep -E "^L[12]-|^\|" $R/bench.log | tail -8
C=$root/cc
python3 $P/bench/corpus/generate.py --out $C/corpus --seed 77 --per-family 20 --families conv > /dev/null
timeout ${CONV_BUDGET:-100} bash $P/bench/corpus/corpus.sh $P/bin $C --per-family 20 --compile-every 4 --steps compile,check,time > $R/conv-run.log 2>&1
python3 $P/bench/corpus/run.py report --corpus $C/corpus --work $C --markdown $C/corpus.md >> $R/conv-run.log 2>&1
mkdir -p $R/conv-77; cp $C/*.json $C/corpus.md $R/conv-77/ 2>/dev/null
echo "conv corpus done at $(( $(date +%s) - t0 )) s"; grep -A3 "^| family" $R/conv-run.log | head -5
tar -C $OUT -czf $OUT/results-cb.tar.gz cb && rm -rf $R
