"""check-tf32.test: the TF32 settings inside and after a check's scope."""
import contextlib
import io

import torch
from qimeng.torch import __main__ as cli

b = torch.backends
b.cudnn.allow_tf32, b.cuda.matmul.allow_tf32 = True, True


def show(label):
    print(f"{label}: cudnn {b.cudnn.allow_tf32} matmul {b.cuda.matmul.allow_tf32}")


with cli._tf32_allowed(torch, False):
    show("inside")
show("after")
with cli._tf32_allowed(torch, True):
    show("allowed")
with contextlib.suppress(RuntimeError):
    with cli._tf32_allowed(torch, False):
        raise RuntimeError("a failing check")
show("after error")
usage = io.StringIO()
with contextlib.redirect_stdout(usage), contextlib.suppress(SystemExit):
    cli.main(["check", "--help"])
print("cli:", "--tf32" in usage.getvalue())
