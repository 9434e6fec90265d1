"""The backend's rewrite of torch.tensor(number) into torch.full: same
values and types, and a number made on the input's device (what AOTAutograd
lifts into a storage-less constant on a GPU) no longer a tensor call."""

import torch
import torch.fx

from qimeng.torch.backend import scalars_as_full


class Model(torch.nn.Module):
    def forward(self, x, n):
        low = torch.tensor(0.25, device=x.device)
        count = torch.tensor(3, device=x.device)
        flag = torch.tensor(True, device=x.device)
        half = torch.tensor(0.5, dtype=torch.float64, device=x.device)
        return torch.min(x, low), n + count, flag & (x > 0), x.double() * half


gm = torch.fx.symbolic_trace(Model())
x, n = torch.randn(3, 4), torch.arange(4)
before = gm(x, n)
print("rewritten:", scalars_as_full(gm))
after = gm(x, n)
for i, (b, a) in enumerate(zip(before, after)):
    print(f"result {i}: {a.dtype} same as before: {b.dtype == a.dtype and torch.equal(b, a)}")
print("torch.tensor calls left:",
      sum(n.target is torch.tensor for n in gm.graph.nodes))
