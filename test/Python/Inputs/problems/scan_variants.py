# Scans the way KernelBench writes them, at a prime length (partial blocks,
# three levels of block totals): a product along dim 0, a reversed sum
# (flip), an exclusive sum (a zero column concatenated in front), a masked
# sum, and a sum of booleans (int64 result).
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, mask):
        product = torch.cumprod(1.0 + 0.01 * x, dim=0)
        reverse = torch.cumsum(x.flip(1), dim=1).flip(1)
        shifted = torch.cat((torch.zeros_like(x[:, :1]), x[:, :-1]), dim=1)
        exclusive = torch.cumsum(shifted, dim=1)
        masked = torch.cumsum(x * mask, dim=1)
        counts = torch.cumsum(mask, dim=1)
        return product, reverse, exclusive, masked, counts


def get_inputs():
    return [torch.randn(6, 1031), torch.rand(6, 1031) > 0.5]


def get_init_inputs():
    return []
