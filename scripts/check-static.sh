#!/usr/bin/env bash
# Checks that a qimeng-opt binary (or libqimeng_runtime.so) depends only on
# system libraries (libc, libstdc++, libm, libgcc_s, libz, libzstd), and that
# it runs (a library: that it exports nothing but the qimeng* C API).
set -euo pipefail
bin=${1:-build-static/bin/qimeng-opt}
allowed='^(linux-vdso\.so|/lib64/ld-linux-x86-64\.so|ld-linux-x86-64\.so|libc\.so|libstdc\+\+\.so|libm\.so|libgcc_s\.so|libz\.so|libzstd\.so)'
bad=$(ldd "$bin" | awk '{print $1}' | grep -Ev "$allowed" || true)
if [ -n "$bad" ]; then
  echo "error: $bin needs non-system libraries:" >&2
  echo "$bad" >&2
  exit 1
fi
if [[ $bin == *.so ]]; then
  extra=$(nm -D --defined-only "$bin" | awk '{print $3}' | grep -v '^qimeng' || true)
  if [ -n "$extra" ]; then
    echo "error: $bin exports more than the qimeng* C API:" >&2
    echo "$extra" | head >&2
    exit 1
  fi
else
  "$bin" --version >/dev/null
fi
echo "$bin: only system libraries ($(ldd "$bin" | awk '{print $1}' | tr '\n' ' '))"
