"""Compiling with IREE and a QiMeng tuning spec (docs/iree.md).

`qimeng-opt --llm-plan --qimeng-export-iree-spec=SPEC in.mlir` writes the
plans of contraction kernels as an IREE tuning spec. IREE 3.13's
`iree-compile` takes `--iree-codegen-tuning-spec-path` but its CUDA target
does not pass it to the pass that loads specs (its ROCm target does), so a
spec given that way is silently ignored. `compile` therefore compiles in
three steps: `iree-compile` to the executable sources, IREE's own
`iree-codegen-materialize-tuning-specs` pass run by `iree-opt` on each
executable with the spec (which records it in the executable's module), and
`iree-compile` from there to a `.vmfb`. It reads which kernels the spec
configured from the executable configurations (each configuration carries
`qimeng_kernel = "<name>"`).

    python -m qimeng.iree compile in.mlir --spec SPEC -o out.vmfb [--require-all]
    python -m qimeng.iree compile in.mlir -o default.vmfb      # IREE's defaults

The IREE tools come from `$QIMENG_IREE_BIN`, the directory of this Python's
executable (a venv with iree-base-compiler), or PATH.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

#: IREE 3.13's CUDA target knows sm_80 (Ampere) but not sm_90; sm_80 code
#: runs on Hopper.
DEFAULT_CUDA_TARGET = "sm_80"

_KERNEL_RE = re.compile(r'qimeng_kernel = "((?:[^"\\]|\\.)*)"')


class IREEError(RuntimeError):
    """An IREE tool is missing or failed; the message says which and why."""


def iree_tool(name: str) -> Path:
    """The path of IREE tool `name` (iree-compile, iree-opt, ...)."""
    candidates = []
    if os.environ.get("QIMENG_IREE_BIN"):
        candidates.append(Path(os.environ["QIMENG_IREE_BIN"]) / name)
    candidates.append(Path(sys.executable).parent / name)
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(name)
    if found:
        return Path(found)
    raise IREEError(
        f"{name} not found: install iree-base-compiler==3.13.0 "
        "(scripts/setup-python.sh does) or set QIMENG_IREE_BIN"
    )


def spec_kernels(spec_text: str) -> list:
    """The kernels a QiMeng spec configures, in order."""
    return _KERNEL_RE.findall(spec_text)


def configured_kernels(configurations_text: str) -> list:
    """The kernels whose QiMeng configuration IREE applied, from the output
    of `--compile-to=executable-configurations`."""
    seen = []
    for name in _KERNEL_RE.findall(configurations_text):
        if name not in seen:
            seen.append(name)
    return seen


@dataclass
class CompileResult:
    output: Path
    #: kernels of the spec whose configuration IREE applied
    applied: list = field(default_factory=list)
    #: kernels of the spec that matched no dispatch
    unmatched: list = field(default_factory=list)
    #: the executable configurations IREE chose (MLIR text)
    configurations: str = ""


def _run(args, what, timeout=1800):
    try:
        proc = subprocess.run(
            [str(a) for a in args], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise IREEError(f"{what} did not finish in {timeout} s") from None
    if proc.returncode != 0:
        raise IREEError(f"{what} failed (exit {proc.returncode}):\n"
                        + proc.stderr.strip())
    return proc


def compile(input_path, output_path, *, spec=None,
            cuda_target=DEFAULT_CUDA_TARGET, extra_flags=()) -> CompileResult:
    """Compiles `input_path` (linalg on tensors) for CUDA to `output_path`
    (a .vmfb, written only when every step succeeds), with the tuning spec
    `spec` applied when given."""
    input_path, output_path = Path(input_path), Path(output_path)
    compile_tool, opt_tool = iree_tool("iree-compile"), iree_tool("iree-opt")
    target = ["--iree-hal-target-device=cuda",
              f"--iree-cuda-target={cuda_target}", *extra_flags]
    spec_text = Path(spec).read_text() if spec else ""
    with tempfile.TemporaryDirectory(prefix="qimeng-iree-") as tmp:
        tmp = Path(tmp)
        sources = tmp / "sources.mlir"
        _run([compile_tool, input_path, *target,
              "--compile-to=executable-sources", "-o", sources],
             f"iree-compile {input_path}")
        if spec:
            # IREE's own spec loader, on every executable's inner module.
            with_spec = tmp / "sources-spec.mlir"
            spec_path = Path(spec).resolve()
            pipeline = ("builtin.module(hal.executable(hal.executable.variant("
                        "builtin.module(iree-codegen-materialize-tuning-specs{"
                        f"tuning-spec-path={spec_path}}}))))")
            # Single-threaded: IREE 3.13 deadlocks when two executables load
            # the spec at once.
            _run([opt_tool, sources, "--mlir-disable-threading",
                  f"--pass-pipeline={pipeline}",
                  "-o", with_spec], f"iree-opt (loading the spec {spec})")
            sources = with_spec
        configurations = tmp / "configurations.mlir"
        _run([compile_tool, sources, *target,
              "--compile-from=executable-sources",
              "--compile-to=executable-configurations", "-o", configurations],
             "iree-compile (configuring executables)")
        staged = tmp / "out.vmfb"
        _run([compile_tool, sources, *target,
              "--compile-from=executable-sources", "-o", staged],
             "iree-compile (code generation)")
        output_path.parent.mkdir(parents=True, exist_ok=True)
        partial = output_path.with_name(output_path.name + ".partial")
        shutil.copyfile(staged, partial)
        os.replace(partial, output_path)
        text = configurations.read_text()
    applied = configured_kernels(text)
    wanted = spec_kernels(spec_text)
    return CompileResult(output=output_path, applied=applied,
                         unmatched=[k for k in wanted if k not in applied],
                         configurations=text)


def _main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m qimeng.iree",
        description="Compile linalg on tensors with IREE for CUDA, applying "
                    "a QiMeng tuning spec (qimeng-opt --qimeng-export-iree-spec).")
    sub = parser.add_subparsers(dest="command", required=True)
    comp = sub.add_parser("compile", help="compile to a .vmfb")
    comp.add_argument("input", type=Path)
    comp.add_argument("-o", "--output", type=Path, required=True)
    comp.add_argument("--spec", type=Path,
                      help="the tuning spec (default: IREE's own configurations)")
    comp.add_argument("--cuda-target", default=DEFAULT_CUDA_TARGET)
    comp.add_argument("--require-all", action="store_true",
                      help="fail unless every kernel of the spec was applied")
    comp.add_argument("--configurations", type=Path,
                      help="also write the executable configurations here")
    args = parser.parse_args(argv)
    try:
        result = compile(args.input, args.output, spec=args.spec,
                         cuda_target=args.cuda_target)
    except (IREEError, OSError) as error:
        print(f"qimeng.iree: error: {error}", file=sys.stderr)
        return 1
    if args.configurations:
        args.configurations.write_text(result.configurations)
    if args.spec:
        total = len(result.applied) + len(result.unmatched)
        print(f"qimeng.iree: {args.output}: applied {len(result.applied)} of "
              f"{total} QiMeng configurations"
              + (f" ({', '.join(result.applied)})" if result.applied else "")
              + (f"; unmatched: {', '.join(result.unmatched)}"
                 if result.unmatched else ""), file=sys.stderr)
        if args.require_all and result.unmatched:
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(_main())
