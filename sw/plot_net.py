#!/usr/bin/env python3
"""Plots `asw net` / `asw sweep` results as PNG figures in the style of the
seeds' figures: normalized throughput (flits/node/cycle) against time or
against offered load, one line with markers per configuration.

  plot_net.py time OUT.png LABEL=run.csv [LABEL=run.csv ...] [--title T]
  plot_net.py load OUT.png results.json --group KEY[,KEY] [--x offered_load]
              [--y accepted_throughput] [--title T]
  plot_net.py bars OUT.png results.json --group KEY --cat KEY [--title T]
"""
import argparse
import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MARKERS = "osD^v<>ph*xP+"


def style(ax, xlabel, ylabel, title):
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(True, linestyle=":", linewidth=0.6)
    ax.legend(fontsize=7, ncol=2, frameon=False)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def plot_time(out, series, title, column="accepted"):
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for k, (label, path) in enumerate(series):
        rows = read_csv(path)
        x = [float(r["time_us"]) for r in rows]
        y = [float(r[column]) for r in rows]
        ax.plot(x, y, marker=MARKERS[k % len(MARKERS)], markersize=3,
                linewidth=1, label=label, markevery=max(1, len(x) // 20))
    ax.set_ylim(0, 1.05)
    style(ax, "time (µs)", "normalized throughput", title)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def label_of(run, keys):
    return " ".join(str(run[k] if k in run else run["config"][k]) for k in keys)


def plot_load(out, results, group, xkey, ykey, title):
    runs = json.load(open(results))
    lines = {}
    for r in runs:
        if "config" not in r:
            continue
        lines.setdefault(label_of(r, group), []).append((r[xkey], r[ykey]))
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for k, (label, pts) in enumerate(sorted(lines.items())):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts],
                marker=MARKERS[k % len(MARKERS)], markersize=4, linewidth=1,
                label=label)
    if ykey.startswith("accepted"):
        ax.set_ylim(0, 1.05)
    style(ax, xkey.replace("_", " "), ykey.replace("_", " "), title)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def plot_bars(out, results, group, cat, ykey, title):
    runs = [r for r in json.load(open(results)) if "config" in r]
    cats = []
    groups = []
    for r in runs:
        c, g = label_of(r, cat), label_of(r, group)
        if c not in cats:
            cats.append(c)
        if g not in groups:
            groups.append(g)
    val = {(label_of(r, group), label_of(r, cat)): r[ykey] for r in runs}
    fig, ax = plt.subplots(figsize=(max(6.4, 0.5 * len(cats) * len(groups) / 3), 3.8))
    width = 0.8 / max(1, len(groups))
    for k, g in enumerate(groups):
        xs = [i + k * width for i in range(len(cats))]
        ax.bar(xs, [val.get((g, c), 0) for c in cats], width=width, label=g)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(cats))])
    ax.set_xticklabels(cats, fontsize=7, rotation=30, ha="right")
    ax.set_ylim(0, 1.05)
    style(ax, "", ykey.replace("_", " "), title)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["time", "load", "bars"])
    ap.add_argument("out")
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--group", default="routing")
    ap.add_argument("--cat", default="traffic")
    ap.add_argument("--x", default="offered_load")
    ap.add_argument("--y", default="accepted_throughput")
    ap.add_argument("--column", default="accepted")
    ap.add_argument("--title", default="")
    a = ap.parse_args(argv)
    if a.kind == "time":
        series = []
        for s in a.inputs:
            if "=" not in s:
                ap.error(f"time series '{s}': expected LABEL=file.csv")
            label, path = s.split("=", 1)
            series.append((label, path))
        plot_time(a.out, series, a.title, a.column)
    elif a.kind == "load":
        plot_load(a.out, a.inputs[0], a.group.split(","), a.x, a.y, a.title)
    else:
        plot_bars(a.out, a.inputs[0], a.group.split(","), a.cat.split(","), a.y, a.title)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
