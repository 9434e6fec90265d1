"""torch.compile(backend="qimeng") with dynamic shapes on the CPU path:
a graph whose sizes are symbolic compiles once and runs correctly at every
size (dynamic=True, and Dynamo's own switch to a dynamic dimension after a
second size); a graph that computes with a size itself falls back."""

import os
import sys
import tempfile

import torch

cache = tempfile.mkdtemp(prefix="qimeng-dyn-")
options = {"cpu": True, "cache": cache}


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(64, 48)
        self.ln = torch.nn.LayerNorm(48)

    def forward(self, x):
        return torch.softmax(self.ln(torch.relu(self.fc(x))), dim=-1)


class Scale(torch.nn.Module):
    def forward(self, x):
        # The number of rows as a value: not a tensor the kernels can read.
        return x * x.shape[0]


def compiled_graphs():
    return len([d for d in os.listdir(cache) if not d.startswith(".")])


torch.manual_seed(0)
with torch.no_grad():
    model = Mlp()
    for dynamic in (True, None):
        torch._dynamo.reset()
        before = compiled_graphs()
        f = torch.compile(model, backend="qimeng", dynamic=dynamic,
                          options=options)
        for rows in (5, 17, 100, 3):
            x = torch.randn(rows, 64)
            ok = torch.allclose(f(x), model(x), atol=1e-5, rtol=1e-4)
            print(f"dynamic={dynamic} rows={rows}: {'correct' if ok else 'WRONG'}")
        print(f"dynamic={dynamic}: graphs compiled: {compiled_graphs() - before}")
    torch._dynamo.reset()
    g = torch.compile(Scale(), backend="qimeng", dynamic=True, options=options)
    for rows in (4, 9):
        x = torch.randn(rows, 8)
        ok = torch.equal(g(x), x * rows)
        print(f"size as a number rows={rows}: {'correct' if ok else 'WRONG'}")
sys.stdout.flush()
