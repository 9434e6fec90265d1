"""Where QiMeng's tools are, and running `qimeng-opt`.

Looked up in order: `$QIMENG_HOME` (a directory with bin/ and lib/, e.g. an
unpacked GPU pack), the build directory of the checkout this package lives
in (`build/`), and `qimeng-opt` on PATH.
"""

import hashlib
import os
import shutil
import subprocess
from pathlib import Path


class ToolError(RuntimeError):
    """A QiMeng tool is missing or failed; the message says which and why."""


def _homes():
    if os.environ.get("QIMENG_HOME"):
        yield Path(os.environ["QIMENG_HOME"])
    # python/qimeng/_tools.py -> the checkout's build/
    yield Path(__file__).resolve().parents[2] / "build"


def qimeng_opt() -> Path:
    for home in _homes():
        tool = home / "bin" / "qimeng-opt"
        if tool.is_file():
            return tool
    found = shutil.which("qimeng-opt")
    if found:
        return Path(found)
    raise ToolError(
        "qimeng-opt not found: build QiMeng (scripts/build.sh) or set QIMENG_HOME"
    )


def runtime_library() -> Path:
    for home in _homes():
        lib = home / "lib" / "libqimeng_runtime.so"
        if lib.is_file():
            return lib
    raise ToolError(
        "libqimeng_runtime.so not found: build QiMeng (scripts/build.sh) or "
        "set QIMENG_HOME"
    )


def tools_fingerprint() -> str:
    """Identifies the compiler build, for cache keys: size and mtime of
    qimeng-opt (a rebuilt compiler invalidates what it compiled)."""
    tool = qimeng_opt()
    st = tool.stat()
    return hashlib.sha256(f"{tool}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:16]


def run_qimeng_opt(args, *, timeout=None):
    """Runs qimeng-opt with `args`; returns its stderr. Raises ToolError with
    the tool's diagnostics when it fails."""
    cmd = [str(qimeng_opt())] + [str(a) for a in args]
    try:
        done = subprocess.run(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise ToolError(f"qimeng-opt ran past {timeout} s: {' '.join(cmd)}")
    if done.returncode != 0:
        lines = [l for l in done.stderr.splitlines() if l.strip()]
        errors = [l for l in lines if "error:" in l] or lines[-3:]
        raise ToolError("qimeng-opt failed: " + " | ".join(errors[:3]))
    return done.stderr
