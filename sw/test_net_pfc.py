#!/usr/bin/env python3
"""PFC link mode in the network simulator (contract §17.3, issue 12): an
incast that overloads a slow sink is lossless under flow_control=pfc (every
packet delivered once, pause frames sent, frames_dropped 0), pause storms are
detected against pfc_storm, the credit mode's output carries no PFC keys,
thresholds that break the headroom rule are rejected naming the key, and
results do not depend on the thread count. Usage: test_net_pfc.py path/to/asw"""
import os
import subprocess
import sys
import tempfile

from checks import check, summary, run_net as net


def conserved(js, what):
    check(js["drained"] and js["in_flight"] == 0 and js["duplicates"] == 0 and
          js["packets_delivered"] == js["packets_generated"] and js["packets_generated"] > 0,
          f"{what}: every packet delivered exactly once "
          f"({js['packets_delivered']}/{js['packets_generated']}, dup {js['duplicates']})")


def main(asw):
    # 8-node 2-ary 3-tree, 2 priorities; 64-flit buffers, 8-flit packets, 2-cycle links:
    # headroom 8 + 2 + 2 + 2 + 2 = 16, so XOFF = 48 by default
    tree = ["topology=kary", "k=2", "n=3", "vcs=2", "buffer_flits=64", "packet_flits=8",
            "link_latency=2", "credit_latency=2", "warmup=1000", "cycles=12000", "drain=1"]
    # incast: half of every node's traffic to node 0, which consumes 0.3 flit/cycle
    incast = ["traffic=hotspot", "hs_fraction=0.5", "hs_nodes=0", "hs_sink_rate=0.3",
              "load=0.6"]
    with tempfile.TemporaryDirectory() as d:
        js, text, _ = net(asw, d, "incast", *tree, *incast, "flow_control=pfc")
        if js:
            p = js["pfc"]
            conserved(js, "PFC incast")
            check(p["frames_dropped"] == 0 and p["pause_frames"] > 100 and
                  p["pause_max_cycles"] > 0 and p["pause_storms"] == 0,
                  f"PFC incast: pauses sent, nothing dropped, no storm: {p}")
            check(js["config"]["flow_control"] == "pfc" and js["config"]["pfc_xoff"] == 0,
                  "PFC incast: flow_control and the thresholds echoed in the JSON config")
            # the hot spot is throttled to its sink rate, the rest keeps flowing
            check(0.3 * 0.9 <= js["accepted_hot"] * 8 <= 0.3 * 1.05,
                  f"PFC incast: hot spot delivers its sink rate 0.3 "
                  f"(accepted_hot {js['accepted_hot']:.4f} x 8 nodes)")
            # same seed, other thread count: same bytes
            _, text2, _ = net(asw, d, "incast_t2", *tree, *incast, "flow_control=pfc",
                              "threads=2")
            strip = lambda t: "\n".join(l for l in (t or "").splitlines()
                                        if "wall_seconds" not in l)
            check(strip(text) == strip(text2), "PFC incast: threads=2 gives the same JSON")
        # a pause longer than pfc_storm cycles is a storm: reported in the JSON and the text
        js, _, _ = net(asw, d, "storm", *tree, *incast, "flow_control=pfc", "pfc_storm=50")
        if js:
            check(js["pfc"]["pause_storms"] > 0,
                  f"pfc_storm=50: storms detected ({js['pfc']['pause_storms']}, longest "
                  f"pause {js['pfc']['pause_max_cycles']} cycles)")
        r = subprocess.run([asw, "net", *tree, *incast, "flow_control=pfc", "pfc_storm=50"],
                           capture_output=True, text=True)
        check(r.returncode == 0 and "pause storms" in r.stdout,
              "pfc_storm=50: the text summary reports the storms")
        # adaptive routing, VOQs, explicit thresholds: still lossless
        js, _, _ = net(asw, d, "adaptive", *tree, *incast, "flow_control=pfc", "voq=1",
                       "routing=adaptive", "pfc_xoff=40", "pfc_xon=10", "seed=3")
        if js:
            conserved(js, "PFC adaptive")
            check(js["pfc"]["pause_frames"] > 0, "PFC adaptive: pauses sent")
        # credit mode: no PFC key in the configuration echo or the results
        js, text, _ = net(asw, d, "credit", *tree, *incast)
        if js:
            conserved(js, "credit incast")
            check("pfc" not in js and "flow_control" not in js["config"] and
                  "pfc_xoff" not in text, "credit: the JSON has no PFC keys (unchanged output)")
        # headroom rule (contract §17.1) and key checks: exit 2 naming the key
        for args, key in [(["pfc_xoff=49"], "pfc_xoff"), (["pfc_xoff=30", "pfc_xon=30"], "pfc_xon"),
                          (["buffer_flits=16"], "buffer_flits")]:
            _, _, err = net(asw, d, "bad", *tree, *incast, "flow_control=pfc", *args, expect=2)
            check(err.startswith(key) or f"{key}:" in err, f"{' '.join(args)}: rejected naming "
                  f"{key}: {err.strip()}")
        _, _, err = net(asw, d, "bad2", *tree, "pfc_xoff=10", expect=2)
        check("pfc_xoff" in err and "credit" in err, f"pfc_xoff with credit links rejected: {err.strip()}")
        _, _, err = net(asw, d, "bad3", *tree, "flow_control=xon", expect=2)
        check("flow_control" in err, f"flow_control=xon rejected naming the key: {err.strip()}")
    return summary("test_net_pfc")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "build/asw"))
