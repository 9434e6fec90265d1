# logsumexp over the rows of a Linear's output (torch decomposes it through
# prims.squeeze, which torch-mlir cannot lower: exported as a view instead).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(40, 24)

    def forward(self, x):
        return torch.logsumexp(self.fc(x), dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(10, 40)]


def get_init_inputs():
    return []
