#!/usr/bin/env python3
"""ARN/AFI study (sw/study_arn.sh): markdown table of accepted throughput
before / after the hot-spot start and per-window efficiency vs time plots.
Usage: plot_arn.py RESULTS_DIR FIGURE_DIR [LONG_RESULTS_DIR]
(LONG_RESULTS_DIR: 1Q HS25-1 runs over 90 000 cycles, one more figure)"""
import csv
import glob
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ORDER = ["D-mod-K", "Oblivious", "Adaptive-Th", "Adaptive-Th+AFI", "ARN", "ARN+AFI"]


def label(c):
    if c["arn"] == "arn":
        return "ARN"
    if c["arn"] == "afi":
        return "ARN+AFI"
    if c["routing"] == "dmodk":
        return "D-mod-K"
    if c["routing"] == "oblivious":
        return "Oblivious"
    return "Adaptive-Th+AFI" if c["afi"] else "Adaptive-Th"


def load(root):
    runs = []
    for res in sorted(glob.glob(os.path.join(root, "*", "results.json"))):
        d = os.path.dirname(res)
        for i, js in enumerate(json.load(open(res))):
            rows = list(csv.DictReader(open(os.path.join(d, f"run-{i:03d}.csv"))))
            runs.append((js, rows))
    return runs


def main(root, figdir):
    runs = load(root)
    table = {}
    series = {}
    for js, rows in runs:
        c = js["config"]
        scheme = "1Q" if c["sqs"] == "1q" else "vFtree"
        traffic = js["traffic_name"]
        lab = label(c)
        hs = c["hs_start"]
        # efficiency = accepted / offered load (the load the sources try to inject)
        eff = [(float(r["time_us"]), float(r["accepted"]) / c["load"]) for r in rows]
        before = [e for t, e in eff if t * 1000 / c["cycle_ns"] <= hs and t * 1000 / c["cycle_ns"] > hs - 5000]
        after = [e for t, e in eff if t * 1000 / c["cycle_ns"] > hs + 5000]
        a = js.get("arn", {}) if c["arn"] != "off" else {}
        table[(scheme, traffic, lab)] = (js["accepted_throughput"],
                                         sum(before) / max(1, len(before)),
                                         sum(after) / max(1, len(after)),
                                         a.get("roots_declared", ""), a.get("packets_adapted", ""))
        series[(scheme, traffic, lab)] = eff
    print("| scheme | traffic | routing | accepted (measured) | eff. 5k cycles before HS | "
          "eff. from HS+5k | roots | adapted pkts |")
    print("|---|---|---|---|---|---|---|---|")
    for (scheme, traffic, lab) in sorted(table, key=lambda k: (k[0], k[1], ORDER.index(k[2]))):
        acc, b, af, roots, adp = table[(scheme, traffic, lab)]
        print(f"| {scheme} | {traffic} | {lab} | {acc:.3f} | {b:.3f} | {af:.3f} | {roots} | {adp} |")
    os.makedirs(figdir, exist_ok=True)
    schemes = sorted({k[0] for k in series})
    traffics = [t for t in ["uniform", "hs10-1", "hs25-1"] if any(k[1] == t for k in series)]
    fig, axes = plt.subplots(len(schemes), len(traffics), figsize=(5 * len(traffics), 3.6 * len(schemes)),
                             squeeze=False, sharey=True)
    for i, s in enumerate(schemes):
        for j, t in enumerate(traffics):
            ax = axes[i][j]
            for lab in ORDER:
                if (s, t, lab) in series:
                    xs, ys = zip(*series[(s, t, lab)])
                    ax.plot(xs, ys, label=lab, lw=1.2)
            hs_us = runs[0][0]["config"]["hs_start"] * runs[0][0]["config"]["cycle_ns"] / 1000
            if t != "uniform":
                ax.axvline(hs_us, color="k", ls=":", lw=0.8)
            ax.set_title(f"{s}, {t} (432-node RLFT)")
            ax.set_xlabel("time (µs)")
            if j == 0:
                ax.set_ylabel("efficiency (accepted / offered)")
            ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    out = os.path.join(figdir, "arn_efficiency_vs_time.png")
    fig.savefig(out, dpi=110)
    print(f"\nfigure: {out}")
    if len(sys.argv) > 3:
        fig, ax = plt.subplots(figsize=(7, 3.6))
        print("\n| routing | accepted (measured) | eff. last 20 000 cycles |\n|---|---|---|")
        for js, rows in sorted(load(sys.argv[3]), key=lambda r: ORDER.index(label(r[0]["config"]))):
            c = js["config"]
            xs = [float(r["time_us"]) for r in rows]
            ys = [float(r["accepted"]) / c["load"] for r in rows]
            ax.plot(xs, ys, label=label(c), lw=1.2)
            tail = ys[-(20000 // c["window"]):]
            print(f"| {label(c)} | {js['accepted_throughput']:.3f} | {sum(tail) / len(tail):.3f} |")
        c = runs[0][0]["config"]
        ax.axvline(c["hs_start"] * c["cycle_ns"] / 1000, color="k", ls=":", lw=0.8)
        ax.set_title("1Q, hs25-1, 432-node RLFT, 100 000 cycles")
        ax.set_xlabel("time (µs)")
        ax.set_ylabel("efficiency (accepted / offered)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        out = os.path.join(figdir, "arn_long_hs25_1q.png")
        fig.savefig(out, dpi=110)
        print(f"\nfigure: {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
