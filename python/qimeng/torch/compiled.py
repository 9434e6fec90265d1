"""Compiled artifacts: a directory with the linalg module, its lowering and
how to call it; `load` makes it a callable on torch tensors.

    model.qimeng/
      model.mlir       linalg on tensors (the export)
      model.gpu.mlir   qimeng-opt --llm-plan --lower-to-nvvm output
      qimeng.json      entry, parameter names, inputs, target, compiler
"""

import json
import os
import shutil
import tempfile
from pathlib import Path

from .. import _tools
from ..runtime import Module
from .exporter import Exported

FORMAT = "qimeng-torch 1"


def compile(exported: Exported, out_dir, *, target: str = "sm_90",
            fmt: str = None, extra_args=(), on_cpu: bool = False,
            timeout: float = 1800) -> Path:
    """Compiles an export into the artifact directory `out_dir` (replaced
    whole, never left half-written). `on_cpu`: keep only the linalg module,
    which `load` then compiles to loops on the host (no GPU needed)."""
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=out_dir.name + ".", dir=out_dir.parent))
    try:
        (work / "model.mlir").write_text(exported.mlir)
        meta = {
            "format": FORMAT,
            "entry": exported.func_name,
            "params": exported.params,
            "num_inputs": exported.num_inputs,
            "target": "cpu" if on_cpu else target,
            "compiler": _tools.tools_fingerprint(),
        }
        if not on_cpu:
            lower = f"--lower-to-nvvm=chip={target}"
            if fmt:
                lower += f" format={fmt}"
            log = _tools.run_qimeng_opt(
                ["--llm-plan", lower, *extra_args, work / "model.mlir", "-o",
                 work / "model.gpu.mlir"], timeout=timeout)
            (work / "compile.log").write_text(log)
        (work / "qimeng.json").write_text(json.dumps(meta, indent=1) + "\n")
        if out_dir.exists():
            shutil.rmtree(out_dir)
        os.replace(work, out_dir)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return out_dir


class CompiledModule:
    """A loaded artifact. Called with the module's inputs (and, when the
    export took the parameters as arguments and none were bound, the
    parameters first); returns a tensor, or a tuple for several results."""

    def __init__(self, path, params=None):
        self.path = Path(path)
        self.meta = json.loads((self.path / "qimeng.json").read_text())
        if self.meta.get("format") != FORMAT:
            raise ValueError(f"{self.path}: not a QiMeng artifact ({FORMAT})")
        self.on_cpu = self.meta["target"] == "cpu"
        source = self.path / ("model.mlir" if self.on_cpu else "model.gpu.mlir")
        self.module = Module(source, on_cpu=self.on_cpu)
        self.function = self.module.function(self.meta["entry"])
        self.bound = []
        if params is not None:
            self.bind(params)

    def bind(self, params):
        """Binds the parameters (a dict by name, or an nn.Module whose
        parameters and buffers are used) moved to the module's device."""
        from .exporter import state_of
        import torch

        if isinstance(params, torch.nn.Module):
            params = state_of(params)
        missing = [n for n in self.meta["params"] if n not in params]
        if missing:
            raise KeyError(f"parameters missing: {', '.join(missing)}")
        device = "cpu" if self.on_cpu else "cuda:0"
        self.bound = [params[n].detach().to(device).contiguous()
                      for n in self.meta["params"]]

    def __call__(self, *inputs):
        args = list(inputs)
        if self.meta["params"] and not self.bound:
            if len(args) != len(self.meta["params"]) + self.meta["num_inputs"]:
                raise TypeError("pass the parameters first, or bind them "
                                "(load(path, params=model))")
        else:
            args = self.bound + args
        results = self.function(*args)
        return results[0] if len(results) == 1 else tuple(results)


def load(path, params=None) -> CompiledModule:
    return CompiledModule(path, params)
