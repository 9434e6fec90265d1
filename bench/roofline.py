#!/usr/bin/python3
"""Roofline picture of benchmark results: one point per problem (its FLOPs
over the bytes it must move, against the FLOP/s QiMeng reached), under the
copy-bandwidth slope and the fp32 and bf16 matmul ceilings measured on the
same GPU.

  /usr/bin/python3 bench/roofline.py --peaks RUN.json RESULTS.json... \\
      --out docs/img/roofline.png --json docs/img/roofline.json

Each RESULTS.json is bench/run.py's output (a problem's `flops`, `bytes` and
`qimeng.median_ms`); a problem named in several files takes its point from
the last one, so pass the run of record first and later runs after it. The
peaks (`peaks.copy_gbps`, `fp32_tflops`, `bf16_tflops`) come from --peaks.
The points and where each came from go to --json.

Needs matplotlib (Debian: python3-matplotlib, docs/dependencies.md); only
this script does.
"""

import argparse
import json
import os
import sys


def load_points(paths):
    """{problem name: point} from the results files, later files winning."""
    points = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for problem in data.get("problems", []):
            timing = problem.get("qimeng")
            if not isinstance(timing, dict) or not timing.get("median_ms"):
                continue
            if not problem.get("flops") or not problem.get("bytes"):
                continue
            if problem.get("correct") is False:
                continue
            seconds = timing["median_ms"] / 1e3
            points[problem["name"]] = {
                "name": problem["name"],
                "shapes": problem.get("shapes", "v0.1"),
                "intensity": problem["flops"] / problem["bytes"],
                "gflops": problem["flops"] / seconds / 1e9,
                "gbps": problem["bytes"] / seconds / 1e9,
                "ms": timing["median_ms"],
                "source": path,
            }
    return points


def draw(points, peaks, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    copy = peaks["copy_gbps"]
    ceilings = [("fp32 (cuBLAS, TF32 off)", peaks["fp32_tflops"] * 1e3),
                ("bf16 (cuBLAS)", peaks["bf16_tflops"] * 1e3)]
    fig, ax = plt.subplots(figsize=(10, 6.5), dpi=120)
    xs = [p["intensity"] for p in points.values()]
    lo = min(xs + [0.05]) / 2
    hi = max(xs + [2000]) * 2
    grid = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    top = max(g for _, g in ceilings)
    ax.plot(grid, [min(x * copy, top) for x in grid], color="black", lw=1.2,
            label="copy bandwidth %.0f GB/s" % copy)
    # Each ceiling from its ridge point on (below it, the slope bounds).
    for (label, gflops), style in zip(ceilings, ["--", ":"]):
        ridge = [x for x in grid if x * copy >= gflops]
        ax.plot(ridge, [gflops] * len(ridge), color="gray", ls=style,
                lw=1.2, label="%s %.1f TFLOP/s" % (label, gflops / 1e3))
    markers = {"v0.1": ("o", "tab:blue"), "current": ("^", "tab:red")}
    for kind, (marker, color) in markers.items():
        chosen = [p for p in points.values()
                  if (p["shapes"] == "current") == (kind == "current")]
        if not chosen:
            continue
        ax.scatter([p["intensity"] for p in chosen],
                   [p["gflops"] for p in chosen], marker=marker, color=color,
                   s=36, zorder=3,
                   label="KernelBench current shapes" if kind == "current"
                   else "KernelBench v0.1 shapes")
        for p in chosen:
            ax.annotate(p["name"].split("-", 2)[0] + "-" +
                        p["name"].split("-", 2)[1],
                        (p["intensity"], p["gflops"]), fontsize=6.5,
                        xytext=(3, 2), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_xlabel("arithmetic intensity (FLOP per byte moved: inputs once, "
                  "output once)")
    ax.set_ylabel("GFLOP/s reached by QiMeng (median)")
    ax.set_title("QiMeng on the H200: roofline of the benchmark problems")
    ax.grid(True, which="both", lw=0.3, alpha=0.5)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--peaks", required=True,
                        help="a bench/run.py result with measured peaks")
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--json", help="the points and their sources")
    args = parser.parse_args()
    with open(args.peaks) as f:
        peaks = json.load(f).get("peaks")
    if not peaks:
        print("roofline: %s has no measured peaks" % args.peaks,
              file=sys.stderr)
        return 1
    points = load_points(args.results)
    if not points:
        print("roofline: no timed, correct problem in the results",
              file=sys.stderr)
        return 1
    try:
        draw(points, peaks, args.out)
    except ImportError:
        print("roofline: needs matplotlib (apt-get install "
              "python3-matplotlib; run with /usr/bin/python3)",
              file=sys.stderr)
        return 1
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"peaks": peaks, "peaks_from": args.peaks,
                       "points": sorted(points.values(),
                                        key=lambda p: p["name"])},
                      f, indent=1)
    print("roofline: %d problems -> %s" % (len(points), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
