#!/usr/bin/env python3
"""Merges benchmark results (bench/run.py) and writes the Markdown report.

    python3 bench/report.py results-a.json [results-b.json ...]
                            [--out docs/benchmarks.md] [--json merged.json]
                            [--command "how it was run"]

Later files win for a problem measured twice; peaks and environment come from
the first file that has them. Standard library only, so CI can test it on a
recorded result.

Per problem: correct, times (QiMeng, torch eager, torch.compile), speedups,
achieved GB/s and TFLOP/s and their fraction of the measured copy bandwidth
and cuBLAS fp32 rate. Summary: fast_0, fast_1, fast_2 against eager and
against torch.compile (the share of problems that are correct and at least
p times faster; fast_0 = correct), and the geometric-mean speedup per level
over the correct problems.
"""
import argparse
import json
import math
import sys


def merge(paths):
    merged = {"format": "qimeng-bench 1", "problems": {}}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for key in ("environment", "peaks", "protocol"):
            if key in data and key not in merged:
                merged[key] = data[key]
        source = data.get("environment", {}).get("qimeng")
        for problem in data.get("problems", []):
            merged["problems"][problem["name"]] = dict(problem,
                                                       qimeng_source=source)
    merged["problems"] = [merged["problems"][k]
                          for k in sorted(merged["problems"])]
    return merged


def rerun_notes(merged):
    """Partial reruns merged from other builds: which problems they hold."""
    first = merged.get("environment", {}).get("qimeng", "?")
    others = {}
    for entry in merged["problems"]:
        source = entry.get("qimeng_source") or first
        if source != first:
            others.setdefault(source, []).append(entry["name"])
    return ["- Rerun with QiMeng %s (merged over the run above): %s."
            % (source, ", ".join(names))
            for source, names in sorted(others.items())]


def ms(entry, key):
    value = entry.get(key, {})
    return value.get("median_ms") if isinstance(value, dict) else None


def speedup(entry, baseline):
    q, b = ms(entry, "qimeng"), ms(entry, baseline)
    return b / q if q and b else None


def fast_p(problems, baseline, p):
    if not problems:
        return 0.0
    hits = 0
    for entry in problems:
        s = speedup(entry, baseline)
        if entry.get("correct") and (p == 0 or (s is not None and s > p)):
            hits += 1
    return hits / len(problems)


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def summarize(merged):
    problems = merged["problems"]
    summary = {"problems": len(problems),
               "correct": sum(1 for p in problems if p.get("correct"))}
    for baseline in ("eager", "compile"):
        for p in (0, 1, 2):
            summary["fast_%d_vs_%s" % (p, baseline)] = fast_p(
                problems, baseline, p)
    for level in (1, 2):
        chosen = [p for p in problems
                  if p.get("level") == level and p.get("correct") and
                  p.get("shapes", "v0.1") == "v0.1"]
        for baseline in ("eager", "compile"):
            summary["geomean_L%d_vs_%s" % (level, baseline)] = geomean(
                [speedup(p, baseline) for p in chosen])
    # Level 1 again at KernelBench's current shapes (its K1-* problems).
    current = [p for p in problems
               if p.get("shapes") == "current" and p.get("correct")]
    for baseline in ("eager", "compile"):
        summary["geomean_K1_vs_%s" % baseline] = geomean(
            [speedup(p, baseline) for p in current])
    return summary


def fmt(value, digits=3, suffix=""):
    if value is None:
        return "–"
    if isinstance(value, float):
        return ("%." + str(digits) + "g") % value + suffix
    return str(value) + suffix


def pct(value):
    return "–" if value is None else "%.0f%%" % (100 * value)


def markdown(merged, summary, command):
    peaks = merged.get("peaks", {})
    env = merged.get("environment", {})
    protocol = merged.get("protocol", {})
    bw, fp32 = peaks.get("copy_gbps"), peaks.get("fp32_tflops")
    ridge = fp32 * 1e12 / (bw * 1e9) if bw and fp32 else None
    out = ["# Benchmarks", "",
           "KernelBench-style suite (`bench/`, shapes of KernelBench v0.1: "
           "ScalingIntelligence/KernelBench at bb27f27, 2024-10-24, except "
           "where a problem's note says otherwise), QiMeng's default "
           "`qimeng-opt --llm-plan --lower-to-nvvm` (built-in planner and "
           "micro-coder, no LLM) against PyTorch eager and `torch.compile` "
           "(default mode), TF32 off.", ""]
    out.append("- Hardware and software: %s (%s SMs, compute capability %s, "
               "driver %s), PyTorch %s, CUDA %s, Python %s; QiMeng %s." % (
                   env.get("gpu", "?"), env.get("sm_count", "?"),
                   env.get("compute_capability", "?"), env.get("driver", "?"),
                   env.get("torch", "?"), env.get("cuda", "?"),
                   env.get("python", "?"), env.get("qimeng", "?")))
    out += rerun_notes(merged)
    out.append("- Date: %s." % env.get("date", "?"))
    out.append("- Protocol: %s correctness trials per problem on fresh "
               "`torch.randn` inputs (NaN-filled output buffer, float64 "
               "reference, tolerance %s × max(1, rms) + %s × |expected|, "
               "integers exact) and the verifier's anti-cheat checks; "
               "timing by CUDA events, %s warm-up and %s timed calls, each "
               "after a %s-byte L2 flush, median." % (
                   protocol.get("trials", "?"), protocol.get("tolerance"),
                   protocol.get("tolerance"), protocol.get("warmup", "?"),
                   protocol.get("runs", "?"),
                   protocol.get("l2_flush_bytes", "?")))
    out.append("- Measured peaks in the same run: copy %s GB/s, cuBLAS fp32 "
               "%s TFLOP/s, bf16 %s TFLOP/s%s." % (
                   fmt(bw, 4), fmt(fp32, 3), fmt(peaks.get("bf16_tflops"), 3),
                   "; ridge point %.1f FLOP/byte" % ridge if ridge else ""))
    if command:
        out.append("- Reproduce: `%s`" % command)
    out += ["", "## Summary", "",
            "| | vs eager | vs torch.compile |", "|---|---|---|"]
    for p in (0, 1, 2):
        out.append("| fast_%d | %s | %s |" % (
            p, pct(summary["fast_%d_vs_eager" % p]),
            pct(summary["fast_%d_vs_compile" % p])))
    for level in (1, 2):
        out.append("| geomean speedup, level %d | %s | %s |" % (
            level, fmt(summary["geomean_L%d_vs_eager" % level], 3, "×"),
            fmt(summary["geomean_L%d_vs_compile" % level], 3, "×")))
    if summary.get("geomean_K1_vs_eager") is not None:
        out.append("| geomean speedup, level 1 at current shapes (K1-*) "
                   "| %s | %s |" % (
                       fmt(summary["geomean_K1_vs_eager"], 3, "×"),
                       fmt(summary["geomean_K1_vs_compile"], 3, "×")))
    out += ["", "%d of %d problems correct." % (summary["correct"],
                                               summary["problems"]), "",
            "## Problems", "",
            "| problem | correct | QiMeng ms | eager ms | compile ms | "
            "vs eager | vs compile | GB/s | % copy BW | TFLOP/s | % fp32 "
            "peak | bound |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for entry in merged["problems"]:
        q = ms(entry, "qimeng")
        gbps = entry["bytes"] / (q * 1e6) if q else None
        tflops = entry["flops"] / (q * 1e9) if q else None
        intensity = entry["flops"] / entry["bytes"] if entry["bytes"] else 0
        bound = ("–" if ridge is None else
                 "memory" if intensity < ridge else "compute")
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                   "| %s |" % (
                       entry["name"], "yes" if entry.get("correct") else
                       "**no**", fmt(q, 3), fmt(ms(entry, "eager"), 3),
                       fmt(ms(entry, "compile"), 3),
                       fmt(speedup(entry, "eager"), 3, "×"),
                       fmt(speedup(entry, "compile"), 3, "×"),
                       fmt(gbps, 4), pct(gbps / bw if gbps and bw else None),
                       fmt(tflops, 3),
                       pct(tflops / fp32 if tflops and fp32 else None),
                       bound))
    failures = [e for e in merged["problems"] if e.get("error")]
    if failures:
        out += ["", "## Failures and notes", ""]
        for entry in failures:
            out.append("- %s: %s" % (entry["name"], entry["error"]))
    notes = [e for e in merged["problems"] if e.get("note")]
    if notes:
        out += ["", "## Shapes that differ from KernelBench v0.1", ""]
        for entry in notes:
            out.append("- %s: %s" % (entry["name"], entry["note"]))
    return "\n".join(out) + "\n"


def tuned_markdown(tuned, merged, command):
    """The tuned-plan run (bench/run.py --tuning-db --search) beside the
    default-plan run: per problem the default plan's and the tuned plan's
    time measured by the search in the same session, the tuned plan's time
    by the benchmark protocol, the search's size and seconds."""
    default = {e["name"]: e for e in merged["problems"]}
    env = tuned.get("environment", {})
    protocol = tuned.get("protocol", {})
    out = ["", "## Tuned plans (plan search, docs/tuning.md)", "",
           "QiMeng %s, %s, %s; search of up to %s candidates per kernel "
           "(`--qimeng-search=%s`), each verified against the reference and "
           "timed by the same protocol as above. \"search: default → "
           "best\" are the search's own measurements of the built-in plan "
           "and of the plan it kept, in one session; \"tuned ms\" is the "
           "kept plan timed again by the benchmark, \"default run ms\" the "
           "run of record above." % (
               env.get("qimeng", "?"), env.get("gpu", "?"),
               env.get("date", "?"), protocol.get("search", "?"),
               protocol.get("search", "?"))]
    notes = rerun_notes(tuned)
    if notes:
        out += [""] + notes + [""]
    if command:
        out.append("Reproduce: `%s`" % command)
    out += ["", "| problem | correct | default run ms | search: default → "
            "best ms | search speedup | tuned ms | eager ms | tuned vs eager"
            " | measured | search s | kept |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    speedups, seconds = [], []
    for entry in tuned["problems"]:
        t = entry.get("tuning", {})
        base = default.get(entry["name"], {})
        q = ms(entry, "qimeng")
        if t.get("speedup"):
            speedups.append(t["speedup"])
        if t.get("seconds"):
            seconds.append(t["seconds"])
        out.append("| %s | %s | %s | %s → %s | %s | %s | %s | %s | %s | %s "
                   "| %s |" % (
                       entry["name"],
                       "yes" if entry.get("correct") else "**no**",
                       fmt(ms(base, "qimeng"), 3),
                       fmt(t.get("default_ms"), 3), fmt(t.get("time_ms"), 3),
                       fmt(t.get("speedup"), 3, "×"), fmt(q, 3),
                       fmt(ms(entry, "eager"), 3),
                       fmt(speedup(entry, "eager"), 3, "×"),
                       t.get("measured", "–"), fmt(t.get("seconds"), 3),
                       ("`%s`" % t["best"]) if t.get("best") else
                       t.get("source", "–")))
    if speedups:
        line = "Geomean search speedup over the built-in plan: %s over %d " \
            "kernels" % (fmt(geomean(speedups), 3, "×"), len(speedups))
        if seconds:
            line += "; search seconds per kernel: median %s, max %s" % (
                fmt(sorted(seconds)[len(seconds) // 2], 3),
                fmt(max(seconds), 3))
        out += ["", line + "."]
    # The two runs side by side, over the problems both have; each run's
    # eager times are its own session's (small multi-kernel eager sequences
    # vary by up to 2x between sessions), hence QiMeng's own ratio too.
    rows = []
    for level in (1, 2):
        triples = []
        for e in tuned["problems"]:
            base = default.get(e["name"])
            # Correct kernels only, as the summary's geomeans.
            if e.get("level") != level or not base or not (
                    e.get("correct") and base.get("correct")):
                continue
            q, b = ms(e, "qimeng"), ms(base, "qimeng")
            triples.append((speedup(base, "eager"), speedup(e, "eager"),
                            b / q if q and b else None))
        triples = [t for t in triples if all(t)]
        if triples:
            rows.append("| level %d (%d problems) | %s | %s | %s |" % (
                level, len(triples),
                fmt(geomean([t[0] for t in triples]), 3, "×"),
                fmt(geomean([t[1] for t in triples]), 3, "×"),
                fmt(geomean([t[2] for t in triples]), 3, "×")))
    if rows:
        out += ["", "| geomean | default run vs eager | tuned vs eager | "
                "tuned vs default run (QiMeng ms) |", "|---|---|---|---|"] + rows
        out += ["", "Each run's eager times are from its own session. The "
                "last column also holds whatever changed in the built-in "
                "plans between the two runs' builds; the search's own "
                "speedup above is the like-for-like figure."]
    failures = [e for e in tuned["problems"] if e.get("error")]
    for entry in failures:
        out.append("- %s: %s" % (entry["name"], entry["error"]))
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--tuned", nargs="+",
                        help="a tuned-plan run (several partial files are "
                             "merged) to show beside")
    parser.add_argument("--tuned-command", default="",
                        help="the command that produced the tuned run")
    parser.add_argument("--out", default="-")
    parser.add_argument("--json", help="also write the merged results here")
    parser.add_argument("--command", default="",
                        help="the command that produced the results")
    args = parser.parse_args()
    merged = merge(args.results)
    merged["summary"] = summarize(merged)
    text = markdown(merged, merged["summary"], args.command)
    if args.tuned:
        text += tuned_markdown(merge(args.tuned), merged, args.tuned_command)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(merged, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
