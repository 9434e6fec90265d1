#!/usr/bin/env bash
# Builds self-contained qimeng-opt and qimeng-run (MLIR and LLVM linked
# statically) in build-static/, checks that they need only system libraries,
# and packs them as dist/qimeng-{opt,run}-static.xz for a GPU machine without
# LLVM packages.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
if [ ! -f build-static/build.ninja ]; then
  cmake -G Ninja -S . -B build-static -DCMAKE_BUILD_TYPE=Release \
    -DQIMENG_STATIC_MLIR=ON -DQIMENG_BUILD_UNITTESTS=OFF
fi
ninja -C build-static qimeng-opt qimeng-run qimeng-tune qimeng_runtime
scripts/check-static.sh build-static/lib/libqimeng_runtime.so
mkdir -p dist
for tool in qimeng-opt qimeng-run qimeng-tune; do
  scripts/check-static.sh build-static/bin/$tool
  xz -T0 -6 -c build-static/bin/$tool > dist/$tool-static.xz
  ls -l dist/$tool-static.xz
done
