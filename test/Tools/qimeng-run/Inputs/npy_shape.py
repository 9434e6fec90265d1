"""Prints the shape of a .npy file (standard library only)."""
import ast
import sys

with open(sys.argv[1], "rb") as f:
    assert f.read(6) == b"\x93NUMPY"
    major = f.read(2)[0]
    size = int.from_bytes(f.read(2 if major == 1 else 4), "little")
    header = ast.literal_eval(f.read(size).decode("latin1"))
print(tuple(header["shape"]))
