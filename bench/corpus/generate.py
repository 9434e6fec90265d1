#!/usr/bin/env python3
"""QiMeng's held-out corpus: a seeded generator of linalg kernels written the
way frontends (torch-mlir, IREE, StableHLO) write them.

Every kernel comes in two forms with the same computation:
  returned  results built inside the function (tensor.empty, linalg.fill)
            and returned, the form torch-mlir emits;
  outarg    every result's destination passed in as a trailing argument
            (destination-passing style), the result returned too.
A kernel with dynamic sizes also gets its static twin (the same sizes written
static, returned form), so the cost of a dynamic size can be measured.

Families: unary and binary elementwise (broadcasts, casts), reductions (any
dim, keepdim), argmax, softmax and log-softmax, layer and RMS norms, matmuls
(plain, transposed weight as nn.Linear, batched, matrix-vector, linear with
bias and activation), 2-D convolutions (padding, stride, depthwise, bias) and
pooling (max, average). Element types f32, f16, bf16, f64, i1, i8, i16, i32,
i64 where the family allows. Sizes are drawn from realistic ranges with
primes, ones and powers of two; dynamic sizes are drawn too. Nothing here
knows the benchmark's shapes.

Usage:
  generate.py --out DIR [--seed S] [--per-family N] [--families a,b,...]
writes DIR/<kernel>.<form>.mlir and DIR/manifest.json, which run.py reads:
per kernel its family, element type, inputs (shapes, dtypes, which sizes are
dynamic), outputs, the PyTorch expression it must match (over x0, x1, ...),
its reduction length (for tolerances), FLOPs and bytes.

Standard library only.
"""
import argparse
import json
import math
import os
import random

# --- Element types --------------------------------------------------------------

FLOATS = ("f32", "f16", "bf16", "f64")
INTS = ("i8", "i16", "i32", "i64")
TORCH_DTYPE = {"f32": "float32", "f16": "float16", "bf16": "bfloat16",
               "f64": "float64", "i1": "bool", "i8": "int8", "i16": "int16",
               "i32": "int32", "i64": "int64"}
BYTES = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i1": 1, "i8": 1, "i16": 2,
         "i32": 4, "i64": 8}
# -inf and +inf as hexadecimal literals (MLIR has no inf keyword).
NEG_INF = {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80",
           "f64": "0xFFF0000000000000"}
POS_INF = {"f32": "0x7F800000", "f16": "0x7C00", "bf16": "0x7F80",
           "f64": "0x7FF0000000000000"}
INT_MIN = {"i8": -128, "i16": -32768, "i32": -2147483648,
           "i64": -9223372036854775808}
INT_MAX = {"i8": 127, "i16": 32767, "i32": 2147483647,
           "i64": 9223372036854775807}

# Sizes frontends see: ones, primes, odd numbers, powers of two and their
# neighbours, model widths.
SMALL = [1, 2, 3, 5, 7, 8, 13, 16, 17, 31, 32, 33, 61, 64]
MEDIUM = [96, 100, 127, 128, 129, 197, 255, 256, 257, 384, 500, 509, 512,
          640, 768, 777, 1000, 1023, 1024, 1031]
LARGE = [1500, 2047, 2048, 2053, 3000, 3072, 4096, 4099, 5120, 8192]


def is_float(t):
    return t in FLOATS


# --- Kernel description -----------------------------------------------------------

class Kernel:
    """One kernel: named sizes (value, dynamic), inputs and outputs as lists
    of size names (or ints), and an emitter for its body."""

    def __init__(self, name, family, op, dtype):
        self.name, self.family, self.op, self.dtype = name, family, op, dtype
        self.sizes = {}          # name -> [value, dynamic]
        self.inputs = []         # (dims, dtype)
        self.outputs = []        # (dims, dtype)
        self.reference = ""
        self.eager = ""          # the timed PyTorch expression, if not reference
        self.reduction = 1       # elements folded into one output element
        self.accumulate = None   # the type reductions accumulate in, if not
                                 # the output's
        self.flops = 0
        self.body = None         # fn(Emitter) -> list of result SSA names
        self.input_kind = "randn"

    def size(self, name, value, dynamic=False):
        self.sizes[name] = [value, dynamic]
        return name

    def value(self, dim):
        return dim if isinstance(dim, int) else self.sizes[dim][0]

    def shape(self, dims):
        return [self.value(d) for d in dims]

    def is_dynamic(self):
        return any(dyn for _, dyn in self.sizes.values())

    def numel(self, dims):
        return math.prod(self.shape(dims))

    def bytes(self):
        return (sum(self.numel(d) * BYTES[t] for d, t in self.inputs) +
                sum(self.numel(d) * BYTES[t] for d, t in self.outputs))


class Emitter:
    """Writes one form of a kernel: SSA names, types, constants, inits."""

    def __init__(self, kernel, form, static=False):
        self.k, self.form, self.static = kernel, form, static
        self.lines = []
        self.counter = 0
        self.consts = {}
        self.dims = {}
        self.prologue = []

    def fresh(self, prefix="v"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def dyn(self, dim):
        return (not self.static and not isinstance(dim, int) and
                self.k.sizes[dim][1])

    def ttype(self, dims, dtype):
        parts = ["?" if self.dyn(d) else str(self.k.value(d)) for d in dims]
        return "tensor<%s>" % "x".join(parts + [dtype])

    def const(self, value, dtype):
        key = (str(value), dtype)
        if key not in self.consts:
            name = self.fresh("cst")
            if dtype == "index":
                text = "%d : index" % value
            elif dtype == "i1":
                text = ("true" if value else "false")
            elif is_float(dtype):
                if isinstance(value, str):
                    text = value          # a hexadecimal bit pattern
                else:
                    text = repr(float(value))
                    if "e" in text or "." not in text:
                        text = "%.9e" % float(value)
                text = "%s : %s" % (text, dtype)
            else:
                text = "%d : %s" % (value, dtype)
            self.prologue.append("  %s = arith.constant %s" % (name, text))
            self.consts[key] = name
        return self.consts[key]

    def dim_value(self, dim):
        """SSA index value of a dynamic size, read from an input."""
        if dim not in self.dims:
            for i, (dims, dtype) in enumerate(self.k.inputs):
                if dim in dims:
                    pos = dims.index(dim)
                    name = self.fresh("dim")
                    self.prologue.append(
                        "  %s = tensor.dim %%x%d, %s : %s" % (
                            name, i, self.const(pos, "index"),
                            self.ttype(dims, dtype)))
                    self.dims[dim] = name
                    break
            else:
                raise ValueError("size %s is on no input" % dim)
        return self.dims[dim]

    def empty(self, dims, dtype):
        name = self.fresh("empty")
        dyn = [self.dim_value(d) for d in dims if self.dyn(d)]
        self.lines.append("  %s = tensor.empty(%s) : %s" % (
            name, ", ".join(dyn), self.ttype(dims, dtype)))
        return name

    def init(self, i):
        """The destination of output i: a fresh tensor or the argument."""
        dims, dtype = self.k.outputs[i]
        if self.form == "outarg":
            return "%%out%d" % i
        return self.empty(dims, dtype)

    def emit(self, line):
        self.lines.append("  " + line)

    def fill(self, value, dest, dims, dtype):
        name = self.fresh("fill")
        self.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s" % (
            name, self.const(value, dtype), dtype, dest,
            self.ttype(dims, dtype), self.ttype(dims, dtype)))
        return name

    def generic(self, ins, outs, maps, iterators, payload):
        """ins/outs: lists of (ssa, dims, dtype); maps: one affine map text
        per operand; payload(args) -> (lines, yielded) with args the block
        argument names. Returns the result names."""
        if len(outs) == 1:
            results = [self.fresh("r")]
            defined = results[0]
        else:
            name = self.fresh("r")
            results = ["%s#%d" % (name, j) for j in range(len(outs))]
            defined = "%s:%d" % (name, len(outs))
        ins_text = ", ".join(s for s, _, _ in ins)
        ins_types = ", ".join(self.ttype(d, t) for _, d, t in ins)
        outs_text = ", ".join(s for s, _, _ in outs)
        outs_types = ", ".join(self.ttype(d, t) for _, d, t in outs)
        args = ["%%a%d" % i for i in range(len(ins) + len(outs))]
        block = ", ".join("%s: %s" % (a, t) for a, (_, _, t) in
                          zip(args, list(ins) + list(outs)))
        body, yielded = payload(args)
        text = ["%s = linalg.generic {indexing_maps = [%s], iterator_types "
                "= [%s]}" % (defined, ", ".join(maps),
                             ", ".join('"%s"' % i for i in iterators))]
        if ins:
            text.append("    ins(%s : %s)" % (ins_text, ins_types))
        text.append("    outs(%s : %s) {" % (outs_text, outs_types))
        text.append("  ^bb0(%s):" % block)
        text += ["    " + line for line in body]
        text.append("    linalg.yield %s : %s" % (
            ", ".join(yielded), ", ".join(t for _, _, t in outs)))
        text.append("  } -> %s" % (outs_types if len(outs) == 1
                                    else "(%s)" % outs_types))
        for line in text:
            self.emit(line)
        return results

    def render(self):
        k = self.k
        params = ["%%x%d: %s" % (i, self.ttype(d, t))
                  for i, (d, t) in enumerate(k.inputs)]
        if self.form == "outarg":
            params += ["%%out%d: %s" % (i, self.ttype(d, t))
                       for i, (d, t) in enumerate(k.outputs)]
        results = k.body(self)
        result_types = [self.ttype(d, t) for d, t in k.outputs]
        header = "func.func @kernel(%s) -> (%s) {" % (
            ", ".join(params), ", ".join(result_types))
        ret = "  return %s : %s" % (", ".join(results), ", ".join(result_types))
        comment = "// %s (%s, %s form%s): generated by bench/corpus/generate.py" % (
            k.name, k.family, self.form, ", static twin" if self.static else "")
        return "\n".join([comment, header] + self.prologue + self.lines +
                         [ret, "}", ""])


def amap(n, results):
    dims = ", ".join("d%d" % i for i in range(n))
    return "affine_map<(%s) -> (%s)>" % (dims, ", ".join(results))


def ident(n):
    return amap(n, ["d%d" % i for i in range(n)])


# --- Scalar payloads --------------------------------------------------------------

def unary_payload(op, t, e):
    """Lines computing op(%a0) in type t; returns (lines, result)."""
    def run(args):
        x = args[0]
        L = []
        def v(text):
            name = e.fresh("s")
            L.append("%s = %s" % (name, text))
            return name
        if op == "relu":
            r = (v("arith.maximumf %s, %s : %s" % (x, e.const(0.0, t), t))
                 if is_float(t) else
                 v("arith.maxsi %s, %s : %s" % (x, e.const(0, t), t)))
        elif op == "neg":
            r = (v("arith.negf %s : %s" % (x, t)) if is_float(t) else
                 v("arith.subi %s, %s : %s" % (e.const(0, t), x, t)))
        elif op == "abs":
            r = v("math.%s %s : %s" % ("absf" if is_float(t) else "absi", x, t))
        elif op == "exp":
            r = v("math.exp %s : %s" % (x, t))
        elif op == "tanh":
            r = v("math.tanh %s : %s" % (x, t))
        elif op in ("sigmoid", "silu"):
            n = v("arith.negf %s : %s" % (x, t))
            ex = v("math.exp %s : %s" % (n, t))
            d = v("arith.addf %s, %s : %s" % (ex, e.const(1.0, t), t))
            r = v("arith.divf %s, %s : %s" % (e.const(1.0, t), d, t))
            if op == "silu":
                r = v("arith.mulf %s, %s : %s" % (x, r, t))
        elif op == "gelu":
            h = v("arith.mulf %s, %s : %s" % (x, e.const(0.5, t), t))
            s = v("arith.mulf %s, %s : %s" % (
                x, e.const(0.7071067811865476, t), t))
            er = v("math.erf %s : %s" % (s, t))
            p = v("arith.addf %s, %s : %s" % (er, e.const(1.0, t), t))
            r = v("arith.mulf %s, %s : %s" % (h, p, t))
        else:
            raise ValueError(op)
        return L, [r]
    return run


UNARY_TORCH = {"relu": "torch.relu(x0)", "neg": "torch.neg(x0)",
               "abs": "torch.abs(x0)", "exp": "torch.exp(x0)",
               "tanh": "torch.tanh(x0)", "sigmoid": "torch.sigmoid(x0)",
               "silu": "torch.nn.functional.silu(x0)",
               "gelu": "torch.nn.functional.gelu(x0)"}

BINARY_OPS = {
    "add": ("arith.addf", "arith.addi", "x0 + x1"),
    "sub": ("arith.subf", "arith.subi", "x0 - x1"),
    "mul": ("arith.mulf", "arith.muli", "x0 * x1"),
    "max": ("arith.maximumf", "arith.maxsi", "torch.maximum(x0, x1)"),
    "min": ("arith.minimumf", "arith.minsi", "torch.minimum(x0, x1)"),
    "div": ("arith.divf", None, "x0 / x1"),
}
BOOL_OPS = {"and": ("arith.andi", "x0 & x1"), "or": ("arith.ori", "x0 | x1"),
            "xor": ("arith.xori", "x0 ^ x1")}


# --- Shapes --------------------------------------------------------------------

def pick(rng, small=1, medium=2, large=1):
    pool = SMALL * small + MEDIUM * medium + LARGE * large
    return rng.choice(pool)


def shape_under(rng, rank, limit, large=1):
    """`rank` sizes whose product stays under `limit` elements."""
    while True:
        dims = [pick(rng, large=large) for _ in range(rank)]
        if math.prod(dims) <= limit:
            return dims


def name_sizes(k, values, dynamic_first, prefix="n"):
    names = []
    for i, v in enumerate(values):
        names.append(k.size("%s%d" % (prefix, i), v,
                            dynamic=(i == 0 and dynamic_first)))
    return names


# --- Families --------------------------------------------------------------------

def fam_unary(rng, i):
    op = rng.choice(list(UNARY_TORCH))
    if op in ("relu", "neg", "abs") and rng.random() < 0.35:
        dtype = rng.choice(INTS)
    else:
        dtype = rng.choices(FLOATS, weights=[5, 2, 2, 1])[0]
    k = Kernel("unary-%s-%s-%03d" % (op, dtype, i), "unary", op, dtype)
    rank = rng.choice([1, 2, 2, 3, 4])
    dims = name_sizes(k, shape_under(rng, rank, 1 << 24), rng.random() < 0.4)
    k.inputs = [(dims, dtype)]
    k.outputs = [(dims, dtype)]
    k.reference = UNARY_TORCH[op]
    k.flops = k.numel(dims)

    def body(e):
        n = len(dims)
        init = e.init(0)
        return e.generic([("%x0", dims, dtype)], [(init, dims, dtype)],
                         [ident(n), ident(n)], ["parallel"] * n,
                         unary_payload(op, dtype, e))
    k.body = body
    return k


def fam_binary(rng, i):
    if rng.random() < 0.1:
        op = rng.choice(list(BOOL_OPS))
        dtype = "i1"
    else:
        op = rng.choice(list(BINARY_OPS))
        ints = [t for t in INTS] if BINARY_OPS[op][1] else []
        dtype = rng.choice(list(FLOATS) + ints) if ints and rng.random() < 0.3 \
            else rng.choices(FLOATS, weights=[5, 2, 2, 1])[0]
        if op == "div" and not is_float(dtype):
            dtype = "f32"
    k = Kernel("binary-%s-%s-%03d" % (op, dtype, i), "binary", op, dtype)
    rank = rng.choice([1, 2, 2, 3])
    dims = name_sizes(k, shape_under(rng, rank, 1 << 24), rng.random() < 0.4)
    n = len(dims)
    # How the second operand broadcasts: full, along the leading dims (a
    # bias), along the last dim (keepdim), or not at all.
    pattern = rng.choice(["full", "bias", "column"] if n > 1 else ["full"])
    if pattern == "full":
        other, omap = dims, ident(n)
    elif pattern == "bias":
        other, omap = dims[-1:], amap(n, ["d%d" % (n - 1)])
    else:
        other = dims[:-1] + [1]
        omap = amap(n, ["d%d" % j for j in range(n - 1)] + ["0"])
    k.inputs = [(dims, dtype), (other, dtype)]
    k.outputs = [(dims, dtype)]
    k.op = "%s-%s" % (op, pattern)
    k.reference = BOOL_OPS[op][1] if dtype == "i1" else BINARY_OPS[op][2]
    k.flops = k.numel(dims)
    if op == "div":
        k.input_kind = "positive"

    def body(e):
        init = e.init(0)
        if dtype == "i1":
            opname = BOOL_OPS[op][0]
        else:
            opname = BINARY_OPS[op][0 if is_float(dtype) else 1]

        def payload(args):
            r = e.fresh("s")
            return ["%s = %s %s, %s : %s" % (r, opname, args[0], args[1],
                                             dtype)], [r]
        return e.generic([("%x0", dims, dtype), ("%x1", other, dtype)],
                         [(init, dims, dtype)], [ident(n), omap, ident(n)],
                         ["parallel"] * n, payload)
    k.body = body
    return k


CASTS = [("f32", "f16", "arith.truncf"), ("f32", "bf16", "arith.truncf"),
         ("f16", "f32", "arith.extf"), ("bf16", "f32", "arith.extf"),
         ("i32", "f32", "arith.sitofp"), ("f32", "i32", "arith.fptosi"),
         ("i8", "i32", "arith.extsi"), ("i64", "i32", "arith.trunci"),
         ("f64", "f32", "arith.truncf"), ("i1", "f32", "arith.uitofp")]


def fam_cast(rng, i):
    src, dst, opname = rng.choice(CASTS)
    k = Kernel("cast-%s-%s-%03d" % (src, dst, i), "cast",
               "%s-to-%s" % (src, dst), src)
    rank = rng.choice([1, 2, 3])
    dims = name_sizes(k, shape_under(rng, rank, 1 << 24), rng.random() < 0.4)
    n = len(dims)
    k.inputs = [(dims, src)]
    k.outputs = [(dims, dst)]
    k.reference = "x0.to(torch.%s)" % TORCH_DTYPE[dst]
    k.flops = k.numel(dims)
    if src == "f32" and dst == "i32":
        k.input_kind = "scaled"   # values beyond (-1, 1), so truncation shows

    def body(e):
        init = e.init(0)

        def payload(args):
            r = e.fresh("s")
            return ["%s = %s %s : %s to %s" % (r, opname, args[0], src, dst)], [r]
        return e.generic([("%x0", dims, src)], [(init, dims, dst)],
                         [ident(n), ident(n)], ["parallel"] * n, payload)
    k.body = body
    return k


def fam_reduce(rng, i):
    kind = rng.choice(["sum", "sum", "max", "min", "mean"])
    if kind in ("sum", "mean"):
        dtype = rng.choices(["f32", "f64", "i32", "i64"] if kind == "sum"
                            else ["f32", "f64"],
                            weights=[6, 1, 1, 1] if kind == "sum" else [6, 1])[0]
    else:
        dtype = rng.choices(["f32", "f16", "bf16", "f64", "i32", "i8"],
                            weights=[5, 2, 2, 1, 1, 1])[0]
    k = Kernel("reduce-%s-%s-%03d" % (kind, dtype, i), "reduce", kind, dtype)
    rank = rng.choice([2, 2, 2, 3])
    dims = name_sizes(k, shape_under(rng, rank, 1 << 24), rng.random() < 0.35)
    dim = rng.choice(list(range(rank)))
    if dims[dim] == "n0" and k.sizes["n0"][1]:
        dim = rank - 1  # reduce a static dim; the dynamic one stays a batch
    keepdim = rng.random() < 0.3
    kept = [d for j, d in enumerate(dims) if j != dim]
    out = dims[:dim] + [1] + dims[dim + 1:] if keepdim else kept
    k.inputs = [(dims, dtype)]
    k.outputs = [(out, dtype)]
    k.op = "%s-dim%d%s" % (kind, dim, "-keepdim" if keepdim else "")
    k.reduction = k.value(dims[dim])
    k.flops = k.numel(dims)
    fn = {"sum": "torch.sum", "max": "torch.amax", "min": "torch.amin",
          "mean": "torch.mean"}[kind]
    k.reference = "%s(x0, dim=%d, keepdim=%s)" % (fn, dim, keepdim)
    if kind == "sum" and not is_float(dtype):
        k.reference = "torch.sum(x0, dim=%d, keepdim=%s, dtype=torch.%s)" % (
            dim, keepdim, TORCH_DTYPE[dtype])
    n = rank

    def body(e):
        init = e.init(0)
        if kind in ("sum", "mean"):
            neutral = 0.0 if is_float(dtype) else 0
        elif kind == "max":
            neutral = NEG_INF[dtype] if is_float(dtype) else INT_MIN[dtype]
        else:
            neutral = POS_INF[dtype] if is_float(dtype) else INT_MAX[dtype]
        acc = e.fill(neutral, init, out, dtype)
        if keepdim:
            omap = amap(n, ["0" if j == dim else "d%d" % j for j in range(n)])
        else:
            omap = amap(n, ["d%d" % j for j in range(n) if j != dim])
        combine = {"sum": ("arith.addf", "arith.addi"),
                   "mean": ("arith.addf", "arith.addi"),
                   "max": ("arith.maximumf", "arith.maxsi"),
                   "min": ("arith.minimumf", "arith.minsi")}[kind]
        opname = combine[0 if is_float(dtype) else 1]

        def payload(args):
            r = e.fresh("s")
            return ["%s = %s %s, %s : %s" % (r, opname, args[0], args[1],
                                             dtype)], [r]
        its = ["reduction" if j == dim else "parallel" for j in range(n)]
        red = e.generic([("%x0", dims, dtype)], [(acc, out, dtype)],
                        [ident(n), omap], its, payload)[0]
        if kind != "mean":
            return [red]
        # The mean divides by the reduced size (a run-time value when it is
        # dynamic: it never is here).
        m = len(out)
        count = e.const(float(k.value(dims[dim])), dtype)

        def divide(args):
            r = e.fresh("s")
            return ["%s = arith.divf %s, %s : %s" % (r, args[0], count,
                                                     dtype)], [r]
        scaled = e.empty(out, dtype)
        return e.generic([(red, out, dtype)], [(scaled, out, dtype)],
                         [ident(m), ident(m)], ["parallel"] * m, divide)
    k.body = body
    return k


def fam_argmax(rng, i):
    dtype = rng.choices(["f32", "f16", "i32"], weights=[4, 1, 1])[0]
    k = Kernel("argmax-%s-%03d" % (dtype, i), "argmax", "argmax", dtype)
    rows = k.size("rows", pick(rng), dynamic=rng.random() < 0.35)
    cols = k.size("cols", pick(rng, small=0))
    if k.value(rows) * k.value(cols) > (1 << 24):
        k.sizes["rows"][0] = max(1, (1 << 24) // k.value(cols))
    k.inputs = [([rows, cols], dtype)]
    k.outputs = [([rows], "i64")]
    k.reference = "torch.argmax(x0, dim=1)"
    k.reduction = k.value(cols)
    k.flops = k.numel([rows, cols])

    def body(e):
        # torch-mlir's form: the maximum and its index, both carried; the
        # first index wins ties.
        vals = e.fill(NEG_INF[dtype] if is_float(dtype) else INT_MIN[dtype],
                      e.empty([rows], dtype), [rows], dtype)
        idx = e.fill(0, e.init(0), [rows], "i64")

        def payload(args):
            x, best, at = args
            L = []
            j = e.fresh("s")
            L.append("%s = linalg.index 1 : index" % j)
            ji = e.fresh("s")
            L.append("%s = arith.index_cast %s : index to i64" % (ji, j))
            gt = e.fresh("s")
            if is_float(dtype):
                L.append("%s = arith.cmpf ogt, %s, %s : %s" % (gt, x, best, dtype))
            else:
                L.append("%s = arith.cmpi sgt, %s, %s : %s" % (gt, x, best, dtype))
            nb, ni = e.fresh("s"), e.fresh("s")
            L.append("%s = arith.select %s, %s, %s : %s" % (nb, gt, x, best, dtype))
            L.append("%s = arith.select %s, %s, %s : i64" % (ni, gt, ji, at))
            return L, [nb, ni]
        res = e.generic([("%x0", [rows, cols], dtype)],
                        [(vals, [rows], dtype), (idx, [rows], "i64")],
                        [ident(2), amap(2, ["d0"]), amap(2, ["d0"])],
                        ["parallel", "reduction"], payload)
        return [res[1]]
    k.body = body
    return k


def fam_softmax(rng, i):
    op = rng.choice(["softmax", "softmax", "log_softmax"])
    dtype = rng.choices(["f32", "f16", "bf16"], weights=[5, 1, 1])[0] \
        if op == "softmax" else "f32"
    k = Kernel("%s-%s-%03d" % (op.replace("_", ""), dtype, i), "softmax", op,
               dtype)
    rank = rng.choice([2, 2, 3])
    dims = name_sizes(k, shape_under(rng, rank, 1 << 24), rng.random() < 0.4)
    n = rank
    k.inputs = [(dims, dtype)]
    k.outputs = [(dims, dtype)]
    k.reference = "torch.%s(x0, dim=%d)" % (op, n - 1)
    # Narrow types are computed in f32: their error is one final rounding.
    k.reduction = k.value(dims[-1]) if dtype == "f32" else 1
    k.flops = 5 * k.numel(dims)

    def body(e):
        init = e.init(0)
        if op == "softmax" and dtype == "f32":
            r = e.fresh("r")
            e.emit("%s = linalg.softmax dimension(%d) ins(%%x0 : %s) outs(%s "
                   ": %s) -> %s" % (r, n - 1, e.ttype(dims, dtype), init,
                                    e.ttype(dims, dtype), e.ttype(dims, dtype)))
            return [r]
        if op == "softmax":
            # Mixed precision, as frontends write it for f16 and bf16: widen,
            # softmax in f32, narrow.
            def cast(opname, src, dst):
                def payload(args):
                    r = e.fresh("s")
                    return ["%s = %s %s : %s to %s" % (r, opname, args[0], src,
                                                       dst)], [r]
                return payload
            wide = e.generic([("%x0", dims, dtype)],
                             [(e.empty(dims, "f32"), dims, "f32")],
                             [ident(n), ident(n)], ["parallel"] * n,
                             cast("arith.extf", dtype, "f32"))[0]
            r = e.fresh("r")
            e.emit("%s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : "
                   "%s) -> %s" % (r, n - 1, wide, e.ttype(dims, "f32"),
                                  e.empty(dims, "f32"), e.ttype(dims, "f32"),
                                  e.ttype(dims, "f32")))
            return e.generic([(r, dims, "f32")], [(init, dims, dtype)],
                             [ident(n), ident(n)], ["parallel"] * n,
                             cast("arith.truncf", "f32", dtype))
        # log_softmax as decomposed generics: max, sum of exp(x - max),
        # x - max - log(sum).
        rows = dims[:-1]
        red = amap(n, ["d%d" % j for j in range(n - 1)])
        its = ["parallel"] * (n - 1) + ["reduction"]
        mx = e.fill(NEG_INF[dtype], e.empty(rows, dtype), rows, dtype)

        def pmax(args):
            r = e.fresh("s")
            return ["%s = arith.maximumf %s, %s : %s" % (r, args[0], args[1],
                                                         dtype)], [r]
        mx = e.generic([("%x0", dims, dtype)], [(mx, rows, dtype)],
                       [ident(n), red], its, pmax)[0]
        sm = e.fill(0.0, e.empty(rows, dtype), rows, dtype)

        def psum(args):
            a, b = e.fresh("s"), e.fresh("s")
            c = e.fresh("s")
            return ["%s = arith.subf %s, %s : %s" % (a, args[0], args[1], dtype),
                    "%s = math.exp %s : %s" % (b, a, dtype),
                    "%s = arith.addf %s, %s : %s" % (c, b, args[2], dtype)], [c]
        sm = e.generic([("%x0", dims, dtype), (mx, rows, dtype)],
                       [(sm, rows, dtype)], [ident(n), red, red], its, psum)[0]

        def pout(args):
            a, b, c = e.fresh("s"), e.fresh("s"), e.fresh("s")
            return ["%s = arith.subf %s, %s : %s" % (a, args[0], args[1], dtype),
                    "%s = math.log %s : %s" % (b, args[2], dtype),
                    "%s = arith.subf %s, %s : %s" % (c, a, b, dtype)], [c]
        return e.generic([("%x0", dims, dtype), (mx, rows, dtype),
                          (sm, rows, dtype)], [(init, dims, dtype)],
                         [ident(n), red, red, ident(n)], ["parallel"] * n, pout)
    k.body = body
    return k


def fam_norm(rng, i):
    op = rng.choice(["layernorm", "rmsnorm"])
    dtype = rng.choices(["f32", "bf16"], weights=[4, 1])[0]
    k = Kernel("%s-%s-%03d" % (op, dtype, i), "norm", op, dtype)
    rows = k.size("rows", pick(rng, large=2), dynamic=rng.random() < 0.4)
    cols = k.size("cols", rng.choice(MEDIUM + LARGE))
    while k.value(rows) * k.value(cols) > (1 << 24):
        k.sizes["rows"][0] = max(1, k.value(rows) // 2)
    eps = 1e-5
    k.inputs = [([rows, cols], dtype), ([cols], dtype)]
    if op == "layernorm":
        k.inputs.append(([cols], dtype))
        k.reference = ("torch.nn.functional.layer_norm(x0.float(), (x0.shape[-1],),"
                       " x1.float(), x2.float(), %g).to(x0.dtype)" % eps)
        k.eager = ("torch.nn.functional.layer_norm(x0, (x0.shape[-1],), x1, x2, "
                   "%g)" % eps)
    else:
        k.reference = ("(x0.float() * torch.rsqrt(x0.float().pow(2).mean(-1, "
                       "keepdim=True) + %g) * x1.float()).to(x0.dtype)" % eps)
        k.eager = ("torch.nn.functional.rms_norm(x0, (x0.shape[-1],), x1, %g)"
                   % eps)
    k.outputs = [([rows, cols], dtype)]
    k.reduction = k.value(cols)
    k.accumulate = "f32"
    k.flops = 8 * k.numel([rows, cols])
    f = "f32"   # norms compute in f32, as PyTorch does for narrow types

    def body(e):
        init = e.init(0)
        red, its = amap(2, ["d0"]), ["parallel", "reduction"]
        x = "%x0"

        def load(L, v):
            if dtype == f:
                return v
            w = e.fresh("s")
            L.append("%s = arith.extf %s : %s to f32" % (w, v, dtype))
            return w
        count = e.const(float(k.value(cols)), f)
        stats = []
        if op == "layernorm":
            s = e.fill(0.0, e.empty([rows], f), [rows], f)

            def psum(args):
                L = []
                v = load(L, args[0])
                r = e.fresh("s")
                L.append("%s = arith.addf %s, %s : f32" % (r, v, args[1]))
                return L, [r]
            s = e.generic([(x, [rows, cols], dtype)], [(s, [rows], f)],
                          [ident(2), red], its, psum)[0]

            def pmean(args):
                r = e.fresh("s")
                return ["%s = arith.divf %s, %s : f32" % (r, args[0], count)], [r]
            mean = e.generic([(s, [rows], f)], [(e.empty([rows], f), [rows], f)],
                             [ident(1), ident(1)], ["parallel"], pmean)[0]
            stats.append(mean)
        q = e.fill(0.0, e.empty([rows], f), [rows], f)
        ins = [(x, [rows, cols], dtype)] + [(m, [rows], f) for m in stats]

        def psq(args):
            L = []
            v = load(L, args[0])
            if op == "layernorm":
                c = e.fresh("s")
                L.append("%s = arith.subf %s, %s : f32" % (c, v, args[1]))
                v = c
            sq, r = e.fresh("s"), e.fresh("s")
            L.append("%s = arith.mulf %s, %s : f32" % (sq, v, v))
            L.append("%s = arith.addf %s, %s : f32" % (r, sq, args[-1]))
            return L, [r]
        q = e.generic(ins, [(q, [rows], f)],
                      [ident(2)] + [red] * len(stats) + [red], its, psq)[0]

        def prstd(args):
            a, b, c = e.fresh("s"), e.fresh("s"), e.fresh("s")
            return ["%s = arith.divf %s, %s : f32" % (a, args[0], count),
                    "%s = arith.addf %s, %s : f32" % (b, a, e.const(eps, f)),
                    "%s = math.rsqrt %s : f32" % (c, b)], [c]
        rstd = e.generic([(q, [rows], f)], [(e.empty([rows], f), [rows], f)],
                         [ident(1), ident(1)], ["parallel"], prstd)[0]
        params = [("%x1", [cols], dtype)]
        if op == "layernorm":
            params.append(("%x2", [cols], dtype))
        ins = [(x, [rows, cols], dtype)] + [(m, [rows], f) for m in stats] + \
            [(rstd, [rows], f)] + params
        maps = [ident(2)] + [red] * len(stats) + [red] + \
            [amap(2, ["d1"])] * len(params) + [ident(2)]

        def pout(args):
            L = []
            v = load(L, args[0])
            at = 1
            if op == "layernorm":
                c = e.fresh("s")
                L.append("%s = arith.subf %s, %s : f32" % (c, v, args[1]))
                v, at = c, 2
            n1 = e.fresh("s")
            L.append("%s = arith.mulf %s, %s : f32" % (n1, v, args[at]))
            w = load(L, args[at + 1])
            n2 = e.fresh("s")
            L.append("%s = arith.mulf %s, %s : f32" % (n2, n1, w))
            if op == "layernorm":
                b = load(L, args[at + 2])
                n3 = e.fresh("s")
                L.append("%s = arith.addf %s, %s : f32" % (n3, n2, b))
                n2 = n3
            if dtype != f:
                t = e.fresh("s")
                L.append("%s = arith.truncf %s : f32 to %s" % (t, n2, dtype))
                n2 = t
            return L, [n2]
        return e.generic(ins, [(init, [rows, cols], dtype)], maps,
                         ["parallel", "parallel"], pout)
    k.body = body
    return k


def fam_matmul(rng, i):
    variant = rng.choice(["plain", "plain", "linear", "transposed_b", "batched",
                          "matvec"])
    mixed = rng.random() < 0.3
    if mixed:
        dtype, acc = rng.choice([("f16", "f32"), ("bf16", "f32"), ("i8", "i32")])
    else:
        dtype = rng.choices(["f32", "f64", "i32"], weights=[8, 1, 1])[0]
        acc = dtype
    if variant == "linear" and not is_float(dtype):
        dtype, acc = "f32", "f32"
    k = Kernel("matmul-%s-%s-%03d" % (variant, dtype, i), "matmul", variant,
               dtype)
    while True:
        m, n, kk = pick(rng, large=2), pick(rng, small=0), pick(rng, large=2)
        b = rng.choice([1, 2, 3, 4, 8, 12, 16]) if variant == "batched" else 1
        if variant == "matvec":
            n = 1
        if b * m * n * kk <= (1 << 32) and b * max(m, n) * kk <= (1 << 24):
            break
    dyn = rng.random() < 0.35
    M = k.size("m", m, dynamic=dyn and variant != "batched")
    N = k.size("n", n)
    K = k.size("k", kk)
    B = k.size("b", b, dynamic=dyn and variant == "batched")
    k.reduction = kk
    k.flops = 2 * b * m * n * kk
    activation = rng.choice(["relu", "gelu", None]) if variant == "linear" else None
    if variant == "matvec":
        k.inputs = [([M, K], dtype), ([K], dtype)]
        k.outputs = [([M], acc)]
        core = "torch.mv(%s, %s)"
    elif variant == "batched":
        k.inputs = [([B, M, K], dtype), ([B, K, N], dtype)]
        k.outputs = [([B, M, N], acc)]
        core = "torch.bmm(%s, %s)"
    elif variant in ("transposed_b", "linear"):
        k.inputs = [([M, K], dtype), ([N, K], dtype)]
        if variant == "linear":
            k.inputs.append(([N], acc))
        k.outputs = [([M, N], acc)]
        core = "torch.matmul(%s, %s.T)"
    else:
        k.inputs = [([M, K], dtype), ([K, N], dtype)]
        k.outputs = [([M, N], acc)]
        core = "torch.matmul(%s, %s)"
    if not is_float(acc):
        # PyTorch has no integer matmul on CUDA: the reference multiplies in
        # float64 (exact for these small integers) and nothing is timed.
        k.reference = "(%s).to(torch.%s)" % (core % ("x0.double()",
                                                     "x1.double()"),
                                             TORCH_DTYPE[acc])
        k.eager = "-"
    else:
        # The reference runs in float64; the timed expression is what a
        # PyTorch user writes: the product in the inputs' type (cuBLAS
        # accumulates in f32), widened when the result is wider.
        k.reference = core % ("x0", "x1")
        k.eager = k.reference
        if variant == "linear":
            k.reference = k.eager = "(%s + x2)" % k.reference
            if activation:
                fn = UNARY_TORCH[activation].split("(")[0]
                k.reference = k.eager = "%s(%s)" % (fn, k.reference)
            k.op = "linear-%s" % (activation or "none")
        if mixed:
            k.eager = "(%s).to(torch.%s)" % (core % ("x0", "x1"),
                                              TORCH_DTYPE[acc])

    def body(e):
        zero = 0.0 if is_float(acc) else 0
        if variant == "linear":
            out = e.empty([M, N], acc)
        else:
            out = e.init(0)
        c = e.fill(zero, out, k.outputs[0][0], acc)
        ta = e.ttype(k.inputs[0][0], dtype)
        tb = e.ttype(k.inputs[1][0], dtype)
        tc = e.ttype(k.outputs[0][0], acc)
        r = e.fresh("r")
        if variant == "matvec":
            e.emit("%s = linalg.matvec ins(%%x0, %%x1 : %s, %s) outs(%s : %s) "
                   "-> %s" % (r, ta, tb, c, tc, tc))
            return [r]
        if variant == "batched":
            e.emit("%s = linalg.batch_matmul ins(%%x0, %%x1 : %s, %s) outs(%s "
                   ": %s) -> %s" % (r, ta, tb, c, tc, tc))
            return [r]
        if variant == "plain":
            e.emit("%s = linalg.matmul ins(%%x0, %%x1 : %s, %s) outs(%s : %s) "
                   "-> %s" % (r, ta, tb, c, tc, tc))
            return [r]
        # nn.Linear's weight is [out, in]: torch-mlir transposes it with
        # linalg.transpose into a fresh tensor, then multiplies.
        wt = e.empty([K, N], dtype)
        t = e.fresh("r")
        e.emit("%s = linalg.transpose ins(%%x1 : %s) outs(%s : %s) "
               "permutation = [1, 0]" % (t, tb, wt, e.ttype([K, N], dtype)))
        e.emit("%s = linalg.matmul ins(%%x0, %s : %s, %s) outs(%s : %s) -> %s"
               % (r, t, ta, e.ttype([K, N], dtype), c, tc, tc))
        if variant == "transposed_b":
            return [r]
        # Bias and activation on the product, into the result.
        init = e.init(0)

        def payload(args):
            s = e.fresh("s")
            lines = ["%s = arith.addf %s, %s : %s" % (s, args[0], args[1], acc)]
            if activation:
                inner = unary_payload(activation, acc, e)
                more, res = inner([s])
                return lines + more, res
            return lines, [s]
        return e.generic([(r, [M, N], acc), ("%x2", [N], acc)],
                         [(init, [M, N], acc)],
                         [ident(2), amap(2, ["d1"]), ident(2)],
                         ["parallel", "parallel"], payload)
    k.body = body
    return k


def conv_out(size, kernel, stride, pad, dilation=1):
    return (size + 2 * pad - dilation * (kernel - 1) - 1) // stride + 1


def fam_conv(rng, i):
    depthwise = rng.random() < 0.3
    dtype = rng.choices(["f32", "f16"], weights=[5, 1])[0]
    k = Kernel("conv-%s-%s-%03d" % ("depthwise" if depthwise else "dense",
                                    dtype, i), "conv",
               "depthwise" if depthwise else "conv2d", dtype)
    while True:
        n = rng.choice([1, 2, 3, 4, 8, 16])
        c = rng.choice([1, 3, 8, 16, 17, 32, 64, 96, 128])
        f = c if depthwise else rng.choice([8, 16, 31, 32, 64, 128])
        h = rng.choice([7, 14, 15, 28, 32, 33, 56, 64, 112])
        w = rng.choice([h, h, rng.choice([7, 14, 28, 31, 56])])
        kh = rng.choice([1, 3, 3, 5])
        stride = rng.choice([1, 1, 2])
        pad = rng.choice([0, kh // 2])
        oh, ow = conv_out(h, kh, stride, pad), conv_out(w, kh, stride, pad)
        macs = n * f * oh * ow * (1 if depthwise else c) * kh * kh
        if oh > 0 and ow > 0 and macs <= (1 << 31) and n * c * h * w <= (1 << 23):
            break
    N = k.size("batch", n, dynamic=rng.random() < 0.3)
    C, F = k.size("c", c), k.size("f", f)
    H, W = k.size("h", h), k.size("w", w)
    OH, OW = k.size("oh", oh), k.size("ow", ow)
    KH = k.size("kh", kh)
    bias = rng.random() < 0.6
    k.inputs = [([N, C, H, W], dtype)]
    if depthwise:
        k.inputs.append(([C, KH, KH], dtype))
        ref = ("torch.nn.functional.conv2d(x0, x1.unsqueeze(1), %s, stride=%d, "
               "padding=%d, groups=x0.shape[1])")
    else:
        k.inputs.append(([F, C, KH, KH], dtype))
        ref = "torch.nn.functional.conv2d(x0, x1, %s, stride=%d, padding=%d)"
    if bias:
        k.inputs.append(([F], dtype))
    k.reference = ref % ("x2" if bias else "None", stride, pad)
    k.outputs = [([N, F, OH, OW], dtype)]
    k.reduction = (1 if depthwise else c) * kh * kh
    k.flops = 2 * macs
    k.op = "%s-k%d-s%d-p%d%s" % (k.op, kh, stride, pad, "-bias" if bias else "")

    def body(e):
        x = "%x0"
        xdims = [N, C, H, W]
        if pad:
            # torch-mlir pads explicitly with tensor.pad.
            ph = e.fresh("r")
            padded = [N, C, h + 2 * pad, w + 2 * pad]
            e.emit("%s = tensor.pad %%x0 low[0, 0, %d, %d] high[0, 0, %d, %d] {"
                   % (ph, pad, pad, pad, pad))
            e.emit("^bb0(%i0: index, %i1: index, %i2: index, %i3: index):")
            e.emit("  tensor.yield %s : %s" % (e.const(0.0, dtype), dtype))
            e.emit("} : %s to %s" % (e.ttype(xdims, dtype),
                                     e.ttype(padded, dtype)))
            x, xdims = ph, padded
        out = e.init(0)
        odims = [N, F, OH, OW]
        if bias:
            def pb(args):
                return [], [args[0]]
            init = e.generic([("%x2", [F], dtype)], [(out, odims, dtype)],
                             [amap(4, ["d1"]), ident(4)], ["parallel"] * 4,
                             pb)[0]
        else:
            init = e.fill(0.0, out, odims, dtype)
        r = e.fresh("r")
        op = ("linalg.depthwise_conv_2d_nchw_chw" if depthwise
              else "linalg.conv_2d_nchw_fchw")
        e.emit("%s = %s {dilations = dense<1> : vector<2xi64>, strides = "
               "dense<%d> : vector<2xi64>} ins(%s, %%x1 : %s, %s) outs(%s : "
               "%s) -> %s" % (r, op, stride, x, e.ttype(xdims, dtype),
                              e.ttype(k.inputs[1][0], dtype), init,
                              e.ttype(odims, dtype), e.ttype(odims, dtype)))
        return [r]
    k.body = body
    return k


def fam_pool(rng, i):
    kind = rng.choice(["max", "max", "avg"])
    dtype = rng.choices(["f32", "f16"], weights=[4, 1])[0] if kind == "max" \
        else "f32"
    k = Kernel("pool-%s-%s-%03d" % (kind, dtype, i), "pool", kind, dtype)
    while True:
        n = rng.choice([1, 2, 4, 8, 16])
        c = rng.choice([3, 16, 32, 64, 128])
        h = rng.choice([7, 14, 15, 28, 32, 56, 64, 112])
        kh = rng.choice([2, 3])
        stride = rng.choice([1, 2, kh])
        pad = rng.choice([0, kh // 2]) if kind == "max" else 0
        oh = conv_out(h, kh, stride, pad)
        if oh > 0 and n * c * h * h <= (1 << 24):
            break
    N = k.size("batch", n, dynamic=rng.random() < 0.3)
    C, H, OH = k.size("c", c), k.size("h", h), k.size("oh", oh)
    k.inputs = [([N, C, H, H], dtype)]
    k.outputs = [([N, C, OH, OH], dtype)]
    k.reduction = kh * kh
    k.flops = n * c * oh * oh * kh * kh
    k.op = "%s-k%d-s%d-p%d" % (kind, kh, stride, pad)
    if kind == "max":
        k.reference = ("torch.nn.functional.max_pool2d(x0, %d, stride=%d, "
                       "padding=%d)" % (kh, stride, pad))
    else:
        k.reference = ("torch.nn.functional.avg_pool2d(x0, %d, stride=%d)"
                       % (kh, stride))

    def body(e):
        x, xdims = "%x0", [N, C, H, H]
        if pad:
            ph = e.fresh("r")
            padded = [N, C, h + 2 * pad, h + 2 * pad]
            e.emit("%s = tensor.pad %%x0 low[0, 0, %d, %d] high[0, 0, %d, %d] {"
                   % (ph, pad, pad, pad, pad))
            e.emit("^bb0(%i0: index, %i1: index, %i2: index, %i3: index):")
            e.emit("  tensor.yield %s : %s" % (e.const(NEG_INF[dtype], dtype),
                                               dtype))
            e.emit("} : %s to %s" % (e.ttype(xdims, dtype),
                                     e.ttype(padded, dtype)))
            x, xdims = ph, padded
        odims = [N, C, OH, OH]
        window = e.fresh("r")
        e.emit("%s = tensor.empty() : tensor<%dx%dx%s>" % (window, kh, kh, dtype))
        out = e.init(0) if kind == "max" else e.empty(odims, dtype)
        acc = e.fill(NEG_INF[dtype] if kind == "max" else 0.0, out, odims, dtype)
        r = e.fresh("r")
        op = "linalg.pooling_nchw_max" if kind == "max" else "linalg.pooling_nchw_sum"
        e.emit("%s = %s {dilations = dense<1> : vector<2xi64>, strides = "
               "dense<%d> : vector<2xi64>} ins(%s, %s : %s, tensor<%dx%dx%s>) "
               "outs(%s : %s) -> %s" % (r, op, stride, x, window,
                                        e.ttype(xdims, dtype), kh, kh, dtype,
                                        acc, e.ttype(odims, dtype),
                                        e.ttype(odims, dtype)))
        if kind == "max":
            return [r]
        area = e.const(float(kh * kh), dtype)

        def pdiv(args):
            s = e.fresh("s")
            return ["%s = arith.divf %s, %s : %s" % (s, args[0], area, dtype)], [s]
        return e.generic([(r, odims, dtype)], [(e.init(0), odims, dtype)],
                         [ident(4), ident(4)], ["parallel"] * 4, pdiv)
    k.body = body
    return k


FAMILIES = {"unary": fam_unary, "binary": fam_binary, "cast": fam_cast,
            "reduce": fam_reduce, "argmax": fam_argmax, "softmax": fam_softmax,
            "norm": fam_norm, "matmul": fam_matmul, "conv": fam_conv,
            "pool": fam_pool}


def describe(k, files):
    def spec(dims, dtype):
        return {"shape": k.shape(dims), "dtype": TORCH_DTYPE[dtype],
                "dynamic": [j for j, d in enumerate(dims)
                            if not isinstance(d, int) and k.sizes[d][1]]}
    return {"name": k.name, "family": k.family, "op": k.op,
            "dtype": k.dtype, "entry": "kernel", "dynamic": k.is_dynamic(),
            "inputs": [spec(d, t) for d, t in k.inputs],
            "outputs": [spec(d, t) for d, t in k.outputs],
            "input_kind": k.input_kind, "reference": k.reference,
            "eager": None if k.eager == "-" else (k.eager or k.reference),
            "reduction": k.reduction,
            "accumulate": TORCH_DTYPE[k.accumulate] if k.accumulate else None,
            "flops": k.flops, "bytes": k.bytes(),
            "files": files}


def draw(family, rng, per_family, dtypes):
    """per_family kernels of family; with dtypes, only kernels of those element
    types (drawn on until enough are found or the family has none)."""
    i = 0
    found = 0
    while found < per_family and i < (per_family if not dtypes
                                      else 200 * per_family):
        k = FAMILIES[family](rng, i)
        i += 1
        if dtypes and k.dtype not in dtypes:
            continue
        found += 1
        yield k


def generate(seed, per_family, families, out, dtypes=None):
    os.makedirs(out, exist_ok=True)
    kernels = []
    for family in families:
        # One generator per family: adding a family changes no other's kernels.
        rng = random.Random("%d/%s" % (seed, family))
        for k in draw(family, rng, per_family, dtypes):
            files = {}
            forms = [("returned", False), ("outarg", False)]
            if k.is_dynamic():
                forms.append(("static", True))
            for form, static in forms:
                text = Emitter(k, "returned" if static else form, static).render()
                path = "%s.%s.mlir" % (k.name, form)
                with open(os.path.join(out, path), "w") as f:
                    f.write(text)
                files[form] = path
            kernels.append(describe(k, files))
    manifest = {"seed": seed, "per_family": per_family, "kernels": kernels}
    if dtypes:
        manifest["dtypes"] = sorted(dtypes)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--per-family", type=int, default=24)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--dtypes", default="",
                        help="only kernels of these element types (comma "
                        "separated, e.g. i1,i16): a sweep of the rare types")
    args = parser.parse_args()
    families = [f for f in args.families.split(",") if f]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        parser.error("unknown families: %s (known: %s)" % (
            ", ".join(unknown), ", ".join(FAMILIES)))
    dtypes = set(t for t in args.dtypes.split(",") if t)
    manifest = generate(args.seed, args.per_family, families, args.out,
                        dtypes)
    print("%d kernels in %s" % (len(manifest["kernels"]), args.out))


if __name__ == "__main__":
    main()
