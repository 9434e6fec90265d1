# An input of 4e10 elements (160 GB in f32): exported on the meta device,
# never allocated.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.rand(200000, 200000)]


def get_init_inputs():
    return []
