# A mean squared error: a full reduction into a 0-d tensor.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, predictions, targets):
        return torch.mean((predictions - targets) ** 2)


def get_inputs():
    return [torch.randn(31, 77), torch.randn(31, 77)]


def get_init_inputs():
    return []
