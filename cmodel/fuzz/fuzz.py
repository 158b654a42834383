#!/usr/bin/env python3
"""Runs the libFuzzer targets of cmodel/fuzz/ (called by mk/fuzz.mk).

  fuzz.py test --build build/fuzz --time 120 netcfg table switch
      per target: replays every committed corpus input and reproducer
      (cmodel/fuzz/corpus/<t>/, regress-* are the reproducers of fixed
      findings), then fuzzes from that corpus for a fixed number of
      executions (SHORT_RUNS, or --runs) with a fixed seed, so every machine
      runs about the same inputs; --time caps each run in seconds. ASan+UBSan
      build. Closes with "test-fuzz: N passed, N failed".
  fuzz.py long --build build/fuzz --time 600 [--runs N] [--seed S] netcfg table switch
      per target, one at a time under nice 10: fuzzes for --time seconds
      (with --runs N: for N executions, however long that takes; with
      --seed S and --runs on a fresh corpus, nearly the same inputs each time)
      (UBSan build, 3x faster) growing build/fuzz/long/<t>, then replays
      that whole corpus under ASan+UBSan; prints executions, exec/s,
      coverage and findings (build/fuzz/findings/). Exits 1 on a finding.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_LEN = {"netcfg": 2048, "table": 2048, "switch": 512, "trace": 4096}
# test: executions per target, about 15 s each under ASan+UBSan on this project's machine
SHORT_RUNS = {"netcfg": 150000, "table": 80000, "switch": 25000, "trace": 90000}


def corpus(t):
    return os.path.join(HERE, "corpus", t)


def libfuzzer_args(t, build, findings, seconds, seed=None, runs=None, cap=False):
    limit = [f"-runs={runs}"] if runs else [f"-max_total_time={seconds}"]
    if runs and cap:
        limit.append(f"-max_total_time={seconds}")
    args = limit + [ f"-max_len={MAX_LEN.get(t, 2048)}",
            "-timeout=10", "-print_final_stats=1", f"-artifact_prefix={findings}/{t}-"]
    d = os.path.join(HERE, f"{t}.dict")
    if os.path.exists(d):
        args.append(f"-dict={d}")
    if seed is not None:
        args.append(f"-seed={seed}")
    return args


def stats(log):
    """Executions, exec/s, coverage (cov, ft) and corpus size from a log."""
    s = {}
    for key in ("number_of_executed_units", "average_exec_per_sec"):
        m = re.findall(rf"stat::{key}:\s*(\d+)", log)
        s[key] = int(m[-1]) if m else 0
    m = re.findall(r"cov: (\d+) ft: (\d+) corp: (\d+)", log)
    s["cov"], s["ft"], s["corp"] = (int(x) for x in m[-1]) if m else (0, 0, 0)
    return s


def failure_lines(log):
    keep = [l for l in log.splitlines()
            if re.match(r"^(fuzz_\w+:|==\d+==ERROR|SUMMARY|.*runtime error|\s+#\d+ 0x\S+ in (?!fuzzer::|__sanitizer|__asan|__ubsan|LLVMFuzzer))", l)]
    return keep[:14]


def run(cmd, nice=True):
    if nice:
        cmd = ["nice", "-n", "10"] + cmd
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace")
    return p.returncode, p.stdout


def replay(binary, paths):
    """Runs binary once on each input (files or directories via -runs=0)."""
    files = [p for p in paths if os.path.isfile(p)]
    dirs = [p for p in paths if os.path.isdir(p)]
    out, rc = "", 0
    for i in range(0, len(files), 200):
        r, o = run([binary] + files[i:i + 200])
        rc, out = rc or r, out + o
    for d in dirs:
        r, o = run([binary, "-runs=0", f"-max_len={1 << 20}", d])
        rc, out = rc or r, out + o
    return rc, out


def test(args):
    passed = failed = 0
    findings = os.path.join(args.build, "findings-test")
    os.makedirs(findings, exist_ok=True)
    for t in args.targets:
        binary = os.path.join(args.build, f"fuzz_{t}")
        files = sorted(glob.glob(os.path.join(corpus(t), "*")))
        nreg = sum(1 for f in files if os.path.basename(f).startswith("regress-"))
        rc, log = replay(binary, files)
        if rc == 0 and files:
            print(f"PASS fuzz-replay {t}: {len(files)} committed inputs, {nreg} of them reproducers of fixed findings")
            passed += 1
        else:
            print(f"FAIL fuzz-replay {t}: {len(files)} committed inputs (exit {rc})")
            for l in failure_lines(log):
                print("    " + l)
            failed += 1
        work = os.path.join(args.build, "short", t)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        for f in glob.glob(os.path.join(findings, f"{t}-*")):
            os.remove(f)
        runs = args.runs or SHORT_RUNS.get(t, 50000)
        t0 = time.time()
        rc, log = run([binary] + libfuzzer_args(t, args.build, findings, args.time, seed=1,
                                                  runs=runs, cap=True) + [work, corpus(t)])
        s = stats(log)
        found = glob.glob(os.path.join(findings, f"{t}-*"))
        if rc == 0 and not found:
            capped = s['number_of_executed_units'] < runs
            print(f"PASS fuzz {t}: {s['number_of_executed_units']} executions (seed 1"
                  f"{f', stopped by the {args.time} s cap before {runs}' if capped else ''}) "
                  f"in {time.time() - t0:.0f} s ({s['average_exec_per_sec']}/s), "
                  f"cov {s['cov']} ft {s['ft']}, no finding")
            passed += 1
        else:
            print(f"FAIL fuzz {t}: finding after {s['number_of_executed_units']} executions: "
                  f"{' '.join(found) or 'exit %d' % rc}")
            for l in failure_lines(log):
                print("    " + l)
            # The input itself, so that a finding on another machine (CI) can
            # be rebuilt from the log: xxd -r -p > file.
            for f in found[:1]:
                with open(f, "rb") as fh:
                    data = fh.read()
                hexs = data[:1024].hex()
                print(f"    input ({len(data)} bytes{', first 1024' if len(data) > 1024 else ''}, hex):")
                for i in range(0, len(hexs), 96):
                    print("    " + hexs[i:i + 96])
            failed += 1
    print(f"test-fuzz: {passed} passed, {failed} failed")
    return 1 if failed else 0


def long(args):
    findings = os.path.join(args.build, "findings")
    os.makedirs(findings, exist_ok=True)
    logs = os.path.join(args.build, "logs")
    os.makedirs(logs, exist_ok=True)
    bad = 0
    rows = []
    for t in args.targets:
        fast = os.path.join(args.build, "fast", f"fuzz_{t}")
        binary = os.path.join(args.build, f"fuzz_{t}")
        work = os.path.join(args.build, "long", t)
        os.makedirs(work, exist_ok=True)
        before = set(glob.glob(os.path.join(findings, f"{t}-*")))
        start = time.time()
        rc, log = run([fast] + libfuzzer_args(t, args.build, findings, args.time, runs=args.runs,
                                              seed=args.seed or None)
                      + [work, corpus(t)])
        wall = time.time() - start
        with open(os.path.join(logs, f"{t}.log"), "w") as f:
            f.write(log)
        s = stats(log)
        # everything the run kept, once more under ASan+UBSan
        rrc, rlog = replay(binary, [work])
        if rrc:
            with open(os.path.join(logs, f"{t}-replay.log"), "w") as f:
                f.write(rlog)
        found = sorted(set(glob.glob(os.path.join(findings, f"{t}-*"))) - before)
        n = len(found) + (1 if rrc else 0)
        ncorp = len(os.listdir(work))
        print(f"fuzz {t}: {s['number_of_executed_units']} executions in {wall:.0f} s "
              f"({s['average_exec_per_sec']} exec/s), coverage cov {s['cov']} ft {s['ft']}, "
              f"corpus {ncorp} inputs (replayed under ASan+UBSan: {'FAIL' if rrc else 'ok'}), "
              f"findings: {n}", flush=True)
        for fpath in found:
            print(f"    finding: {fpath}")
        if rc == 72 and not found:  # libFuzzer's exit code when interrupted (SIGINT)
            print(f"    interrupted: {logs}/{t}.log")
        elif rc and not found:
            print(f"    libFuzzer exited {rc}: see {logs}/{t}.log")
            n += 1
        for l in failure_lines(log + (rlog if rrc else "")):
            print("    " + l)
        bad += n
        rows.append((t, s, n))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["test", "long"])
    ap.add_argument("--build", required=True)
    ap.add_argument("--time", type=int, required=True)
    ap.add_argument("--runs", type=int, default=0,
                    help="executions per target (long: instead of --time; test: instead of SHORT_RUNS)")
    ap.add_argument("--seed", type=int, default=0,
                    help="long: libFuzzer -seed (0: a new one each run); test always uses 1")
    ap.add_argument("targets", nargs="+")
    args = ap.parse_args()
    return test(args) if args.mode == "test" else long(args)


if __name__ == "__main__":
    sys.exit(main())
