# A sort: torch-mlir lowers it to tm_tensor.sort, which is not upstream MLIR,
# so the backend runs it eagerly.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.sort(x, dim=1).values


def get_inputs():
    return [torch.randn(4, 64)]


def get_init_inputs():
    return []
