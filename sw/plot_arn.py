#!/usr/bin/env python3
"""Seed 001 §4.3 study (sw/study_arn.sh): markdown tables and efficiency vs
time figures. Efficiency = accepted flits per node per cycle in each window
(offered load 1, so 1.0 = every node receives at link rate).
Usage: plot_arn.py RESULTS_DIR FIGURE_DIR
Writes FIGURE_DIR/arn_efficiency_vs_time.png (schemes x patterns, like
seed 001 Fig. 6) and, if RESULTS_DIR/long exists, arn_long_hs10.png."""
import csv
import glob
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ORDER = ["D-mod-K", "Oblivious", "Adaptive-Th", "Adaptive-Th+AFI", "ARN", "ARN+AFI",
         "ARN (leaf)", "ARN+AFI (leaf)"]
STYLE = {"D-mod-K": ("k", "-"), "Oblivious": ("tab:gray", "-"), "Adaptive-Th": ("tab:orange", "-"),
         "Adaptive-Th+AFI": ("tab:red", "-"), "ARN": ("tab:cyan", "-"), "ARN+AFI": ("tab:blue", "-"),
         "ARN (leaf)": ("tab:olive", "--"), "ARN+AFI (leaf)": ("tab:green", "--")}
SCHEMES = {"1q": "1Q", "dbbm": "DBBM", "vftree": "vFtree", "flow2sl": "Flow2SL"}
TRAFFIC = ["uniform", "hs10-1", "hs10-4", "hs25-1", "hs25-4"]


def label(c):
    leaf = " (leaf)" if c.get("arn_up_nodes") else ""
    if c["arn"] == "arn":
        return "ARN" + leaf
    if c["arn"] == "afi":
        return "ARN+AFI" + leaf
    if c["routing"] == "dmodk":
        return "D-mod-K"
    if c["routing"] == "oblivious":
        return "Oblivious"
    return "Adaptive-Th+AFI" if c["afi"] else "Adaptive-Th"


def load(dirs):
    runs = []
    for res in sorted(dirs):
        d = os.path.dirname(res)
        for i, js in enumerate(json.load(open(res))):
            rows = list(csv.DictReader(open(os.path.join(d, f"run-{i:03d}.csv"))))
            c = js["config"]
            series = [(int(r["cycle"]), float(r["accepted"]) / c["load"]) for r in rows]
            runs.append((js, series))
    return runs


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def summarise(js, series):
    c = js["config"]
    hs = c["hs_start"] if js["traffic_name"] != "uniform" else 0
    end = series[-1][0]
    pre = [e for t, e in series if hs - 5000 < t <= hs] if hs else []
    post = [e for t, e in series if t > hs + c["window"]] if hs else []
    last = [e for t, e in series if t > end - 10000]
    a = js.get("arn", {})
    return {"acc": js["accepted_throughput"], "pre": mean(pre), "min": min(post) if post else float("nan"),
            "last": mean(last), "roots": a.get("roots_declared", ""), "consumed": a.get("consumed", ""),
            "adapted": a.get("packets_adapted", ""), "nodes": a.get("at_end_nodes", "")}


def fmt(x):
    return "" if x == "" else (f"{x:.3f}" if isinstance(x, float) else str(x))


def table(runs):
    rows = {}
    for js, series in runs:
        c = js["config"]
        rows[(SCHEMES[c["sqs"]], js["traffic_name"], label(c), c["arn"])] = summarise(js, series)
    sch = list(SCHEMES.values())
    cols = sorted({(k[0], k[1]) for k in rows}, key=lambda k: (sch.index(k[0]), TRAFFIC.index(k[1])))
    labs = sorted({k[2] for k in rows}, key=ORDER.index)
    by = {(k[0], k[1], k[2]): v for k, v in rows.items()}
    for key, what in [("last", "efficiency over the last 10 000 cycles"),
                      ("min", "lowest window efficiency after the hot-spot start")]:
        if key == "min" and all(t == "uniform" for _, t in cols):
            continue
        ccols = [c for c in cols if key == "last" or c[1] != "uniform"]
        print(f"\n{what}:\n")
        print("| routing | " + " | ".join(f"{a} {b.upper()}" for a, b in ccols) + " |")
        print("|---|" + "---|" * len(ccols))
        for lab in labs:
            print(f"| {lab} | " + " | ".join(
                fmt(by[(a, b, lab)][key]) if (a, b, lab) in by else "" for a, b in ccols) + " |")
    print("\nARN counters (whole run, all switches): roots / consumed / adapted packets / "
          "ARNs reaching end nodes:\n")
    arnl = [lab for lab in labs if lab.startswith("ARN")]
    print("| scheme | traffic | " + " | ".join(arnl) + " |")
    print("|---|---|" + "---|" * len(arnl))
    for a, b in cols:
        cells = [by.get((a, b, lab)) for lab in arnl]
        print(f"| {a} | {b.upper()} | " + " | ".join(
            "" if r is None else f"{r['roots']} / {r['consumed']} / {r['adapted']} / {r['nodes']}"
            for r in cells) + " |")


def figure(runs, path, cols, title):
    sch = [s for s in SCHEMES.values() if any(SCHEMES[js["config"]["sqs"]] == s for js, _ in runs)]
    fig, axes = plt.subplots(len(sch), len(cols), figsize=(max(3.2 * len(cols), 6.4), 2.4 * len(sch)),
                             squeeze=False, sharey=True)
    seen = set()
    for js, series in sorted(runs, key=lambda r: ORDER.index(label(r[0]["config"]))):
        c = js["config"]
        if js["traffic_name"] not in cols:
            continue
        ax = axes[sch.index(SCHEMES[c["sqs"]])][cols.index(js["traffic_name"])]
        lab = label(c)
        col, ls = STYLE[lab]
        xs = [t * c["cycle_ns"] / 1000 for t, _ in series]
        ax.plot(xs, [e for _, e in series], color=col, ls=ls, lw=1.0,
                label=lab if lab not in seen else None)
        seen.add(lab)
        if js["traffic_name"] != "uniform":
            ax.axvline(c["hs_start"] * c["cycle_ns"] / 1000, color="k", lw=0.5, ls=":")
    for i, s in enumerate(sch):
        for j, t in enumerate(cols):
            ax = axes[i][j]
            ax.set_title(f"{t.upper()} - {s}", fontsize=8)
            ax.set_ylim(0, 1.02)
            ax.tick_params(labelsize=7)
            ax.grid(alpha=0.3)
            if i == len(sch) - 1:
                ax.set_xlabel("time (µs)", fontsize=7)
            if j == 0:
                ax.set_ylabel("efficiency", fontsize=7)
    fig.legend(loc="lower center", ncol=8, fontsize=7, frameon=False)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    fig.savefig(path, dpi=64)
    plt.close(fig)
    # 64-colour palette: a quarter of the size, the lines stay distinct
    from PIL import Image
    Image.open(path).convert("RGB").quantize(64).save(path, optimize=True)


def main(root, figdir):
    os.makedirs(figdir, exist_ok=True)
    grid = load(glob.glob(os.path.join(root, "*", "results.json")))
    if grid:
        table(grid)
        figure(grid, os.path.join(figdir, "arn_efficiency_vs_time.png"), TRAFFIC,
               "432-node RLFT, efficiency vs time (hot spot from the dotted line)")
    long = load(glob.glob(os.path.join(root, "long", "*", "results.json")))
    if long:
        print()
        table(long)
        figure(long, os.path.join(figdir, "arn_long_hs10.png"), ["hs10-1"],
               "HS10-1, 1 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
