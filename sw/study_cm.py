#!/usr/bin/env python3
"""Congestion management compared on the 432-node RLFT (make study-cm; issue 12's
"beyond the seed"): seed 004's routing schemes with and without QCN rate limiters
(Deterministic D-mod-K, Random, Hashed, Switch AR), seed 001's ARN and ARN+AFI, Adaptive-Th,
and ARN with QCN, under seed 001's hot spots (HS10-1, HS25-1, HS10-4, HS25-4) and
uniform traffic, on credit links and, for the QCN schemes, on PFC links too.
Set-up of the ARN study (docs/results.md, "Seed 001 §4.3"): 12-port switches, 3
stages, VOQs, 8-flit packets, 84 packets per input port (672 flits; 2 x 336 with
the AFI's extra VC), load 1, hot spot from cycle 10 000 to the end of a 60 000-cycle
run (uniform: 30 000 cycles), CRT 1 024, ARN_TTL 4 096; QCN with its defaults
(contract §17.4, §17.5). Prints the docs/results.md tables (efficiency and victim
throughput over the last 10 000 cycles, CNMs) and writes FIGDIR/cm_hs10-1.png.
Each run's JSON and CSV stay in OUTDIR; a run whose JSON exists is not rerun
(CM_RESUME=1). Usage: study_cm.py path/to/asw OUTDIR FIGDIR [JOBS]"""
import csv
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

COMMON = ["ports=12", "stages=3", "voq=1", "packet_flits=8", "load=1", "window=1000",
          "hs_start=10000", "crt=1024", "arn_ttl=4096", "watchdog=0", "--seed", "1"]
ONE_VC = ["vcs=1", "buffer_flits=672"]
AFC = ["vcs=2", "buffer_flits=336"]
QCN = ["qcn=on", "rl=on"]
PFC = ["flow_control=pfc"]
# (key, label, link flow control, settings); S-mod-K is left out: it takes the up port
# from source digits and needs power-of-two up-port counts (this RLFT has 6).
CONFIGS = [
    ("dmodk", "D-mod-K", "credit", ["routing=dmodk", *ONE_VC]),
    ("random", "Random (oblivious)", "credit", ["routing=oblivious", *ONE_VC]),
    ("hashed", "Hashed", "credit", ["routing=hashed", *ONE_VC]),
    ("adaptive", "Adaptive-Th", "credit", ["routing=adaptive-th", *ONE_VC]),
    ("arn", "ARN", "credit", ["routing=arn", *ONE_VC]),
    ("arnafi", "ARN+AFI (2 VCs)", "credit", ["routing=arn-afi", *AFC]),
    ("dmodk_rl", "D-mod-K + QCN/RL", "credit", ["routing=dmodk", *ONE_VC, *QCN]),
    ("random_rl", "Random + QCN/RL", "credit", ["routing=oblivious", *ONE_VC, *QCN]),
    ("hashed_rl", "Hashed + QCN/RL", "credit", ["routing=hashed", *ONE_VC, *QCN]),
    ("arn_rl", "ARN + QCN/RL", "credit", ["routing=arn", *ONE_VC, *QCN]),
    ("sar", "Switch AR (QCN, no RL)", "credit", ["routing=switch-ar", *ONE_VC, "qcn=on"]),
    ("sar_rl", "Switch AR + QCN/RL", "credit", ["routing=switch-ar", *ONE_VC, *QCN]),
    ("dmodk_pfc", "D-mod-K", "PFC", ["routing=dmodk", *ONE_VC, *PFC]),
    ("dmodk_rl_pfc", "D-mod-K + QCN/RL", "PFC", ["routing=dmodk", *ONE_VC, *QCN, *PFC]),
    ("random_rl_pfc", "Random + QCN/RL", "PFC", ["routing=oblivious", *ONE_VC, *QCN, *PFC]),
    ("hashed_rl_pfc", "Hashed + QCN/RL", "PFC", ["routing=hashed", *ONE_VC, *QCN, *PFC]),
]
TRAFFIC = ["uniform", "hs10-1", "hs25-1", "hs10-4", "hs25-4"]
LAST = 10000  # cycles at the end of each run that the tables average


def run(asw, out, cfg, traffic):
    key, _, _, args = cfg
    name = f"{key}_{traffic}"
    j, c = os.path.join(out, name + ".json"), os.path.join(out, name + ".csv")
    if not (os.environ.get("CM_RESUME") and os.path.exists(j) and os.path.exists(c)):
        length = ["warmup=5000", "cycles=25000"] if traffic == "uniform" else \
                 ["warmup=5000", "cycles=55000"]
        r = subprocess.run([asw, "net", *COMMON, *length, *args, f"traffic={traffic}", "--quiet",
                            "--json", j, "--csv", c], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"study_cm: {name} failed: {r.stderr.strip()}")
    js = json.load(open(j))
    rows = list(csv.DictReader(open(c)))
    end = int(rows[-1]["cycle"])
    last = [r for r in rows if int(r["cycle"]) > end - LAST]
    eff = sum(float(r["accepted"]) for r in last) / len(last)
    cold = sum(float(r["accepted_cold"]) for r in last) / len(last)
    if js.get("pfc") and js["pfc"].get("frames_dropped", 0) != 0:
        sys.exit(f"study_cm: {name} dropped frames under PFC")
    return name, dict(eff=eff, cold=cold, cnm=js.get("qcn", {}).get("cnm_sent", 0),
                      series=[(int(r["cycle"]), float(r["accepted"])) for r in rows])


def main(asw, out, figdir, jobs):
    os.makedirs(out, exist_ok=True)
    work = [(c, t) for c in CONFIGS for t in TRAFFIC]
    with ThreadPoolExecutor(jobs) as ex:
        res = dict(ex.map(lambda ct: run(asw, out, *ct), work))
    head = "| routing | links | " + " | ".join(t.upper() for t in TRAFFIC) + " |"
    rule = "|---|---|" + "---|" * len(TRAFFIC)
    for what, key in (("Efficiency (accepted flits per node per cycle, offered 1) over the "
                       "last 10 000 cycles", "eff"),
                      ("Victim throughput (flits per node per cycle accepted from the sources "
                       "that do not send to a hot spot) over the last 10 000 cycles", "cold")):
        print(f"**{what}:**\n\n{head}\n{rule}")
        best = {t: max(res[f"{c[0]}_{t}"][key] for c in CONFIGS) for t in TRAFFIC}
        for k, label, fc, _ in CONFIGS:
            vals = [res[f"{k}_{t}"][key] for t in TRAFFIC]
            print(f"| {label} | {fc} | " + " | ".join(
                (f"**{v:.3f}**" if v == best[t] else f"{v:.3f}") for v, t in zip(vals, TRAFFIC))
                + " |")
        print()
    print("**CNMs sent (whole run, thousands):**\n")
    print(head + "\n" + rule)
    for k, label, fc, args in CONFIGS:
        if "qcn=on" in args:
            print(f"| {label} | {fc} | " + " | ".join(f"{res[f'{k}_{t}']['cnm'] / 1000:.1f}"
                                                     for t in TRAFFIC) + " |")
    print()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("study_cm: matplotlib missing (make deps installs it)")
    fig, ax = plt.subplots(figsize=(9, 5))
    for k, label, fc, _ in CONFIGS:
        s = res[f"{k}_hs10-1"]["series"]
        ax.plot([x / 1000 for x, _ in s], [y for _, y in s], label=f"{label} ({fc})",
                ls="--" if fc == "PFC" else "-")
    ax.axvline(10, color="grey", lw=0.8)
    ax.set_xlabel("cycle (thousands); hot spot from 10 000")
    ax.set_ylabel("accepted flits / node / cycle")
    ax.set_title("432-node RLFT, HS10-1: congestion management compared")
    ax.legend(fontsize=7, ncol=2)
    os.makedirs(figdir, exist_ok=True)
    fig.savefig(os.path.join(figdir, "cm_hs10-1.png"), dpi=110, bbox_inches="tight")
    print(f"figure: {os.path.join(figdir, 'cm_hs10-1.png')}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.split("Usage: ")[1])
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) == 5 else 2))
