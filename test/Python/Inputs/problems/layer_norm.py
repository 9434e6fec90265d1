# LayerNorm over the last dimension, with its affine weight and bias.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.ln = nn.LayerNorm(n)

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.randn(6, 130)]


def get_init_inputs():
    return [130]
