"""QiMeng from Python.

`qimeng.runtime` loads modules compiled by `qimeng-opt --lower-to-nvvm` and
calls them on torch tensors; `qimeng.torch` exports PyTorch modules to linalg,
compiles them and provides the `torch.compile(model, backend="qimeng")`
backend. The compiler itself is the `qimeng-opt` tool, run as a subprocess.
"""

__version__ = "0.1.0"
