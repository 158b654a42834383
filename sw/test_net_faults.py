#!/usr/bin/env python3
"""Link faults in the network simulator (contract §18.6, issue 14): every
packet is delivered intact, or lost on the failed link and accounted there
(generated = delivered + lost, lost = damaged + discarded, damaged = cut,
padding = the flits discarded of cut packets); no deadlock; the fabric
manager stops the losses; adaptive routing avoids the down output; a fault
after the end of the run changes nothing; random faults are reproducible and
thread-count independent; bad settings are rejected naming the key.
Usage: test_net_faults.py path/to/asw"""
import json
import os
import subprocess
import sys
import tempfile

from checks import check, summary

# 64-node 4-ary 3-tree, 2 VCs, 8-flit packets; switch 16 is a stage-2
# switch, its port 4 an up link to a top switch
TREE = ["topology=kary", "k=4", "n=3", "vcs=2", "buffer_flits=32", "packet_flits=8",
        "load=0.6", "warmup=2000", "cycles=20000", "window=1000", "drain=1",
        "watchdog=5000", "seed=5"]
FAULT = "16:4:8000:14000"
TIMING = ("wall_seconds", "flit_hops_per_second", "max_rss_kb", "cpu_seconds",
          "flit_hops_per_cpu_second", "threads")


def net(asw, d, name, *args, expect=0):
    j = os.path.join(d, name + ".json")
    r = subprocess.run([asw, "net", *TREE, *args, "--quiet", "--json", j],
                       capture_output=True, text=True)
    if r.returncode != expect:
        check(False, f"{name}: exit {r.returncode} (expected {expect}): {r.stderr.strip()}")
        return None, r.stderr
    if expect:
        return None, r.stderr
    return json.load(open(j)), r.stderr


def accounted(js, what, packet_flits=8):
    lf = js["link_faults"]
    lost = lf["packets_lost"]
    check(js["drained"] and js["in_flight"] == 0 and js["duplicates"] == 0 and
          js["watchdog"] is None,
          f"{what}: drained, nothing in flight, no duplicate, no deadlock "
          f"(in flight {js['in_flight']}, dup {js['duplicates']})")
    check(js["packets_generated"] == js["packets_delivered"] + lost and
          lost == lf["packets_damaged"] + lf["packets_discarded"] and lf["packets_bad"] == 0,
          f"{what}: generated {js['packets_generated']} = delivered {js['packets_delivered']} + "
          f"lost {lost} (damaged {lf['packets_damaged']} + discarded {lf['packets_discarded']}), "
          f"bad {lf['packets_bad']}")
    check(lf["flits_padded"] == lf["flits_discarded"] - packet_flits * lf["packets_discarded"],
          f"{what}: padding flits {lf['flits_padded']} = flits discarded of cut packets "
          f"({lf['flits_discarded']} - {packet_flits} x {lf['packets_discarded']})")
    return lf


def main(asw):
    with tempfile.TemporaryDirectory() as d:
        base, _ = net(asw, d, "base")
        late, _ = net(asw, d, "late", "link_fault=16:4:1000000:0")
        if base and late:
            check("link_faults" not in base and "link_fault" not in base["config"] and
                  "fm_delay" not in base["config"],
                  "no fault configured: no link-fault keys in the JSON (output unchanged)")
            same = all(base[k] == late[k] for k in base
                       if k not in TIMING and k != "config")
            check(same and late["link_faults"]["down_events"] == 0,
                  "a fault after the end of the run: results identical to no fault")
        # one link down 6000 cycles, fabric manager after 1000
        fm, _ = net(asw, d, "fm", "link_fault=" + FAULT, "fm_delay=1000")
        nofm, _ = net(asw, d, "nofm", "link_fault=" + FAULT, "fm_delay=0")
        if fm and nofm:
            a = accounted(fm, "D-mod-K, fm_delay=1000")
            b = accounted(nofm, "D-mod-K, no fabric manager")
            check(a["down_events"] == 1 and a["fm_runs"] == 2 and a["fm_entries"] > 0 and
                  b["fm_runs"] == 0, f"one down event, FM ran twice (down, up) and rewrote "
                  f"{a['fm_entries']} entries")
            check(a["packets_damaged"] == a["packets_cut"],
                  f"cut packets reach their sinks padded and are discarded there "
                  f"({a['packets_cut']} cut, {a['packets_damaged']} damaged)")
            check(0 < a["packets_lost"] < b["packets_lost"] / 3,
                  f"the fabric manager stops the losses: {a['packets_lost']} lost vs "
                  f"{b['packets_lost']} without it")
            check(1000 <= a["loss_cycles"] <= 1000 + 100,
                  f"losses end within fm_delay + 100 cycles of the fault ({a['loss_cycles']})")
            check(6000 - 100 <= b["loss_cycles"] <= 6000 + 100,
                  f"without the fabric manager, losses last as long as the fault "
                  f"({b['loss_cycles']} of 6000 cycles)")
        # a permanent fault: losses end with the fabric manager (same losses
        # in a run twice as long, same seed)
        p1, _ = net(asw, d, "perm1", "link_fault=16:4:8000:0", "fm_delay=1000")
        p2, _ = net(asw, d, "perm2", "link_fault=16:4:8000:0", "fm_delay=1000", "cycles=40000")
        if p1 and p2:
            accounted(p1, "permanent fault")
            accounted(p2, "permanent fault, twice as long")
            check(p1["link_faults"]["packets_lost"] == p2["link_faults"]["packets_lost"],
                  f"permanent fault: no loss after the fabric manager "
                  f"({p1['link_faults']['packets_lost']} vs {p2['link_faults']['packets_lost']})")
        # adaptive routing leaves the down output (its up direction) at once
        ad, _ = net(asw, d, "adaptive", "routing=adaptive", "link_fault=" + FAULT, "fm_delay=0")
        dm, _ = net(asw, d, "dmodk", "link_fault=" + FAULT, "fm_delay=0")
        if ad and dm:
            accounted(ad, "adaptive, no fabric manager")
            check(ad["link_faults"]["packets_lost"] < dm["link_faults"]["packets_lost"] / 2,
                  f"adaptive routing avoids the down output: {ad['link_faults']['packets_lost']} "
                  f"lost vs {dm['link_faults']['packets_lost']} with D-mod-K")
        # random faults: accounted, no deadlock, reproducible, any thread count
        rnd = ["link_fault_rate=0.00002", "link_down_cycles=1500", "fm_delay=500"]
        r1, _ = net(asw, d, "rnd1", *rnd)
        r2, _ = net(asw, d, "rnd2", *rnd, "threads=2")
        if r1 and r2:
            lf = accounted(r1, "random faults")
            check(lf["down_events"] >= 10 and lf["packets_cut"] >= 1 and
                  lf["packets_damaged"] == lf["packets_cut"],
                  f"random faults: {lf['down_events']} down events, {lf['packets_cut']} packets "
                  f"cut, as many damaged at the sinks")
            check(all(r1[k] == r2[k] for k in r1 if k not in TIMING),
                  "random faults: same results with 2 threads")
        # bad settings
        for args, key in ((["link_fault=0:0:100:200"], "link_fault"),       # a node port
                          (["link_fault=16:4:100:110"], "link_fault"),      # down < V*LMAX
                          (["link_fault=16:4:100"], "link_fault"),
                          (["link_fault=16:4:200:100"], "link_fault"),
                          (["link_fault_rate=0.001", "link_down_cycles=5"], "link_down_cycles"),
                          (["link_fault=" + FAULT, "flow_control=pfc"], "link_fault"),
                          (["link_fault_rate=2"], "link_fault_rate"),
                          (["topology=torus", "dims=4x4", "link_fault=0:1:100:1000"], "link_fault")):
            _, err = net(asw, d, "bad", *args, expect=2)
            check(key in err, f"{' '.join(args)}: rejected naming {key} ({err.strip()[:90]})")
    return summary("net_faults")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
