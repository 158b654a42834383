#!/usr/bin/env python3
"""Completion times of application patterns replayed on a fat-tree (make study-trace).

usage: study_trace.py --asw build/asw --out DIR [--extra key=value ...]

Writes the traces of three patterns with `asw trace` (all-to-all, ring allreduce,
3D halo exchange) for the nodes of the network, replays each with `asw net
traffic=trace:FILE` under D-mod-K and fully adaptive routing, and prints a
Markdown table: completion time (cycles and microseconds), the simulator's lower
bound and the ratio of the two. The JSON of every run is kept in DIR.
"""
import argparse
import json
import os
import subprocess
import sys

# The network: the default RLFT of asw net (12-port switches, 3 stages, 432
# nodes), 2 VCs of 256 flits, 16-flit (1 KB) packets.
NET = ["topology=rlft", "ports=12", "stages=3", "vcs=2", "buffer_flits=256",
       "packet_flits=16", "warmup=0", "cycles=2000000"]
PATTERNS = [  # name, size (bytes), iters, what the size is
    ("alltoall", 4096, 1, "4 KB to each other node"),
    ("allreduce", 1 << 20, 1, "1 MB vector"),
    ("halo3d", 65536, 4, "64 KB to each of 6 neighbours, 4 iterations"),
]
ROUTINGS = [("dmodk", "D-mod-K"), ("adaptive", "fully adaptive")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--asw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--extra", nargs="*", default=[])
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    net = NET + a.extra
    info = subprocess.run([a.asw, "net", *net, "--print-config"], capture_output=True, text=True)
    if info.returncode:
        sys.exit(info.stderr)
    nodes = None
    rows = []
    for p, size, iters, what in PATTERNS:
        tr = os.path.join(a.out, f"{p}.txt.gz")
        for routing, rname in ROUTINGS:
            if nodes is None:  # the network's nodes: from a run's JSON
                probe = os.path.join(a.out, "probe.json")
                subprocess.run([a.asw, "net", *net, "cycles=1", "--quiet", "--json", probe], check=True)
                nodes = json.load(open(probe))["topology"]["nodes"]
            if not os.path.exists(tr):
                subprocess.run([a.asw, "trace", f"pattern={p}", f"nodes={nodes}", f"size={size}",
                                f"rounds={iters}", f"out={tr}"], check=True, capture_output=True)
            js = os.path.join(a.out, f"{p}_{routing}.json")
            r = subprocess.run([a.asw, "net", *net, f"routing={routing}", f"traffic=trace:{tr}",
                                "--quiet", "--json", js], capture_output=True, text=True)
            if r.returncode:
                sys.exit(f"{p} {routing}: {r.stderr}")
            j = json.load(open(js))
            t = j["trace"]
            rows.append((p, what, rname, t["messages"], t["bytes"], t["completion_cycles"],
                         t["completion_us"], t["lower_bound_cycles"],
                         t["completion_cycles"] / t["lower_bound_cycles"], j["latency_mean"]))
            print(f"{p} {routing}: {t['completion_cycles']} cycles", file=sys.stderr)
    lines = [f"Network: {nodes}-node RLFT ({' '.join(net[:3])}), {' '.join(net[3:6])}; "
             "64-byte flits, 5.12 ns cycles.", "",
             "| pattern | size | routing | messages | MB | completion (cycles) | completion (µs) | "
             "lower bound (cycles) | completion / bound | mean packet latency (cycles) |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for p, what, rn, m, b, c, us, lb, ratio, lat in rows:
        lines.append(f"| {p} | {what} | {rn} | {m} | {b / 1e6:.1f} | {c} | {us:.1f} | {lb} | "
                     f"{ratio:.2f} | {lat:.1f} |")
    text = "\n".join(lines) + "\n"
    open(os.path.join(a.out, "table.md"), "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
