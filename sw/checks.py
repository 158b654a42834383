"""Pass/fail counting shared by the Python test scripts: each check is one
assertion; summary() prints the `label: N passed, N failed` line that
sw/run_tests.py sums and returns the exit status."""

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
