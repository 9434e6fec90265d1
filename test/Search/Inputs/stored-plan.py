"""Writes a tuning export holding one measured plan for the kernel a compile
report names: the key (fingerprint, chip, version) comes from the report's
tuning entry, the GPU from argv, the plan from a JSON file.

usage: stored-plan.py REPORT KERNEL GPU PLAN.json OUT.json
"""
import json
import sys

report_path, kernel, gpu, plan_path, out_path = sys.argv[1:]
with open(report_path) as f:
    tuning = json.load(f)["kernels"][kernel]["tuning"]
with open(plan_path) as f:
    plan = json.load(f)
record = {
    "fingerprint": tuning["fingerprint"],
    "gpu": gpu,
    "chip": tuning["chip"],
    "version": tuning["version"],
    "kernel": kernel,
    "family": "elementwise",
    "features": {},
    "plan": plan,
    "source": "neighbour",
    "compiled": True,
    "correct": True,
    "time_ms": 0.5,
    "default_ms": 0.6,
    "verdict": "pass",
    "reason": "",
    "measured_at": "2026-12-03T10:00:00Z",
}
with open(out_path, "w") as f:
    json.dump({"format": "qimeng-tuning", "version": 1, "records": [record]}, f)
