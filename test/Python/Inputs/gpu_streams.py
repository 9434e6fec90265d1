"""A compiled module called from PyTorch on the GPU: on the default stream,
on a side stream (the kernels follow the stream's earlier work and the
caller's later work follows them, with no synchronization in between), and
results that outlive many calls (their memory is the pool's, freed when the
tensors die)."""

import sys

import torch

import qimeng.torch as qt

problem = qt.load_problem(sys.argv[2])
torch.manual_seed(0)
model, inputs = problem.build("cuda")
art = qt.compile(qt.export_problem(problem), sys.argv[1])
fast = qt.load(art, params=model)
with torch.no_grad():
    expected = model(*inputs)
print("default stream", torch.allclose(fast(*inputs), expected, atol=1e-4))

side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.no_grad(), torch.cuda.stream(side):
    x = inputs[0] * 1.0  # queued on the side stream before the call
    y = fast(x) * 1.0    # queued after it
side.synchronize()
print("side stream", torch.allclose(y, expected, atol=1e-4))

kept = [fast(*inputs) for _ in range(200)]
torch.cuda.synchronize()
print("kept results", all(torch.allclose(k, expected, atol=1e-4) for k in kept))
del kept
torch.cuda.synchronize()
print("freed", True)
