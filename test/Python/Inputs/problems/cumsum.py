# A cumulative sum: torch-mlir would lower it to tm_tensor.scan (not upstream
# MLIR); the export writes it as a blocked scan of linalg reductions.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.cumsum(x, dim=1)


def get_inputs():
    return [torch.randn(4, 64)]


def get_init_inputs():
    return []
