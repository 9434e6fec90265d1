"""backend-tf32.test: which graphs the backend compiles with --allow-tf32."""
import torch
from qimeng.torch import backend

matmul = torch.backends.cuda.matmul
for setting in (False, True):
    matmul.allow_tf32 = setting
    for option in (None, False, True):
        given = {} if option is None else {"tf32": option}
        opts = backend._options(given)
        print(f"torch {setting} option {option}: "
              f"{backend._allow_tf32(opts, torch)}")
matmul.allow_tf32 = False
try:
    backend._options({"tf32": True, "tf23": True})
except ValueError as e:
    print("unknown:", e)
