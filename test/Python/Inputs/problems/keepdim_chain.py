# Reductions that keep their dimension, chained (KernelBench level 2's
# Matmul_Sum_Max_AvgPool_LogSumExp): values reach the next op through
# reshapes, which a row kernel cannot fuse along.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(40, 30)

    def forward(self, x):
        x = self.linear(x)
        x = torch.sum(x, dim=1, keepdim=True)
        x = torch.max(x, dim=1, keepdim=True)[0]
        x = torch.mean(x, dim=1, keepdim=True)
        return torch.logsumexp(x, dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(12, 40)]


def get_init_inputs():
    return []
