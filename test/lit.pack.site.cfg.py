# lit site configuration for the GPU test pack (scripts/pack.sh copies it to
# qimeng-gpu-pack/test/lit.site.cfg.py). Where lit.site.cfg.py.in gets its
# paths from CMake, this one takes them from its own location, so the pack
# works wherever it is unpacked: tools in bin/, their libraries in lib/,
# test outputs in out/ (or in the directory given by `--param qimeng_out=DIR`).

import os

pack_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

config.llvm_tools_dir = os.path.join(pack_root, "bin")  # FileCheck, not, count
config.qimeng_obj_root = os.path.abspath(
    lit_config.params.get("qimeng_out", os.path.join(pack_root, "out"))
)
# lit saves test times there even when every test is skipped.
os.makedirs(os.path.join(config.qimeng_obj_root, "test"), exist_ok=True)
config.qimeng_tools_dir = os.path.join(pack_root, "bin")
config.qimeng_lib_dir = os.path.join(pack_root, "lib")
config.qimeng_build_plugin = False  # no QiMengPlugin.so in the pack
config.qimeng_static_mlir = True  # bin/qimeng-* come from scripts/build-static.sh
config.qimeng_fuzz_regression = False  # no fuzz targets in the pack
config.mlir_opt = os.path.join(pack_root, "bin", "mlir-opt")  # not packed

import lit.llvm

lit.llvm.initialize(lit_config, config)

lit_config.load_config(config, os.path.join(pack_root, "test", "lit.cfg.py"))
