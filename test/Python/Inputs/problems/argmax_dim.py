# argmax over a dimension: an int64 result.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.argmax(x, dim=1)


def get_inputs():
    return [torch.randn(9, 50, 7)]


def get_init_inputs():
    return []
