# GELU (tanh form) in float16.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.nn.functional.gelu(x, approximate="tanh")


def get_inputs():
    return [torch.randn(8, 100, dtype=torch.float16)]


def get_init_inputs():
    return []
