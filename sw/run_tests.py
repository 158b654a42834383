#!/usr/bin/env python3
"""Runs `make <target>` for each test target and prints one closing line.

A target may print its own "N passed, N failed" lines; they are summed. A
target that prints none counts as one test, passed if it exits 0. A target
that exits non-zero with no failures reported counts one extra failure.

Two lanes (the CI machine has two cores and most suites use one): the targets named by
--side (suites that touch only their own build directory: formal proofs, place and route,
feature cell counts) run one after another beside the others, which run in the order
given. TEST_LANES=1 in the environment runs everything in one lane, in order.

  run_tests.py [--side "t1 t2 ..."] target ...
"""
import os
import re
import subprocess
import sys
import threading
import time

PRINT_LOCK = threading.Lock()  # a target's lines are printed together, after it ends

LINE = re.compile(r"^(?:[^:]*:\s*)?(\d+) passed, (\d+) failed(?:, \d+ skipped)?\s*$")


def run(target):
    start = time.time()
    proc = subprocess.run(["make", "--no-print-directory", "-s", target],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    with PRINT_LOCK:
        return report(target, proc, start)


def report(target, proc, start):
    passed = failed = 0
    counted = False
    fails, in_fail = [], False  # FAIL lines and the indented lines right under them
    for line in proc.stdout.splitlines():
        print(f"  [{target}] {line}")
        if "FAIL" in line.split(":")[0] and "expected on the planted" not in line:
            in_fail = True
        elif not (in_fail and line.startswith((" ", "\t"))):
            in_fail = False
        if in_fail:
            fails.append(line)
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
    if status == "ok":
        fails = []
    elif not fails:
        fails = proc.stdout.splitlines()[-10:]
    return passed, failed, status, fails


def main(argv):
    side = []
    if argv[:1] == ["--side"]:
        if len(argv) < 2:
            print("run_tests: --side needs a list of targets", file=sys.stderr)
            return 2
        side, argv = argv[1].split(), argv[2:]
    targets = argv
    if not targets:
        print("run_tests: no test targets defined", file=sys.stderr)
        return 2
    unknown = [t for t in side if t not in targets]
    if unknown:
        print(f"run_tests: --side names targets that are not test targets: {' '.join(unknown)}",
              file=sys.stderr)
        return 2
    if os.environ.get("TEST_LANES", "2") == "1":
        side = []
    results = {}

    def lane(names):
        for t in names:
            results[t] = run(t)

    side_lane = threading.Thread(target=lane, args=([t for t in targets if t in side],))
    side_lane.start()
    lane([t for t in targets if t not in side])
    side_lane.join()
    total_p = total_f = 0
    failed_targets = []
    fail_lines = []
    for t in targets:
        p, f, status, lines = results[t]
        fail_lines += [f"  [{t}] {l}" for l in lines]
        total_p += p
        total_f += f
        if status != "ok":
            failed_targets.append(f"{t} ({f} failed)")
    if failed_targets:
        # Repeated at the end so that the tail of a long log names them and
        # shows what failed (at most 60 lines).
        for l in fail_lines[:60]:
            print(l)
        if len(fail_lines) > 60:
            print(f"  ... {len(fail_lines) - 60} more lines above")
        print("FAILED targets: " + ", ".join(failed_targets))
    print(f"{total_p} passed, {total_f} failed")
    return 1 if total_f else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
