"""Host overhead of calling a compiled module from PyTorch: the time per call
of a tiny kernel (x * 2 on 5x7 f32, test/Python/Inputs/runtime_forms.mlir
@scale), averaged over --calls calls after --warmup, in microseconds.

  python bench/torch/overhead.py --cpu --json out.json    # the host lowering
  python bench/torch/overhead.py --json out.json          # on cuda:0

On the GPU the calls are queued without waiting (as a model's calls are);
the stream is synchronized once at the end, inside the timed span.
"""

import argparse
import json
import platform
import time
from pathlib import Path

import torch

from qimeng.runtime import Module
from qimeng import _tools

root = Path(__file__).resolve().parents[2]
p = argparse.ArgumentParser()
p.add_argument("--cpu", action="store_true")
p.add_argument("--calls", type=int, default=10000)
p.add_argument("--warmup", type=int, default=200)
p.add_argument("--json")
a = p.parse_args()

source = root / "test/Python/Inputs/runtime_forms.mlir"
if a.cpu:
    module = Module(source, on_cpu=True)
    x = torch.randn(5, 7)
else:
    lowered = Path("/tmp/qimeng-overhead.gpu.mlir")
    _tools.run_qimeng_opt(["--llm-plan", "--lower-to-nvvm", source, "-o", lowered])
    module = Module(lowered)
    x = torch.randn(5, 7, device="cuda")
scale = module["scale"]
for _ in range(a.warmup):
    scale(x)
if not a.cpu:
    torch.cuda.synchronize()
start = time.perf_counter()
for _ in range(a.calls):
    scale(x)
if not a.cpu:
    torch.cuda.synchronize()
us = (time.perf_counter() - start) / a.calls * 1e6
result = {"benchmark": "torch-call-overhead", "device": "cpu" if a.cpu else
          torch.cuda.get_device_name(0), "host": platform.node(),
          "calls": a.calls, "warmup": a.warmup, "us_per_call": round(us, 2),
          "torch": torch.__version__}
print(json.dumps(result))
if a.json:
    Path(a.json).write_text(json.dumps(result, indent=1) + "\n")
