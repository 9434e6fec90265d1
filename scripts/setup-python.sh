#!/usr/bin/env bash
# Creates the Python environment of the qimeng package in .venv/ (in the
# checkout): the pinned torch and torch-mlir (python/requirements.txt) and
# python/ itself, installed in editable mode so that
# `torch.compile(model, backend="qimeng")` finds the backend.
# Usage: scripts/setup-python.sh     (prints the venv's python on success)
# About 5 GB from PyPI on the first run (torch is the CUDA build); a second
# run with the pins unchanged installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv
STAMP=$VENV/.qimeng-requirements

if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup-python: python3-venv is missing:" >&2
    echo "  sudo apt-get install -y python3-venv" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3-venv >&2
fi

[ -x $VENV/bin/python ] || python3 -m venv $VENV >&2
if ! cmp -s python/requirements.txt "$STAMP"; then
  $VENV/bin/python -m pip install -q --disable-pip-version-check \
    -r python/requirements.txt >&2
  cp python/requirements.txt "$STAMP"
fi
if ! $VENV/bin/python -c 'import qimeng' 2>/dev/null; then
  $VENV/bin/python -m pip install -q --disable-pip-version-check \
    --no-deps --no-build-isolation -e python >&2
fi
echo "$PWD/$VENV/bin/python"
