#!/usr/bin/env python3
"""make soak-long: randomized lockstep co-simulation (RTL under Verilator against the C
model, tb/cosim.py's builds and runs) over random legal configurations.

Each configuration is drawn from the seed: a parameter set (P V BUF LMAX PW DW TABLE VOQ
ITERS AE), a routing mode, a VC map, an ARN mode (off, arn, afi, adaptive-th-afi; the §15
thresholds and timers are then drawn by the run itself), a traffic scenario and a run
seed. Every parameter set is checked by the C model's legality rules (tb/cfgcheck) and
built once (cached under build/cosim/). The cycles are shared equally by the runs.

  soak_long.py [--configs 50] [--cycles 1000000000] [--builds N] [--seed 1] [--matrix]
               [--refonly] [--list] [--jobs J]

--builds N draws only N parameter sets (the runs reuse them in turn): fewer Verilator
builds for a shorter run. --matrix uses the parameter sets of make test-cosim's matrix
(tb/cosim.py CFG, those MATRIX uses, already built there) instead of drawing them: the short soak of
make test costs simulation time only. --refonly runs the C side alone (tb/refsim.c under
ASan/UBSan, with the same stimulus and checks), as REFONLY=1 does for make soak. --jobs J
runs J configurations at a time once every parameter set is built (the builds come first,
each with COSIM_JOBS compile jobs); the runs and their results do not depend on J, only the
order in which the lines are printed. Prints one line per run and the totals (cycles, configurations,
build and simulation time, simulation speed), closes with "soak-long: N passed, N failed"."""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cosim  # noqa: E402

ROUTINGS = ("det", "obl", "ada", "th", "2th")
# Legal traffic only (no "proto": protocol violations are the directed test's business;
# the §15 directed scripts are fixed-length and run by make soak).
SCENS = ("random", "random", "random", "hotspot", "full", "zerocred", "len1", "lenmax", "rewrite")
PW_CHOICES = (0, 1, 8, 16, 32, 64)


def legal(cfg, arn="off"):
    exe = os.path.join(cosim.BUILD, "cosim", "cfgcheck")
    args = [exe] + [str(cfg[k]) for k in cosim.PARAMS]
    if arn != "off":
        args += [arn] + ["-"] * 7
    return subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def draw_params(rng, with_arn):
    """A random parameter set; with_arn: ARN hardware (AE >= 1, VOQ = 1, V >= 2, P >= 3)."""
    while True:
        p = rng.randint(3 if with_arn else 2, 8)
        v = rng.randint(2 if with_arn else 1, 4)
        lmax = rng.choice((1, 2, 3, 4, 6, 8, 12, 16)) if not with_arn else rng.choice((2, 3, 4, 6, 8))
        buf = lmax + rng.randint(0, 12)
        dw = rng.randint(max(2, (p - 1).bit_length()), 8)
        table = rng.randint(max(4, min(1 << dw, 8)), 1 << dw)
        cfg = dict(P=p, V=v, BUF=buf, LMAX=lmax, PW=rng.choice(PW_CHOICES), DW=dw, TABLE=table,
                   VOQ=1 if with_arn else rng.randint(0, 1), ITERS=rng.randint(1, 4),
                   AE=rng.choice((1, 2, 4, 6, 8, 16, 32)) if with_arn else rng.choice((0, 0, 0, 3)))
        if legal(cfg):
            return cfg


def draw_run(rng, cfg):
    """Routing, VC map, ARN mode and scenario legal for the parameter set."""
    arns = ["off"]
    if cfg["AE"] >= 1 and cfg["VOQ"] == 1 and cfg["V"] >= 2:
        arns += ["arn", "arn", "afi", "afi", "adaptive-th-afi"]
    arn = rng.choice(arns)
    if arn == "adaptive-th-afi":
        return rng.choice(("th", "2th", "ada")), "afi", arn, "random"
    if arn == "afi":
        return "det", rng.choice(("afi", "obqa-afi")), arn, "random"
    if arn == "arn":
        return "det", rng.choice(("id", "sl", "obqa")), arn, "random"
    vcmaps = ["id", "sl", "obqa"] + (["afi", "obqa-afi"] if cfg["V"] >= 2 else [])
    return rng.choice(ROUTINGS), rng.choice(vcmaps), arn, rng.choice(SCENS)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--configs", type=int, default=50)
    ap.add_argument("--cycles", type=int, default=10**9, help="total switch-cycles")
    ap.add_argument("--builds", type=int, default=0, help="distinct parameter sets (0: one per configuration)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--matrix", action="store_true", help="the matrix's parameter sets (tb/cosim.py CFG)")
    ap.add_argument("--refonly", action="store_true", help="the C side alone (tb/refsim.c, ASan/UBSan)")
    ap.add_argument("--list", action="store_true", help="print the configurations, run nothing")
    ap.add_argument("--jobs", type=int, default=1, help="configurations run at a time")
    ns = ap.parse_args()
    for name in ("configs", "cycles", "seed", "jobs"):
        if getattr(ns, name) < 1:
            sys.exit(f"soak-long: --{name} must be >= 1")
    if ns.builds < 0:
        sys.exit("soak-long: --builds must be >= 0")
    cosim.check_config(cosim.CFG["a"])  # builds tb/cfgcheck
    rng = random.Random(ns.seed)
    nbuilds = ns.builds or ns.configs
    # about 3 in 5 parameter sets carry the ARN hardware, so every ARN mode is drawn often
    if ns.matrix:
        keys = sorted({m[0] for m in cosim.MATRIX})
        params = [cosim.CFG[k] for k in keys][:min(nbuilds, ns.configs)]
    else:
        params = [draw_params(rng, with_arn=(k % 5 in (0, 2, 3))) for k in range(min(nbuilds, ns.configs))]
    per_run = ns.cycles // ns.configs
    runs = []
    for k in range(ns.configs):
        cfg = params[k % len(params)]
        runs.append((cfg,) + draw_run(rng, cfg) + (rng.randint(1, 10**6),))
    for k, (cfg, routing, vcmap, arn, scen, seed) in enumerate(runs):
        print(f"config {k:3d}: {cosim.tag(cfg)} routing={routing} vcmap={vcmap} arn={arn} "
              f"scen={scen} seed={seed} cycles={per_run}", flush=True)
    if ns.list:
        return 0
    passed = failed = 0
    total = 0
    t_build = t_sim = 0.0
    exes = {}
    fst_dir = os.path.join(cosim.BUILD, "soak_long", "fst")
    for cfg, *_ in runs:  # every parameter set first: the runs then go J at a time
        t = cosim.tag(cfg)
        if t not in exes:
            t0 = time.time()
            exes[t] = cosim.build(cfg, "ref" if ns.refonly else "rtl")
            t_build += time.time() - t0

    def one(k):
        cfg, routing, vcmap, arn, scen, seed = runs[k]
        label = f"soak{k}-{routing}-{vcmap}-{scen}" + ("" if arn == "off" else f"-{arn}")
        t0 = time.time()
        rc, out = cosim.run_one(exes[cosim.tag(cfg)], routing, vcmap, scen, seed, per_run, label,
                                fst_dir, (), arn)
        return k, rc, out, time.time() - t0

    t_wall = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=ns.jobs) as pool:
        for k, rc, out, dt in (f.result() for f in concurrent.futures.as_completed(
                [pool.submit(one, k) for k in range(len(runs))])):
            cfg, routing, vcmap, arn, scen, seed = runs[k]
            t = cosim.tag(cfg)
            t_sim += dt
            m = re.search(r"^cycles (\d+) flits (\d+) packets (\d+)", out, re.M)
            ran = int(m.group(1)) if m else 0
            total += ran
            ok = rc == 0 and "PASS" in out and ran == per_run
            print(f"{'PASS' if ok else 'FAIL'} config {k:3d} {t} {routing} {vcmap} {scen} arn={arn} "
                  f"seed {seed}: cycles {ran} flits {m.group(2) if m else '?'} packets "
                  f"{m.group(3) if m else '?'} ({ran / max(dt, 1e-9):.0f} cycles/s)", flush=True)
            if not ok:
                for line in out.splitlines():
                    if line.startswith(("MISMATCH", "waveform", "cosim:", "[", "FAIL")) or "Error" in line:
                        print("    " + line)
            passed += ok
            failed += not ok
    t_wall = time.time() - t_wall
    print(f"soak-long: {total} switch-cycles, {ns.configs} configurations over {len(exes)} "
          f"parameter sets, seed {ns.seed}")
    print(f"soak-long: builds {t_build:.0f} s (cached builds cost nothing), "
          f"simulation {t_sim:.0f} s in {t_wall:.0f} s of wall time with {ns.jobs} at a time, "
          f"{total / max(t_sim, 1e-9):.0f} switch-cycles/s per run")
    print(f"soak-long: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
