# Transposed convolutions (1-D dilated with output padding, 2-D grouped
# and strided, 3-D): torch-mlir spreads the input into a zero tensor with a
# strided tensor.insert_slice.
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.ConvTranspose1d(6, 4, 3, stride=2, padding=1, dilation=2, output_padding=1)
        self.b = nn.ConvTranspose2d(4, 6, (3, 2), stride=(2, 3), padding=(1, 0), groups=2)
        self.c = nn.ConvTranspose3d(3, 2, 3, stride=2, padding=1)

    def forward(self, x, y, z):
        return self.a(x), torch.relu(self.b(y)), self.c(z)

def get_inputs():
    return [torch.randn(2, 6, 7), torch.randn(2, 4, 5, 7), torch.randn(1, 3, 4, 5, 3)]

def get_init_inputs():
    return []
