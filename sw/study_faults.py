#!/usr/bin/env python3
"""The link-fault table of docs/results.md (Reliability; contract §18.6):
432-node RLFT (12-port switches, 3 stages), 2 VCs, 64-flit buffers, 16-flit
packets, uniform traffic at load 0.5, 5 000 warm-up + 30 000 cycles, then
drained. One leaf up link (switch 60, port 8) down at cycle 15 000 for
10 000 cycles, or for good, or random faults on every switch-to-switch
link; D-mod-K or adaptive routing; no fabric manager or one after fm_delay.
Writes build/study-faults/table.md and prints it.
Usage: study_faults.py path/to/asw [outdir]"""
import json
import os
import subprocess
import sys

BASE = ["load=0.5", "vcs=2", "buffer_flits=64", "packet_flits=16", "warmup=5000",
        "cycles=30000", "window=1000", "drain=1", "watchdog=5000", "seed=1"]
ONE = "link_fault=60:8:15000:25000"
RUNS = [
    ("one link, 10 000 cycles", "dmodk", [ONE, "fm_delay=0"]),
    ("one link, 10 000 cycles", "dmodk", [ONE, "fm_delay=1000"]),
    ("one link, 10 000 cycles", "dmodk", [ONE, "fm_delay=100"]),
    ("one link, 10 000 cycles", "adaptive", [ONE, "fm_delay=0"]),
    ("one link, 10 000 cycles", "adaptive", [ONE, "fm_delay=1000"]),
    ("one link, for good", "dmodk", ["link_fault=60:8:15000:0", "fm_delay=1000"]),
    ("random, 2e-6 per link and cycle, 2 000 cycles each", "dmodk",
     ["link_fault_rate=0.000002", "link_down_cycles=2000", "fm_delay=500"]),
    ("random, 2e-6 per link and cycle, 2 000 cycles each", "adaptive",
     ["link_fault_rate=0.000002", "link_down_cycles=2000", "fm_delay=500"]),
]


def main(asw, out):
    os.makedirs(out, exist_ok=True)
    rows = ["| faults | routing | fm_delay | down events | packets generated | lost: discarded + cut | "
            "flits discarded / padded | losses last (cycles) | throughput before / lowest window after | "
            "bad packets | drained, deadlock |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for k, (what, routing, args) in enumerate(RUNS):
        j = os.path.join(out, f"run{k}.json")
        if os.path.exists(j):
            os.remove(j)  # a stale one of an earlier study
        r = subprocess.run([asw, "net", *BASE, f"routing={routing}", *args, "--quiet", "--json", j],
                           capture_output=True, text=True)
        d = json.load(open(j)) if os.path.exists(j) else None
        if r.returncode and not (d and d.get("watchdog")):
            print(f"study_faults: run {k} failed: {r.stderr.strip()}", file=sys.stderr)
            return 1
        if r.returncode:  # a deadlock: the watchdog's report is the row's result
            print(f"study_faults: run {k}: {r.stderr.strip()[:300]}", file=sys.stderr)
        lf = d["link_faults"]
        fm = [a.split("=")[1] for a in args if a.startswith("fm_delay=")][0]
        # the mean before the first fault needs measured windows before it
        before = f"{lf['throughput_before']:.3f}" if lf["first_down"] >= 5000 + 1000 else "–"
        rows.append(
            f"| {what} | {'D-mod-K' if routing == 'dmodk' else 'adaptive'} | "
            f"{'none' if fm == '0' else fm} | {lf['down_events']} | {d['packets_generated']:,} | "
            f"{lf['packets_lost']} = {lf['packets_discarded']} + {lf['packets_damaged']} | "
            f"{lf['flits_discarded']:,} / {lf['flits_padded']} | {lf['loss_cycles']:,} | "
            f"{before} / {lf['throughput_min_after']:.3f} | {lf['packets_bad']} | "
            f"{'yes' if d['drained'] else 'NO'}, "
            f"{'none' if not d['watchdog'] else 'YES, ' + str(d['watchdog']).split(':')[0]} |")
    text = "\n".join(rows) + "\n"
    open(os.path.join(out, "table.md"), "w").write(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "build/study-faults"))
