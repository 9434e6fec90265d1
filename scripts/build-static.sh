#!/usr/bin/env bash
# Builds a self-contained qimeng-opt (MLIR and LLVM linked statically) in
# build-static/, checks that it needs only system libraries, and packs it as
# dist/qimeng-opt-static.xz for a GPU machine without LLVM packages.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
if [ ! -f build-static/build.ninja ]; then
  cmake -G Ninja -S . -B build-static -DCMAKE_BUILD_TYPE=Release \
    -DQIMENG_STATIC_MLIR=ON -DQIMENG_BUILD_UNITTESTS=OFF
fi
ninja -C build-static qimeng-opt
scripts/check-static.sh build-static/bin/qimeng-opt
mkdir -p dist
xz -T0 -6 -c build-static/bin/qimeng-opt > dist/qimeng-opt-static.xz
ls -l dist/qimeng-opt-static.xz
