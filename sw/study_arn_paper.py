#!/usr/bin/env python3
"""Seed 001 Fig. 6 at the paper's time scale (issue 27): 432-node RLFT (12-port
switches, 3 stages, configuration #1), uniform / HS10-1 / HS25-1 / HS10-4 / HS25-4
x 1Q, DBBM, vFtree, Flow2SL x D-mod-K, Oblivious, Adaptive-Th, Adaptive-Th+AFI, ARN,
ARN+AFI; efficiency (accepted flits per node per cycle, offered load 1) against time,
one figure per panel, as the paper draws it.

Time scale (matched in packet times). The paper: 4 KB packets on 100 Gb/s links
(a packet time = 327.68 ns), 84 packets per input port, CRT 5 ms, hot spot from 3 ms,
runs of 120 ms. Here: 64-byte flits at one flit per cycle (100 Gb/s: 5.12 ns a cycle),
packets of PKT = 8 flits (512 B: a packet time = 8 cycles = 40.96 ns), so every time of
the paper is mapped by its length in packet times:
    cycles = ms x 1e6 / 327.68 x PKT  (PKT 8: 24 414 cycles per paper-ms)
    buffer = 84 packets per input port = 84 x PKT flits (672), divided among the VCs
             (1Q 1 x 672, 1Q + AFC 2 x 336, SQS 3 x 224, SQS + AFC 4 x 168)
    CRT = 5 ms -> 122 070 cycles, hot spot from 3 ms -> cycle 73 242,
    ARN_TTL = 4 CRT (the paper gives none; the ratio of make study-arn),
    HCDTh / LCDTh / FCTh 81 / 63 / 78 % and Adaptive-Th's LTTh 25 % free (75 % full):
    fractions of the buffer, unchanged.
The plots' time axis is in paper milliseconds (cycles / 24 414). Default length: the
hot spot start + 20 ms (`--after-ms`; `--after-ms 117` gives the paper's 120 ms).

ARN and ARN+AFI run as seed 001's text reads (contract §15.1, issue 27):
arn_up_nodes=1 (incast ARNs consumed by the sources' leaves), adapted_arn=1,
alt_refresh=1 (routing=arn-afi's defaults; given explicitly for ARN too).

Resumable: every run is OUT/runs/NAME.json (+ .csv), written under a temporary name and
renamed when the run finished, so an interrupted run is redone and a finished one is
kept and skipped. Seeds: 1, 2, 3 for the HS10 and HS25 panels, 1 otherwise (`--seeds`).

  study_arn_paper.py --asw build/asw --out DIR run [--only KEY=V1,V2 ...] [-j N]
                     [--after-ms MS] [--max-runs N]
  study_arn_paper.py --out DIR list [--only ...]      asw net command lines of the runs
                                                       still to do (one a line)
  study_arn_paper.py --asw build/asw --out DIR slurm [--only ...]
                     writes DIR/study.sbatch: a Slurm job array, one unfinished run a task
  study_arn_paper.py --out DIR plot [--fig-dir D]     one PNG per panel, recovery table
--cold-avoid (any command): the hot-spot runs with hs_cold_avoid=1 (the uniform sources
never send to a hot node while the hot spot is on; issue 27's traced cause of the
incomplete recovery), kept apart by the suffix _coldavoid.
--only filters on traffic (uniform hs10-1 ...), scheme (1q dbbm vftree flow2sl),
routing (dmodk oblivious adaptive-th adaptive-th-afi arn arn-afi) and seed; a value
outside these is an error.
--config 2 (any command): seed 001's configuration #2 (Fig. 7), the 3 456-node RLFT
(24-port switches, 3 stages, 720 switches), same time scale, buffers and thresholds; run
names start with c2_, figures are arn_fig7_*.png. --threads N steps the switches of one
run on N threads (asw net threads=N: the same results, not part of the run's name).
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys

PKT = 8
CYC_PER_MS = 1e6 / 327.68 * PKT  # 24 414.06
TRAFFIC = ["uniform", "hs10-1", "hs25-1", "hs10-4", "hs25-4"]
SCHEMES = ["1q", "dbbm", "vftree", "flow2sl"]
ROUTINGS = ["dmodk", "oblivious", "adaptive-th", "adaptive-th-afi", "arn", "arn-afi"]
LABEL = {"dmodk": "D-mod-K", "oblivious": "Oblivious", "adaptive-th": "Adaptive-Th",
         "adaptive-th-afi": "Adaptive-Th+AFI", "arn": "ARN", "arn-afi": "ARN+AFI"}
SCHEME_LABEL = {"1q": "1Q", "dbbm": "DBBM", "vftree": "vFtree", "flow2sl": "Flow2SL"}
STYLE = {"dmodk": "k", "oblivious": "tab:gray", "adaptive-th": "tab:orange",
         "adaptive-th-afi": "tab:red", "arn": "tab:cyan", "arn-afi": "tab:blue"}
TEXT_READING = ["arn_up_nodes=1", "adapted_arn=1", "alt_refresh=1"]
CONFIG_PORTS = {1: 12, 2: 24}  # seed 001 Table 3: #1 432 nodes, #2 3 456 nodes (3 stages)
CONFIG_NODES = {1: "432", 2: "3 456"}


def ms_to_cycles(ms):
    return int(round(ms * CYC_PER_MS))


def runs(ns):
    """Every run of the grid (after --only), as (name, asw net arguments, keys)."""
    only = {}
    for o in ns.only or []:
        if "=" not in o:
            sys.exit(f"study_arn_paper: --only {o}: expected KEY=V1,V2")
        k, v = o.split("=", 1)
        if k not in ("traffic", "scheme", "routing", "seed"):
            sys.exit(f"study_arn_paper: --only {k}: one of traffic scheme routing seed")
        only[k] = set(v.split(","))
        known = {"traffic": TRAFFIC, "scheme": SCHEMES, "routing": ROUTINGS,
                 "seed": [str(x) for x in ns.seeds]}[k]
        bad = sorted(only[k] - set(known))
        if bad:
            sys.exit(f"study_arn_paper: --only {k}={v}: {','.join(bad)} not one of "
                     f"{' '.join(known)}")
    hs = ms_to_cycles(3.0)
    total = hs + ms_to_cycles(ns.after_ms)
    crt = ms_to_cycles(5.0)
    out = []
    for t in TRAFFIC:
        seeds = ns.seeds if t in ("hs10-1", "hs25-1") else ns.seeds[:1]
        for s in SCHEMES:
            for r in ROUTINGS:
                for seed in seeds:
                    keys = {"traffic": t, "scheme": s, "routing": r, "seed": str(seed)}
                    if any(keys[k] not in v for k, v in only.items()):
                        continue
                    afc = r in ("adaptive-th-afi", "arn-afi")
                    vcs = (1 if s == "1q" else 3) + afc
                    buf = 84 * PKT // vcs
                    args = [f"ports={CONFIG_PORTS[ns.config]}", "stages=3", "voq=1", f"packet_flits={PKT}", "load=1",
                            f"sqs={s}", f"vcs={vcs}", f"buffer_flits={buf}", f"routing={r}",
                            f"traffic={t}", f"hs_start={hs}", "warmup=0", f"cycles={total}",
                            f"window={ms_to_cycles(0.25)}", f"crt={crt}",
                            f"arn_ttl={min(4 * crt, 16777215)}", "watchdog=0", f"seed={seed}"]
                    if r in ("arn", "arn-afi"):
                        args += TEXT_READING
                    name = ("c2_" if ns.config == 2 else "") + \
                        f"{t}_{s}_{r}_s{seed}_{ns.after_ms:g}ms"
                    if ns.cold_avoid and t != "uniform":
                        args.append("hs_cold_avoid=1")
                        name += "_coldavoid"
                    out.append((name, args, keys))
    return out


def done(ns, name):
    return os.path.exists(os.path.join(ns.out, "runs", name + ".json"))


def run_one(asw, d, name, args, threads=1):
    tmp = os.path.join(d, name + ".part")
    cmd = [asw, "net", *args, *([f"threads={threads}"] if threads > 1 else []),
           "--quiet", "--json", tmp + ".json", "--csv", tmp + ".csv"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return name, f"exit {r.returncode}: {r.stderr.strip()}"
    os.replace(tmp + ".csv", os.path.join(d, name + ".csv"))
    os.replace(tmp + ".json", os.path.join(d, name + ".json"))  # last: marks it finished
    return name, None


def cmd_run(ns):
    d = os.path.join(ns.out, "runs")
    os.makedirs(d, exist_ok=True)
    todo = [(n, a) for n, a, _ in runs(ns) if not done(ns, n)]
    kept = len(runs(ns)) - len(todo)
    if ns.max_runs is not None:
        todo = todo[:ns.max_runs]
    print(f"study_arn_paper: {kept} runs kept, {len(todo)} to run", flush=True)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=ns.jobs) as ex:
        for name, err in ex.map(lambda x: run_one(ns.asw, d, *x, threads=ns.threads), todo):
            print(f"study_arn_paper: {name} {'FAILED ' + err if err else 'done'}", flush=True)
            failed += err is not None
    return 1 if failed else 0


def cmd_list(ns):
    for name, args, _ in runs(ns):
        if not done(ns, name):
            print(shlex.join([ns.asw, "net", *args,
                              *([f"threads={ns.threads}"] if ns.threads > 1 else []),
                              "--quiet", "--json",
                              os.path.join(ns.out, "runs", name + ".json"), "--csv",
                              os.path.join(ns.out, "runs", name + ".csv")]))
    return 0


def cmd_slurm(ns):
    todo = [(n, a) for n, a, _ in runs(ns) if not done(ns, n)]
    os.makedirs(os.path.join(ns.out, "runs"), exist_ok=True)
    lst = os.path.join(ns.out, "study.runs")
    with open(lst, "w") as f:
        for n, a in todo:
            f.write(n + " " + " ".join(a) + "\n")
    me, asw = os.path.abspath(__file__), os.path.abspath(ns.asw)
    with open(os.path.join(ns.out, "study.sbatch"), "w") as f:
        f.write(f"#!/bin/sh\n#SBATCH --array=1-{len(todo)}\n#SBATCH --cpus-per-task={ns.threads}\n"
                f"line=$(sed -n \"${{SLURM_ARRAY_TASK_ID}}p\" {shlex.quote(os.path.abspath(lst))})\n"
                f"exec python3 {shlex.quote(me)} --asw {shlex.quote(asw)} "
                f"--out {shlex.quote(os.path.abspath(ns.out))} --threads {ns.threads} one $line\n")
    print(f"study_arn_paper: {len(todo)} runs in {lst}; sbatch {ns.out}/study.sbatch "
          f"(the finished ones stay skipped on a rerun)")
    return 0


def cmd_one(ns):
    d = os.path.join(ns.out, "runs")
    name, err = run_one(ns.asw, d, ns.rest[0], ns.rest[1:], threads=ns.threads)
    if err:
        print(f"study_arn_paper: {name} {err}", file=sys.stderr)
    return 1 if err else 0


def series(path):
    rows = open(path).read().split()[1:]
    t = [int(r.split(",")[0]) / CYC_PER_MS for r in rows]
    e = [float(r.split(",")[3]) for r in rows]
    return t, e


def recovery(t, e, hs_ms=3.0):
    """(pre-hot-spot efficiency, minimum after the start, last window, recovery time):
    recovery = ms after the hot-spot start from which every window is >= 90 % of the
    pre-hot-spot efficiency (None if never)."""
    pre = [x for tt, x in zip(t, e) if 1.0 < tt <= hs_ms]
    pre = sum(pre) / len(pre) if pre else float("nan")
    after = [(tt, x) for tt, x in zip(t, e) if tt > hs_ms]
    rec = None
    for k in range(len(after)):
        if all(x >= 0.9 * pre for _, x in after[k:]):
            rec = after[k][0] - 0.25 - hs_ms  # window end -> start
            break
    return pre, min(x for _, x in after) if after else float("nan"), e[-1], rec


def peak(t, e, hs_ms=3.0):
    """(highest window efficiency after the lowest one that follows the hot-spot start,
    its window start in ms after the start): how far the efficiency climbs back."""
    after = [(x, tt) for tt, x in zip(t, e) if tt > hs_ms]
    if not after:
        return float("nan"), float("nan")
    low = min(range(len(after)), key=lambda i: after[i][0])
    x, tt = max(after[low:])
    return x, tt - 0.25 - hs_ms


def first_back(t, e, hs_ms=3.0):
    """ms after the hot-spot start of the first window, after the lowest one, at >= 90 % of
    the pre-hot-spot efficiency (None if none)."""
    pre = recovery(t, e, hs_ms)[0]
    after = [(tt, x) for tt, x in zip(t, e) if tt > hs_ms]
    if not after:
        return None
    low = min(range(len(after)), key=lambda i: after[i][1])
    for tt, x in after[low:]:
        if x >= 0.9 * pre:
            return tt - 0.25 - hs_ms
    return None


def tail(t, e, ms=5.0):
    """Mean window efficiency over the last `ms` simulated."""
    last = [x for tt, x in zip(t, e) if tt > t[-1] - ms + 1e-9]
    return sum(last) / len(last)


def cmd_plot(ns):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    d = os.path.join(ns.out, "runs")
    figs = ns.fig_dir or os.path.join(ns.out, "figures")
    os.makedirs(figs, exist_ok=True)
    by_panel = {}
    for name, _, k in runs(ns):
        if done(ns, name):
            by_panel.setdefault((k["traffic"], k["scheme"]), {}).setdefault(
                k["routing"], []).append(series(os.path.join(d, name + ".csv")))
    print("| panel | routing | seeds | pre-hot-spot | lowest after | peak after (ms after "
          "the start) | mean of the last 5 ms, per seed | mean of the last 5 ms: mean "
          "(min–max) | first window >= 90 % of pre (ms after the start) | recovered for good "
          "(ms after the start, every later window >= 90 % of pre) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (t, s), rs in sorted(by_panel.items()):
        fig, ax = plt.subplots(figsize=(6, 4.0))
        for r in ROUTINGS:
            if r not in rs:
                continue
            ss = rs[r]
            n = min(len(x[0]) for x in ss)
            tt = ss[0][0][:n]
            mean = [sum(x[1][i] for x in ss) / len(ss) for i in range(n)]
            ax.plot(tt, mean, color=STYLE[r], lw=1.2,
                    label=LABEL[r] + (f" (mean, min–max of {len(ss)} seeds)"
                                      if len(ss) > 1 else ""))
            if len(ss) > 1:
                ax.fill_between(tt, [min(x[1][i] for x in ss) for i in range(n)],
                                [max(x[1][i] for x in ss) for i in range(n)],
                                color=STYLE[r], alpha=0.2, lw=0)
            recs = [recovery(*x) for x in ss]
            peaks = [peak(*x) for x in ss]
            tails = [tail(*x) for x in ss]
            fmt = lambda v: "–" if v is None else f"{v:.1f}"  # noqa: E731
            print(f"| {t} {s} | {LABEL[r]} | {len(ss)} | "
                  f"{' '.join(f'{x[0]:.3f}' for x in recs)} | "
                  f"{' '.join(f'{x[1]:.3f}' for x in recs)} | "
                  f"{' '.join(f'{e:.3f} ({pt:.1f})' for e, pt in peaks)} | "
                  f"{' '.join(f'{x:.3f}' for x in tails)} | "
                  f"{sum(tails) / len(tails):.3f} ({min(tails):.3f}–{max(tails):.3f}) | "
                  f"{' '.join(fmt(first_back(*x)) for x in ss)} | "
                  f"{' '.join(fmt(x[3]) for x in recs)} |")
        ax.axvline(3.0, color="0.6", ls=":", lw=1)  # hot spot starts
        ax.axvline(8.0, color="0.8", ls="--", lw=1)  # + CRT (5 ms): first root declared
        ax.set_xlabel("time (ms, paper scale: 1 ms = 24 414 cycles of 8-flit packets)")
        ax.set_ylabel("network efficiency")
        ax.set_ylim(0, 1.05)
        ax.set_title(f"{CONFIG_NODES[ns.config]}-node RLFT, "
                     f"{SCHEME_LABEL[s]}, {t.upper()}"
                     + (", cold sources skip the hot node" if ns.cold_avoid else ""))
        ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.2),
                  frameon=False)
        fig.tight_layout()
        suffix = "_coldavoid" if ns.cold_avoid else ""
        stem = "arn_fig7" if ns.config == 2 else "arn_paper"
        fig.savefig(os.path.join(figs, f"{stem}_{t}_{s}{suffix}.png"), dpi=110)
        plt.close(fig)
    counters = []
    for name, _, k in runs(ns):
        if done(ns, name):
            with open(os.path.join(d, name + ".json")) as f:
                a = json.load(f).get("arn")
            if a:
                counters.append((k, a))
    if counters:
        print("\n| panel | routing | seed | roots | consumed | expired | packets adapted | "
              "ARNs at end nodes |")
        print("|---|---|---|---|---|---|---|---|")
        for k, a in counters:
            print(f"| {k['traffic']} {k['scheme']} | {LABEL[k['routing']]} | {k['seed']} | "
                  f"{a['roots_declared']} | {a['consumed']} | {a['expired']} | "
                  f"{a['packets_adapted']} | {a['at_end_nodes']} |")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--asw", default="build/asw")
    ap.add_argument("--out", required=True)
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--after-ms", type=float, default=20.0,
                    help="paper-ms simulated after the hot-spot start (3 ms); 117: 120 ms")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--config", default="1",
                    help="seed 001 Table 3 network: 1 (432 nodes, Fig. 6) or 2 (3 456, Fig. 7)")
    ap.add_argument("--threads", default="1", help="threads of each asw net run")
    ap.add_argument("--cold-avoid", action="store_true",
                    help="hs_cold_avoid=1: the uniform sources skip the hot nodes during the "
                         "hot spot (run names end in _coldavoid)")
    ap.add_argument("--only", action="append")
    ap.add_argument("--max-runs", type=int, default=None)
    ap.add_argument("--fig-dir", default=None)
    ap.add_argument("cmd", choices=["run", "list", "slurm", "plot", "one"])
    ap.add_argument("rest", nargs="*")
    ns = ap.parse_args(argv)
    try:
        ns.seeds = [int(x) for x in ns.seeds.split(",")]
    except ValueError:
        sys.exit(f"study_arn_paper: --seeds {ns.seeds}: a comma-separated list of integers")
    if not ns.seeds or ns.after_ms <= 0 or ns.jobs < 1:
        sys.exit("study_arn_paper: --seeds, --after-ms and -j must be positive")
    if ns.config not in ("1", "2"):
        sys.exit(f"study_arn_paper: --config {ns.config}: 1 (432 nodes) or 2 (3 456 nodes)")
    ns.config = int(ns.config)
    if not ns.threads.isdigit() or int(ns.threads) < 1:
        sys.exit(f"study_arn_paper: --threads {ns.threads}: a positive integer")
    ns.threads = int(ns.threads)
    if ns.cmd in ("run", "slurm", "one") and not os.access(ns.asw, os.X_OK):
        sys.exit(f"study_arn_paper: {ns.asw}: no asw program (make build/asw)")
    if ns.cmd == "one" and not ns.rest:
        sys.exit("study_arn_paper: one NAME ARGS...: a line of study.runs")
    return {"run": cmd_run, "list": cmd_list, "slurm": cmd_slurm, "plot": cmd_plot,
            "one": cmd_one}[ns.cmd](ns)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
