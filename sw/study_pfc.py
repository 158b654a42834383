#!/usr/bin/env python3
"""PFC vs credit links under an end-node hot spot (contract §17, seed 004's network):
the 32-node 2-ary 5-tree, uniform traffic at load 0.6 of which a fraction goes to one
node whose sink drains at a reduced rate. Prints the docs/results.md table
(make study-pfc). Usage: study_pfc.py path/to/asw OUTDIR"""
import json
import os
import subprocess
import sys

NET = ["topology=kary", "k=2", "n=5", "vcs=1", "buffer_flits=64", "packet_flits=8",
       "traffic=hotspot", "hs_fraction=0.2", "hs_nodes=0", "load=0.6",
       "warmup=5000", "cycles=40000", "--seed", "1"]


def run(asw, out, fc, rate):
    j = os.path.join(out, f"pfc_{fc}_{rate}.json")
    subprocess.run([asw, "net", *NET, f"flow_control={fc}", f"hs_sink_rate={rate}",
                    "--quiet", "--json", j], check=True)
    return json.load(open(j))


def main(asw, out):
    os.makedirs(out, exist_ok=True)
    print("| flow control | hot sink rate | victim throughput | hot throughput | victim latency "
          "(mean, p99) | pause frames | longest pause |")
    print("|---|---|---|---|---|---|---|")
    for rate in (1.0, 0.5, 0.25):
        for fc in ("credit", "pfc"):
            js = run(asw, out, fc, rate)
            p = js.get("pfc", {})
            print(f"| {fc} | {rate} | {js['accepted_cold']:.4f} | {js['accepted_hot']:.4f} | "
                  f"{js['latency_cold_mean']:.0f}, {js['latency_cold_p99']:.0f} | "
                  f"{p.get('pause_frames', '–')} | "
                  f"{str(p['pause_max_cycles']) + ' cycles' if p else '–'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
