# -*- Python -*-
# lit configuration for QiMeng.

import ctypes
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "QIMENG"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".json", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.qimeng_obj_root, "test")

config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
# Where the CUDA toolkit is (libdevice for GPU math, ptxas): lit drops the
# environment otherwise.
for var in ("CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"):
    if os.environ.get(var):
        config.environment[var] = os.environ[var]
# The LLM client's config and cache: never the user's. Tests that use the
# cache give their own directory; this one catches the rest and starts empty.
_xdg = os.path.join(config.test_exec_root, "xdg")
shutil.rmtree(_xdg, ignore_errors=True)
config.environment["XDG_CONFIG_HOME"] = os.path.join(_xdg, "config")
config.environment["XDG_CACHE_HOME"] = os.path.join(_xdg, "cache")
llvm_config.use_default_substitutions()
config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%qimeng_src", os.path.dirname(config.test_source_root)))
config.substitutions.append(("%qimeng_obj", config.qimeng_obj_root))
config.substitutions.append(
    ("%qimeng_plugin", os.path.join(config.qimeng_lib_dir, "QiMengPlugin.so"))
)

tool_dirs = [config.qimeng_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["qimeng-opt", ToolSubst("%mlir_opt", config.mlir_opt)], tool_dirs
)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.qimeng_tools_dir, append_path=True)

# --- Optional features -------------------------------------------------------
if config.qimeng_build_plugin:
    config.available_features.add("plugin")
if config.qimeng_static_mlir:
    config.available_features.add("static-mlir")
# The fuzz targets with their standalone drivers (fuzz/, docs/fuzzing.md).
if getattr(config, "qimeng_fuzz_regression", False):
    config.available_features.add("fuzzers")
    llvm_config.add_tool_substitutions(
        [
            "fuzz-mlir-input",
            "fuzz-plan-json",
            "fuzz-llm-reply",
            "fuzz-candidate-check",
            "fuzz-npy",
            "fuzz-tuning-db",
            "fuzz-llm-cache",
        ],
        tool_dirs,
    )


def _have_cuda_gpu():
    """True only where a CUDA driver is installed *and* reports a device."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    if cuda.cuInit(0) != 0:
        return False
    count = ctypes.c_int(0)
    return cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0


if _have_cuda_gpu():
    config.available_features.add("cuda")
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas_dir", os.path.dirname(ptxas)))
    config.substitutions.append(("%ptxas", ptxas))

# The PyTorch integration (python/): its tests run with the checkout's .venv
# (scripts/setup-python.sh) when it has torch, torch-mlir and the package.
# The package finds the tools of this build through QIMENG_HOME.
config.environment["QIMENG_HOME"] = config.qimeng_obj_root
_venv_python = os.path.join(
    os.path.dirname(config.test_source_root), ".venv", "bin", "python"
)

def _venv_imports(modules):
    """Whether the checkout's .venv imports `modules` (a comma list)."""
    return os.path.exists(_venv_python) and subprocess.run(
        [_venv_python, "-c", "import " + modules],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ).returncode == 0


if os.path.exists(_venv_python):
    config.substitutions.append(("%venv_python", _venv_python))
if _venv_imports("torch, torch_mlir, qimeng.torch"):
    config.available_features.add("torch")
    config.substitutions.append(("%torch_python", _venv_python))

# IREE (iree-base-compiler in the same .venv): QiMeng's tuning specs are
# compiled with it (python -m qimeng.iree).
if os.path.exists(os.path.join(os.path.dirname(_venv_python), "iree-compile")):
    config.available_features.add("iree")

# Triton (a dependency of torch in the same .venv): emitted kernels are
# compiled for sm_90 and run in Triton's interpreter.
if _venv_imports("triton, qimeng.triton"):
    config.available_features.add("triton")
