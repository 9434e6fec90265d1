"""torch.compile(backend="qimeng") by name (the package's entry point):
fallback lines, strict mode, options, and the disk cache."""

import os
import sys

import torch

cache = sys.argv[1]


class Sort(torch.nn.Module):
    def forward(self, x):
        return torch.sort(x, dim=1).values * 2.0


class Affine(torch.nn.Module):
    def forward(self, x):
        return x * 3.0 + 1.0


x = torch.randn(4, 64)

# Not supported: runs eagerly, with one line on stderr, and the right result.
fast = torch.compile(Sort(), backend="qimeng", options={"cpu": True, "cache": cache})
print("sort fallback correct:", torch.allclose(fast(x), torch.sort(x, 1).values * 2.0))
sys.stderr.flush()

# CPU tensors without the cpu option: eager, and why.
torch._dynamo.reset()
fast = torch.compile(Affine(), backend="qimeng", options={"cache": cache})
print("cpu tensors correct:", torch.equal(fast(x), x * 3.0 + 1.0))
sys.stderr.flush()

# strict: the fallback is an error.
torch._dynamo.reset()
fast = torch.compile(Sort(), backend="qimeng",
                     options={"cpu": True, "strict": True, "cache": cache})
try:
    fast(x)
    print("strict: no error")
except Exception as e:
    print("strict raised:", "tm_tensor" in str(e))

# Unknown options are refused.
torch._dynamo.reset()
fast = torch.compile(Affine(), backend="qimeng", options={"cpus": True})
try:
    fast(x)
except Exception as e:
    print("unknown option raised:", "unknown option(s) ['cpus']" in str(e))

# Compiled once, then taken from the cache by a fresh capture.
for run in range(2):
    torch._dynamo.reset()
    fast = torch.compile(Affine(), backend="qimeng",
                         options={"cpu": True, "cache": cache})
    ok = torch.allclose(fast(x), x * 3.0 + 1.0)
    print(f"run {run}: correct {ok}, cached artifacts {len(os.listdir(cache))}")

# Training: the forward graph (which also returns what the backward needs)
# runs QiMeng's code, the backward graph runs eagerly.
torch._dynamo.reset()
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.ReLU())
fast = torch.compile(net, backend="qimeng", options={"cpu": True, "cache": cache})
y = fast(torch.ones(4, 16))
y.sum().backward()
grad = net[0].weight.grad.clone()
net.zero_grad()
net(torch.ones(4, 16)).sum().backward()
print("training: forward", torch.allclose(y, net(torch.ones(4, 16)), atol=1e-5),
      "backward", torch.allclose(grad, net[0].weight.grad, atol=1e-5))
