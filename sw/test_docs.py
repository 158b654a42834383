#!/usr/bin/env python3
"""Every command shown in a README is run (make test-docs).

Extracts the commands of every README.md in the repository (fenced code blocks without a
language or marked sh/bash/console, and 4-space indented blocks): lines that start with
`make`, `build/asw`, `python3`, `mpirun`, `srun` or a `yowasp-` tool (COMMAND below; a
trailing backslash continues a line; `# ...` comments are dropped); other lines of a block
are its output. Each command runs from the repository root; a non-zero exit fails the test.

Shortening, so the suite stays fast: cycle counts are capped (`CYCLES=`, `cycles=`,
`--cycles`, `SOAK_CYCLES=`, `ARN_CYCLES=` to DOCS_CYCLES, 3000 by default; `warmup=` to a
fifth of that; `SOAK_SEEDS=` and `ARN_SEEDS=` to 1), and output files named by `--json`, `--csv` go to build/docs/.

Skipping: a block preceded by `<!-- docs-test: skip REASON -->` (an HTML comment, not
shown to a reader) is skipped, and so is a command listed in SKIP below (with its reason:
too long for this test, or run by a suite of make test); plain `make` and `make test` (they
run this test) and `make test-<suite>` (make test runs it anyway) are skipped without a
marker. Every skip is listed with its reason. README text is for users: a code block that
still carries a `docs-test` note fails the test, and so does a SKIP entry that names no
documented command (a renamed command must not start running, or stop, unnoticed).

  test_docs.py [--list] [README ...]
"""
import os
import re
import subprocess
import time
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CYCLES = int(os.environ.get("DOCS_CYCLES", "3000"))
TIMEOUT = int(os.environ.get("DOCS_TIMEOUT", "900"))
SKIP_MARK = re.compile(r"<!--\s*docs-test:\s*skip\s*(.*?)\s*-->")
# The programs a documented command starts with (anything else in a block is output):
# make, a program built in build/ (build/asw, a testbench), python3, mpirun, srun,
# verilator, a yowasp- tool.
COMMAND = re.compile(r"^(make|build/[\w.+/-]+|python3|mpirun|srun|verilator|yowasp-[\w-]+)(\s|$)")
# Documented commands this test does not run, and why (the exact command, comment dropped).
SKIP = {
    "make soak SOAK_CYCLES=1000000 SOAK_SEEDS=10": "a dozen Verilator builds; test-cosim runs the same runner",
    "make soak SOAK_CYCLES=1000000 SOAK_SEEDS=5": "a dozen Verilator builds; test-cosim runs the same runner",
    "make coverage": "6 min; its runs are test-cosim's",
    "make cosim-random RANDOM_SEED=7 RANDOM_COUNT=4": "four Verilator builds; make test-cosim-random runs the same runner",
    "make fpga": "tens of minutes",
    "make fpga DEVICE=ecp5-25 SET=\"ports=6 vcs=2 buffer_flits=32 voq=off bubble=on\"": "minutes of Yosys + nextpnr; test-fpga checks SET=",
    "make fpga DEVICE=ecp5-25 CONFIG=small SET=\"qcn=on route_hash=on\" FREQ=60": "minutes of Yosys + nextpnr; test-fpga checks SET=",
    "make fpga DEVICE=ecp5-25 SET=\"ports=6 vcs=2 buffer_flits=32 pfc=on\"": "minutes of Yosys + nextpnr; test-fpga checks SET=",
    "make bitstream BOARD=ulx3s": "minutes of Yosys + nextpnr + ecppack",
    "make boards": "every board, tens of minutes",
    "make fusesoc-synth": "test-fusesoc runs it",
    "make fusesoc-synth FUSESOC_TARGET=ice40-up5k": "minutes each",
    "build/asw sweep --slurm --submit --dir build/sweep_slurm topology=kary k=4 n=3 --vary load=0.3,0.6":
        "needs sbatch",
    "build/asw sweep --merge --dir build/sweep_slurm": "after the Slurm array ran",
    "make formal": "run by make test-formal",
    "make formal FORMAL=\"credits islip_starve\"": "run by make test-formal",
    "make formal-mutants": "run by make test-formal",
    "make soak-long SOAK_LONG_BUILDS=12 SOAK_LONG_JOBS=2": "about 2 h on two cores",
    "make soak-long SOAK_LONG_CYCLES=50000000 SOAK_LONG_BUILDS=8": "50 x 10^6 cycles",
    "make axi-sim ASW_AXI_SEED=2": "test-axi runs it",
    "make board-sim": "serves 127.0.0.1:4321 until its client disconnects",
}


def readmes():
    out = subprocess.run(["git", "ls-files", "*README.md", "README.md"], cwd=ROOT,
                         capture_output=True, text=True).stdout.split()
    return sorted(set(out))


def blocks(text):
    """(first line number, lines, skip reason) of every shell-like code block."""
    lines = text.splitlines()
    res = []
    i = 0
    pending_skip = None
    in_list = False
    while i < len(lines):
        ln = lines[i]
        m = SKIP_MARK.search(ln)
        if m:
            pending_skip = m.group(1) or "marked"
            i += 1
            continue
        f = re.match(r"^(\s*)```(\w*)\s*$", ln)
        if f:
            lang = f.group(2)
            j = i + 1
            body = []
            while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
                body.append(lines[j])
                j += 1
            if lang in ("", "sh", "bash", "console", "shell"):
                res.append((i + 2, body, pending_skip))
            pending_skip = None
            i = j + 1
            continue
        if ln.startswith("    ") and ln.strip() and (i == 0 or not lines[i - 1].strip()) and not in_list:
            j = i
            body = []
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                body.append(lines[j][4:])
                j += 1
            res.append((i + 1, body, pending_skip))
            pending_skip = None
            i = j
            continue
        in_list = bool(re.match(r"^\s*([-*]|\d+\.)\s", ln)) or (in_list and ln.startswith(" "))
        if ln.strip():
            pending_skip = pending_skip if SKIP_MARK.search(ln) else None
        i += 1
    return res


def commands(body):
    """Command lines of a block (continuations joined), with their skip reason."""
    out = []
    cur = ""
    for raw in body:
        ln = raw.rstrip()
        if cur:
            cur += " " + ln.strip()
        else:
            cur = ln.strip()
        if cur.endswith("\\"):
            cur = cur[:-1].rstrip()
            continue
        if cur:
            out.append(cur)
        cur = ""
    if cur:
        out.append(cur)
    res = []
    for c in out:
        note = "docs-test" in c  # an internal note left in a user's README
        c = re.sub(r"\s+#.*$", "", c).strip()
        if COMMAND.match(c):
            res.append((c, "NOTE" if note else SKIP.get(c)))
    return res


def shorten(cmd):
    cap = lambda m: f"{m.group(1)}{min(int(m.group(2)), CYCLES)}"
    cmd = re.sub(r"\b((?:SOAK_|ARN_)?CYCLES=)(\d+)", cap, cmd)
    cmd = re.sub(r"\b(cycles=)(\d+)", cap, cmd)
    cmd = re.sub(r"(--cycles\s+)(\d+)", cap, cmd)
    cmd = re.sub(r"\b(warmup=)(\d+)", lambda m: f"{m.group(1)}{min(int(m.group(2)), CYCLES // 5)}", cmd)
    cmd = re.sub(r"(--warmup\s+)(\d+)", lambda m: f"{m.group(1)}{min(int(m.group(2)), CYCLES // 5)}", cmd)
    cmd = re.sub(r"\b((?:SOAK|ARN)_SEEDS=)(\S+)", r"\g<1>1", cmd)
    cmd = re.sub(r"\b(ARN_SEEDS=)\"[^\"]*\"", r"\g<1>1", cmd)
    cmd = re.sub(r"(--(?:json|csv)\s+)(?!-)(\S+)",
                 lambda m: f"{m.group(1)}build/docs/{os.path.basename(m.group(2))}", cmd)
    return cmd


def main(argv):
    only_list = "--list" in argv
    argv_files = [a for a in argv if not a.startswith("--")]
    files = argv_files or readmes()
    os.makedirs(os.path.join(ROOT, "build", "docs"), exist_ok=True)
    passed = failed = skipped = 0
    done = {}  # command -> (passed, where it first ran)
    listed = set()  # SKIP entries found in the READMEs
    for fn in files:
        text = open(os.path.join(ROOT, fn)).read()
        for line, body, bskip in blocks(text):
            for cmd, lskip in commands(body):
                where = f"{fn}:{line}"
                if lskip == "NOTE":
                    print(f"FAIL {where}: {cmd}  (a 'docs-test' note in a README code block: "
                          f"list the command in sw/test_docs.py SKIP or mark the block with "
                          f"<!-- docs-test: skip REASON -->)")
                    failed += 1
                    continue
                if lskip:
                    listed.add(cmd)
                why = bskip or lskip
                if cmd in ("make", "make test") or re.match(r"^make test(\s|$)", cmd):
                    why = why or "runs this test (make / make test)"
                elif re.match(r"^make test-[\w-]+$", cmd):
                    why = why or "a suite that make test runs anyway"
                if why:
                    print(f"SKIP {where}: {cmd}  ({why})")
                    skipped += 1
                    continue
                run = shorten(cmd)
                if only_list:
                    print(f"RUN  {where}: {run}")
                    continue
                if run in done:  # the same command shown twice: its first run answers for both
                    ok, first = done[run]
                    print(f"{'PASS' if ok else 'FAIL'} {where}: {run}  [as {first}]", flush=True)
                    passed += ok
                    failed += not ok
                    continue
                t0 = time.time()
                try:
                    r = subprocess.run(["bash", "-c", run], cwd=ROOT, capture_output=True, text=True,
                                       timeout=TIMEOUT)
                    ok = r.returncode == 0
                    tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
                except subprocess.TimeoutExpired:
                    ok, tail = False, [f"timeout after {TIMEOUT} s"]
                done[run] = (ok, where)
                print(f"{'PASS' if ok else 'FAIL'} {where}: {run}  [{time.time() - t0:.0f} s]", flush=True)
                if not ok:
                    for t in tail:
                        print(f"     {t}")
                passed += ok
                failed += not ok
    if not argv_files:  # every README read: each SKIP entry must still name a command
        for cmd in sorted(set(SKIP) - listed):
            print(f"FAIL sw/test_docs.py SKIP: {cmd!r} is no documented command any more")
            failed += 1
    print(f"docs: {passed} passed, {failed} failed ({skipped} skipped)")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
