# A plain matmul of odd sizes.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(37, 53), torch.randn(53, 29)]


def get_init_inputs():
    return []
