#!/usr/bin/env python3
"""Where a benchmark problem stands, for the next performance change.

    python3 bench/kernel_profile.py NAME [--bin DIR] [--ptxas PATH]
                             [--results bench-results.json] [--arch sm_90]

Prints the plan QiMeng chose, every kernel launch (grid, block), each
kernel's registers, shared memory and spills (ptxas -v, when a CUDA toolkit
is found) with the occupancy they allow on an H100/H200-class SM, and the
problem's roofline position: arithmetic intensity against the ridge point
of the measured peaks, and the achieved GB/s and TFLOP/s when a results file
has the problem.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import problems as registry  # noqa: E402

# Per-SM limits of compute capability 9.0.
SM_THREADS, SM_BLOCKS, SM_REGISTERS, SM_SHARED = 2048, 32, 65536, 228 * 1024
REGISTER_GRANULE, WARP = 256, 32


def tool(name, bin_dir):
    path = os.path.join(bin_dir, name) if bin_dir else shutil.which(name)
    if not path or not os.path.exists(path):
        sys.exit("profile: %s not found (use --bin DIR)" % name)
    return path


def occupancy(threads, registers, shared):
    """Resident warps per SM / 64, and what limits them."""
    warps = -(-threads // WARP)
    limits = {"threads": SM_THREADS // max(threads, 1), "blocks": SM_BLOCKS}
    if registers:
        per_warp = -(-registers * WARP // REGISTER_GRANULE) * REGISTER_GRANULE
        limits["registers"] = SM_REGISTERS // (per_warp * warps)
    if shared:
        limits["shared memory"] = SM_SHARED // shared
    blocks = min(limits.values())
    limiter = min(limits, key=limits.get)
    return min(1.0, blocks * warps / (SM_THREADS // WARP)), limiter


def ptxas_info(ptxas, ptx, arch):
    proc = subprocess.run([ptxas, "-v", "-arch=" + arch, ptx, "-o",
                           os.devnull], capture_output=True, text=True)
    info, current = {}, {}
    for line in proc.stderr.splitlines():
        if m := re.search(r"Compiling entry function '(\w+)'", line):
            current = info.setdefault(m.group(1), {})
        if m := re.search(r"Used (\d+) registers", line):
            current["registers"] = int(m.group(1))
            if m := re.search(r"(\d+) bytes smem", line):
                current["shared"] = int(m.group(1))
        if m := re.search(r"(\d+) bytes spill stores", line):
            current["spill_stores"] = int(m.group(1))
    return info


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name")
    parser.add_argument("--bin")
    parser.add_argument("--ptxas", default=shutil.which("ptxas") or
                        "/usr/local/cuda/bin/ptxas")
    parser.add_argument("--results")
    parser.add_argument("--arch", default="sm_90")
    args = parser.parse_args()
    problem = registry.by_name(args.name)
    opt = tool("qimeng-opt", args.bin)
    source = os.path.join(HERE, "problems", problem.mlir)
    work = tempfile.mkdtemp(prefix="qimeng-profile-")
    try:
        plan = subprocess.run([opt, source, "--qimeng-prepare",
                               "--qimeng-plan", "--qimeng-export-plan-json"],
                              capture_output=True, text=True)
        text = plan.stdout
        print("== %s (%s)" % (problem.name, problem.mlir))
        print("== plan")
        print(text[:text.find("\n]") + 2] if "\n]" in text else text)
        manifest = os.path.join(work, "launches.json")
        ptx_dir = os.path.join(work, "ptx")
        compiled = subprocess.run(
            [opt, source, "--llm-plan",
             "--lower-to-nvvm=dump-ptx=%s launch-manifest=%s" % (ptx_dir,
                                                                  manifest),
             "-o", os.devnull], capture_output=True, text=True)
        if compiled.returncode != 0:
            sys.exit("profile: compile failed: " + compiled.stderr.strip())
        with open(manifest) as f:
            launches = json.load(f)
        # Per kernel module (kernels of different modules may share a name).
        info = {}
        if os.path.exists(args.ptxas):
            for ptx in sorted(glob.glob(os.path.join(ptx_dir, "*.ptx"))):
                module = os.path.splitext(os.path.basename(ptx))[0]
                info[module] = ptxas_info(args.ptxas, ptx, args.arch)
        print("== kernels")
        for launch in launches:
            threads = launch["block"][0] * launch["block"][1] * launch["block"][2]
            k = info.get(launch["module"], {}).get(launch["kernel"], {})
            line = "%s: grid %s, block %s (%d threads)" % (
                launch["kernel"], launch["grid"], launch["block"], threads)
            if k:
                occ, limiter = occupancy(threads, k.get("registers", 0),
                                         k.get("shared", 0))
                line += ("; %d registers, %d B shared, %d B spilled; "
                         "occupancy %.0f%% (limited by %s)" % (
                             k.get("registers", 0), k.get("shared", 0),
                             k.get("spill_stores", 0), 100 * occ, limiter))
            else:
                line += "; no ptxas here for registers and shared memory"
            print(line)
        intensity = problem.flops / problem.bytes
        print("== roofline")
        print("arithmetic intensity %.2f FLOP/byte (%d FLOP, %d bytes)" % (
            intensity, problem.flops, problem.bytes))
        if args.results:
            with open(args.results) as f:
                results = json.load(f)
            peaks = results.get("peaks", {})
            if peaks.get("copy_gbps") and peaks.get("fp32_tflops"):
                ridge = peaks["fp32_tflops"] * 1e3 / peaks["copy_gbps"]
                print("ridge point %.1f FLOP/byte: %s-bound" % (
                    ridge, "memory" if intensity < ridge else "compute"))
            for entry in results.get("problems", []):
                if entry["name"] == problem.name and entry.get("qimeng"):
                    t = entry["qimeng"]["median_ms"]
                    gbps = problem.bytes / (t * 1e6)
                    tflops = problem.flops / (t * 1e9)
                    line = "achieved %.1f GB/s, %.3f TFLOP/s at %.4f ms" % (
                        gbps, tflops, t)
                    if peaks.get("copy_gbps") and peaks.get("fp32_tflops"):
                        line += " (%.0f%% of copy, %.0f%% of cuBLAS fp32)" % (
                            100 * gbps / peaks["copy_gbps"],
                            100 * tflops / peaks["fp32_tflops"])
                    print(line)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
