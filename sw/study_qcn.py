#!/usr/bin/env python3
"""Seed 004 evaluation on the 32-node 2-ary 5-tree with 10 Gb/s Ethernet
units (contract §17.4-17.7, make study-qcn): Figure 7 (relative throughput
of permutations at 90 % load, per routing scheme, with and without rate
limiters), Figure 8 (victim throughput under an input-generated hot spot
at an edge link) and Figure 9 (one flow over four paths whose root links run
at 25, 10, 10 and 50 % of link speed, PORT_GAP, on the 2-ary 3-tree) and Figure 10
(application patterns from asw trace against a crossbar, with one root link at a
third of its speed). Switch AR (contract §17.8, §17.9) is routing=switch-ar: D-mod-k
steered by the CNMs the switches snoop on the links' CNM lane. Prints the
docs/results.md tables and writes FIGDIR/qcn_victim_time.png and
FIGDIR/qcn_slow_roots.png. Usage: study_qcn.py path/to/asw OUTDIR FIGDIR"""
import csv
import json
import os
import subprocess
import sys

# 10 Gb/s: a 64-byte flit per 51.2 ns cycle; 1 536-byte frames (24 flits);
# 100 KiB per port (1 600 flits); PFC links; QCN congestion points everywhere.
NET = ["topology=kary", "k=2", "n=5", "vcs=1", "voq=1", "buffer_flits=1600", "packet_flits=24",
       "cycle_ns=51.2", "flow_control=pfc", "qcn=on", "--seed", "1"]
SCHEMES = [("dmodk", "Deterministic (D-mod-k)"), ("smodk", "S-mod-k"),
           ("oblivious", "Random"), ("hashed", "Hashed"), ("switch-ar", "Switch AR")]
# Figures 8 and 9 add Switch AR with the §17.8 level decay (SAR_CTRL.decay, asw net
# sar_decay): an unrefreshed level steps down by 1 every 2^6 cycles (a full mark of 63
# fades in 4 032 cycles, 206 us), the value of the sweep in docs/results.md.
SAR_DECAY = 6
DECAY = ("switch-ar", "Switch AR + decay")
EXTRA = {DECAY[1]: [f"sar_decay={SAR_DECAY}"]}
PERMS = ["bitrev", "shuffle", "bitcomp", "tornado"]
MS = 1e6 / 51.2  # cycles per millisecond


def run(asw, out, name, *args):
    j = os.path.join(out, name + ".json")
    c = os.path.join(out, name + ".csv")
    subprocess.run([asw, "net", *NET, *args, "--quiet", "--json", j, "--csv", c], check=True)
    js = json.load(open(j))
    assert js["pfc"]["frames_dropped"] == 0, name
    return js, list(csv.DictReader(open(c)))


def plot_rl(series, schemes, to_mbs, ylabel, path, mark):
    """One panel per scheme of series[(label, rl)] = (ms, values), RL off and on, values
    converted by to_mbs; mark(ax) adds the panel's reference (a span or a line)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(schemes), figsize=(4 * len(schemes), 3.2), sharey=True)
    for ax, (r, label) in zip(axes, schemes):
        for rl, style in (("off", "tab:red"), ("on", "tab:blue")):
            t, v = series[(label, rl)]
            ax.plot(t, [to_mbs(x) for x in v], color=style, label=f"RL {rl}")
        mark(ax)
        ax.set_title(label)
        ax.set_xlabel("time (ms)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(ylabel)
    axes[0].legend()
    fig.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=110)


def fig7(asw, out):
    perm = ["load=0.9", "warmup=19531", "cycles=100000"]
    # the reference: the same sources on one 32-port switch (k-ary 1-tree), a crossbar
    xbar = {}
    for p in PERMS:
        js, _ = run(asw, out, f"f7_xbar_{p}", "routing=dmodk", "rl=off", f"traffic={p}", *perm,
                    "k=32", "n=1")
        xbar[p] = js["accepted_throughput"]
    print("Relative throughput (accepted, divided by what the same sources get through one "
          "32-port switch) at 90 % load, 5.1 ms after 1 ms of warm-up; crossbar: " +
          ", ".join(f"{p} {xbar[p]:.3f}" for p in PERMS) + " flits/node/cycle:\n")
    print("| routing | RL | " + " | ".join(PERMS) + " | mean |")
    print("|---|---|" + "---|" * (len(PERMS) + 1))
    for r, label in SCHEMES:
        for rl in ("off", "on"):
            rel = []
            for p in PERMS:
                js, _ = run(asw, out, f"f7_{r}_{rl}_{p}", f"routing={r}", f"rl={rl}",
                            f"traffic={p}", *perm)
                rel.append(js["accepted_throughput"] / xbar[p])
            print(f"| {label} | {rl} | " + " | ".join(f"{x:.2f}" for x in rel) +
                  f" | {sum(rel) / len(rel):.2f} |")


def fig8(asw, out, figdir):
    # 4 of 32 sources (hs_fraction 0.125) send all their traffic, 45 % of a
    # link, to one node from 5 to 15 ms (1.8x its link: mild, small degree);
    # the other 28 send uniform traffic at 45 %, the victims.
    hot = ["traffic=hotspot", "hs_fraction=0.125", "hs_count=1", "load=0.45",
           f"hs_start={round(5 * MS)}", f"hs_end={round(15 * MS)}", f"cycles={round(25 * MS)}",
           "warmup=0", f"window={round(MS)}"]
    print("\nInput-generated hot spot at an edge link (4 sources x 45 % to one node, 5-15 ms); "
          "victims: the traffic of the 28 other sources (ideal during the hot spot: their "
          "offered 0.394 flits/node/cycle):\n")
    print("| routing | RL | victim throughput before | during hot spot | after | largest CP "
          "queue (mean, max flits) | CNMs | rate limiters |")
    print("|---|---|---|---|---|---|---|---|")
    series = {}
    for r, label in SCHEMES + [DECAY]:
        for rl in ("off", "on"):
            tag = r + ("_decay" if label in EXTRA else "")
            js, rows = run(asw, out, f"f8_{tag}_{rl}", f"routing={r}", f"rl={rl}",
                           *EXTRA.get(label, []), *hot)
            rows = [x for x in rows if int(x["cycle"]) % round(MS) == 0]  # whole windows
            t = [float(x["time_us"]) / 1000 for x in rows]
            cold = [float(x["accepted_cold"]) for x in rows]
            series[(label, rl)] = (t, cold)

            def mean(a, b):
                v = [c for tt, c in zip(t, cold) if a < tt <= b]
                return sum(v) / len(v)
            q = js["qcn"]
            print(f"| {label} | {rl} | {mean(0, 5):.3f} | {mean(6, 15):.3f} | {mean(20, 25):.3f} | "
                  f"{q['qlen_max_mean_flits']:.0f}, {q['qlen_max_flits']} | {q['cnm_sent']} | "
                  f"{q['rl_created']} |")
    plot_rl(series, SCHEMES + [DECAY], lambda c: c * 1250 * 32 / 28, "victim throughput per source (MB/s)",
            os.path.join(figdir, "qcn_victim_time.png"), lambda ax: ax.axvspan(5, 15, color="0.9"))


# Figure 9: the 2-ary 3-tree (8 nodes; switches 0-3 leaves, 4-7 level 2, 8-11 roots), one
# flow from node 0 to node 7 at 90 % of a link over the four roots, whose down links towards
# nodes 4-7 (port 1) are slowed by PORT_GAP (§17.7): 10 %, 10 %, 50 % and 25 % (root 11,
# the one D-mod-K's route to node 7 takes, as the seed's Path 1).
SLOW = [(8, 9), (9, 9), (10, 1), (11, 3)]  # (root switch, GAP): rate 1 / (GAP + 1)


def fig9(asw, out, figdir):
    gaps = ",".join(f"{s}:1:{g}" for s, g in SLOW)
    args = ["k=2", "n=3", "traffic=flow0-7", "load=0.9", "check_order=1", "warmup=0",
            f"cycles={round(6 * MS)}", f"window={round(MS / 4)}", f"port_gap={gaps}"]
    print("\nOutput-generated hot spots at the root links: one flow, node 0 to node 7 of the "
          "2-ary 3-tree, at 90 % of a link (1 125 MB/s); its four paths cross root links "
          "slowed to " + ", ".join(f"{100 / (g + 1):.0f} %" for _, g in SLOW) + " of link "
          "speed (PORT_GAP). Mean over 1-6 ms:\n")
    print("| routing | RL | throughput at the destination (MB/s, % of link) | packets out of "
          "order | largest CP queue (mean, max flits) | CNMs | pause frames |")
    print("|---|---|---|---|---|---|---|")
    series = {}
    for r, label in SCHEMES + [DECAY]:
        if r == "smodk":
            continue  # one source: S-mod-k is D-mod-k's twin here (one path)
        for rl in ("off", "on"):
            tag = r + ("_decay" if label in EXTRA else "")
            js, rows = run(asw, out, f"f9_{tag}_{rl}", f"routing={r}", f"rl={rl}",
                           *EXTRA.get(label, []), *args)
            t = [float(x["time_us"]) / 1000 for x in rows]
            thr = [float(x["accepted"]) * 8 for x in rows]  # 8 nodes: the flow's flits/cycle
            series[(label, rl)] = (t, thr)
            v = [x for tt, x in zip(t, thr) if tt > 1]
            m = sum(v) / len(v)
            q = js["qcn"]
            print(f"| {label} | {rl} | {m * 1250:.0f}, {100 * m:.0f} % | {js['order_violations']} | "
                  f"{q['qlen_max_mean_flits']:.0f}, {q['qlen_max_flits']} | {q['cnm_sent']} | "
                  f"{js['pfc']['pause_frames']} |")
    plot_rl(series, [x for x in SCHEMES + [DECAY] if x[0] != "smodk"], lambda x: x * 1250,
            "throughput at the destination (MB/s)", os.path.join(figdir, "qcn_slow_roots.png"),
            lambda ax: ax.axhline(1125, color="0.6", lw=0.8, ls="--"))


# Figure 10: application patterns (asw trace) replayed on the 32-node tree, relative to the
# same trace through one 32-port switch (the ideal crossbar), with every link at full speed
# and with one root link at a third of it (PORT_GAP 2 on root switch 64's port 0, as the
# seed's high-priority traffic taking 66 % of a link).
PATTERNS = [("alltoall", 65536, "64 KB to every other node"),
            ("allreduce", 1 << 20, "ring allreduce of a 1 MB vector")]


def fig10(asw, out):
    base = ["warmup=0", f"cycles={round(2000 * MS)}"]
    traces, ref = {}, {}
    for p, size, _ in PATTERNS:
        traces[p] = os.path.join(out, f"f10_{p}.txt.gz")
        subprocess.run([asw, "trace", f"pattern={p}", "nodes=32", f"size={size}",
                        f"out={traces[p]}"], check=True, capture_output=True)
        js, _ = run(asw, out, f"f10_xbar_{p}", "routing=dmodk", "rl=off", "k=32", "n=1",
                    f"traffic=trace:{traces[p]}", *base)
        ref[p] = js["trace"]["completion_cycles"]
    print("\nApplication patterns: completion time relative to the same trace through one "
          "32-port switch (" + ", ".join(f"{p} {ref[p] / MS:.2f} ms" for p, _, _ in PATTERNS) +
          "); all links at full speed, and one root link at a third of it (PORT_GAP 2):\n")
    print("| routing | RL | " + " | ".join(f"{p} | {p}, slow link" for p, _, _ in PATTERNS)
          + " |")
    print("|---|---|" + "---|---|" * len(PATTERNS))
    for r, label in SCHEMES:
        for rl in ("off", "on"):
            cells = []
            for p, _, _ in PATTERNS:
                for slow in ((), ("port_gap=64:0:2",)):
                    js, _ = run(asw, out, f"f10_{r}_{rl}_{p}{'_slow' if slow else ''}",
                                f"routing={r}", f"rl={rl}", f"traffic=trace:{traces[p]}",
                                *base, *slow)
                    cells.append(f"{js['trace']['completion_cycles'] / ref[p]:.2f}")
            print(f"| {label} | {rl} | " + " | ".join(cells) + " |")


def main(asw, out, figdir):
    os.makedirs(out, exist_ok=True)
    fig7(asw, out)
    fig8(asw, out, figdir)
    fig9(asw, out, figdir)
    fig10(asw, out)


if __name__ == "__main__":
    main(*sys.argv[1:4])
