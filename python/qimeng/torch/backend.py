"""`torch.compile(model, backend="qimeng")`.

Dynamo captures graphs; AOTAutograd turns each into a functional core-ATen
graph with the parameters as inputs; torch-mlir imports it to linalg on
tensors; `qimeng-opt` compiles it (cached on disk by the graph's text, the
compiler build and the options); the runtime calls the kernels on the
current stream. Dynamic shapes (torch.compile(dynamic=True), or a dimension
Dynamo saw change) compile once for every size: the kernels read the sizes
from the tensors. A graph QiMeng cannot take (an op torch-mlir or QiMeng
does not support, a size used as a number, tensors off cuda:0) runs eagerly
instead, with one line on stderr saying which and why;
`options={"strict": True}` or QIMENG_STRICT=1 raises instead. Backward
graphs run eagerly.

Options (torch.compile(..., options={...})):
  target   GPU architecture (default "sm_90")
  cpu      run graphs on CPU tensors through QiMeng's host lowering (loops;
           for testing the integration without a GPU; default False)
  strict   raise instead of falling back (default: $QIMENG_STRICT)
  cache    cache directory (default: $XDG_CACHE_HOME/qimeng/torch)
  args     extra qimeng-opt arguments (e.g. ["--llm-plan=search=8"])
  tf32     let f32 matmuls run on tensor cores as tf32 (qimeng-opt
           --allow-tf32); default: PyTorch's own setting when the graph is
           compiled, torch.backends.cuda.matmul.allow_tf32 (off unless
           torch.set_float32_matmul_precision("high") or the flag is set)

QIMENG_VERBOSE=1 prints a line per graph: compiled, or taken from the cache.
"""

import contextlib
import hashlib
import os
import sys
from pathlib import Path

from .. import _tools
from ..runtime import QimengRuntimeError
from . import compiled as _compiled
from .exporter import Exported, ExportError, first_line, module_text


class Fallback(RuntimeError):
    """Why a graph runs eagerly."""


def _options(options):
    options = dict(options or {})
    known = {"target", "cpu", "strict", "cache", "args", "tf32"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(f"qimeng backend: unknown option(s) {unknown}; "
                         f"known: {sorted(known)}")
    strict_env = os.environ.get("QIMENG_STRICT", "") not in ("", "0")
    cache = options.get("cache") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
        "qimeng", "torch")
    return {
        "target": options.get("target", "sm_90"),
        "cpu": bool(options.get("cpu", False)),
        "strict": bool(options.get("strict", strict_env)),
        "cache": Path(cache),
        "args": [str(a) for a in options.get("args", [])],
        "tf32": options.get("tf32"),
    }


def _allow_tf32(opts, torch):
    """Whether the graph's f32 matmuls may run as tf32: the option, else
    PyTorch's matmul setting."""
    if opts["tf32"] is not None:
        return bool(opts["tf32"])
    return bool(torch.backends.cuda.matmul.allow_tf32)


def _off_device(t, opts):
    """Why tensor `t` is not where the backend runs (the CPU with the `cpu`
    option, cuda:0 otherwise); None when it is."""
    if opts["cpu"]:
        if t.device.type != "cpu":
            return f"is on {t.device}, the backend was asked to run on the CPU"
    elif t.device.type != "cuda" or (t.device.index or 0) != 0:
        return f"is on {t.device}; QiMeng runs on cuda:0"
    return None


def _is_size(x):
    """Whether a graph input is a size of a dynamic shape (a SymInt, or an
    int Dynamo passes in its place), not a tensor."""
    import torch

    return isinstance(x, (int, torch.SymInt)) and not isinstance(x, bool)


def _check_inputs(gm, example_inputs, opts):
    """Raises Fallback unless the graph's inputs and results are tensors on
    the backend's device (its kernels make every result there: a graph that
    moves a result elsewhere runs eagerly)."""
    import torch

    for i, x in enumerate(example_inputs):
        # A size of a dynamic shape (torch.compile(dynamic=True), or a
        # dimension Dynamo saw change): the kernels read the sizes from the
        # tensors, so the number itself is not passed (_drop_size_arguments).
        if _is_size(x):
            continue
        if not isinstance(x, torch.Tensor):
            raise Fallback(f"input {i} is a {type(x).__name__}")
        if why := _off_device(x, opts):
            raise Fallback(f"input {i} {why}")
    for node in gm.graph.nodes:
        if node.op == "output":
            outs = node.args[0]
            outs = outs if isinstance(outs, (list, tuple)) else [outs]
            for i, o in enumerate(outs):
                val = getattr(o, "meta", {}).get("val")
                if not isinstance(val, torch.Tensor):
                    raise Fallback("the graph returns a non-tensor")
                if why := _off_device(val, opts):
                    raise Fallback(f"result {i} {why}")


@contextlib.contextmanager
def without_devices(gm):
    """Drops the `device` arguments of the graph's calls while inside (and
    puts them back after, so the graph still runs eagerly as a fallback).
    The kernels of a graph all run on one device, so the imported code needs
    none, and torch-mlir refuses to lower a tensor made on a device other
    than the CPU: `torch.full((), 0.0, device=x.device)` on a GPU reaches it
    as `aten.empty.memory_format` on cuda:0 ("failed to legalize")."""
    saved = []
    for node in gm.graph.nodes:
        if node.op == "call_function" and "device" in node.kwargs:
            saved.append((node, node.kwargs))
            node.kwargs = {k: v for k, v in node.kwargs.items()
                           if k != "device"}
    try:
        yield len(saved)
    finally:
        for node, kwargs in saved:
            node.kwargs = kwargs


def _drop_size_arguments(module, example_inputs):
    """Erases the function arguments that stand for sizes of dynamic shapes
    (a graph's SymInt inputs, imported as integers); returns the positions
    of the arguments kept. The kernels read every size from the tensors'
    descriptors; a graph that computes with a size itself (not through
    tensor.dim) falls back."""
    from torch_mlir import ir

    kept = [i for i, x in enumerate(example_inputs) if not _is_size(x)]
    if len(kept) == len(example_inputs):
        return kept
    func = next(op for op in module.body.operations
                if op.operation.name == "func.func" and
                ir.StringAttr(op.attributes["sym_name"]).value == "forward")
    block = func.regions[0].blocks[0]
    if len(block.arguments) != len(example_inputs):
        raise Fallback(f"the imported function takes {len(block.arguments)} "
                       f"arguments for the graph's {len(example_inputs)} inputs")
    for i in reversed(range(len(example_inputs))):
        if i in kept:
            continue
        if any(True for _ in block.arguments[i].uses):
            raise Fallback(f"input {i}, a size of a dynamic shape, is used as "
                           "a number (only tensors are passed to the kernels)")
        block.erase_argument(i)
    with module.context:
        old = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
            [old.inputs[i] for i in kept], old.results))
        if "arg_attrs" in func.attributes:
            attrs = ir.ArrayAttr(func.attributes["arg_attrs"])
            func.attributes["arg_attrs"] = ir.ArrayAttr.get(
                [attrs[i] for i in kept])
    return kept


def _import_graph(gm, example_inputs=None):
    """The graph as linalg text, and the positions of the inputs the
    compiled function takes (all of them when `example_inputs` is not
    given)."""
    try:
        from torch_mlir import fx
    except ImportError as e:
        raise Fallback(f"torch-mlir is not installed: {e}")
    try:
        with without_devices(gm):
            module = fx.stateless_fx_import(
                gm, output_type="linalg-on-tensors", model_name="forward")
    except Exception as e:
        raise Fallback(f"torch-mlir cannot lower the graph: {first_line(e)}")
    kept = (None if example_inputs is None else
            _drop_size_arguments(module, example_inputs))
    try:
        return module_text(module), kept
    except ExportError as e:
        raise Fallback(str(e))


def _cache_key(text, opts):
    h = hashlib.sha256()
    for part in (text, opts["target"], str(opts["cpu"]), " ".join(opts["args"]),
                 _tools.tools_fingerprint()):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


def compile_graph(gm, example_inputs, opts):
    """A callable running `gm` with QiMeng's kernels; raises Fallback."""
    _check_inputs(gm, example_inputs, opts)
    text, kept = _import_graph(gm, example_inputs)
    key = _cache_key(text, opts)
    art = opts["cache"] / key
    try:
        cached = (art / "qimeng.json").is_file()
        if not cached:
            exported = Exported(mlir=text, func_name="forward",
                                num_inputs=len(kept))
            _compiled.compile(exported, art, target=opts["target"],
                              extra_args=opts["args"], on_cpu=opts["cpu"])
        module = _compiled.load(art)
    except (_tools.ToolError, QimengRuntimeError) as e:
        raise Fallback(str(e))
    if os.environ.get("QIMENG_VERBOSE"):
        print(f"qimeng: graph {key[:12]} "
              f"{'from the cache' if cached else 'compiled'}: {art}",
              file=sys.stderr)
    function = module.function

    if len(kept) == len(example_inputs):
        def run(*args):
            return tuple(function(*args))
    else:
        def run(*args):
            return tuple(function(*(args[i] for i in kept)))

    run.qimeng_artifact = art
    return run


def _count_ops(gm):
    return sum(1 for n in gm.graph.nodes if n.op == "call_function")


def _eager(gm, example_inputs=None):
    """Runs `gm` as it is (AOTAutograd's backward graphs, and fallbacks)."""
    from functorch.compile import make_boxed_func

    return make_boxed_func(gm.forward)


def scalars_as_full(gm):
    """Rewrites `torch.tensor(number, ...)` calls of a Dynamo graph as
    `torch.full((), number, ...)`; returns how many. A tensor made from a
    number becomes a constant of AOTAutograd's graph, and on a CUDA device
    that constant is a fake tensor without storage, which torch-mlir's
    importer cannot read ("tolist() shouldn't be called on a tensor with
    unallocated storage"); `full` keeps the number an argument."""
    import torch

    rewritten = 0
    for node in gm.graph.nodes:
        if (node.op != "call_function" or node.target is not torch.tensor
                or len(node.args) != 1 or type(node.args[0]) not in
                (bool, int, float)):
            continue
        value = node.args[0]
        kwargs = {k: v for k, v in node.kwargs.items()
                  if k in ("dtype", "device")}
        if "dtype" not in kwargs:
            kwargs["dtype"] = (torch.bool if type(value) is bool else
                               torch.int64 if type(value) is int else
                               torch.get_default_dtype())
        node.target = torch.full
        node.args = ((), value)
        node.kwargs = kwargs
        rewritten += 1
    if rewritten:
        gm.recompile()
    return rewritten


def qimeng_backend(gm, example_inputs, options=None, mode=None):
    """The torch.compile backend (registered as "qimeng" by the package's
    torch_dynamo_backends entry point)."""
    from functorch.compile import make_boxed_func
    from torch._dynamo.backends.common import aot_autograd

    import torch

    opts = _options(options)
    if _allow_tf32(opts, torch) and "--allow-tf32" not in opts["args"]:
        opts["args"].append("--allow-tf32")
    scalars_as_full(gm)

    def forward_compiler(fgm, fexample):
        try:
            run = compile_graph(fgm, fexample, opts)
        except Fallback as why:
            if opts["strict"]:
                raise
            print(f"qimeng: a graph of {_count_ops(fgm)} ops runs eagerly: "
                  f"{why}", file=sys.stderr)
            return _eager(fgm)
        return make_boxed_func(run)

    try:
        from .exporter import decompositions as table
        decompositions = table()
    except ImportError:  # no torch-mlir: every graph falls back
        decompositions = None
    return aot_autograd(fw_compiler=forward_compiler, bw_compiler=_eager,
                        decompositions=decompositions)(gm, example_inputs)
