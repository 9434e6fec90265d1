#!/usr/bin/env bash
# Packs the IREE and Triton rounds for a GPU machine with Python 3.12, torch
# and triton but no network and no LLVM (docs/iree.md, docs/triton.md), as
# one archive under 64 MB that travels in one device call:
#   dist/qimeng-integrations.tar.xz
#     bench/problems.py, bench/problems/, bench/iree/, bench/triton/
#              the round's scripts and the problems' MLIR
#     python/qimeng/                                  the package (the Triton
#                                                     modules' loader)
#     iree/    the benchmark problems' default and QiMeng-spec .vmfb files
#              (iree_bench.py prepare) and the iree-base-runtime 3.13.0
#              wheel for CPython 3.12
#     triton/  the problems' emitted Triton modules (triton_bench.py prepare)
#     run-integrations.sh   runs both rounds; results under $OUT
# Usage: scripts/pack-integrations.sh   (needs build/ and .venv: scripts/build.sh,
#        scripts/setup-python.sh; downloads the runtime wheel once into
#        ~/.cache/qimeng/wheels)
set -euo pipefail
cd "$(dirname "$0")/.."

wheels=${XDG_CACHE_HOME:-$HOME/.cache}/qimeng/wheels
wheel=iree_base_runtime-3.13.0-cp312-abi3-manylinux_2_28_x86_64.whl
if [ ! -f "$wheels/$wheel" ]; then
  mkdir -p "$wheels"
  .venv/bin/python -m pip download -q --no-deps --only-binary=:all: \
    --python-version 3.12 --platform manylinux_2_28_x86_64 \
    iree-base-runtime==3.13.0 -d "$wheels"
fi

mkdir -p dist
# A fresh staging directory (mktemp fills in the X's), removed on exit.
stage=$(mktemp -d dist/.pack-integrations.XXXXXX)
trap 'rm -rf "$stage"' EXIT
root=$stage/qimeng-integrations
mkdir -p "$root"/{bench,python,iree}
cp -r bench/problems.py bench/problems "$root/bench/"
cp -r bench/iree bench/triton "$root/bench/"
tar -C python --exclude=__pycache__ --exclude='*.egg-info' -cf - qimeng | tar -C "$root/python" -xf -
.venv/bin/python bench/iree/iree_bench.py prepare --out "$root/iree/modules" 2>"$root/iree/prepare.log"
cp "$wheels/$wheel" "$root/iree/"
.venv/bin/python bench/triton/triton_bench.py prepare --out "$root/triton" 2>"$root/triton-prepare.log"
cp scripts/pack/run-integrations.sh "$root/"
find "$root" -name __pycache__ -prune -exec rm -rf {} +
{
  commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
  [ -z "$(git status --porcelain 2>/dev/null)" ] || commit+=" with uncommitted changes"
  echo "source: $commit"
  echo "packed: $(date -u '+%Y-%m-%d %H:%M UTC')"
} >"$root/VERSION"
tar -C "$stage" -cJf dist/qimeng-integrations.tar.xz.partial qimeng-integrations
mv dist/qimeng-integrations.tar.xz.partial dist/qimeng-integrations.tar.xz
ls -l dist/qimeng-integrations.tar.xz
