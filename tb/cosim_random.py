#!/usr/bin/env python3
"""Lockstep co-simulation of configurations drawn at random from the switch's configuration
space (issue 26: features on and off in any combination, including ones no named
configuration of configs/switch_configs.toml uses).

  cosim_random.py [--seed N] [--count K] [--cycles C] [--dry-run]

Configuration k of seed N is drawn by Python's random.Random(f"{N}-{k}"), so the same
seed draws the same configurations on every machine. Each is printed as the `make cosim`
command that runs it (copy it to repeat or debug one run), then run through tb/cosim.py
(the Verilated RTL against the C model, every output every cycle, and its end checks).
Exit 0 if every run passed, 1 otherwise; --dry-run prints the commands only.

Drawn: P 2..8, V 1..4, BUF, PKT <= BUF, PW 0..64, DW and TABLE <= 2^DW, VOQ, ITERS 1..3, SAPIPE (with ITERS 1),
AE, SE; every contract §1 feature on or off (built and programmed, built and left idle,
or not built); a routing mode, VC map, scenario and ARN mode that the drawn hardware
supports; the run options that program the features (BUBBLE, PFC, QCN, HASH, GAP,
LINKFAULT, VCADAPT, SAR). `make cosim` itself adds the routing mode a run programs and
the counters (and with ARN the read-back) its end checks read.
"""
import argparse
import os
import random
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "configs"))
import switch_configs  # noqa: E402

SCENARIOS = ("random", "random", "random", "hotspot", "full", "zerocred", "len1", "lenmax",
             "rewrite")


def draw(rng):
    """One configuration and its run options, as make-variable settings (name -> str)."""
    p = rng.choice((2, 3, 4, 5, 6, 7, 8))
    v = rng.randint(1, 4)
    buf = rng.choice((4, 5, 6, 8, 12, 16, 32))
    pkt = rng.randint(1, min(buf, 8))
    dw = rng.randint(3, 8)
    table = rng.randint(max(4, p), 1 << dw)
    voq = rng.randint(0, 1)
    feats = {f for f in switch_configs.FEATURES if rng.random() < 0.4}
    s = dict(P=p, V=v, BUF=buf, PKT=pkt, PW=rng.choice((0, 8, 16, 32, 64)), DW=dw,
             TABLE=table, VOQ=voq, ITERS=rng.randint(1, 3), AE=0, SE=0)
    # routing: a mode the drawn hardware builds (make cosim builds the one a run programs)
    modes = ["det"] + (["obl"] if "oblivious" in feats else []) + (
        ["ada", "th", "2th"] if "adaptive" in feats else [])
    routing = rng.choice(modes)
    # §15 ARN: only with VOQs; AFI needs a second VC for the adapted flows
    arn = "off"
    if voq and rng.random() < 0.5:
        s["AE"] = rng.randint(1, 8)
        if rng.random() < 0.7:
            # AFI needs a second VC; the draw is made either way (same stream for every V)
            arn = rng.choice(("arn", "afi") if v < 2 else ("arn", "afi", "afi"))
            arn = "arn" if v < 2 else arn
    vcmaps = ["id", "sl", "obqa"] + (["afi", "obqa-afi"] if v >= 2 else [])
    vcmap = "afi" if arn == "afi" and rng.random() < 0.5 else rng.choice(vcmaps)
    opts = {}
    # the rule needs 2*PKT <= BUF (§16.1), PFC's headroom BUF >= PKT + V + 1 (§17.1)
    if "bubble" in feats and rng.random() < 0.6 and 2 * pkt <= buf:
        opts["BUBBLE"] = 1
    if "pfc" in feats and rng.random() < 0.6 and buf >= pkt + v + 1:
        opts["PFC"] = hex(rng.randint(1, (1 << p) - 1))
    vcadapt = "vc_adaptive" in feats and not voq and rng.random() < 0.6
    if "qcn" in feats and not vcadapt and rng.random() < 0.6:
        opts["QCN"] = 1   # §16.3: QCN_CTRL.en excludes ROUTE_CTRL mode 3
    if vcadapt:
        opts["VCADAPT"] = 1
    if "route_hash" in feats and routing == "obl" and rng.random() < 0.7:
        opts["HASH"] = 1
    if "port_rate" in feats and rng.random() < 0.6:
        opts["GAP"] = 1
    if "link_faults" in feats and rng.random() < 0.6:
        opts["LINKFAULT"] = rng.choice(("0.001", "0.002", "0.005"))
    if "qcn" in feats and rng.random() < 0.5:
        s["SE"] = rng.randint(1, 8)
        if rng.random() < 0.6:
            opts["SAR"] = 1
    s.update(FEATURES=" ".join(sorted(feats)) or "none", ROUTING=routing, VCMAP=vcmap,
             ARN=arn, SCEN=rng.choice(SCENARIOS), SEED=rng.randint(1, 10**6))
    s.update(opts)
    # §8.1 pipelined allocation: one iteration, no VC-adaptive hardware (drawn last, so
    # the draws above are those of the configurations before it existed)
    if rng.random() < 0.5 and s["ITERS"] == 1 and "vc_adaptive" not in feats:
        s["SAPIPE"] = 1
    return {k: str(x) for k, x in s.items()}


def make_line(s, cycles):
    words = [f"{k}={shlex.quote(x)}" for k, x in s.items()] + [f"CYCLES={cycles}"]
    return "make cosim " + " ".join(words)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=4)
    ap.add_argument("--cycles", type=int, default=20000)
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args(argv)
    for name, val, lo in (("RANDOM_SEED", a.seed, 0), ("RANDOM_COUNT", a.count, 1),
                          ("CYCLES", a.cycles, 1)):
        if val < lo:
            print(f"make cosim-random: {name}: {val} is below {lo}", file=sys.stderr)
            return 2
    passed = failed = 0
    for k in range(a.count):
        s = draw(random.Random(f"{a.seed}-{k}"))
        line = make_line(s, a.cycles)
        print(f"cosim-random {a.seed}/{k}: {line}", flush=True)
        if a.dry_run:
            continue
        names = " ".join(list(s) + ["CYCLES"])
        cmd = [sys.executable, os.path.join(ROOT, "tb", "cosim.py"), "cosim", f"--cmdline={names}"]
        cmd += [f"--{n}={x}" for n, x in s.items()] + [f"--CYCLES={a.cycles}"]
        t0 = time.time()
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        ok = r.returncode == 0
        passed += ok
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} cosim-random {a.seed}/{k} ({time.time() - t0:.0f} s)",
              flush=True)
        if not ok:  # the end of the failing run's output (its MISMATCH or end-check lines)
            print("\n".join("  " + ln for ln in r.stdout.splitlines()[-25:]))
    if not a.dry_run:
        print(f"cosim-random: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
