#!/usr/bin/env bash
# Packs what a Linux x86-64 GPU machine with only the CUDA driver and python3
# needs to run QiMeng's GPU lit tests (test/Integration/GPU) and the example
# checks, as one archive: dist/qimeng-gpu-pack.tar.xz (docs/gpu-testing.md).
#
# Usage: scripts/pack.sh [--no-build]
#   --no-build  use the existing build-static/bin/qimeng-{opt,run} instead of
#               running scripts/build-static.sh first.
# LLVM_TOOLS_DIR (default /usr/lib/llvm-22/bin) gives FileCheck, not, count and
# split-file; LIT_DIR (default /usr/lib/llvm-22/utils/lit) the lit package.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
for arg in "$@"; do
  case $arg in
    --no-build) build=0 ;;
    *) echo "usage: scripts/pack.sh [--no-build]" >&2; exit 2 ;;
  esac
done
llvm_bin=${LLVM_TOOLS_DIR:-/usr/lib/llvm-22/bin}
lit_dir=${LIT_DIR:-/usr/lib/llvm-22/utils/lit}
out=dist/qimeng-gpu-pack.tar.xz

if [ $build = 1 ]; then
  scripts/build-static.sh
else
  for tool in qimeng-opt qimeng-run qimeng-tune; do scripts/check-static.sh build-static/bin/$tool; done
fi

mkdir -p dist
# A fresh staging directory (mktemp fills in the X's), removed on exit.
stage=$(mktemp -d dist/.pack.XXXXXX)
trap 'rm -rf "$stage" "$out.tmp"' EXIT
root=$stage/qimeng-gpu-pack
mkdir -p "$root"/{bin,lib,lit,test,scripts}

# --- Tools and the libraries they need ---------------------------------------
tools=(build-static/bin/qimeng-opt build-static/bin/qimeng-run build-static/bin/qimeng-tune)
for t in FileCheck not count split-file; do tools+=("$llvm_bin/$t"); done
for t in "${tools[@]}"; do
  cp -L "$t" "$root/bin/"
  # The tools load lib/ through their RUNPATH; without it they would need
  # LD_LIBRARY_PATH on the GPU machine.
  if ! readelf -d "$t" | grep -q 'R\(UN\)\?PATH.*ORIGIN/\.\./lib'; then
    echo "error: $t has no \$ORIGIN/../lib RUNPATH" >&2
    exit 1
  fi
done
# Every library ldd lists except glibc's own (which must come from the GPU
# machine: the tools need glibc >= the version of this machine's symbols).
glibc='^(linux-vdso\.so|ld-linux-x86-64\.so|/lib64/ld-linux-x86-64\.so|libc\.so|libm\.so|libmvec\.so|libpthread\.so|libdl\.so|librt\.so|libutil\.so|libresolv\.so)'
for t in "$root"/bin/*; do
  ldd "$t" | awk '$2 == "=>" {print $1, $3}' | while read -r soname path; do
    if [[ ! $soname =~ $glibc ]] && [ ! -e "$root/lib/$soname" ]; then
      cp -L "$path" "$root/lib/$soname"
    fi
  done
done
# Check that the packed tools resolve every non-glibc library inside the pack.
lib=$(realpath "$root/lib")
for t in "$root"/bin/*; do
  ldd "$t" | awk '$2 == "=>" {print $1, $3}' | while read -r soname path; do
    if [[ ! $soname =~ $glibc ]] && [ "$(realpath "$path")" != "$lib/$soname" ]; then
      echo "error: $t loads $soname from $path, not from the pack" >&2
      exit 1
    fi
  done
done

# --- lit (pure Python) and the test configuration ----------------------------
tar -C "$lit_dir" --exclude=__pycache__ -cf - lit | tar -C "$root/lit" -xf -
cat >"$root/lit/lit.py" <<'EOF'
#!/usr/bin/env python3
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lit.main import main  # noqa: E402

if __name__ == "__main__":
    main()
EOF
cp test/lit.cfg.py "$root/test/"
cp test/lit.pack.site.cfg.py "$root/test/lit.site.cfg.py"
mkdir -p "$root/test/Integration"
cp -r test/Integration/GPU "$root/test/Integration/"
# The planted kernels the GPU verifier tests share with the CPU ones.
mkdir -p "$root/test/Verifier"
cp -r test/Verifier/Inputs "$root/test/Verifier/"
# The benchmark suite and its harness (bench/bench.sh runs from the pack).
mkdir -p "$root/bench"
cp -r bench/problems bench/*.py bench/bench.sh "$root/bench/"
mkdir -p "$root/bench/corpus"
cp bench/corpus/*.py bench/corpus/*.sh "$root/bench/corpus/"
# The verifier's mutants (regenerated from the examples) and their filter.
mkdir -p "$root/bench/mutants/results"
cp bench/mutants/*.py "$root/bench/mutants/"
cp bench/mutants/results/*.json "$root/bench/mutants/results/" 2>/dev/null || true
# The loopback LLM server the GPU micro-coding test scripts.
mkdir -p "$root/test/LLM"
cp test/LLM/fake_llm_server.py "$root/test/LLM/"

# --- Examples, the PyTorch checks, the run script ----------------------------
cp -r examples "$root/"
cp scripts/{compile-examples.sh,gpu_check.py,run_check.py,verify_examples.py,plan_fuzz.py} "$root/scripts/"
cp scripts/pack/run-gpu-tests.sh "$root/"
cp docs/gpu-testing.md "$root/README.md"
{
  commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
  [ -z "$(git status --porcelain 2>/dev/null)" ] || commit+=" with uncommitted changes"
  echo "source: $commit"
  echo "qimeng-opt built: $(date -u -r build-static/bin/qimeng-opt '+%Y-%m-%d %H:%M UTC')"
  echo "qimeng-run built: $(date -u -r build-static/bin/qimeng-run '+%Y-%m-%d %H:%M UTC')"
  echo "packed: $(date -u '+%Y-%m-%d %H:%M UTC')"
} >"$root/VERSION"

# The packed tools start and compile an example (no GPU needed).
PYTHONDONTWRITEBYTECODE=1 "$root/run-gpu-tests.sh" --self-check

# --- Archive -------------------------------------------------------------------
# One LZMA2 dictionary large enough to span both qimeng binaries: they share
# most of their code, so the second costs little (needs ~2.5 GiB to compress,
# 256 MiB to unpack).
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner -cf - qimeng-gpu-pack |
  xz -T1 -6 --lzma2=preset=6,dict=256MiB >"$out.tmp"
mv "$out.tmp" "$out"
du -sh "$root" | awk '{print "unpacked: " $1}'
ls -l "$out"
