"""Exports every problem file of the given directories (KernelBench-style)
with torch-mlir and compiles it for a GPU with qimeng-opt, without running
anything: how many of a suite QiMeng takes, and why not the others.

  python bench/torch/compile_sweep.py --json out.json DIR...

One record per file: status "compiled" (with the number of kernel launches
and the seconds export and compile took), "export-failed" or
"compile-failed" (with the first error line). The GPU run of the same files
is `python -m qimeng.torch check --time` (docs/pytorch.md).
"""

import argparse
import json
import re
import sys
import tempfile
import time
import warnings
from pathlib import Path

import qimeng.torch as qt
from qimeng import _tools

#: Host functions besides the mgpu* runtime that lowered host code may call.
HOST_FUNCTIONS = {"malloc", "free", "aligned_alloc", "abort", "puts",
                  "printf"}

p = argparse.ArgumentParser()
p.add_argument("dirs", nargs="+")
p.add_argument("--json", required=True)
p.add_argument("--target", default="sm_90")
a = p.parse_args()
warnings.filterwarnings("ignore")

records = []
work = Path(tempfile.mkdtemp(prefix="qimeng-sweep."))
for d in a.dirs:
    for f in sorted(Path(d).glob("*.py")):
        rec = {"suite": Path(d).name, "problem": f.stem}
        start = time.perf_counter()
        try:
            exported = qt.export_problem(qt.load_problem(f))
        except Exception as e:
            rec.update(status="export-failed", why=str(e).splitlines()[0][:300])
            records.append(rec)
            print(f"{rec['suite']}/{f.stem}: {rec['status']}", flush=True)
            continue
        rec["export_s"] = round(time.perf_counter() - start, 2)
        src = work / (f.stem + ".mlir")
        src.write_text(exported.mlir)
        out = work / (f.stem + ".gpu.mlir")
        start = time.perf_counter()
        try:
            _tools.run_qimeng_opt(["--llm-plan",
                                   f"--lower-to-nvvm=chip={a.target}", src,
                                   "-o", out])
            text = out.read_text()
            # Host functions the runtime does not provide (memrefCopy from
            # a copy left on the host): the JIT would not link the module.
            unknown = sorted(set(
                name for name, body in re.findall(
                    r"^\s*llvm\.func @(\w+)\(.*?\)(.*)$", text, re.M)
                if "{" not in body and not name.startswith("mgpu")
                and name not in HOST_FUNCTIONS))
            if unknown:
                rec.update(status="compile-failed",
                           why=f"host code calls {', '.join(unknown)}")
            else:
                rec.update(status="compiled",
                           launches=text.count("gpu.launch_func"))
        except _tools.ToolError as e:
            rec.update(status="compile-failed", why=str(e)[:300])
        rec["compile_s"] = round(time.perf_counter() - start, 2)
        records.append(rec)
        print(f"{rec['suite']}/{f.stem}: {rec['status']}", flush=True)

summary = {}
for r in records:
    s = summary.setdefault(r["suite"], {})
    s[r["status"]] = s.get(r["status"], 0) + 1
result = {"benchmark": "torch-compile-sweep", "target": a.target,
          "summary": summary, "problems": records}
Path(a.json).write_text(json.dumps(result, indent=1) + "\n")
print(json.dumps(summary))
