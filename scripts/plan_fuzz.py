#!/usr/bin/env python3
"""Structural fuzzing of plans: random plans drawn from the plan schema.

For every example, the built-in planner's plan (exported as JSON) gives the
kernel, the tags of its operations and their loop counts. Random plans are
then drawn from the JSON Schema `qimeng-opt --print-plan-schema` prints:
each action a random variant of the schema's `anyOf`, each field a random
value of its type (enums from the schema, integers from a set that mixes
legal sizes with 0, 1, odd, huge and negative ones, arrays about as long as
the target has loops), some plans the default with a few actions replaced,
dropped or added. Each plan is imported into the prepared example and
compiled to PTX. A plan must either be rejected with a diagnostic (a
non-zero exit and an `error:` with a location) or compile; a signal, an
LLVM fatal error or a time-out is a failure. With --run, compiled plans are
also verified on the GPU (`qimeng-run --verify`) and must match.

Usage: plan_fuzz.py --opt qimeng-opt --examples DIR --out DIR
                    [--plans N] [--seed S] [-j N] [--run qimeng-run]
Writes OUT/results.json and prints a summary; exits 1 on any failure.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import random
import subprocess
import sys

# Mostly sizes a plan could use, some that no plan can (odd, huge, negative).
INTS = [0, 1, 1, 2, 2, 2, 4, 4, 4, 8, 8, 8, 16, 16, 16, 32, 32, 32, 64, 64,
        64, 128, 128, 256, 3, 5, 7, 1000, 4096, 1 << 20, -1]
# The flags the examples with dynamic sizes run with (one table).
from verify_examples import EXTRA_FLAGS as SHAPES  # noqa: E402
CRASH_MARKS = ("PLEASE submit a bug report", "LLVM ERROR", "Assertion",
               "Stack dump", "Segmentation fault", "UNREACHABLE")


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return None, "timeout"


def draw_int(rng):
    return rng.choice(INTS)


def draw_value(rng, schema, name, loops):
    kind = schema.get("type")
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if kind == "integer":
        return draw_int(rng)
    if kind == "string":
        return rng.choice(["x", "", "fill0"])
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "array":
        item = schema.get("items", {})
        if name == "interchange":
            if rng.random() < 0.6:
                return []
            perm = list(range(loops))
            rng.shuffle(perm)
            if rng.random() < 0.2:
                perm.append(rng.randrange(loops + 2))
            return perm
        length = max(0, loops + rng.choice([0, 0, 0, 0, -1, 1]))
        if name == "operands":
            length = rng.randrange(0, 4)
        if item.get("type") == "integer":
            return [draw_int(rng) for _ in range(length)]
        return [draw_value(rng, item, "", loops) for _ in range(length)]
    if kind == "object":
        return {}
    return None


def draw_action(rng, variants, targets, loops):
    variant = rng.choice(variants)
    action = {}
    target = rng.choice(targets) if targets else "op0"
    n = loops.get(target, 2)
    for field, spec in variant["properties"].items():
        if field == "target" or field in ("producer", "consumer"):
            action[field] = rng.choice(targets + ["nosuchop"]) \
                if rng.random() < 0.05 else target
            if field != "target":
                action[field] = rng.choice(targets) if targets else "op0"
        else:
            action[field] = draw_value(rng, spec, field, n)
    return action


def plan_facts(plan):
    targets, loops = [], {}
    for a in plan.get("actions", []):
        t = a.get("target")
        if t and t not in targets:
            targets.append(t)
        if t and isinstance(a.get("sizes"), list):
            loops[t] = max(loops.get(t, 0), len(a["sizes"]))
    return targets, loops


def draw_plan(rng, default, variants):
    targets, loops = plan_facts(default)
    plan = json.loads(json.dumps(default))
    actions = plan.get("actions", [])
    numbers = [(a, f) for a in actions for f, v in a.items()
               if f not in ("action", "target") and
               (isinstance(v, int) and not isinstance(v, bool) or
                isinstance(v, list) and v and isinstance(v[0], int))]
    if rng.random() < 0.4 and numbers:
        # Nudged: sizes doubled or halved, the plan's shape kept (mostly
        # plans that compile: the micro-coder and the GPU get exercised).
        for _ in range(rng.randrange(1, 3)):
            a, f = rng.choice(numbers)
            if isinstance(a[f], list):
                k = rng.randrange(len(a[f]))
                if a[f][k]:
                    a[f][k] = max(1, a[f][k] * 2 if rng.random() < 0.5 else a[f][k] // 2)
            else:
                a[f] = max(1, a[f] * 2 if rng.random() < 0.5 else a[f] // 2)
        return plan, "nudged"
    if rng.random() < 0.3:
        plan["actions"] = [draw_action(rng, variants, targets, loops)
                           for _ in range(rng.randrange(1, 10))]
        return plan, "random"
    for _ in range(rng.randrange(1, 4)):
        choice = rng.random()
        if choice < 0.4 and actions:
            actions[rng.randrange(len(actions))] = draw_action(rng, variants, targets, loops)
        elif choice < 0.6 and actions:
            del actions[rng.randrange(len(actions))]
        elif choice < 0.8:
            actions.insert(rng.randrange(len(actions) + 1),
                           draw_action(rng, variants, targets, loops))
        elif actions:
            a = actions[rng.randrange(len(actions))]
            fields = [f for f in a if f not in ("action", "target")]
            if fields:
                f = rng.choice(fields)
                if isinstance(a[f], int) and not isinstance(a[f], bool):
                    a[f] = draw_int(rng)
                elif isinstance(a[f], list) and a[f] and isinstance(a[f][0], int):
                    a[f][rng.randrange(len(a[f]))] = draw_int(rng)
    plan["actions"] = actions
    return plan, "edited"


def classify(code, err):
    if code is None:
        return "timeout"
    if code < 0 or any(m in err for m in CRASH_MARKS):
        return "crash"
    if code == 0:
        return "compiled"
    if "error:" in err:
        return "rejected"
    return "no-diagnostic"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opt", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--plans", type=int, default=10, help="plans per example")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=180)
    ap.add_argument("--run", help="qimeng-run: verify compiled plans on the GPU")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    schema = json.loads(subprocess.run([args.opt, "--print-plan-schema"],
                                       capture_output=True, text=True,
                                       check=True).stdout)
    variants = schema["properties"]["actions"]["items"]["anyOf"]
    jobs = []
    for path in sorted(glob.glob(os.path.join(args.examples, "*.mlir"))):
        name = os.path.basename(path)[:-len(".mlir")]
        if args.names and name not in args.names:
            continue
        prepared = os.path.join(args.out, name + ".prepared.mlir")
        exported = os.path.join(args.out, name + ".default.json")
        # Prepared and tagged as the planner tags it; the imported plan
        # replaces the built-in one.
        code, err = run([args.opt, "--qimeng-prepare", "--qimeng-plan", path,
                         "-o", prepared], 120)
        if code != 0:
            print("%s: does not prepare: %s" % (name, err.strip()[-200:]))
            continue
        code, err = run([args.opt,
                         "--qimeng-export-plan-json=output=" + exported,
                         prepared, "-o", os.devnull], 120)
        if code != 0:
            continue
        with open(exported) as f:
            defaults = json.load(f)
        rng = random.Random("%d/%s" % (args.seed, name))
        for i in range(args.plans):
            default = rng.choice(defaults)
            plan, how = draw_plan(rng, default, variants)
            plan_path = os.path.join(args.out, "%s.%d.json" % (name, i))
            with open(plan_path, "w") as f:
                json.dump(plan, f, indent=1)
            jobs.append((name, i, how, path, prepared, plan_path))

    def compile_one(job):
        name, i, how, source, prepared, plan_path = job
        out = plan_path[:-len(".json")] + ".gpu.mlir"
        code, err = run([args.opt, prepared,
                         "--qimeng-import-plan-json=input=" + plan_path,
                         "--llm-plan", "--lower-to-nvvm", "-o", out], args.timeout)
        verdict = classify(code, err)
        entry = {"example": name, "plan": os.path.basename(plan_path), "how": how,
                 "verdict": verdict}
        if verdict != "compiled":
            lines = [l for l in err.split("\n") if "error:" in l] or err.strip().split("\n")
            entry["message"] = lines[0][:300] if lines else ""
        if verdict == "compiled" and args.run:
            code, err = run([args.run, "--verify", "--trials=2", "--reference=" + source,
                             out] + SHAPES.get(name, []), args.timeout)
            entry["gpu"] = "pass" if code == 0 else (
                "fail" if "does not match" in err else "error")
            if code != 0:
                entry["gpu_message"] = err.strip().split("\n")[-1][:300]
        if verdict == "compiled" and os.path.exists(out):
            os.remove(out)
        return entry

    results = []
    # Written as results come: a run cut short keeps what it did.
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for entry in pool.map(compile_one, jobs):
            results.append(entry)
            with open(os.path.join(args.out, "results.json"), "w") as f:
                json.dump({"plans": results}, f, indent=1)
    counts = {}
    for r in results:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    gpu = {}
    for r in results:
        if "gpu" in r:
            gpu[r["gpu"]] = gpu.get(r["gpu"], 0) + 1
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"summary": counts, "gpu": gpu, "plans": results}, f, indent=1)
    print("plans: %d; %s" % (len(results), ", ".join(
        "%d %s" % (n, v) for v, n in sorted(counts.items()))))
    if gpu:
        print("gpu: " + ", ".join("%d %s" % (n, v) for v, n in sorted(gpu.items())))
    bad = [r for r in results if r["verdict"] in ("crash", "timeout", "no-diagnostic")
           or r.get("gpu") == "fail"]
    for r in bad:
        print("  %s %s: %s %s" % (r["example"], r["plan"], r["verdict"],
                                  r.get("message", r.get("gpu_message", ""))))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
