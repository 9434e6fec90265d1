"""Checks that every examples/*.mlir and examples/plans/*.mlir is named in a
RUN line of a GPU/examples-*.test file."""
import glob
import os
import sys

examples, gpu_tests = sys.argv[1], sys.argv[2]
runs = ""
for test in glob.glob(os.path.join(gpu_tests, "examples-*.test")):
    with open(test) as f:
        runs += "".join(line for line in f if line.startswith("// RUN:"))
missing = []
for path in sorted(glob.glob(os.path.join(examples, "*.mlir"))) + sorted(
    glob.glob(os.path.join(examples, "plans", "*.mlir"))
):
    name = os.path.relpath(path, os.path.dirname(examples))
    if name not in runs:
        missing.append(name)
if missing:
    sys.exit("no GPU verification test for: " + ", ".join(missing))
print("all examples covered")
