# torch.cat and a strided slice assignment into zeros: tensor.concat and a
# strided tensor.insert_slice into a splat constant.
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x, y):
        z = torch.cat([x, y * 2], dim=1)
        w = torch.zeros(3, 9, 4)
        w[:, 1::2, :] = z[:, :4, :]
        return z, w + 1

def get_inputs():
    return [torch.randn(3, 5, 4), torch.randn(3, 2, 4)]

def get_init_inputs():
    return []
