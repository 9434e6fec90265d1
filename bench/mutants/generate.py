#!/usr/bin/env python3
"""Wrong kernels for the verifier: mutants of the examples.

Each mutant is an example with one deliberate bug, of one of these kinds:

  constant   a floating-point constant changed (x2, or 0 -> 1)
  init       a reduction's initial value changed (-inf -> 0, 0 -> 1)
  op         an arithmetic op in a kernel body replaced (add <-> sub,
             mul -> add, div -> mul, max <-> min, exp -> tanh)
  drop       a term dropped: `a op b` becomes `a` (or `b`)
  scale      the result scaled by 1.01 (floats) or offset by 1 (integers)
  bound      an off-by-one bound: a pooling window one smaller, a matmul
             that sums one term fewer
  partial    the last row of a returned result left unwritten
  stale      the output argument returned as it came in (nothing computed)
  swap       the operands of a non-commutative named op swapped

A mutant that computes exactly what the example does (an unused constant, a
max over a window of equal values) is not a wrong kernel: `run.py filter`
drops those by running both on the host and comparing bit for bit.

Usage: generate.py --examples DIR --out DIR [--max N] [--seed S]
Writes OUT/<example>.<kind>.<n>.mlir and OUT/manifest.json (references
are named relative to the examples directory: run.py takes --examples). The
same examples and options always give the same mutants.
"""
import argparse
import glob
import json
import os
import random
import re

FLOAT = r"(?:f16|bf16|f32|f64)"
INT = r"(?:i8|i16|i32|i64)"

OP_SWAPS = {
    "arith.addf": "arith.subf", "arith.subf": "arith.addf",
    "arith.mulf": "arith.addf", "arith.divf": "arith.mulf",
    "arith.maximumf": "arith.minimumf", "arith.minimumf": "arith.maximumf",
    "arith.maxnumf": "arith.minnumf", "arith.minnumf": "arith.maxnumf",
    "arith.addi": "arith.subi", "arith.subi": "arith.addi",
    "arith.muli": "arith.addi", "arith.maxsi": "arith.minsi",
    "arith.minsi": "arith.maxsi",
}
UNARY_SWAPS = {"math.exp": "math.tanh", "math.tanh": "math.exp",
               "math.rsqrt": "math.sqrt", "math.sqrt": "math.rsqrt"}

BINARY = re.compile(r"^(\s*)(%[\w.]+) = (arith\.\w+) (%[\w.]+), (%[\w.]+) : (\S+)\s*$")
UNARY = re.compile(r"^(\s*)(%[\w.]+) = (math\.\w+) (%[\w.]+) : (\S+)\s*$")
CONST = re.compile(r"^(\s*)(%[\w.]+) = arith\.constant ([-+0-9.eE]+|0x[0-9A-Fa-f]+) : (" + FLOAT + r")\s*$")
RETURN = re.compile(r"^(\s*)return (%[\w.]+) : (tensor<([0-9x]+)x(" + FLOAT + "|" + INT + r")>)\s*$")
FUNC = re.compile(r"func\.func @\w+\((.*?)\)\s*(?:->|\{)", re.S)


def in_body(lines, i):
    """Whether line i is inside a linalg region (between ^bb and yield)."""
    for j in range(i, -1, -1):
        if "linalg.yield" in lines[j] and j != i:
            return False
        if lines[j].strip().startswith("^bb"):
            return True
    return False


def mutate_constants(lines):
    for i, line in enumerate(lines):
        m = CONST.match(line)
        if not m:
            continue
        indent, name, value, ty = m.groups()
        if value.lower() in ("0xff800000", "0xfc00", "0xff80", "0xfff0000000000000"):
            yield "init", i, "%s%s = arith.constant 0.0 : %s" % (indent, name, ty), \
                "initial -inf replaced by 0"
            continue
        if value.startswith("0x"):
            continue
        v = float(value)
        if v == 0:
            yield "init", i, "%s%s = arith.constant 1.0 : %s" % (indent, name, ty), \
                "0 replaced by 1"
        else:
            yield "constant", i, "%s%s = arith.constant %.9e : %s" % (indent, name, v * 2, ty), \
                "%s doubled" % value


def mutate_ops(lines):
    for i, line in enumerate(lines):
        if not in_body(lines, i):
            continue
        m = BINARY.match(line)
        if m:
            indent, res, op, a, b, ty = m.groups()
            if op in OP_SWAPS:
                yield "op", i, "%s%s = %s %s, %s : %s" % (indent, res, OP_SWAPS[op], a, b, ty), \
                    "%s -> %s" % (op, OP_SWAPS[op])
            if op in OP_SWAPS and a != b:
                keep = "arith.minimumf" if re.fullmatch(FLOAT, ty) else "arith.minsi"
                yield "drop", i, "%s%s = %s %s, %s : %s" % (indent, res, keep, a, a, ty), \
                    "%s %s, %s -> %s" % (op, a, b, a)
                yield "drop", i, "%s%s = %s %s, %s : %s" % (indent, res, keep, b, b, ty), \
                    "%s %s, %s -> %s" % (op, a, b, b)
            continue
        m = UNARY.match(line)
        if m and m.group(3) in UNARY_SWAPS:
            indent, res, op, a, ty = m.groups()
            yield "op", i, "%s%s = %s %s : %s" % (indent, res, UNARY_SWAPS[op], a, ty), \
                "%s -> %s" % (op, UNARY_SWAPS[op])


def identity_map(rank):
    dims = ", ".join("d%d" % d for d in range(rank))
    return "affine_map<(%s) -> (%s)>" % (dims, dims)


def mutate_results(text, lines):
    """scale, partial and stale mutants of the returned tensors."""
    sig = FUNC.search(text)
    args = sig.group(1) if sig else ""
    for i, line in enumerate(lines):
        m = RETURN.match(line)
        if not m:
            continue
        indent, value, ty, dims, element = m.groups()
        shape = [int(d) for d in dims.split("x")]
        rank = len(shape)
        par = ", ".join(['"parallel"'] * rank)
        isfloat = re.fullmatch(FLOAT, element) is not None
        if isfloat:
            body = ("%s  %%mut_c = arith.constant 1.01 : %s\n%s  %%mut_r = arith.mulf %%mut_a, %%mut_c : %s"
                    % (indent, element, indent, element))
        else:
            body = ("%s  %%mut_c = arith.constant 1 : %s\n%s  %%mut_r = arith.addi %%mut_a, %%mut_c : %s"
                    % (indent, element, indent, element))
        scaled = ("%s%%mut = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} outs(%s : %s) {\n"
                  "%s^bb0(%%mut_a: %s):\n%s\n%s  linalg.yield %%mut_r : %s\n%s} -> %s\n%sreturn %%mut : %s"
                  % (indent, identity_map(rank), par, value, ty, indent, element, body,
                     indent, element, indent, ty, indent, ty))
        yield "scale", i, scaled, "result scaled by 1.01" if isfloat else "result + 1"
        if shape[0] > 1:
            part = list(shape)
            part[0] -= 1
            zeros = ", ".join(["0"] * rank)
            ones = ", ".join(["1"] * rank)
            sizes = ", ".join(str(d) for d in part)
            pty = "tensor<%sx%s>" % ("x".join(map(str, part)), element)
            partial = ("%s%%mut_e = tensor.empty() : %s\n"
                       "%s%%mut_p = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s\n"
                       "%s%%mut = tensor.insert_slice %%mut_p into %%mut_e[%s] [%s] [%s] : %s into %s\n"
                       "%sreturn %%mut : %s"
                       % (indent, ty, indent, value, zeros, sizes, ones, ty, pty,
                          indent, zeros, sizes, ones, pty, ty, indent, ty))
            yield "partial", i, partial, "last row of the result not written"
        # The output argument of the same type, returned untouched.
        outs = [a.split(":")[0].strip() for a in args.split(",")
                if a.split(":", 1)[-1].strip() == ty]
        if outs and outs[-1] != value:
            yield "stale", i, "%sreturn %s : %s" % (indent, outs[-1], ty), \
                "the output argument returned as it came in"


def mutate_bounds(lines):
    for i, line in enumerate(lines):
        m = re.search(r"tensor\.empty\(\) : tensor<(\d+)x(\d+)x(" + FLOAT + r")>", line)
        if m and int(m.group(2)) > 1 and any("pooling" in l for l in lines):
            new = line.replace(m.group(0), "tensor.empty() : tensor<%sx%dx%s>" % (
                m.group(1), int(m.group(2)) - 1, m.group(3)))
            pooled = [j for j, l in enumerate(lines) if "pooling" in l or "linalg.generic" in l]
            # The window type appears again in the pooling op's ins(...).
            yield "bound", i, new, "pooling window %sx%s -> %sx%d" % (
                m.group(1), m.group(2), m.group(1), int(m.group(2)) - 1), \
                ("tensor<%sx%sx%s>" % (m.group(1), m.group(2), m.group(3)),
                 "tensor<%sx%dx%s>" % (m.group(1), int(m.group(2)) - 1, m.group(3)))
        m = re.match(r"^(\s*)(%[\w.]+) = linalg\.matmul ins\((%[\w.]+), (%[\w.]+) : tensor<(\d+)x(\d+)x(\w+)>, tensor<(\d+)x(\d+)x(\w+)>\) outs\((.*)$", line)
        if m:
            indent, res, a, b, m_, k, ea, k2, n, eb, rest = m.groups()
            k1 = int(k) - 1
            if k1 < 1:
                continue
            new = ("%s%%mut_a = tensor.extract_slice %s[0, 0] [%s, %d] [1, 1] : tensor<%sx%sx%s> to tensor<%sx%dx%s>\n"
                   "%s%%mut_b = tensor.extract_slice %s[0, 0] [%d, %s] [1, 1] : tensor<%sx%sx%s> to tensor<%dx%sx%s>\n"
                   "%s%s = linalg.matmul ins(%%mut_a, %%mut_b : tensor<%sx%dx%s>, tensor<%dx%sx%s>) outs(%s"
                   % (indent, a, m_, k1, m_, k, ea, m_, k1, ea,
                      indent, b, k1, n, k2, n, eb, k1, n, eb,
                      indent, res, m_, k1, ea, k1, n, eb, rest))
            yield "bound", i, new, "the matmul sums %d of %s terms" % (k1, k), None


def mutate_swaps(lines):
    for i, line in enumerate(lines):
        m = re.match(r"^(.*linalg\.(?:matmul|batch_matmul) ins\()(%[\w.]+), (%[\w.]+) : (tensor<[^>]+>), (tensor<[^>]+>)\)(.*)$", line)
        if m and m.group(4) == m.group(5):
            pre, a, b, ta, tb, rest = m.groups()
            yield "swap", i, "%s%s, %s : %s, %s)%s" % (pre, b, a, tb, ta, rest), \
                "A*B computed as B*A"


def mutants_of(text):
    lines = text.split("\n")
    found = []
    for gen in (mutate_constants(lines), mutate_ops(lines), mutate_bounds(lines),
                mutate_swaps(lines)):
        for item in gen:
            kind, i, new, why = item[:4]
            out = list(lines)
            out[i] = new
            if len(item) > 4 and item[4]:
                # The window's type, wherever the pooling op names it.
                old_t, new_t = item[4]
                out = [l.replace(old_t, new_t) for l in out]
            found.append((kind, "\n".join(out), why))
    for kind, i, new, why in mutate_results(text, lines):
        out = list(lines)
        out[i] = new
        found.append((kind, "\n".join(out), why))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--max", type=int, default=0,
                    help="keep at most N mutants (a seeded sample, every kind kept)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    mutants = []
    for path in sorted(glob.glob(os.path.join(args.examples, "*.mlir"))):
        name = os.path.basename(path)[:-len(".mlir")]
        with open(path) as f:
            text = f.read()
        for n, (kind, body, why) in enumerate(mutants_of(text)):
            mutants.append({"name": "%s.%s.%d" % (name, kind, n), "example": name,
                            "reference": os.path.basename(path), "kind": kind,
                            "why": why, "text": "// Mutant (%s): %s\n%s" % (kind, why, body)})
    if args.max and len(mutants) > args.max:
        rng = random.Random(args.seed)
        rng.shuffle(mutants)
        mutants = sorted(mutants[:args.max], key=lambda m: m["name"])
    for m in mutants:
        m["file"] = m["name"] + ".mlir"
        with open(os.path.join(args.out, m["file"]), "w") as f:
            f.write(m.pop("text"))
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump({"mutants": mutants}, f, indent=1)
    kinds = {}
    for m in mutants:
        kinds[m["kind"]] = kinds.get(m["kind"], 0) + 1
    print("%d mutants in %s (%s)" % (len(mutants), args.out,
          ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))


if __name__ == "__main__":
    main()
