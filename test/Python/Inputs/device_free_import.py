"""The backend imports a graph that makes tensors on a GPU (as AOTAutograd
gives it for `torch.min(x, torch.tensor(0.0, device=x.device))` on cuda:0)
without the device, which torch-mlir cannot lower, and gives the graph its
devices back after; a graph that moves a result off the GPU runs eagerly.
Runs without a GPU: the tensors are fake."""

import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx

from qimeng.torch.backend import (Fallback, _check_inputs, _import_graph,
                                  without_devices)
from qimeng.torch.exporter import decompositions


def clamp_low(x):
    low = torch.full((), 0.0, dtype=torch.float32, device=x.device)
    ones = torch.ones(x.shape[1], device=x.device)
    return torch.minimum(x, low) + ones


def to_host(x):
    return x * 2, (x + 1).cpu()


with FakeTensorMode(allow_non_fake_inputs=True):
    x = torch.empty(4, 6, device="cuda")
    gm = make_fx(clamp_low, decomposition_table=decompositions())(x)
    moved = make_fx(to_host)(x)
    _check_inputs(gm, [x], {"cpu": False})
    try:
        _check_inputs(moved, [x], {"cpu": False})
        print("moved result: compiled")
    except Fallback as why:
        print("moved result:", why)


def devices():
    return sorted(str(n.kwargs["device"]) for n in gm.graph.nodes
                  if "device" in n.kwargs)


print("devices before:", devices())
with without_devices(gm) as dropped:
    print("dropped:", dropped, "left inside:", devices())
print("devices after:", devices())
text, _ = _import_graph(gm)
print("imported:", "func.func @forward" in text)
print(text)
