"""Calls the functions of runtime_forms.mlir through qimeng.runtime on the
CPU and prints what each returned (checked by runtime.test)."""

import sys

import torch

from qimeng.runtime import Module, QimengRuntimeError

m = Module(sys.argv[1], on_cpu=True)

scale = m["scale"]
print("scale args", [a.shape for a in scale.args], "results",
      [r.shape for r in scale.results])
x = torch.randn(5, 7)
(y,) = scale(x)
print("scale", torch.equal(y, 2 * x), tuple(y.shape), y.stride())
xt = torch.randn(7, 5).t()  # not contiguous: passed as a copy
(y,) = scale(xt)
print("scale transposed", torch.equal(y, 2 * xt))
(y,) = scale(torch.randn(0, 3))
print("scale empty", tuple(y.shape))

add = m["add_into"]
print("add_into written", [a.written for a in add.args])
x, out = torch.randn(5, 3), torch.randn(5, 3)
expected = x + out
(r,) = add(x, out)
print("add_into in place", torch.equal(out, expected),
      r.data_ptr() == out.data_ptr())
base = torch.zeros(3, 5)
out_t = base.t()  # a written argument that is not contiguous
add(x, out_t)
print("add_into strided destination", torch.equal(out_t, x))

twice = m["twice"]
a, b, c = twice(torch.arange(6, dtype=torch.int64))
print("twice", a.tolist(), a.data_ptr() == b.data_ptr(), c.dtype, c.tolist())

view_and_sum = m["view_and_sum"]
x = torch.randn(4, 6, dtype=torch.bfloat16)
flat, s = view_and_sum(x)
print("view", flat.data_ptr() == x.data_ptr(), tuple(flat.shape),
      torch.equal(flat, x.reshape(24)))
print("sum", s.dtype, tuple(s.shape),
      abs(float(s) - float(x.float().sum())) < 0.25)

for bad, why in [((torch.randn(5, 3, dtype=torch.float64), out), "dtype"),
                 ((torch.randn(5, 4), out), "shape"),
                 ((x,), "count")]:
    try:
        add(*bad)
    except (TypeError, ValueError) as e:
        print("rejected", why + ":", e)

for path, entry in [("/nonexistent.mlir", None), (sys.argv[1], "missing")]:
    try:
        Module(path, on_cpu=True)[entry] if entry else Module(path, on_cpu=True)
    except QimengRuntimeError as e:
        print("error:", str(e).splitlines()[0])
