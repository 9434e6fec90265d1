"""KernelBench-style problem files: a `Model` class, `get_inputs()` and
`get_init_inputs()` at module level (https://github.com/ScalingIntelligence/KernelBench).
"""

import runpy
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, List


class ProblemError(RuntimeError):
    """The file is not a usable problem; the message says why."""


@dataclass
class Problem:
    path: Path
    name: str
    model_class: Any
    get_inputs: Callable[[], List[Any]]
    get_init_inputs: Callable[[], List[Any]]

    def build(self, device="meta"):
        """The model and inputs, created on `device`: on "meta" nothing is
        allocated (shapes only), so large problems cost no memory."""
        import torch

        with torch.device(device):
            init = self.get_init_inputs()
            model = self.model_class(*init)
        return model.eval(), self.draw_inputs(device)

    def draw_inputs(self, device):
        """Fresh inputs from get_inputs() on `device`. Non-tensor inputs (a
        scalar factor) are passed as they are; the export makes them
        constants."""
        import torch

        with torch.device(device):
            inputs = self.get_inputs()
        return [x.to(device) if isinstance(x, torch.Tensor) else x
                for x in inputs]


# Largest problem (inputs and parameters) export builds on the CPU when the
# meta device will not do.
_CPU_EXPORT_BYTES = 4 << 30


def export_problem(problem: Problem, weights: str = "args", func_name="forward"):
    """Exports a problem's model on its inputs: built on the meta device
    (nothing allocated), or, when its forward needs values (a constant tensor
    made on the input's device: `torch.tensor(0.0, device=x.device)`), on the
    CPU if inputs and parameters take at most 4 GiB."""
    from .exporter import ExportError, export, state_of

    device = "meta" if weights == "args" else "cpu"
    model, inputs = problem.build(device)
    try:
        return export(model, inputs, func_name=func_name, weights=weights)
    except ExportError as e:
        if device != "meta" or "meta tensor" not in str(e):
            raise
        size = sum(t.numel() * t.element_size()
                   for t in list(inputs) + list(state_of(model).values()))
        if size > _CPU_EXPORT_BYTES:
            raise ExportError(f"{e} (the forward reads tensor values, and "
                              f"the problem's {size >> 30} GiB are too many "
                              "to build on the CPU)") from e
    model, inputs = problem.build("cpu")
    return export(model, inputs, func_name=func_name, weights=weights)


def load_problem(path) -> Problem:
    path = Path(path)
    try:
        scope = runpy.run_path(str(path))
    except Exception as e:
        raise ProblemError(f"{path}: cannot run the file: "
                           f"{type(e).__name__}: {e}") from e
    missing = [n for n in ("Model", "get_inputs", "get_init_inputs")
               if n not in scope]
    if missing:
        raise ProblemError(f"{path}: not a KernelBench-style problem file "
                           f"(no {', '.join(missing)})")
    return Problem(path, path.stem, scope["Model"], scope["get_inputs"],
                   scope["get_init_inputs"])
