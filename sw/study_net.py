#!/usr/bin/env python3
"""Default network study (`make`): the 432-node RLFT (P=12, T=3) under HS25-1
(25 % of the nodes send to node 4 from cycle 0, the rest uniform, 100 % load,
4 KB packets = 64 flits, 192 KB input buffers), comparing D-mod-K, fully
adaptive and a restricted adaptive routing (ADAP-2TH-1S-K/3 of Table 2 of
seed 000) with 1Q (1 VC of 3072 flits) and vFtree (3 VCs of 1024 flits).
Prints a table and writes throughput-vs-time and bar plots (PNG).
Also usable for bigger grids: see --help."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plot_net  # noqa: E402

SCHEMES = {
    "1q": ["sqs=1q", "vcs=1", "buffer_flits=3072"],
    "vftree": ["sqs=vftree", "vcs=3", "buffer_flits=1024"],
    "dbbm": ["sqs=dbbm", "vcs=3", "buffer_flits=1024"],
    "flow2sl": ["sqs=flow2sl", "vcs=3", "buffer_flits=1024"],
}


def sweep(asw, out, base, vary, jobs):
    cmd = [asw, "sweep", "-j", str(jobs), "--dir", out] + base
    for k, v in vary:
        cmd += ["--vary", f"{k}={','.join(v)}"]
    subprocess.run(cmd, check=True)
    return json.load(open(os.path.join(out, "results.json")))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--asw", default="build/asw")
    ap.add_argument("--out", default="build/results/study_net")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--traffic", default="hs25-1")
    ap.add_argument("--routing", default="dmodk,adaptive,adap-2th-1s-k/3")
    ap.add_argument("--schemes", default="1q,vftree")
    ap.add_argument("--voq", default="0")
    ap.add_argument("--cycles", default="50000")
    ap.add_argument("--warmup", default="10000")
    ap.add_argument("--extra", nargs="*", default=[])
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    base = ["topology=rlft", "ports=12", "stages=3", "packet_flits=64",
            "load=1", "iters=3", f"cycles={a.cycles}", f"warmup={a.warmup}",
            "window=1000", "seed=1", f"voq={a.voq}"] + a.extra
    runs = []
    for scheme in a.schemes.split(","):
        d = os.path.join(a.out, scheme)
        res = sweep(a.asw, d, base + SCHEMES[scheme],
                    [("traffic", a.traffic.split(",")), ("routing", a.routing.split(","))],
                    a.jobs)
        for i, r in enumerate(res):
            r["_csv"] = os.path.join(d, f"run-{i:03d}.csv")
            runs.append(r)
    merged = os.path.join(a.out, "results.json")
    with open(merged, "w") as f:
        json.dump([{k: v for k, v in r.items() if k != "_csv"} for r in runs], f, indent=1)
    nodes = runs[0]["topology"]["nodes"] if runs else 0
    print(f"{nodes}-node RLFT, {a.traffic}, load 1.0, {a.cycles} cycles after "
          f"{a.warmup} warm-up (5.12 ns/cycle): throughput in flits/node/cycle")
    print(f"{'traffic':8} {'routing':18} {'scheme':8} {'accepted':>8} {'cold':>7} "
          f"{'hot':>7} {'lat_mean':>9} {'lat_p99':>8} {'adaptive':>9}")
    for r in runs:
        print(f"{r['traffic_name']:8} "
              f"{r['routing_name']:18} {r['scheme_name']:8} {r['accepted_throughput']:8.3f} "
              f"{r['accepted_cold']:7.3f} {r['accepted_hot']:7.4f} {r['latency_mean']:9.0f} "
              f"{r['latency_p99']:8.0f} {r['adaptive_decisions_measured']:9d}")
    for traffic in a.traffic.split(","):
        series = [(f"{r['routing_name']} {r['scheme_name']}", r["_csv"]) for r in runs
                  if r["traffic_name"] == traffic]
        if len(series) > 12:
            continue
        png = os.path.join(a.out, f"throughput_time_{traffic}.png")
        plot_net.plot_time(png, series, f"{nodes}-node RLFT, {traffic}, 100 % load")
        print(f"plot: {png}")
    for traffic in a.traffic.split(","):
        sub = [r for r in json.load(open(merged)) if r["traffic_name"] == traffic]
        part = os.path.join(a.out, f"results_{traffic}.json")
        with open(part, "w") as f:
            json.dump(sub, f)
        png = os.path.join(a.out, f"throughput_bars_{traffic}.png")
        plot_net.plot_bars(png, part, ["scheme_name"], ["routing_name"], "accepted_throughput",
                           f"{nodes}-node RLFT, {traffic}, 100 % load: accepted throughput after warm-up")
        print(f"plot: {png}")
    print(f"results: {merged}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
