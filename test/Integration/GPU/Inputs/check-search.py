"""Checks a searched kernel's compile report: every candidate was measured
and has a reward, the kept plan is the fastest correct one and at least as
fast as the default plan.

usage: check-search.py REPORT KERNEL
"""
import json
import sys

report_path, kernel = sys.argv[1:]
with open(report_path) as f:
    entry = json.load(f)["kernels"][kernel]
tuning = entry["tuning"]
assert tuning["source"] == "search", tuning
candidates = tuning["candidates"]
assert candidates[0]["source"] == "default", candidates[0]
assert candidates[0]["verdict"] == "pass", candidates[0]
times = [c["time_ms"] for c in candidates if c["verdict"] == "pass"]
assert tuning["time_ms"] == min(times), (tuning["time_ms"], times)
assert tuning["time_ms"] <= tuning["default_ms"], tuning
assert tuning["speedup"] >= 1.0, tuning
for c in candidates:
    if c["verdict"] == "pass":
        assert c["reward"] >= 0.6, c
    elif c["verdict"] == "compile-error":
        assert c["reward"] == -1.0, c
# The measured winner, even the default plan, is kept as "tuned".
assert entry["planned_by"] == "tuned", (entry["planned_by"], tuning["best"])
print(f"{kernel}: {len(candidates)} candidates, default "
      f"{tuning['default_ms']:.4f} ms, best {tuning['time_ms']:.4f} ms "
      f"({tuning['speedup']:.2f}x, {tuning['best']}) in {tuning['seconds']:.1f} s")
