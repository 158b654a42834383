"""Pass/fail counting shared by the Python test scripts: each check is one
assertion; summary() prints the `label: N passed, N failed` line that
sw/run_tests.py sums and returns the exit status."""

import json
import os
import subprocess

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")


def summary(label):
    print(f"{label}: {passed} passed, {failed} failed")
    return 1 if failed else 0


def run_net(asw, d, name, *args, expect=0):
    """`asw net ARGS` with its JSON in d/NAME.json: (parsed JSON, its text, stderr); a check
    fails unless the exit status is `expect` (nothing is parsed when it is not 0)."""
    j = os.path.join(d, name + ".json")
    r = subprocess.run([asw, "net", *args, "--quiet", "--json", j],
                       capture_output=True, text=True)
    if r.returncode != expect:
        check(False, f"{name}: exit {r.returncode} (expected {expect}): {r.stderr.strip()}")
        return None, None, r.stderr
    if expect:
        return None, None, r.stderr
    text = open(j).read()
    return json.loads(text), text, r.stderr
