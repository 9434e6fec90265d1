#!/usr/bin/env bash
# GPU lit on the pack, plus the f16 and NHWC convolutions verified and timed.
set -uo pipefail
t0=$(date +%s)
root=/tmp/g; mkdir -p $root
rm -rf $root/qimeng-gpu-pack; tar -xJf dist/qimeng-gpu-pack.tar.xz -C $root
P=$root/qimeng-gpu-pack; export PATH=$P/bin:$PATH
R=$OUT/lr; mkdir -p $R
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
cat $P/VERSION >> $R/gpu.txt; head -3 $R/gpu.txt
for n in ref009 refnhwc; do
  timeout 40 qimeng-run dist/sx/$n.mlir --verify --trials 3 --time --runs 30 --no-reference-timing --report $R/$n.json > $R/$n.log 2>&1
  echo "$n rc $? $(grep -o '"median_ms":[^,]*' $R/$n.json | head -1) $(tail -1 $R/$n.log | cut -c1-70)"
done
timeout ${LIT_BUDGET:-200} $P/run-gpu-tests.sh -j4 > $R/lit.log 2>&1; echo "lit rc $?" >> $R/lit.log
tail -4 $R/lit.log; grep -E "^(FAIL|XPASS|UNRESOLVED)" $R/lit.log; echo "lit done at $(( $(date +%s) - t0 )) s"
