# BatchNorm in eval mode: torch-mlir guards its 1 / sqrt(var + eps) with a
# cf.assert inside the kernel body.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(64)

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.randn(32, 64)]


def get_init_inputs():
    return []
