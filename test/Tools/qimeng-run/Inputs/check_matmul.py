"""Checks C = A @ B for three float32 .npy files (the example fills C with
zeros first). Standard library only: CI has no NumPy."""
import array
import ast
import sys


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    length = data[8] | data[9] << 8
    header = ast.literal_eval(data[10 : 10 + length].decode())
    assert header["descr"] == "<f4" and not header["fortran_order"], header
    values = array.array("f")
    values.frombytes(data[10 + length :])
    return header["shape"], values


(m, k), a = load(sys.argv[1])
(k2, n), b = load(sys.argv[2])
(m2, n2), c = load(sys.argv[3])
assert (k, m, n) == (k2, m2, n2)
worst = 0.0
for i in range(m):
    for j in range(n):
        want = sum(a[i * k + p] * b[p * n + j] for p in range(k))
        worst = max(worst, abs(c[i * n + j] - want))
print("max abs error", worst)
sys.exit(0 if worst < 1e-4 else 1)
