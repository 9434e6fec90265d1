"""Cumulative sums and products as blocked scans of ordinary reductions.

torch-mlir lowers `aten.cumsum` and `aten.cumprod` to `tm_tensor.scan`, which
is not upstream MLIR, so QiMeng could not take a model that has one. A scan
of n elements is written here in ATen ops that torch-mlir lowers to linalg
generics, each of which QiMeng plans like any other kernel:

1. the row, padded with the identity to m blocks of B elements, is viewed as
   (m, B);
2. each block is scanned by a triangular reduction: element c of a block is
   the sum (product) over k of `where(k <= c, x[k], identity)` — B terms,
   fused into one reduction (QiMeng fuses the elementwise producers);
3. the block totals (the last element of each block) are scanned the same
   way, recursively, and shifted by one (an exclusive scan);
4. each block combines with the total of the blocks before it.

Work is about B + 1 operations per element and every step is parallel, so
the scan costs a few passes over memory. Sums of blocks are also more
accurate than a serial sum. Integer and boolean inputs are scanned in int64
(torch's promotion), a `dtype` argument first converts the input.
"""

import torch

#: Elements per block. Wide enough that the recursion over block totals
#: stays shallow (three levels for a row of 32768), narrow enough that the
#: triangular reduction costs little.
BLOCK = 32


def _triangular(x, add: bool):
    """The inclusive scan of each row of `x` (last dimension, at most a
    block) as one reduction: out[..., c] = op over k <= c of x[..., k]."""
    n = x.shape[-1]
    k = torch.arange(n, device=x.device)
    keep = k.unsqueeze(0) <= k.unsqueeze(1)  # [c, k]
    identity = 0 if add else 1
    terms = torch.where(keep, x.unsqueeze(-2), identity)
    return terms.sum(-1) if add else terms.prod(-1)


def _scan_last(x, add: bool):
    """The inclusive scan of `x` along its last dimension."""
    n = x.shape[-1]
    if n <= BLOCK:
        return _triangular(x, add)
    identity = 0 if add else 1
    blocks = -(-n // BLOCK)
    padded = x
    if blocks * BLOCK != n:
        padded = torch.nn.functional.pad(x, (0, blocks * BLOCK - n),
                                         value=identity)
    local = _triangular(padded.reshape(*x.shape[:-1], blocks, BLOCK), add)
    totals = _scan_last(local[..., -1], add)
    # What the blocks before each block contribute: an exclusive scan.
    before = torch.nn.functional.pad(totals[..., :-1], (1, 0), value=identity)
    if blocks * BLOCK == n:
        before = before.unsqueeze(-1)
        out = local + before if add else local * before
        return out.reshape(x.shape)
    # A fresh result of n elements (not a slice of a padded one, which a
    # returned value would have to copy): element j combines its place in
    # the blocks with what the blocks before block j // BLOCK contribute.
    flat = local.reshape(*x.shape[:-1], blocks * BLOCK)[..., :n]
    owner = torch.arange(n, device=x.device) // BLOCK
    before = before.index_select(-1, owner)
    return flat + before if add else flat * before


def _scan(x, dim, dtype, add: bool):
    if dtype is not None:
        x = x.to(dtype)
    elif not x.dtype.is_floating_point and not x.dtype.is_complex:
        x = x.to(torch.int64)
    if x.dim() == 0:
        return x.clone()
    dim = dim % x.dim()
    if x.shape[dim] == 0:
        return x.clone()
    moved = x.movedim(dim, -1)
    return _scan_last(moved, add).movedim(-1, dim).contiguous()


def cumsum(x, dim, dtype=None):
    """`aten.cumsum` as a blocked scan."""
    return _scan(x, dim, dtype, add=True)


def cumprod(x, dim, dtype=None):
    """`aten.cumprod` as a blocked scan."""
    return _scan(x, dim, dtype, add=False)


def register(table):
    """Adds the scans to an ATen decomposition table."""
    table[torch.ops.aten.cumsum.default] = cumsum
    table[torch.ops.aten.cumprod.default] = cumprod
