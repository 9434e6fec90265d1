#!/usr/bin/env bash
# One device call: on an H200 the seed-2026 corpus (issue 19's table); on
# any other GPU the GPU lit tests and the A/B of dist/r9-ab.sh.
set -uo pipefail
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  STAGES=corpus bash dist/r9-round.sh
else
  STAGES_OTHER=lit LIT_BUDGET=220 bash dist/r9-round.sh
  bash dist/r9-ab.sh
fi
