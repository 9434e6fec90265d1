# Conv2d (padding 1) with its bias, then ReLU; an odd image.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, cin, cout, k):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))


def get_inputs():
    return [torch.randn(2, 3, 17, 19)]


def get_init_inputs():
    return [3, 8, 3]
