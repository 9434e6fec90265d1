"""The Triton modules `qimeng-opt --qimeng-emit-triton=DIR` writes
(docs/triton.md): compiling them without a GPU, and checking them on one.

    python -m qimeng.triton compile DIR [--arch 90] [--ptx DIR]
    python -m qimeng.triton check DIR --mlir in.mlir [--device cpu|cuda|auto] [--time]
    python -m qimeng.triton verify CANDIDATE.py --like EMITTED.py --mlir in.mlir
        [--kernel NAME] [--device auto] [--arch 90]

`check` runs every kernel's `launch` on random inputs and compares its
results with QiMeng's own CPU build of the same MLIR function (the
runtime's `on_cpu` path) within the benchmark's tolerance. On the CPU it
runs Triton's interpreter (TRITON_INTERPRET=1: no GPU, small shapes only);
with `--device cuda` the compiled kernels on the GPU, and `--time` gives
their median time.

`verify` is the check of the LLM micro-coder's Triton answers
(`--micro-coder=llm-triton`): the candidate's source is vetted first (an
allow-list of imports, names and attributes: it is never imported
otherwise), then compiled for sm_<arch> and checked like `check`, with the
same arguments and results as the emitted module it replaces. It prints
one JSON line: {"status": "verified" | "failed" | "rejected" |
"unverified", "reason": ..., "device": ...}.

Each module holds its @triton.jit kernels in launch order (`KERNELS`), per
kernel the compile-only `SIGNATURES`, `CONSTEXPRS`, `NUM_WARPS`,
`NUM_STAGES` and `GRIDS`, and `launch(*args)`.
Compiling uses `triton.compile(ASTSource(...), target=GPUTarget("cuda",
arch, 32))`, which needs no GPU (Triton's own ptxas makes the cubin).
"""

import argparse
import ast
import importlib.util
import json
import os
import sys
from pathlib import Path


def load_module(path):
    """Imports one emitted module from its file."""
    path = Path(path)
    spec = importlib.util.spec_from_file_location(
        "qimeng_triton_" + path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_module(module, arch=90):
    """Compiles an emitted module's kernels for sm_<arch>; returns Triton's
    compiled kernels (`.asm["ptx"]`, `["cubin"]`, ...), in launch order."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    compiled = []
    for i, kernel in enumerate(module.KERNELS):
        source = ASTSource(fn=kernel, signature=module.SIGNATURES[i],
                           constexprs=module.CONSTEXPRS[i])
        compiled.append(triton.compile(
            source, target=GPUTarget("cuda", arch, 32),
            options={"num_warps": module.NUM_WARPS[i],
                     "num_stages": module.NUM_STAGES[i]}))
    return compiled


def manifest(folder):
    return json.loads((Path(folder) / "manifest.json").read_text())


def _same_interface(module, like):
    """Why `module` cannot stand in for the emitted module `like` ("" when
    it can)."""
    missing = [n for n in _INTERFACE if not hasattr(module, n)]
    if missing:
        return "it does not define " + ", ".join(missing)
    for name in ("ARGUMENTS", "RESULTS"):
        if list(getattr(module, name)) != list(getattr(like, name)):
            return (f"{name} must stay {getattr(like, name)}, got "
                    f"{getattr(module, name)}")
    lengths = {n: len(getattr(module, n)) for n in _INTERFACE[3:-1]}
    if len(set(lengths.values())) != 1:
        return "KERNELS, SIGNATURES, CONSTEXPRS, NUM_WARPS, NUM_STAGES and " \
               f"GRIDS differ in length: {lengths}"
    return ""


def _compile(args):
    folder = Path(args.dir)
    like = load_module(args.like) if args.like else None
    failures = 0
    for entry in manifest(folder)["kernels"]:
        try:
            module = load_module(folder / entry["file"])
            why = _same_interface(module, like) if like else ""
            if why:
                raise ValueError(why)
            compiled = compile_module(module, args.arch)
        except Exception as error:  # Triton raises many kinds
            failures += 1
            first = str(error).strip().splitlines()
            print(f"{entry['kernel']}: error: {first[0] if first else error}",
                  file=sys.stderr)
            continue
        if args.ptx:
            Path(args.ptx).mkdir(parents=True, exist_ok=True)
            for i, kernel in enumerate(compiled):
                (Path(args.ptx) / f"{Path(entry['file']).stem}.{i}.ptx"
                 ).write_text(kernel.asm["ptx"])
        print(f"{entry['kernel']}: {len(compiled)} kernel(s) "
              f"({entry['form']}), sm_{args.arch}: "
              f"{sum(len(k.asm['cubin']) for k in compiled)} bytes of cubin")
    return 1 if failures else 0


def _tolerance(dtype):
    import torch
    return 1e-4 if dtype in (torch.float32, torch.float64) else 2e-2


def _random(shape, dtype, device, generator):
    import torch
    if dtype.is_floating_point:
        return torch.randn(shape, generator=generator).to(dtype).to(device)
    if dtype == torch.bool:
        return (torch.rand(shape, generator=generator) > 0.5).to(device)
    return torch.randint(-8, 8, shape, generator=generator).to(dtype).to(device)


def _resolve_device(device):
    """"auto": cuda when torch sees a GPU, else cpu (the interpreter)."""
    if device != "auto":
        return device
    import torch
    return "cuda" if torch.cuda.is_available() else "cpu"


def _bf16_on_cpu(module, device):
    import torch
    return device == "cpu" and any(
        dtype == torch.bfloat16
        for _, dtype in module.ARGUMENTS + module.RESULTS)


def check_module(module, reference, device, generator):
    """Runs `module.launch` on random inputs against `reference` (QiMeng's
    CPU build of the same function); returns (ok, largest error, inputs)."""
    import torch

    inputs = [_random(shape, dtype, "cpu", generator)
              for shape, dtype in module.ARGUMENTS]
    expected = reference(*[t.clone() for t in inputs])
    got = module.launch(*[t.clone().to(device) for t in inputs])
    expected = tuple(expected) if isinstance(expected, (tuple, list)) \
        else (expected,)
    got = tuple(got) if isinstance(got, (tuple, list)) else (got,)
    worst, ok = 0.0, len(got) == len(expected)
    for (_, dtype), e, g in zip(module.RESULTS, expected, got):
        e = e.to("cpu").double()
        g = g.to("cpu").double()
        if e.shape != g.shape:
            ok = False
            continue
        if e.numel() == 0:
            continue
        tol = _tolerance(dtype)
        # NaN where the reference has NaN (sqrt of a random negative
        # variance, say) is a match; the rest is compared.
        both = torch.isnan(e) & torch.isnan(g)
        e = torch.where(both, 0.0, e)
        g = torch.where(both, 0.0, g)
        finite = e[torch.isfinite(e)]
        scale = max(1.0, float(finite.pow(2).mean().sqrt())) \
            if finite.numel() else 1.0
        error = (g - e).abs()
        error = torch.where(e == g, 0.0, error)  # equal infinities
        error = torch.where(torch.isnan(error), float("inf"), error)
        worst = max(worst, float(error.max()))
        ok = ok and bool((error <= tol * scale + tol * e.abs()).all())
    return ok, worst, inputs


def _check(args):
    import torch
    from . import runtime

    folder = Path(args.dir)
    device = _resolve_device(args.device)
    reference_module = runtime.Module(args.mlir, on_cpu=True)
    generator = torch.Generator().manual_seed(args.seed)
    failures = 0
    for entry in manifest(folder)["kernels"]:
        module = load_module(folder / entry["file"])
        if _bf16_on_cpu(module, device):
            # Triton 3.6's interpreter computes bf16 wrongly (numpy has no
            # bf16): only the GPU can check these.
            print(f"{entry['kernel']}: skipped (bf16 needs a GPU to check)")
            continue
        ok, worst, inputs = check_module(
            module, reference_module.function(entry["kernel"]), device,
            generator)
        line = f"{entry['kernel']}: {'ok' if ok else 'MISMATCH'} " \
               f"({len(module.KERNELS)} kernel(s), max error {worst:.3g})"
        if ok and args.time and device != "cpu":
            import triton.testing
            moved = [t.clone().to(device) for t in inputs]
            ms = triton.testing.do_bench(lambda: module.launch(*moved))
            line += f", {ms:.4f} ms"
        print(line)
        failures += not ok
    return 1 if failures else 0


# --- Vetting LLM-written modules ---------------------------------------------
# An LLM's Triton answer is Python: before anything imports it, its syntax
# tree must keep to what a kernel module needs. This is an allow-list against
# a model that strays (file or process access, reflection), not a sandbox.
_IMPORTS = {"math", "torch", "triton", "triton.language",
            "triton.language.extra", "triton.language.extra.libdevice"}
_BUILTINS_DENIED = {
    "eval", "exec", "compile", "open", "__import__", "globals", "locals",
    "vars", "getattr", "setattr", "delattr", "hasattr", "input",
    "breakpoint", "exit", "quit", "help", "memoryview", "type", "object",
    "super", "dir", "classmethod", "staticmethod", "property", "print"}
# Attributes reached from these roots that do I/O, load code or reach the
# runtime's internals.
_DENIED = {
    "torch": {"load", "save", "hub", "utils", "ops", "library", "classes",
              "jit", "compile", "backends", "distributed", "package", "onnx",
              "export", "fx", "from_file", "serialization", "multiprocessing",
              "cuda.memory", "profiler", "testing", "overrides"},
    "triton": {"runtime", "tools", "compiler", "backends", "knobs",
               "compile", "testing", "profiler"},
}
_METHODS_DENIED = {"tofile", "numpy", "storage", "untyped_storage",
                   "share_memory_", "pin_memory", "register_hook"}


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def vet(source):
    """The reasons `source` may not be imported (empty when it may)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return [f"it is not Python: line {error.lineno}: {error.msg}"]
    problems = []
    roots = {"torch": "torch", "triton": "triton", "tl": "triton",
             "libdevice": "triton"}
    for node in ast.walk(tree):
        where = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name not in _IMPORTS:
                    problems.append(f"{where}: import of {alias.name} "
                                    f"(allowed: {', '.join(sorted(_IMPORTS))})")
                roots[alias.asname or alias.name.split(".")[0]] = \
                    alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            if node.module not in _IMPORTS or node.level:
                problems.append(f"{where}: import from {node.module}")
            for alias in node.names:
                if alias.name == "*":
                    problems.append(f"{where}: import *")
                roots[alias.asname or alias.name] = \
                    (node.module or "").split(".")[0]
        elif isinstance(node, ast.Name):
            if node.id.startswith("__") or node.id in _BUILTINS_DENIED:
                problems.append(f"{where}: the name {node.id}")
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("_"):
                problems.append(f"{where}: the attribute {node.attr}")
            elif node.attr in _METHODS_DENIED:
                problems.append(f"{where}: the method {node.attr}")
            dotted = _dotted(node)
            if dotted:
                head, _, rest = dotted.partition(".")
                denied = _DENIED.get(roots.get(head, ""), ())
                if any(rest == d or rest.startswith(d + ".") for d in denied):
                    problems.append(f"{where}: {dotted}")
        elif isinstance(node, (ast.Global, ast.Nonlocal, ast.AsyncFunctionDef,
                               ast.Await, ast.ClassDef)):
            problems.append(f"{where}: {type(node).__name__} statements")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and "__" in node.value:
            problems.append(f"{where}: a string naming a dunder")
    # One report per distinct problem, in source order.
    problems.sort(key=lambda p: int(p.split(":")[0][5:])
                  if p[5:].split(":")[0].isdigit() else 0)
    return list(dict.fromkeys(problems))


_INTERFACE = ("NAME", "ARGUMENTS", "RESULTS", "KERNELS", "SIGNATURES",
              "CONSTEXPRS", "NUM_WARPS", "NUM_STAGES", "GRIDS", "launch")


def _verify(args):
    """Vets, compiles and checks one candidate module; prints the verdict as
    one JSON line and returns 0 when it is verified."""
    import subprocess
    import tempfile

    def verdict(status, reason="", **extra):
        print(json.dumps({"status": status, "reason": reason, **extra}))
        return 0 if status == "verified" else 1

    candidate = Path(args.candidate)
    problems = vet(candidate.read_text())
    if problems and problems[0].startswith("it is not Python"):
        return verdict("rejected", problems[0])
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        return verdict("rejected", "the module uses what a kernel module may "
                       "not: " + "; ".join(problems[:3]) + more)
    device = _resolve_device(args.device)
    with tempfile.TemporaryDirectory(prefix="qimeng-triton-") as tmp:
        folder = Path(tmp)
        (folder / "candidate.py").write_text(candidate.read_text())
        (folder / "manifest.json").write_text(json.dumps({"kernels": [{
            "kernel": args.kernel, "file": "candidate.py", "form": "llm"}]}))
        # Each part in a process of its own: the interpreter is chosen
        # before triton is imported, and a crash is a verdict, not ours.
        base = [sys.executable, "-m", "qimeng.triton"]
        steps = [("compile", base + ["compile", tmp, "--arch", str(args.arch),
                                     "--like", args.like]),
                 ("check", base + ["check", tmp, "--mlir", args.mlir,
                                   "--device", device, "--seed",
                                   str(args.seed)])]
        for name, command in steps:
            try:
                proc = subprocess.run(command, capture_output=True, text=True,
                                      timeout=args.timeout)
            except subprocess.TimeoutExpired:
                return verdict("unverified", f"the {name} step ran past "
                               f"{args.timeout} s", device=device)
            lines = [l for l in (proc.stdout + proc.stderr).splitlines()
                     if l.strip()]
            last = lines[-1] if lines else f"exit status {proc.returncode}"
            if name == "check" and "skipped (bf16" in proc.stdout:
                return verdict("unverified", "bf16 results need a GPU to "
                               "check (Triton's interpreter computes bf16 "
                               "wrongly)", device=device, no_gpu=True)
            if proc.returncode != 0:
                error = next((l for l in lines if "MISMATCH" in l), last)
                return verdict("failed", f"{name}: {error.strip()[:400]}",
                               device=device)
        return verdict("verified", lines[-1] if lines else "", device=device)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m qimeng.triton")
    sub = parser.add_subparsers(dest="command", required=True)
    comp = sub.add_parser("compile", help="compile every emitted kernel (no GPU needed)")
    comp.add_argument("dir")
    comp.add_argument("--arch", type=int, default=90)
    comp.add_argument("--ptx", help="also write each kernel's PTX here")
    comp.add_argument("--like", help="an emitted module whose interface "
                      "(arguments, results) each module must keep")
    check = sub.add_parser("check", help="run every kernel against QiMeng's CPU build")
    check.add_argument("dir")
    check.add_argument("--mlir", required=True,
                       help="the MLIR file the modules were emitted from")
    check.add_argument("--device", default="cpu",
                       help="cpu (Triton's interpreter), cuda, or auto")
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--time", action="store_true")
    ver = sub.add_parser("verify", help="vet, compile and check an LLM's "
                         "module (one JSON line)")
    ver.add_argument("candidate")
    ver.add_argument("--like", required=True,
                     help="the emitted module the candidate replaces")
    ver.add_argument("--mlir", required=True,
                     help="an MLIR file holding the kernel's function")
    ver.add_argument("--kernel", required=True,
                     help="the kernel's function name")
    ver.add_argument("--device", default="auto")
    ver.add_argument("--arch", type=int, default=90)
    ver.add_argument("--seed", type=int, default=0)
    ver.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args(argv)
    if args.command == "check":
        args.device = _resolve_device(args.device)
        if args.device == "cpu":
            # Before triton is imported: its interpreter runs kernels on
            # numpy.
            os.environ["TRITON_INTERPRET"] = "1"
    return {"compile": _compile, "check": _check,
            "verify": _verify}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
