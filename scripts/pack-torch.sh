#!/usr/bin/env bash
# Packs the PyTorch integration for a GPU machine with Python 3.12 and torch
# 2.11 but no network and no LLVM (docs/pytorch.md), as two archives of
# under 64 MB each, so that each travels in one device call:
#   dist/qimeng-torch-pack.tar.xz  qimeng-opt and libqimeng_runtime.so
#                                  (MLIR linked in statically), the qimeng
#                                  package, run-torch-checks.sh and, when
#                                  given, KernelBench's problem files
#   dist/torch-mlir-cp312.tar.xz   the pinned torch-mlir wheel for CPython
#                                  3.12, unpacked, its libraries stripped,
#                                  without torch-mlir-opt (made again only
#                                  when the pin in python/requirements.txt
#                                  changed)
# Usage: scripts/pack-torch.sh [--no-build] [KERNELBENCH_CHECKOUT]
#   KERNELBENCH_CHECKOUT: a KernelBench checkout, or a copy of its tree with
#   the commit in a file COMMIT at its top.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
kernelbench=
for arg in "$@"; do
  case $arg in
    --no-build) build=0 ;;
    -*) echo "usage: scripts/pack-torch.sh [--no-build] [KERNELBENCH_CHECKOUT]" >&2; exit 2 ;;
    *) kernelbench=$arg ;;
  esac
done
if [ $build = 1 ]; then
  scripts/build-static.sh
fi
for f in build-static/bin/qimeng-opt build-static/lib/libqimeng_runtime.so; do
  scripts/check-static.sh "$f"
done

mkdir -p dist
# A fresh staging directory (mktemp fills in the X's), removed on exit.
stage=$(mktemp -d dist/.pack-torch.XXXXXX)
trap 'rm -rf "$stage"' EXIT

# --- QiMeng: the compiler, the runtime library, the package --------------------
root=$stage/qimeng-torch-pack
mkdir -p "$root"/{bin,lib,python}
cp build-static/bin/qimeng-opt "$root/bin/"
cp build-static/lib/libqimeng_runtime.so "$root/lib/"
tar -C python --exclude=__pycache__ --exclude='*.egg-info' -cf - qimeng | tar -C "$root/python" -xf -
cp scripts/pack/run-torch-checks.sh "$root/"
if [ -n "$kernelbench" ]; then
  mkdir -p "$root/KernelBench"
  cp -r "$kernelbench"/KernelBench/level1 "$kernelbench"/KernelBench/level2 "$root/KernelBench/"
  if [ -f "$kernelbench/COMMIT" ]; then
    cp "$kernelbench/COMMIT" "$root/KernelBench/COMMIT"
  else
    (cd "$kernelbench" && git rev-parse HEAD 2>/dev/null || echo unknown) >"$root/KernelBench/COMMIT"
  fi
fi
{
  commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
  [ -z "$(git status --porcelain 2>/dev/null)" ] || commit+=" with uncommitted changes"
  echo "source: $commit"
  echo "packed: $(date -u '+%Y-%m-%d %H:%M UTC')"
} >"$root/VERSION"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner -cf - qimeng-torch-pack |
  xz -T1 -6 --lzma2=preset=6,dict=256MiB >dist/qimeng-torch-pack.tar.xz.tmp
mv dist/qimeng-torch-pack.tar.xz.tmp dist/qimeng-torch-pack.tar.xz

# --- torch-mlir for Python 3.12 ------------------------------------------------
# Made again only when the pin changed (the pin it was made from is kept
# beside it).
pin=$(grep '^torch-mlir==' python/requirements.txt)
if [ ! -f dist/torch-mlir-cp312.tar.xz ] || [ "$(cat dist/torch-mlir-cp312.pin 2>/dev/null)" != "$pin" ]; then
  wheels=$stage/wheels
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
    --platform manylinux_2_28_x86_64 "$pin" -d "$wheels"
  tm=$stage/torch-mlir-cp312
  mkdir -p "$tm"
  python3 -m zipfile -e "$wheels"/torch_mlir-*.whl "$tm"
  rm -f "$tm"/torch_mlir/_mlir_libs/torch-mlir-opt
  find "$tm" -name '*.so' -exec strip --strip-unneeded {} +
  tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner -cf - torch-mlir-cp312 |
    xz -T1 -9 >dist/torch-mlir-cp312.tar.xz.tmp
  mv dist/torch-mlir-cp312.tar.xz.tmp dist/torch-mlir-cp312.tar.xz
  echo "$pin" >dist/torch-mlir-cp312.pin
fi
ls -l dist/qimeng-torch-pack.tar.xz dist/torch-mlir-cp312.tar.xz
