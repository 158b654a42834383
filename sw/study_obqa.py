#!/usr/bin/env python3
"""Seed 002 study: OBQA vs 1Q vs DBBM vs VOQsw on k-ary n-trees with D-mod-K
(the seed's DET routing). Same memory per input port for every scheme
(256 flits = 64 packets of 4 flits, as the seed's 4 KB of 64-byte
packets): 1Q one queue of 256; DBBM and OBQA 4 queues (VCs) of 64; VOQsw
one VC of 256 with VOQs. (1) uniform traffic, load 0.1..1.0: throughput and
latency vs load; (2) the hot-spot burst (seed 002 traffic case 2): 75 % of the
nodes uniform at 100 %, 25 % send to node 123 only during [hs_start,
hs_end), throughput vs time.
Writes PNGs, results JSON and a markdown table into --out."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plot_net  # noqa: E402

SCHEMES = [
    ("1Q", ["sqs=1q", "vcs=1", "voq=0", "buffer_flits=256"]),
    ("DBBM", ["sqs=dbbm", "vcs=4", "voq=0", "buffer_flits=64"]),
    ("OBQA", ["sqs=obqa", "vcs=4", "voq=0", "buffer_flits=64"]),
    ("VOQsw", ["sqs=1q", "vcs=1", "voq=1", "buffer_flits=256"]),
]


def sweep(asw, out, args, vary, jobs):
    cmd = [asw, "sweep", "-j", str(jobs), "--dir", out] + args
    for k, v in vary:
        cmd += ["--vary", f"{k}={','.join(v)}"]
    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
    return json.load(open(os.path.join(out, "results.json")))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--asw", default="build/asw")
    ap.add_argument("--out", default="build/results/obqa")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--k", default="4")
    ap.add_argument("--n", default="4")
    ap.add_argument("--skip-uniform", action="store_true",
                    help="reuse uniform.json from a previous run in --out")
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    topo = ["topology=kary", f"k={a.k}", f"n={a.n}", "packet_flits=4", "iters=1",
            "link_latency=1", "credit_latency=1", "cycle_ns=64", "seed=1"]
    loads = [f"{x / 10:.1f}" for x in range(1, 11)]
    uni, hot = [], []
    uj = os.path.join(a.out, "uniform.json")
    if a.skip_uniform:
        uni = json.load(open(uj))
    for name, args in SCHEMES:
        if not a.skip_uniform:
            res = sweep(a.asw, os.path.join(a.out, f"uniform_{name}"),
                        topo + args + ["warmup=5000", "cycles=20000"], [("load", loads)], a.jobs)
            for r in res:
                r["scheme"] = name
            uni += res
        d = os.path.join(a.out, f"hotspot_{name}")
        res = sweep(a.asw, d, topo + args + [
            "traffic=hotspot", "hs_fraction=0.25", "hs_nodes=123", "hs_start=4000",
            "hs_end=5000", "hs_idle=1", "load=1", "warmup=0", "cycles=12000", "window=200"],
            [("seed", ["1"])], a.jobs)
        res[0]["scheme"] = name
        res[0]["_csv"] = os.path.join(d, "run-000.csv")
        hot += res
    json.dump(uni, open(uj, "w"), indent=1)
    net = f"{a.k}-ary {a.n}-tree"
    plot_net.plot_load(os.path.join(a.out, "uniform_throughput.png"), uj, ["scheme"],
                       "offered_load", "accepted_throughput", f"{net}, uniform, D-mod-K")
    plot_net.plot_load(os.path.join(a.out, "uniform_latency.png"), uj, ["scheme"],
                       "accepted_throughput", "latency_mean", f"{net}, uniform: latency (cycles)")
    plot_net.plot_time(os.path.join(a.out, "hotspot_time.png"),
                       [(r["scheme"], r["_csv"]) for r in hot],
                       f"{net}, 75 % uniform + 25 % to node 123 during 256-320 µs (64 ns/cycle)")
    lines = ["| scheme | " + " | ".join(loads) + " |", "|---" * (len(loads) + 1) + "|"]
    for name, _ in SCHEMES:
        row = {r["config"]["load"]: r["accepted_throughput"] for r in uni if r["scheme"] == name}
        lines.append(f"| {name} | " + " | ".join(f"{row[float(l)]:.2f}" for l in loads) + " |")
    lines.append("")
    lines.append("| scheme | accepted before | during hot spot (min window) | after (last 2000 cycles) |")
    lines.append("|---|---|---|---|")
    for r in hot:
        rows = [l.split(",") for l in open(r["_csv"]).read().splitlines()[1:]]
        acc = [(int(x[0]), float(x[3])) for x in rows]
        before = [v for c, v in acc if 2000 < c <= 4000]  # 75 % of the nodes active
        during = [v for c, v in acc if 4000 < c <= 6000]
        after = [v for c, v in acc if c > 10000]
        lines.append(f"| {r['scheme']} | {sum(before) / len(before):.2f} | {min(during):.2f} | "
                     f"{sum(after) / len(after):.2f} |")
    md = "\n".join(lines)
    open(os.path.join(a.out, "tables.md"), "w").write(md + "\n")
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
