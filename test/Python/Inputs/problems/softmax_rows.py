# Softmax over the last dimension (torch-mlir: a max-and-index reduction, a
# sum kept as a 37x1 tensor).
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(37, 1000)]


def get_init_inputs():
    return []
