#!/usr/bin/env bash
# On the GPU machine, in the unpacked qimeng-integrations directory: the IREE
# round (default configurations against QiMeng's specs) and the Triton round
# (QiMeng's plans as Triton kernels against PyTorch eager). Writes
# iree.json, triton.json and their logs under ${OUT:-.}.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-.}
# The runtime wheel into a directory of its own (no venv, no network).
python3 -m pip install -q --no-index --no-deps --target .iree-site iree/*.whl
PATH=$PWD/.iree-site/iree/_runtime_libs:$PWD/.iree-site/bin:$PATH PYTHONPATH=$PWD/.iree-site \
  python3 bench/iree/iree_bench.py run \
  --dir iree/modules --json "$out/iree.json" 2>"$out/iree.log"
echo "iree: exit $?"
PYTHONPATH=$PWD/python python3 bench/triton/triton_bench.py run \
  --dir triton --json "$out/triton.json" 2>"$out/triton.log"
echo "triton: exit $?"
