"""qimeng.torch's export -> compile -> load on the CPU (argv[1]: the
artifact directory): parameters bound from the model, or passed first."""

import sys

import torch

import qimeng.torch as qt

problem = qt.load_problem(sys.argv[2])
torch.manual_seed(0)
model, inputs = problem.build("cpu")
exported = qt.export_problem(problem)
print("params", exported.params)
art = qt.compile(exported, sys.argv[1], on_cpu=True)
expected = model(*inputs)
bound = qt.load(art, params=model)
print("bound", torch.allclose(bound(*inputs), expected, atol=1e-5))
unbound = qt.load(art)
params = [p.detach() for p in qt.exporter.state_of(model).values()]
print("passed", torch.allclose(unbound(*params, *inputs), expected, atol=1e-5))
try:
    unbound(*inputs)
except TypeError as e:
    print("TypeError:", e)
