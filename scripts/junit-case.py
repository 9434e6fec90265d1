#!/usr/bin/env python3
"""Writes one JUnit XML test case for a step of scripts/test.sh that is not
a lit or unit test (the Python environment's setup), so count-tests.py
counts it: junit-case.py OUT.xml NAME EXIT_STATUS LOG."""
import sys
import xml.etree.ElementTree as ET

out, name, status, log = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
suite = ET.Element("testsuite", name="scripts", tests="1",
                   failures="0" if status == 0 else "1")
case = ET.SubElement(suite, "testcase", classname="scripts", name=name)
if status != 0:
    try:
        with open(log, errors="replace") as f:
            tail = f.read()[-4000:]
    except OSError:
        tail = ""
    ET.SubElement(case, "failure", message=f"exit status {status}").text = tail
    print(f"{name} failed (exit status {status}); see {log}", file=sys.stderr)
ET.ElementTree(suite).write(out, encoding="unicode")
