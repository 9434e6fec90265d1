#!/usr/bin/env bash
# Builds QiMeng and runs every test (lit + unit tests). The last line is
# "N passed, N failed[, N skipped]" for CI.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh || { echo "0 passed, 1 failed"; exit 1; }

LIT=/usr/lib/llvm-22/bin/lit
mkdir -p build/test-results
# The PyTorch integration's environment (.venv: torch, torch-mlir, the
# package); its lit tests need it. A failed setup is a failed test, not a
# silent skip.
python_rc=0
scripts/setup-python.sh > build/test-results/setup-python.log 2>&1 || python_rc=$?
python3 scripts/junit-case.py build/test-results/setup-python.xml \
  setup-python $python_rc build/test-results/setup-python.log
"$LIT" -v --xunit-xml-output=build/test-results/lit.xml build/test
lit_rc=$?
build/unittests/QiMengUnitTests --gtest_brief=1 \
  --gtest_output=xml:build/test-results/unit.xml
unit_rc=$?

python3 scripts/count-tests.py build/test-results/lit.xml \
  build/test-results/unit.xml build/test-results/setup-python.xml
[ $lit_rc -eq 0 ] && [ $unit_rc -eq 0 ] && [ $python_rc -eq 0 ]
