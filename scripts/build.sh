#!/usr/bin/env bash
# Configures and builds QiMeng (shared libMLIR.so) in build/.
# Usage: scripts/build.sh [extra cmake -D options]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release "$@"
fi
ninja -C build all mlir-doc
