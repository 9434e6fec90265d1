# A tensor and a Python number as inputs (KernelBench's matrix-scalar
# multiplication): the number becomes a constant of the export.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, s):
        return a * s


def get_inputs():
    return [torch.randn(20, 30), 3.5]


def get_init_inputs():
    return []
