"""QiMeng for PyTorch.

    import qimeng.torch as qt
    exported = qt.export(model, (x,))              # linalg on tensors (text)
    art = qt.compile(exported, "model.qimeng")     # qimeng-opt, for sm_90
    fast = qt.load(art, params=model)              # a callable on CUDA tensors
    y = fast(x)

    torch.compile(model, backend="qimeng")         # the whole flow per graph

`python -m qimeng.torch export|compile|check FILE.py` does the same for a
KernelBench-style problem file.
"""

from .compiled import CompiledModule, compile, load
from .exporter import Exported, ExportError, export
from .problem import Problem, ProblemError, export_problem, load_problem

__all__ = [
    "CompiledModule", "Exported", "ExportError", "Problem", "ProblemError",
    "compile", "export", "export_problem", "load", "load_problem",
    "qimeng_backend",
]


def qimeng_backend(gm, example_inputs, options=None, mode=None):
    from .backend import qimeng_backend as backend

    return backend(gm, example_inputs, options=options, mode=mode)


def _register():
    """Makes backend="qimeng" work without the package's installed entry
    point (the package on PYTHONPATH only, as on a GPU machine without
    pip)."""
    try:
        from torch._dynamo import list_backends, register_backend
    except ImportError:  # no torch: export/compile/load still import
        return
    if "qimeng" not in list_backends(exclude_tags=()):
        register_backend(name="qimeng")(qimeng_backend)


_register()
