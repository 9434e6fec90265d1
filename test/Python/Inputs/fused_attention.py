"""The fused attention ops CUDA dispatches scaled_dot_product_attention to,
exported through the decomposition table (as their math) and run through
QiMeng's CPU build, against torch's own math on the CPU: no GPU needed."""

import sys
import tempfile

import torch
import torch.nn.functional as F

import qimeng.torch as qt
from qimeng.torch import compiled
from qimeng.torch.exporter import decompositions

aten = torch.ops.aten
table = decompositions()
for op in ("_scaled_dot_product_efficient_attention",
           "_scaled_dot_product_flash_attention",
           "_scaled_dot_product_cudnn_attention"):
    print(op, "decomposed:", getattr(aten, op).default in table)


class Efficient(torch.nn.Module):
    def forward(self, q, k, v, bias):
        return aten._scaled_dot_product_efficient_attention(
            q, k, v, bias, False)[0]


class Flash(torch.nn.Module):
    def forward(self, q, k, v):
        return aten._scaled_dot_product_flash_attention(
            q, k, v, is_causal=True, scale=0.3)[0]


torch.manual_seed(0)
# Odd sizes: 3 heads, 37 queries, 29 keys, head size 20.
q, k, v = (torch.randn(2, 3, n, 20) for n in (37, 29, 29))
bias = torch.randn(2, 3, 37, 29)
kq = torch.randn(2, 3, 29, 20)
cases = [
    ("efficient", Efficient(), [q, k, v, bias],
     F.scaled_dot_product_attention(q, k, v, attn_mask=bias)),
    ("flash causal", Flash(), [kq, k, v],
     F.scaled_dot_product_attention(kq, k, v, is_causal=True, scale=0.3)),
]
work = tempfile.mkdtemp()
for name, module, inputs, expected in cases:
    meta = [x.to("meta") for x in inputs]
    exported = qt.export(module, meta)
    print(name, "exported:", "linalg" in exported.mlir,
          "fused op left:", "scaled_dot_product" in exported.mlir)
    art = compiled.compile(exported, f"{work}/{name.replace(' ', '_')}",
                           on_cpu=True)
    got = compiled.load(art)(*inputs)
    got = got[0] if isinstance(got, (tuple, list)) else got
    err = (got - expected).abs().max().item()
    print(name, "correct:", err < 1e-4, file=sys.stdout)
