#!/usr/bin/env bash
# Fuzzes QiMeng's input paths with libFuzzer (docs/fuzzing.md).
#
#   scripts/fuzz.sh [--runs N | --seconds S] [--json FILE] [--jobs J]
#                   [--timeout S] [TARGET...]
#
# Builds the fuzz targets with clang-22, libFuzzer, ASan and UBSan in
# build-fuzz/ (the whole project instrumented: -DQIMENG_LIBFUZZER=ON), then
# runs each TARGET (default: all of them) for N executions (--runs) or S
# seconds (--seconds; default 60), starting from a copy of its seed corpus
# (fuzz/corpus/TARGET; what the run adds stays in build-fuzz/corpus/TARGET).
# A crash does not end the run: libFuzzer's fork mode records it and goes on
# (--jobs parallel workers, default 1). Results (executions, executions per
# second, coverage "cov:" and features "ft:", corpus size, crashes,
# timeouts, out-of-memory inputs, the sanitizers' messages) go to a JSON
# file (default build-fuzz/fuzz-results.json); crash, timeout and
# out-of-memory reproducers are copied into fuzz/crashes/TARGET/.
# QIMENG_FUZZ_LOWER=1 (fuzz-mlir-input: lower to PTX too) and
# QIMENG_FUZZ_APPLY=1 (fuzz-plan-json: realize accepted plans) pass through
# and are recorded with the results.
#
# clang-22 and libclang-rt-22-dev (libFuzzer and the sanitizer runtimes) are
# needed; as root the script installs them, otherwise it says how to.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(fuzz-mlir-input fuzz-plan-json fuzz-llm-reply fuzz-candidate-check
  fuzz-npy fuzz-tuning-db fuzz-llm-cache)
RUNS=""
SECONDS_PER_TARGET=""
JSON=build-fuzz/fuzz-results.json
JOBS=1
TIMEOUT=25
TARGETS=()

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS="$2"; shift 2 ;;
    --runs=*) RUNS="${1#*=}"; shift ;;
    --seconds) SECONDS_PER_TARGET="$2"; shift 2 ;;
    --seconds=*) SECONDS_PER_TARGET="${1#*=}"; shift ;;
    --json) JSON="$2"; shift 2 ;;
    --json=*) JSON="${1#*=}"; shift ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --jobs=*) JOBS="${1#*=}"; shift ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    --timeout=*) TIMEOUT="${1#*=}"; shift ;;
    -h|--help) usage ;;
    -*) echo "fuzz.sh: unknown option '$1'" >&2; usage ;;
    *)
      if [[ ! " ${ALL_TARGETS[*]} " =~ " $1 " ]]; then
        echo "fuzz.sh: unknown target '$1' (targets: ${ALL_TARGETS[*]})" >&2
        exit 2
      fi
      TARGETS+=("$1"); shift ;;
  esac
done
if [ -n "$RUNS" ] && [ -n "$SECONDS_PER_TARGET" ]; then
  echo "fuzz.sh: give --runs or --seconds, not both" >&2
  exit 2
fi
if [ -z "$RUNS" ] && [ -z "$SECONDS_PER_TARGET" ]; then
  SECONDS_PER_TARGET=60
fi
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${ALL_TARGETS[@]}")

# The optional dependencies: clang and libFuzzer (not in setup-deps.sh's
# list, as the normal build does not need them).
FUZZER_LIB=/usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a
if ! command -v clang++-22 > /dev/null || [ ! -f "$FUZZER_LIB" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "fuzz.sh: installing clang-22 and libclang-rt-22-dev"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends clang-22 libclang-rt-22-dev
  else
    echo "fuzz.sh: libFuzzer needs clang-22 and libclang-rt-22-dev:" >&2
    echo "  sudo apt-get install -y clang-22 libclang-rt-22-dev" >&2
    exit 1
  fi
fi
scripts/setup-deps.sh

if [ ! -f build-fuzz/build.ninja ]; then
  cmake -G Ninja -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DQIMENG_LIBFUZZER=ON -DQIMENG_BUILD_UNITTESTS=OFF \
    -DQIMENG_BUILD_PLUGIN=OFF
fi
ninja -C build-fuzz "${TARGETS[@]}"

mkdir -p "$(dirname "$JSON")" build-fuzz/logs
LOGS=()
for target in "${TARGETS[@]}"; do
  corpus=build-fuzz/corpus/$target
  artifacts=build-fuzz/artifacts/$target
  # This run's reproducers only (earlier ones are in fuzz/crashes).
  rm -rf "$artifacts"
  mkdir -p "$corpus" "$artifacts"
  cp -n fuzz/corpus/"$target"/* "$corpus"/ 2> /dev/null || true
  log=build-fuzz/logs/$target.log
  budget=()
  if [ -n "$RUNS" ]; then
    budget=(-runs="$RUNS")
  else
    budget=(-max_total_time="$SECONDS_PER_TARGET")
  fi
  echo "fuzz.sh: $target (${budget[*]})"
  start=$(date +%s.%N)
  # Fork mode: a crash, time-out or out-of-memory input is recorded in
  # $artifacts and the run goes on. The targets' own output (the pipeline's
  # progress lines) is dropped; libFuzzer's and the sanitizers' reports stay.
  # ASan's leak checker stays on: a leak is reported like a crash.
  set +e
  ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
  UBSAN_OPTIONS=print_stacktrace=1 \
    build-fuzz/bin/"$target" "${budget[@]}" -fork="$JOBS" \
    -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -timeout="$TIMEOUT" -rss_limit_mb=4096 -max_len=65536 \
    -close_fd_mask=2 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" > "$log" 2>&1
  rc=$?
  set -e
  end=$(date +%s.%N)
  echo "$target $rc $start $end $log $artifacts $corpus" >> build-fuzz/logs/runs.txt
  LOGS+=("$target|$rc|$start|$end|$log|$artifacts|$corpus")
  tail -n 3 "$log"
  # Reproducers, kept with the sources.
  if compgen -G "$artifacts/*" > /dev/null; then
    mkdir -p fuzz/crashes/"$target"
    cp -n "$artifacts"/* fuzz/crashes/"$target"/
  fi
done

python3 - "$JSON" "${LOGS[@]}" <<'EOF'
"""Collects the libFuzzer logs of this run into one JSON file."""
import datetime
import json
import os
import platform
import re
import subprocess
import sys

out_path, runs = sys.argv[1], sys.argv[2:]


def last(pattern, text, cast=int):
    found = re.findall(pattern, text, re.MULTILINE)
    return cast(found[-1]) if found else None


results = []
for run in runs:
    target, rc, start, end, log, artifacts, corpus = run.split("|")
    text = open(log, errors="replace").read()
    seconds = float(end) - float(start)
    # Fork mode prints "#N: cov: C ft: F corp: K exec/s: E oom/timeout/crash:
    # O/T/X time: Ts job: J dft_time: D"; a plain run "#N ... cov: C ft: F".
    executions = last(r"^#(\d+)", text, int) or 0
    stats = last(r"stat::number_of_executed_units:\s*(\d+)", text)
    if stats:
        executions = max(executions, stats)
    artifacts_found = sorted(os.listdir(artifacts)) if os.path.isdir(artifacts) else []
    kinds = {"crash": 0, "timeout": 0, "oom": 0, "leak": 0, "slow-unit": 0}
    for name in artifacts_found:
        for kind in kinds:
            if name.startswith(kind + "-"):
                kinds[kind] += 1
    failures = last(r"oom/timeout/crash:\s*(\d+/\d+/\d+)", text, str)
    results.append({
        "target": target,
        "exit_code": int(rc),
        "seconds": round(seconds, 1),
        "executions": executions,
        "exec_per_s": round(executions / seconds, 1) if seconds > 0 else None,
        "cov": last(r"cov: (\d+)", text),
        "ft": last(r"ft: (\d+)", text),
        "corpus": last(r"corp: (\d+)", text),
        "corpus_files": len(os.listdir(corpus)),
        "oom_timeout_crash": failures,
        "artifacts": {kind: count for kind, count in kinds.items()},
        "artifact_files": artifacts_found,
        # What the sanitizers and the harness said, once each (fork mode
        # passes the jobs' first report lines through).
        "reports": sorted(set(re.findall(
            r"(runtime error: [^\n]*|ERROR: \w+Sanitizer: [^\n]*?(?= on | at |$)"
            r"|invariant broken: [^\n]*|LLVM ERROR: [^\n]*)",
            text, re.MULTILINE)))[:20],
        "log": log,
        "options": {k: os.environ[k] for k in ("QIMENG_FUZZ_LOWER", "QIMENG_FUZZ_APPLY")
                    if os.environ.get(k)},
    })

clang = subprocess.run(["clang++-22", "--version"], capture_output=True,
                       text=True).stdout.splitlines()[0]
doc = {
    "format": "qimeng-fuzz-results",
    "version": 1,
    "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "machine": {"cpus": os.cpu_count(), "system": platform.platform()},
    "compiler": clang,
    "sanitizers": "fuzzer,address,undefined",
    "targets": results,
}
with open(out_path, "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
for r in results:
    print("{target}: {executions} executions in {seconds} s ({exec_per_s}/s), "
          "cov {cov}, ft {ft}, oom/timeout/crash {oom_timeout_crash}, "
          "artifacts {artifact_files}".format(**r))
print("fuzz.sh: results in " + out_path)
EOF
