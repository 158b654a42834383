#!/usr/bin/env python3
"""Seed 003 study on tori (contract §16.4, §16.3, §16.6): the destination-based VC
selection schemes (1Q, DBBM, BBQ, IODET, XORDET, VOQsw) with deterministic
minimal routing and bubble flow control, OODET (DOR, any VC) and fully adaptive
routing with one escape VC, against the VOQnet reference (one VC per node, the
simulator's model of the switch with N VCs), 16-flit packets, 4-packet buffers
per VC (buffer_flits=64).

  fig7  256-node 2D torus (16x16), DOR (XY), 4 and 8 VCs, uniform: accepted
        traffic and latency vs offered load;
  fig8  512-node 3D torus (8x8x8), DOR (XYZ), 4 and 8 VCs, uniform;
  fig9  16x16, 4 VCs, X+Y+X-Y- direction order against XY;
  fig10 16x16, 8 VCs, 75 % of the nodes uniform at `--hs-load`, 25 % to one
        hot spot from cycle 100 000 until 10 000 hot packets are delivered, capped
        at its ejection bandwidth (seed 003): accepted traffic vs time, and the
        fig11 summary (before / minimum during / maximum after);
  perm  16x16, 4 VCs, bit-reversal and matrix transpose vs offered load;
  adap  seed 003 Figures 12, 15-17: 16x16, fully adaptive and XORADAP with 2 and
        4 groups (5 VCs: 4 adaptive + 1 escape) against XORDET with 4 and 8 VCs,
        uniform, transpose and bit-reversal vs offered load, and the hot spot.
Runs are shorter than the paper's (see docs/results.md). Writes PNGs, the
sweeps' results.json files and tables.md into --out."""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plot_net  # noqa: E402

SCHEMES = ["1q", "dbbm", "bbq", "iodet", "xordet", "voqsw", "oodet", "fully", "voqnet"]
NAMES = {"1q": "1Q (1 VC)", "dbbm": "DBBM", "bbq": "BBQ", "iodet": "IODET", "xordet": "XORDET",
         "voqsw": "VOQsw", "oodet": "OODET", "fully": "fully adaptive (1 escape VC)",
         "voqnet": "VOQnet (one VC per node: reference, §16.6)"}
# the adap part (seed 003 §5.1.2): five VCs for the adaptive schemes, XORDET with 4 and 8
ADAP = [("fully", "fully adaptive (5 VCs)", ["routing=fully-adaptive", "vcs=5"]),
        ("xa2", "XORADAP 2 groups (5 VCs)", ["routing=xoradap", "groups=2", "vcs=5"]),
        ("xa4", "XORADAP 4 groups (5 VCs)", ["routing=xoradap", "groups=4", "vcs=5"]),
        ("xd4", "XORDET (4 VCs)", ["routing=dor", "sqs=xordet", "vcs=4"]),
        ("xd8", "XORDET (8 VCs)", ["routing=dor", "sqs=xordet", "vcs=8"])]
COMMON = ["packet_flits=16", "buffer_flits=64", "link_latency=2", "credit_latency=2", "seed=1"]


def sweep(asw, out, args, vary, jobs):
    cmd = [asw, "sweep", "-j", str(jobs), "--dir", out] + args
    for k, v in vary:
        cmd += ["--vary", f"{k}={','.join(v)}"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return json.load(open(os.path.join(out, "results.json")))


def scheme_args(s, vcs):
    if s == "fully":  # §16.3: VC 0 the escape channel, 1..vcs-1 adaptive
        return ["routing=fully-adaptive", "sqs=1q", f"vcs={vcs}"]
    if s == "voqnet":  # §16.6: the simulator's reference fabric, N VCs whatever vcs says
        return ["sqs=voqnet", "vcs=1"]
    return ["sqs=1q", "vcs=1"] if s == "1q" else [f"sqs={s}", f"vcs={vcs}"]


def load_sweep(a, tag, base, vcs, loads, schemes=None):
    """One sweep per scheme over loads; returns the runs with r['scheme']."""
    res = []
    for s, name, args in schemes or [(s, NAMES[s], scheme_args(s, vcs)) for s in SCHEMES]:
        rs = sweep(a.asw, os.path.join(a.out, f"{tag}_{s}"), base + args,
                   [("load", loads)], a.jobs)
        for r in rs:
            r["scheme"] = name
        res += rs
    path = os.path.join(a.out, f"{tag}.json")
    json.dump(res, open(path, "w"), indent=1)
    return res, path


def table(title, res, loads, key="accepted_throughput"):
    lines = [f"**{title}**", "", "| scheme | " + " | ".join(loads) + " | max |",
             "|---" * (len(loads) + 2) + "|"]
    names = list(dict.fromkeys(r["scheme"] for r in res))
    for name in names:
        row = {f"{r['config']['load']:g}": r[key] for r in res if r["scheme"] == name}
        vals = [row[f"{float(l):g}"] for l in loads]
        lines.append(f"| {name} | " + " | ".join(f"{v:.3f}" for v in vals) +
                     f" | {max(vals):.3f} |")
    return lines + [""]


def hotspot(a, tag, vcs_args, title):
    """Seed 003's hot spot (Figures 10, 11, 17) for [(key, name, args)]: 25 % of the nodes
    send to node 123 from cycle 100 000 until 10 000 of their packets are delivered, capped
    together at the hot node's 1 flit/cycle; the others uniform at --hs-load. Markdown lines."""
    hs = ["topology=torus", "dims=16x16"] + COMMON + [
        "traffic=hotspot", "hs_fraction=0.25", "hs_count=1", "hs_start=100000",
        "hs_packets=10000", "hs_cap=on", f"load={a.hs_load}", "warmup=0",
        f"cycles={a.hs_cycles}", "window=5000"]

    def one(item):
        s, name, args = item
        d = os.path.join(a.out, f"{tag}_{s}")
        r = sweep(a.asw, d, hs + args, [("seed", ["1"])], 1)[0]
        return name, os.path.join(d, "run-000.csv"), r.get("hs_closed_cycle")

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        runs = list(ex.map(one, vcs_args))
    plot_net.plot_time(os.path.join(a.out, f"{tag}_hotspot_time.png"), [(n, p) for n, p, _ in runs],
                       f"16x16 torus, {title}: 25 % to node 123 from cycle 100 000")
    md = [f"**16x16 torus, {title}, hot spot (25 % of the nodes to node 123 from cycle 100 000 "
          "until 10 000 of their packets are delivered, at 1 flit/cycle in total; the others "
          f"uniform at {a.hs_load}): accepted traffic (flits/node/cycle) per 5 000-cycle window**",
          "", "| scheme | before (95 000-100 000) | min during | mean during | hot flows end | "
          "max after | back within 2 % of before at |", "|---|---|---|---|---|---|---|"]
    for name, p, closed in runs:
        rows = [ln.split(",") for ln in open(p).read().splitlines()[1:]]
        acc = [(int(x[0]), float(x[3])) for x in rows]
        end = closed or acc[-1][0]
        before = [v for c, v in acc if 95000 < c <= 100000]
        during = [v for c, v in acc if 100000 < c <= end]
        after = [(c, v) for c, v in acc if c > end]
        b = sum(before) / len(before)
        back = next((c for c, v in after if abs(v - b) <= 0.02 * b and
                     all(abs(w - b) <= 0.1 * b for c2, w in after if c2 >= c)), None)
        mx = f"{max(v for _, v in after):.3f}" if after else "-"
        md.append(f"| {name} | {b:.3f} | {min(during):.3f} | {sum(during) / len(during):.3f} | "
                  f"{closed if closed else 'not within the run'} | {mx} | "
                  f"{back if back else 'not within the run'} |")
    return md + [""]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--asw", default="build/asw")
    ap.add_argument("--out", default="build/results/torus")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cycles", type=int, default=8000, help="measured cycles of a load point")
    ap.add_argument("--warmup", type=int, default=2000)
    ap.add_argument("--hs-load", default="0.3")
    ap.add_argument("--hs-cycles", type=int, default=400000, help="cycles of a hot-spot run")
    ap.add_argument("--parts", default="fig7,fig8,fig9,fig10,perm,adap")
    a = ap.parse_args(argv)
    parts = a.parts.split(",")
    os.makedirs(a.out, exist_ok=True)
    run = [f"cycles={a.cycles}", f"warmup={a.warmup}"]
    md = []
    loads2 = ["0.1", "0.2", "0.3", "0.35", "0.4", "0.5"]
    t2 = ["topology=torus", "dims=16x16"] + COMMON + run
    if "fig7" in parts or "fig9" in parts:
        for vcs in ([4, 8] if "fig7" in parts else [4]):
            res, path = load_sweep(a, f"fig7_v{vcs}", t2 + ["routing=dor"], vcs, loads2)
            md += table(f"256-node 2D torus (16x16), XY, {vcs} VCs, uniform: accepted traffic "
                        "(flits/node/cycle) vs offered load", res, loads2)
            md += table(f"the same: mean network latency (cycles)", res, loads2, "latency_mean")
            plot_net.plot_load(os.path.join(a.out, f"fig7_v{vcs}_throughput.png"), path, ["scheme"],
                               "offered_load", "accepted_throughput",
                               f"16x16 torus, XY, {vcs} VCs, uniform")
            plot_net.plot_load(os.path.join(a.out, f"fig7_v{vcs}_latency.png"), path, ["scheme"],
                               "accepted_throughput", "latency_mean",
                               f"16x16 torus, XY, {vcs} VCs, uniform: latency (cycles)")
    if "fig8" in parts:
        loads3 = ["0.2", "0.4", "0.5", "0.6", "0.7"]
        t3 = ["topology=torus", "dims=8x8x8"] + COMMON + [f"cycles={a.cycles // 2}", f"warmup={a.warmup // 2}"]
        for vcs in (4, 8):
            res, path = load_sweep(a, f"fig8_v{vcs}", t3, vcs, loads3)
            md += table(f"512-node 3D torus (8x8x8), XYZ, {vcs} VCs, uniform: accepted traffic", res, loads3)
            plot_net.plot_load(os.path.join(a.out, f"fig8_v{vcs}_throughput.png"), path, ["scheme"],
                               "offered_load", "accepted_throughput",
                               f"8x8x8 torus, XYZ, {vcs} VCs, uniform")
    if "fig9" in parts:
        res, path = load_sweep(a, "fig9_dirorder", t2 + ["routing=direction-order"], 4, loads2,
                               [(s, NAMES[s], scheme_args(s, 4)) for s in SCHEMES if s != "fully"])
        md += table("16x16 torus, X+Y+X-Y- direction order, 4 VCs, uniform: accepted traffic", res, loads2)
        plot_net.plot_load(os.path.join(a.out, "fig9_dirorder_throughput.png"), path, ["scheme"],
                           "offered_load", "accepted_throughput",
                           "16x16 torus, X+Y+X-Y-, 4 VCs, uniform")
    if "fig10" in parts:
        md += hotspot(a, "fig10", [(s, NAMES[s], scheme_args(s, 8)) for s in SCHEMES], "8 VCs")
    if "perm" in parts:
        loadsp = ["0.1", "0.2", "0.3", "0.4"]
        for tr in ("bitrev", "transpose"):
            res, path = load_sweep(a, f"perm_{tr}", t2 + [f"traffic={tr}"], 4, loadsp)
            md += table(f"16x16 torus, XY, 4 VCs, {tr}: accepted traffic", res, loadsp)
            plot_net.plot_load(os.path.join(a.out, f"perm_{tr}_throughput.png"), path, ["scheme"],
                               "offered_load", "accepted_throughput", f"16x16 torus, XY, 4 VCs, {tr}")
    if "adap" in parts:  # seed 003 Figures 12, 15, 16, 17
        loadsa = ["0.1", "0.2", "0.3", "0.4", "0.5"]
        for tr in ("uniform", "transpose", "bitrev"):
            res, path = load_sweep(a, f"adap_{tr}", t2 + [f"traffic={tr}"], 0, loadsa, ADAP)
            md += table(f"16x16 torus, adaptive routing against XORDET, {tr}: accepted traffic",
                        res, loadsa)
            if tr == "uniform":
                md += table("the same: mean network latency (cycles)", res, loadsa, "latency_mean")
            plot_net.plot_load(os.path.join(a.out, f"adap_{tr}_throughput.png"), path, ["scheme"],
                               "offered_load", "accepted_throughput",
                               f"16x16 torus, {tr}: adaptive vs XORDET")
        md += hotspot(a, "adap", ADAP, "adaptive vs XORDET")
    text = "\n".join(md)
    open(os.path.join(a.out, "tables.md"), "w").write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
