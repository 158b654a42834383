#!/usr/bin/env python3
"""Summaries of `asw net` JSON results.

  net_report.py bench RUN.json         one line: network, load, throughput,
                                       wall time, flit-hops/s, RSS
  net_report.py table results.json --rows KEY[,KEY] --cols KEY [--y FIELD]
                                       a table (rows x columns) of FIELD
"""
import argparse
import json
import sys


def bench(path):
    r = json.load(open(path))
    c, t = r["config"], r["topology"]
    print(f"bench: {t['nodes']} nodes ({c['topology']}), load {c['load']}, "
          f"{r['cycles_run']} cycles: accepted {r['accepted_throughput']:.4f}, "
          f"wall {r['wall_seconds']:.2f} s, {r['flit_hops']} flit-hops, "
          f"{r['flit_hops_per_second'] / 1e6:.2f} M flit-hops/s, "
          f"max RSS {r['max_rss_kb'] / 1024:.0f} MB"
          + (f", CPU {r['cpu_seconds']:.2f} s, {r['flit_hops_per_cpu_second'] / 1e6:.2f} M "
             f"flit-hops per CPU-s, {r['threads']} thread(s)" if "cpu_seconds" in r else ""))


def key_of(run, keys):
    return " ".join(str(run[k] if k in run else run["config"][k]) for k in keys)


def summary(rkeys, ckeys, val, fmt):
    """Per value of the first column key (e.g. the scheme): the mean of every row over the
    other column keys (e.g. the traffic patterns), their mean, the best three and the worst
    two rows (markdown)."""
    scale = 100 if fmt == "pct" else 1
    groups = []
    for ck in ckeys:
        g = ck.split(" ")[0]
        if g not in groups:
            groups.append(g)
    print("| scheme | mean of all routings | best three | worst two |")
    print("|---|---|---|---|")
    for g in groups:
        means = []
        for rk in rkeys:
            vs = [val[(rk, ck)] for ck in ckeys if ck.split(" ")[0] == g and (rk, ck) in val]
            if vs:
                means.append((sum(vs) / len(vs) * scale, rk))
        if not means:
            continue
        means.sort(key=lambda m: -m[0])
        fmtv = (lambda v: f"{v:.0f}") if fmt == "pct" else (lambda v: f"{v:.3f}")
        best = ", ".join(f"{rk} {fmtv(v)}" for v, rk in means[:3])
        worst = ", ".join(f"{rk} {fmtv(v)}" for v, rk in means[-2:][::-1])
        print(f"| {g} | {fmtv(sum(v for v, _ in means) / len(means))} | {best} | {worst} |")


def table(path, rows, cols, field, fmt, markdown=False, by_first=False):
    runs = [r for r in json.load(open(path)) if "config" in r]
    rkeys, ckeys, val = [], [], {}
    for r in runs:
        rk, ck = key_of(r, rows), key_of(r, cols)
        if rk not in rkeys:
            rkeys.append(rk)
        if ck not in ckeys:
            ckeys.append(ck)
        val[(rk, ck)] = r[field]
    if markdown:
        print("| " + " | ".join(["routing"] + ckeys) + " |")
        print("|---" * (len(ckeys) + 1) + "|")
        for rk in rkeys:
            cells = []
            for ck in ckeys:
                v = val.get((rk, ck))
                cells.append("-" if v is None else (f"{v * 100:.0f}" if fmt == "pct" else f"{v:.3f}"))
            print("| " + " | ".join([rk] + cells) + " |")
        if by_first:
            print()
            summary(rkeys, ckeys, val, fmt)
        return
    w = max([len(k) for k in rkeys] + [8])
    cw = max([len(k) for k in ckeys] + [7])
    print(f"{'':{w}} " + " ".join(f"{c:>{cw}}" for c in ckeys))
    for rk in rkeys:
        cells = []
        for ck in ckeys:
            v = val.get((rk, ck))
            cells.append(f"{'-':>{cw}}" if v is None else f"{v * 100 if fmt == 'pct' else v:>{cw}.{0 if fmt == 'pct' else 3}f}")
        print(f"{rk:{w}} " + " ".join(cells))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["bench", "table"])
    ap.add_argument("input")
    ap.add_argument("--rows", default="routing")
    ap.add_argument("--cols", default="traffic")
    ap.add_argument("--y", default="accepted_throughput")
    ap.add_argument("--fmt", default="pct", choices=["pct", "num"])
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--summary", action="store_true",
                    help="with --markdown: a second table, per value of the first column key, "
                         "of the rows' means over the other keys (best three, worst two)")
    a = ap.parse_args(argv)
    if a.kind == "bench":
        bench(a.input)
    else:
        table(a.input, a.rows.split(","), a.cols.split(","), a.y, a.fmt, a.markdown, a.summary)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
