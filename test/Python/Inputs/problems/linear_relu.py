# A Linear layer, ReLU and a scale (KernelBench level-2 style), odd sizes.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features, scale):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x):
        return torch.relu(self.fc(x)) * self.scale


def get_inputs():
    return [torch.randn(33, 70)]


def get_init_inputs():
    return [70, 45, 2.0]
