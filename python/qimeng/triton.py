"""The Triton modules `qimeng-opt --qimeng-emit-triton=DIR` writes
(docs/triton.md): compiling them without a GPU, and checking them on one.

    python -m qimeng.triton compile DIR [--arch 90] [--ptx DIR]
    python -m qimeng.triton check DIR --mlir in.mlir [--device cpu|cuda] [--time]

`check` runs every kernel's `launch` on random inputs and compares its
results with QiMeng's own CPU build of the same MLIR function (the
runtime's `on_cpu` path) within the benchmark's tolerance. On the CPU it
runs Triton's interpreter (TRITON_INTERPRET=1: no GPU, small shapes only);
with `--device cuda` the compiled kernels on the GPU, and `--time` gives
their median time.

Each module holds its @triton.jit kernels in launch order (`KERNELS`), per
kernel the compile-only `SIGNATURES`, `CONSTEXPRS`, `NUM_WARPS`,
`NUM_STAGES` and `GRIDS`, and `launch(*args)`.
Compiling uses `triton.compile(ASTSource(...), target=GPUTarget("cuda",
arch, 32))`, which needs no GPU (Triton's own ptxas makes the cubin).
"""

import argparse
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


def _compile(args):
    folder = Path(args.dir)
    failures = 0
    for entry in manifest(folder)["kernels"]:
        try:
            compiled = compile_module(load_module(folder / entry["file"]),
                                      args.arch)
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


def _check(args):
    import torch
    from . import runtime

    folder = Path(args.dir)
    reference_module = runtime.Module(args.mlir, on_cpu=True)
    generator = torch.Generator().manual_seed(args.seed)
    failures = 0
    for entry in manifest(folder)["kernels"]:
        module = load_module(folder / entry["file"])
        if args.device == "cpu" and any(
                dtype == torch.bfloat16
                for _, dtype in module.ARGUMENTS + module.RESULTS):
            # Triton 3.6's interpreter computes bf16 wrongly (numpy has no
            # bf16): only the GPU can check these.
            print(f"{entry['kernel']}: skipped (bf16 needs a GPU to check)")
            continue
        inputs = [_random(shape, dtype, "cpu", generator)
                  for shape, dtype in module.ARGUMENTS]
        expected = reference_module.function(entry["kernel"])(
            *[t.clone() for t in inputs])
        got = module.launch(*[t.clone().to(args.device) for t in inputs])
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
            worst = max(worst, float(error.max()))
            ok = ok and bool((error <= tol * scale + tol * e.abs()).all())
        line = f"{entry['kernel']}: {'ok' if ok else 'MISMATCH'} " \
               f"({len(module.KERNELS)} kernel(s), max error {worst:.3g})"
        if ok and args.time and args.device != "cpu":
            import triton.testing
            moved = [t.clone().to(args.device) for t in inputs]
            ms = triton.testing.do_bench(lambda: module.launch(*moved))
            line += f", {ms:.4f} ms"
        print(line)
        failures += not ok
    return 1 if failures else 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m qimeng.triton")
    sub = parser.add_subparsers(dest="command", required=True)
    comp = sub.add_parser("compile", help="compile every emitted kernel (no GPU needed)")
    comp.add_argument("dir")
    comp.add_argument("--arch", type=int, default=90)
    comp.add_argument("--ptx", help="also write each kernel's PTX here")
    check = sub.add_parser("check", help="run every kernel against QiMeng's CPU build")
    check.add_argument("dir")
    check.add_argument("--mlir", required=True,
                       help="the MLIR file the modules were emitted from")
    check.add_argument("--device", default="cpu",
                       help="cpu (Triton's interpreter) or cuda")
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--time", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "check" and args.device == "cpu":
        # Before triton is imported: its interpreter runs kernels on numpy.
        os.environ["TRITON_INTERPRET"] = "1"
    return _compile(args) if args.command == "compile" else _check(args)


if __name__ == "__main__":
    sys.exit(main())
