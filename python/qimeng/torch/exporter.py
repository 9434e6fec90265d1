"""PyTorch -> linalg on tensors, as text that LLVM 22's parser reads.

torch-mlir's FX importer (`torch_mlir.fx`) does the work; this module picks
its inputs (parameters as arguments or as constants), prints the module as
text (never bytecode: torch-mlir follows LLVM main, QiMeng LLVM 22) and
rewrites the few things LLVM 22 reads differently (see `_normalize`).
"""

import re
import warnings
from dataclasses import dataclass, field
from typing import List, Sequence


class ExportError(RuntimeError):
    """The module could not be exported to linalg; the message says why."""


@dataclass
class Exported:
    """A module as linalg on tensors, with how to call it."""

    mlir: str
    func_name: str
    # Names of the leading arguments that are the module's parameters and
    # buffers (weights="args"), in order; the inputs follow.
    params: List[str] = field(default_factory=list)
    num_inputs: int = 0


def _import_fx():
    try:
        from torch_mlir import fx  # noqa: F401
    except ImportError as e:
        raise ExportError(
            "torch-mlir is not installed (scripts/setup-python.sh installs "
            f"the pinned version): {e}")
    return fx


def module_text(module) -> str:
    """A torch-mlir module as text LLVM 22 parses: large constants printed
    in full, with locations (diagnostics point at the Python source)."""
    text = module.operation.get_asm(large_elements_limit=None,
                                    enable_debug_info=True)
    return _normalize(text)


# torch-mlir is on LLVM main, where i1 dense elements are one byte each
# (LLVM c6964b1b4dcd, after the 22 branch); LLVM 22 reads hex i1 data as
# packed bits. Hex i1 constants are rewritten as lists of true/false.
_HEX_I1 = re.compile(r'dense<"0x([0-9A-Fa-f]*)">(\s*:\s*tensor<([0-9x]*)xi1>)')


def _nest(values, shape):
    if not shape:
        return values[0]
    if len(shape) == 1:
        return "[" + ", ".join(values) + "]"
    step = len(values) // shape[0] if shape[0] else 0
    return "[" + ", ".join(
        _nest(values[i * step:(i + 1) * step], shape[1:])
        for i in range(shape[0])) + "]"


def _rewrite_i1(match):
    data = bytes.fromhex(match.group(1))
    shape = [int(s) for s in match.group(3).split("x") if s]
    count = 1
    for s in shape:
        count *= s
    if len(data) == 1 and count != 1:
        # A splat: one byte for every element.
        return f"dense<{'true' if data[0] else 'false'}>" + match.group(2)
    if len(data) != count:
        raise ExportError(
            f"an i1 constant of {count} elements holds {len(data)} bytes")
    values = ["true" if b else "false" for b in data]
    return f"dense<{_nest(values, shape)}>" + match.group(2)


def _normalize(text: str) -> str:
    if "tm_tensor." in text:
        ops = sorted(set(re.findall(r"tm_tensor\.(\w+)", text)))
        raise ExportError(
            "torch-mlir lowered part of the model to tm_tensor ("
            + ", ".join(ops) + "), which is not upstream MLIR")
    if "ml_program." in text:
        raise ExportError("the model keeps state or draws random numbers "
                          "(ml_program ops): not supported")
    return _HEX_I1.sub(_rewrite_i1, text)


def decompositions():
    """The ATen decompositions applied before import: torch-mlir's own table,
    `prims.squeeze` (what torch's logsumexp decomposes into, which
    torch-mlir 20261001 fails to lower: "failed to legalize
    torch.constant.int") as a view, `scalar_tensor` as a 0-d full,
    cumulative sums and products as blocked scans, and the fused attention
    ops as their math."""
    import torch
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    from . import attention, scans

    table = dict(get_decomposition_table())

    def squeeze(a, dims):
        dropped = {d % a.dim() for d in dims} if a.dim() else set()
        return torch.ops.aten.view.default(
            a, [s for i, s in enumerate(a.shape) if i not in dropped])

    table[torch.ops.prims.squeeze.default] = squeeze

    def scalar_tensor(value, dtype=None, layout=None, device=None,
                      pin_memory=None):
        # torch-mlir leaves scalar_tensor's dtype behind ("failed to
        # legalize torch.constant.int") when the device is meta (an export
        # on meta inputs); a 0-d full of the same value and type it lowers.
        return torch.ops.aten.full.default([], value, dtype=dtype)

    table[torch.ops.aten.scalar_tensor.default] = scalar_tensor
    # Cumulative sums and products, which torch-mlir would lower to
    # tm_tensor.scan, as blocked scans of linalg reductions (scans.py).
    scans.register(table)
    # The fused attention kernels CUDA dispatches to, as their math
    # (attention.py).
    attention.register(table)
    return table


def _wrap(module, example_inputs, with_params):
    """A module whose forward takes the tensors of `example_inputs` (its
    non-tensor inputs, numbers or flags, fixed to their values) and, when
    `with_params`, the module's parameters and buffers first, as a dict by
    their names in `module` (torch.func.functional_call)."""
    import torch

    class Wrapped(torch.nn.Module):
        def __init__(self):
            super().__init__()
            # Not a submodule: the parameters keep the inner module's names.
            object.__setattr__(self, "inner", module)
            if not with_params:
                self.held = module

        def call(self, tensors, params=None):
            it = iter(tensors)
            args = [next(it) if isinstance(x, torch.Tensor) else x
                    for x in example_inputs]
            if params is None:
                return self.inner(*args)
            return torch.func.functional_call(self.inner, params, tuple(args))

        def forward(self, *xs):
            if with_params:
                return self.call(xs[1:], xs[0])
            return self.call(xs)

    return Wrapped()


def state_of(module):
    """The module's parameters and buffers, by name, in argument order."""
    state = dict(module.named_parameters())
    for name, buf in module.named_buffers():
        state.setdefault(name, buf)
    return state


def export(module, example_inputs: Sequence, *, func_name: str = "forward",
           weights: str = "args") -> Exported:
    """Exports `module` called on `example_inputs` to linalg on tensors.

    weights="args": parameters and buffers become the function's leading
    arguments (their values are never read: meta tensors are fine, and
    example inputs on the meta device keep large problems off the CPU);
    weights="constants": they are folded into the module as constants.
    """
    import torch

    fx = _import_fx()
    if weights not in ("args", "constants"):
        raise ExportError(f"weights must be 'args' or 'constants', not {weights!r}")
    # Inputs that are not tensors (numbers, flags) become constants of the
    # exported function, which takes the tensors only.
    inputs = [x for x in example_inputs if isinstance(x, torch.Tensor)]
    state = state_of(module)
    params = list(state) if weights == "args" else []
    wrapped = _wrap(module, list(example_inputs), weights == "args")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if weights == "args":
                mlir = fx.export_and_import(
                    wrapped, state, *inputs,
                    output_type="linalg-on-tensors", func_name=func_name,
                    decomposition_table=decompositions())
            else:
                if any(p.is_meta for p in state.values()):
                    raise ExportError("weights='constants' needs the module's "
                                      "values: it is on the meta device")
                mlir = fx.export_and_import(
                    wrapped, *inputs, output_type="linalg-on-tensors",
                    func_name=func_name, decomposition_table=decompositions())
        except ExportError:
            raise
        except Exception as e:  # torch.export and torch-mlir raise many kinds
            raise ExportError(first_line(e)) from e
    text = module_text(mlir)
    return Exported(mlir=text, func_name=func_name, params=params,
                    num_inputs=len(inputs))


def first_line(e: Exception) -> str:
    """One line for an exception of torch.export or torch-mlir: its first
    line and the first MLIR diagnostic."""
    lines = [l.strip() for l in str(e).splitlines() if l.strip()]
    # torch-mlir's errors put the diagnostic after a header line.
    detail = next((l for l in lines if "error:" in l), None)
    head = lines[0] if lines else ""
    text = head if detail is None else f"{head} {detail}"
    return f"{type(e).__name__}: {text}"[:600]

