#!/usr/bin/env python3
"""ARN/AFI in the network simulator (contract §15, issue 5): conservation
with ARN and ARN+AFI, ARNs travelling upstream and being consumed under an
upward hot spot, incast ARNs reaching end nodes unconsumed (pseudo-code
reading), every sent ARN arriving somewhere, ARN+AFI as seed 001's text reads
(routing=arn-afi) beating D-mod-K after a single incast (issue 27), arn=off
identical to the plain switch, config errors naming the key.
Usage: test_net_arn.py path/to/asw"""
import json
import os
import subprocess
import sys
import tempfile

from checks import check, summary


def net(asw, d, name, *args):
    j, c = os.path.join(d, name + ".json"), os.path.join(d, name + ".csv")
    r = subprocess.run([asw, "net", *args, "--quiet", "--json", j, "--csv", c],
                       capture_output=True, text=True)
    if r.returncode:
        check(False, f"{name}: exit {r.returncode}: {r.stderr.strip()}")
        return None, None, None
    text = open(j).read()
    return json.loads(text), text, open(c).read()


def results_only(text):
    """JSON without the configuration echo and the wall-clock line."""
    return "\n".join(l for l in text.splitlines()
                     if "wall_seconds" not in l and '"config"' not in l)


def conserved(js, what):
    check(js["drained"] and js["in_flight"] == 0 and js["duplicates"] == 0 and
          js["packets_delivered"] == js["packets_generated"] and js["packets_generated"] > 0,
          f"{what}: every packet delivered exactly once "
          f"({js['packets_delivered']}/{js['packets_generated']}, dup {js['duplicates']})")


def arn_links_lossless(js, what, links_x_latency):
    a = js["arn"]
    lost = a["sent"] - a["received"] - a["at_end_nodes"]
    check(0 <= lost <= links_x_latency,
          f"{what}: sent ARNs = received by switches + end nodes (+ in flight): "
          f"{a['sent']} vs {a['received']} + {a['at_end_nodes']}")


def main(asw):
    # 54-node 3-stage RLFT (6-port switches, 45 switches of 6 ports), small
    # buffers and detector thresholds so roots form within a few thousand cycles
    rlft = ["ports=6", "stages=3", "vcs=2", "voq=1", "buffer_flits=64", "packet_flits=8",
            "load=0.9", "warmup=1000", "cycles=5000", "drain=1"]
    det = ["crt=16", "arn_ttl=4096", "hcdth_pct=50", "lcdth_pct=30", "fcth_pct=30"]
    links_lc = 45 * 6 * 2
    with tempfile.TemporaryDirectory() as d:
        # upward hot spot (IHS): roots, ARNs upstream, consumption, adaptation
        for mode in ["arn", "arn-afi"]:
            js, _, csv = net(asw, d, "ihs_" + mode, *rlft, *det, "traffic=ihs",
                             "ihs_fraction=0.5", f"routing={mode}")
            if not js:
                continue
            a = js["arn"]
            conserved(js, f"IHS {mode}")
            check(a["roots_declared"] > 0 and a["sent"] > 0 and a["received"] > 0 and
                  a["consumed"] > 0 and a["packets_adapted"] > 0,
                  f"IHS {mode}: roots declared, ARNs sent/received/consumed, packets adapted: {a}")
            arn_links_lossless(js, f"IHS {mode}", links_lc)
            rows = csv.splitlines()
            win = sum(int(x.split(",")[-1]) for x in rows[1:])
            check(rows[0].endswith(",packets_adapted") and 0 < win <= a["packets_adapted"],
                  f"IHS {mode}: CSV per-window adapted packets ({win} of {a['packets_adapted']})")
        # incast (HS25 to one node; the paper's thresholds and load 0.7, so the
        # uniform background forms no roots: with independent sources this
        # network's uniform traffic alone declares 0 roots at load 0.7, 8 at
        # 0.9 and 16 at 1, where it saturates at 0.91): ARNs reach end nodes,
        # no switch consumes (the pseudo-code reading: arn-afi pinned to it)
        pseudo = ["arn_up_nodes=0", "adapted_arn=0", "alt_refresh=0"]
        for mode in ["arn", "arn-afi"]:
            js, _, _ = net(asw, d, "hs_" + mode, *rlft, "crt=64", "traffic=hs25-1",
                           f"routing={mode}", "load=0.7", *pseudo)
            if not js:
                continue
            a = js["arn"]
            conserved(js, f"HS25-1 {mode}")
            check(a["roots_declared"] > 0 and a["at_end_nodes"] > 0 and a["consumed"] == 0,
                  f"HS25-1 {mode}: incast ARNs reach end nodes, none consumed: {a}")
            arn_links_lossless(js, f"HS25-1 {mode}", links_lc)
        # ARN_UP with the leaves' end-node ports (table generator option
        # arn_up_nodes, if this asw has the key): the incast root keeps the
        # leaf's stage, the sources' leaves consume its ARNs and adapt
        probe = subprocess.run([asw, "net", "arn_up_nodes=1", "cycles=1", "warmup=0", "--quiet"],
                               capture_output=True, text=True)
        if probe.returncode == 0:
            for mode in ["arn", "arn-afi"]:
                js, _, _ = net(asw, d, "leaf_" + mode, *rlft, "crt=64", "traffic=hs25-1",
                               f"routing={mode}", "load=0.7", "arn_up_nodes=1",
                               "adapted_arn=0", "alt_refresh=0")
                if not js:
                    continue
                a = js["arn"]
                conserved(js, f"HS25-1 {mode} arn_up_nodes=1")
                check(a["roots_declared"] > 0 and a["consumed"] > 0 and a["packets_adapted"] > 0,
                      f"HS25-1 {mode} arn_up_nodes=1: incast ARNs consumed by leaves: {a}")
                arn_links_lossless(js, f"HS25-1 {mode} arn_up_nodes=1", links_lc)
        # Recovery from a single incast (issue 27): 54-node RLFT, load 1, HS25-1 from
        # cycle 4 000 of 42 000, the paper's detector thresholds, 8-flit packets, 336
        # flits per port (1Q: 1 VC; ARN+AFI: 2 VCs of 168), CRT 256, ARN_TTL 1 024.
        # Efficiency = mean accepted flits/node/cycle over the last 10 windows of 1 000.
        # Measured (seeds 1 2 4): D-mod-K 0.252 0.331 0.319; routing=arn-afi (seed
        # 001's text: arn_up_nodes, adapted_arn, alt_refresh) 0.522 0.479 0.471; the
        # pseudo-code reading (all three 0) 0.251 0.324 0.315. Bound: ARN+AFI beats
        # D-mod-K by >= 0.10 on every seed; the pseudo-code reading stays within 0.05
        # of D-mod-K on seeds 1 and 2 (nothing consumed: the check tells them apart).
        rec = ["ports=6", "stages=3", "voq=1", "packet_flits=8", "load=1", "window=1000",
               "warmup=2000", "hs_start=4000", "cycles=40000", "crt=256", "arn_ttl=1024",
               "traffic=hs25-1", "watchdog=0"]

        def last10(csv):
            acc = [float(r.split(",")[3]) for r in csv.splitlines()[1:]]
            return sum(acc[-10:]) / 10

        for seed in (1, 2, 4):
            eff = {}
            runs = [("dmodk", ["routing=dmodk", "vcs=1", "buffer_flits=336"]),
                    ("arnafi", ["routing=arn-afi", "vcs=2", "buffer_flits=168"])]
            if seed != 4:
                runs.append(("pseudo", ["routing=arn-afi", "vcs=2", "buffer_flits=168",
                                        "arn_up_nodes=0", "adapted_arn=0", "alt_refresh=0"]))
            for name, extra in runs:
                js, _, csv = net(asw, d, f"rec_{name}_{seed}", *rec, *extra, f"seed={seed}")
                if js:
                    eff[name] = last10(csv)
            if len(eff) != len(runs):
                continue
            check(eff["arnafi"] - eff["dmodk"] >= 0.10,
                  f"HS25-1 seed {seed}: ARN+AFI recovers above D-mod-K by >= 0.10 "
                  f"({eff['arnafi']:.3f} vs {eff['dmodk']:.3f})")
            if "pseudo" in eff:
                check(abs(eff["pseudo"] - eff["dmodk"]) <= 0.05,
                      f"HS25-1 seed {seed}: ARN+AFI as pseudo-codes 1-4 read stays on D-mod-K "
                      f"({eff['pseudo']:.3f} vs {eff['dmodk']:.3f})")
        # The same with hs_cold_avoid=1 (the uniform sources skip the hot node while the
        # hot spot is on): measured seed 1 D-mod-K 0.345, ARN+AFI 0.723 (the ideal is
        # about 0.77); bound: ARN+AFI >= 0.65 and >= D-mod-K + 0.2.
        eff = {}
        for name, extra in [("dmodk", ["routing=dmodk", "vcs=1", "buffer_flits=336"]),
                            ("arnafi", ["routing=arn-afi", "vcs=2", "buffer_flits=168"])]:
            js, _, csv = net(asw, d, f"cold_{name}", *rec, *extra, "seed=1", "hs_cold_avoid=1")
            if js:
                eff[name] = last10(csv)
        if len(eff) == 2:
            check(eff["arnafi"] >= 0.65 and eff["arnafi"] - eff["dmodk"] >= 0.2,
                  f"HS25-1 hs_cold_avoid=1: ARN+AFI recovers to >= 0.65 and >= D-mod-K + 0.2 "
                  f"({eff['arnafi']:.3f} vs {eff['dmodk']:.3f})")
        # Adaptive-Th + AFI: adapted packets in the AFC, all delivered
        js, _, _ = net(asw, d, "ath_afi", *rlft, "traffic=hs25-1", "routing=adaptive-th-afi")
        if js:
            conserved(js, "Adaptive-Th+AFI")
            check(js["adaptive_decisions"] > 0, "Adaptive-Th+AFI: adaptive decisions")
        # arn=off: the plain switch (AE = 0) and the switch with ARN hardware
        # switched off give identical results and CSV bytes; the Adaptive-Th
        # preset equals its Table 2 spelling
        base = ["ports=6", "stages=3", "vcs=2", "voq=1", "buffer_flits=64", "packet_flits=8",
                "load=0.8", "warmup=500", "cycles=3000", "traffic=hs25-1"]
        outs = []
        for i, extra in enumerate([["arn_entries=0"], ["arn=off", "arn_entries=8"],
                                   ["arn_entries=32", "crt=5", "hcdth_pct=10", "lcdth_pct=5"]]):
            js, text, csv = net(asw, d, f"off{i}", *base, *extra)
            if js:
                outs.append((results_only(text), csv))
                check("arn" not in js, f"arn=off run {i}: no ARN block in the JSON")
        check(len(outs) == 3 and outs[0] == outs[1] == outs[2],
              "arn=off: identical results and CSV with AE = 0, 8, 32 and any detector setting")
        a1 = net(asw, d, "pre1", *base, "routing=adaptive-th")[1]
        a2 = net(asw, d, "pre2", *base, "routing=adap-th-s-k")[1]
        check(a1 is not None and a2 is not None and results_only(a1) == results_only(a2),
              "routing=adaptive-th is adap-th-s-k")
        # errors name the key
        for args, key in [(["routing=arn-afi", "vcs=1", "voq=1"], "arn"),
                          (["arn=arn", "voq=0"], "arn"),
                          (["arn=arn", "afi=1", "vcs=2", "voq=1"], "afi"),
                          (["routing=arn", "voq=1", "arn_entries=0"], "arn_entries"),
                          (["arn_entries=33"], "arn_entries"),
                          (["hcdth_pct=50", "lcdth_pct=60"], "lcdth_pct"),
                          (["fcth_pct=101"], "fcth_pct"),
                          (["fcth=20"], "fcth"),  # renamed to fcth_pct (flits elsewhere)
                          (["crt=0"], "crt"),
                          (["arn=maybe"], "arn")]:
            r = subprocess.run([asw, "net", *args, "cycles=10", "--quiet"],
                               capture_output=True, text=True)
            check(r.returncode == 2 and r.stderr.startswith(f"asw net: {key}:"),
                  f"{' '.join(args)}: error names {key}: {r.stderr.strip()}")
    return summary("net_arn")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
