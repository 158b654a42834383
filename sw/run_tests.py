#!/usr/bin/env python3
"""Runs `make <target>` for each test target and prints one closing line.

A target may print its own "N passed, N failed" lines; they are summed. A
target that prints none counts as one test, passed if it exits 0. A target
that exits non-zero with no failures reported counts one extra failure.
"""
import re
import subprocess
import sys
import time

LINE = re.compile(r"^(?:[^:]*:\s*)?(\d+) passed, (\d+) failed(?:, \d+ skipped)?\s*$")


def run(target):
    start = time.time()
    proc = subprocess.run(["make", "--no-print-directory", "-s", target],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    passed = failed = 0
    counted = False
    for line in proc.stdout.splitlines():
        print(f"  [{target}] {line}")
        m = LINE.match(line.strip())
        if m:
            passed += int(m.group(1))
            failed += int(m.group(2))
            counted = True
    if not counted:
        passed, failed = (1, 0) if proc.returncode == 0 else (0, 1)
    elif proc.returncode != 0 and failed == 0:
        failed = 1
    status = "ok" if proc.returncode == 0 and failed == 0 else "FAILED"
    print(f"== {target}: {status} ({passed} passed, {failed} failed, "
          f"{time.time() - start:.1f} s)", flush=True)
    return passed, failed, status


def main(targets):
    if not targets:
        print("run_tests: no test targets defined", file=sys.stderr)
        return 2
    total_p = total_f = 0
    failed_targets = []
    for t in targets:
        p, f, status = run(t)
        total_p += p
        total_f += f
        if status != "ok":
            failed_targets.append(f"{t} ({f} failed)")
    if failed_targets:
        # Repeated at the end so that the tail of a long log names them.
        print("FAILED targets: " + ", ".join(failed_targets))
    print(f"{total_p} passed, {total_f} failed")
    return 1 if total_f else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
