# A constant tensor made in forward on the input's device: the export cannot
# use the meta device (the constant needs its value) and builds on the CPU.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.min(x + 0.5, torch.tensor(0.0, device=x.device))


def get_inputs():
    return [torch.randn(16, 24)]


def get_init_inputs():
    return []
