#!/usr/bin/env python3
"""QCN in the network simulator (contract §17.4, §17.5, issue 12): on the
seed 004 network (32-node 2-ary 5-tree, 10 Gb/s, 1 536-byte frames, PFC),
an input-generated hot spot builds a congestion tree; with QCN's reaction
points (rl=on) the largest congestion-point queue is lower and the cold
(victim) traffic gets more throughput than without (rl=off), with no frame
dropped and every CNM delivered. Also: determinism, qcn=off output unchanged,
bad settings rejected naming the key; the output port rate (§17.7, port_gap) gives one
flow exactly 1/(GAP+1) of its link; Switch AR (§17.8, §17.9: routing=switch-ar, the CNM
lane) beats D-mod-k on seed 004's slow root links, its level decay (sar_decay) beats held
marks there, it snoops every CNM on its way, and the
lane leaves the data of a run without rate limiters unchanged. Usage: test_net_qcn.py
path/to/asw"""
import os
import sys
import tempfile

from checks import check, summary, run_net as net

SEED004 = ["topology=kary", "k=2", "n=5", "flow_control=pfc", "packet_flits=24",
           "buffer_flits=1600", "cycle_ns=51.2", "warmup=0"]


def strip(text):
    """The JSON without its timing fields (wall time, memory)."""
    return "\n".join(l for l in text.splitlines()
                     if "wall" not in l and "rss" not in l and "per_second" not in l)


def main(asw):
    hot = ["traffic=hotspot", "hs_fraction=0.25", "load=0.9", "cycles=100000", "qcn=on"]
    with tempfile.TemporaryDirectory() as d:
        off, _, _ = net(asw, d, "rl_off", *SEED004, *hot, "rl=off")
        on, text, _ = net(asw, d, "rl_on", *SEED004, *hot, "rl=on")
        if off and on:
            for js, what in ((off, "rl=off"), (on, "rl=on")):
                q = js["qcn"]
                check(js["pfc"]["frames_dropped"] == 0, f"{what}: no frame dropped")
                check(q["cnm_sent"] > 100 and q["cnm_delivered"] == q["cnm_sent"],
                      f"{what}: CNMs sent and all delivered ({q['cnm_delivered']}/{q['cnm_sent']})")
                check(js["duplicates"] == 0, f"{what}: no duplicate")
            check(off["qcn"]["rl_created"] == 0, "rl=off: no rate limiter")
            check(on["qcn"]["rl_created"] > 0 and on["qcn"]["rl_min_rate"] < 0.5,
                  f"rl=on: rate limiters cut rates (min {on['qcn']['rl_min_rate']})")
            qo, qn = off["qcn"]["qlen_max_mean_flits"], on["qcn"]["qlen_max_mean_flits"]
            check(qn < 0.75 * qo, f"rl=on lowers the congested queue ({qn} vs {qo} flits)")
            co, cn = off["accepted_cold"], on["accepted_cold"]
            check(cn > 1.5 * co, f"rl=on restores the cold traffic ({cn} vs {co} flits/node/cycle)")
            # same seed, same bytes
            _, text2, _ = net(asw, d, "rl_on2", *SEED004, *hot, "rl=on")
            check(text2 is not None and strip(text) == strip(text2), "rl=on: same seed, same JSON")
        # qcn=off prints exactly what a run without the keys prints
        base = ["traffic=hotspot", "load=0.9", "cycles=3000"]
        _, t0, _ = net(asw, d, "plain", *SEED004, *base)
        _, t1, _ = net(asw, d, "qcn_off", *SEED004, *base, "qcn=off")
        check(t0 is not None and t1 is not None and strip(t0) == strip(t1) and
              '"qcn' not in t0 and '"rl' not in t0, "qcn=off: output unchanged, no QCN keys")
        # §17.6: hashed and smodk keep every flow on one path (in order, checked)
        for r in ("hashed", "smodk"):
            js, _, _ = net(asw, d, r, *SEED004, "routing=" + r, "traffic=uniform", "load=0.5",
                           "cycles=20000")
            if js:
                check(js["order_checked"] and js["order_violations"] == 0 and
                      js["routing_name"] == r and js["accepted_throughput"] > 0.45,
                      f"routing={r}: in order, accepted {js['accepted_throughput']}")
        # the flow hash spreads uniform traffic as the LFSR does where up-port counts are
        # not powers of two too (RLFT of 6-port switches, 3 up ports: each stage's choice
        # nearly independent of the one below): at half a link, below saturation,
        # everything offered is accepted with either
        acc = {}
        for r in ("hashed", "oblivious"):
            js, _, _ = net(asw, d, "rlft_" + r, "topology=rlft", "ports=6", "stages=3", "voq=1",
                           "routing=" + r, "traffic=uniform", "load=0.5", "warmup=2000",
                           "cycles=10000")
            acc[r] = js["accepted_throughput"] / js["offered_load"] if js else 0.0
        check(acc["oblivious"] > 0.98 and acc["hashed"] > 0.98,
              f"RLFT 6-port, 3 stages, uniform 0.5: accepted/offered hashed {acc['hashed']:.3f}, "
              f"oblivious {acc['oblivious']:.3f}")
        _, _, err = net(asw, d, "smodk_rlft", "topology=rlft", "ports=12", "stages=2",
                        "routing=smodk", "cycles=10", expect=2)
        check("routing" in err and "power-of-two" in err, f"smodk on P=12: rejected: {err.strip()}")
        # §17.7 output port rate: one flow (traffic=flowS-D: only node 0 sends) over the one
        # D-mod-K path of a 2-ary 3-tree, whose root down link (switch 11, port 1) sends one
        # flit every GAP + 1 cycles: the flow gets 1/(GAP+1) of a link at a saturating load
        # (the link is the bottleneck: its credit loop is covered), on credit and PFC links
        flow = ["topology=kary", "k=2", "n=3", "traffic=flow0-7", "load=1", "packet_flits=8",
                "buffer_flits=64", "warmup=2000", "cycles=12000"]
        for fc in ("credit", "pfc"):
            for g in (1, 3, 9):
                js, _, _ = net(asw, d, f"gap_{fc}_{g}", *flow, f"flow_control={fc}",
                               *([f"port_gap=11:1:{g}"] if g else []))
                thr = js["accepted_throughput"] * 8 if js else 0.0
                want = 1.0 / (g + 1)
                check(js is not None and abs(thr - want) < 0.02 * want + 0.005 and
                      js["traffic_name"] == "flow0-7",
                      f"port_gap=11:1:{g} ({fc}): the flow gets {thr:.3f} flits/cycle, 1/(G+1) "
                      f"= {want:.3f}")
        # a GAP on a link the flow does not take changes nothing (byte-identical results)
        _, t0, _ = net(asw, d, "gap_none", *flow)
        _, t1, _ = net(asw, d, "gap_other", *flow, "port_gap=8:1:5,0:0:7")
        check(t0 is not None and t1 is not None and
              [l for l in strip(t0).splitlines() if '"config"' not in l] ==
              [l for l in strip(t1).splitlines() if '"config"' not in l],
              "port_gap on links the flow does not take: the same results")
        for args, key, what in ((["port_gap=12:0:3"], "port_gap", "no such switch"),
                                (["port_gap=0:4:3"], "port_gap", "no such port"),
                                (["port_gap=0:3:16"], "port_gap", "outside 1..15"),
                                (["port_gap=0:3:1,0:3:2"], "port_gap", "twice"),
                                (["traffic=flow0-8"], "traffic", "not below N"),
                                (["traffic=flow3-3"], "traffic", "different")):
            _, _, err = net(asw, d, "bad_" + what.replace(" ", "_"), *flow, *args, expect=2)
            check(key in err and what in err, f"{' '.join(args)}: rejected ({err.strip()})")
        # §17.8/§17.9 Switch AR on seed 004's Figure 9 (one flow over four root links slowed
        # to 10, 10, 50 and 25 % of a link): D-mod-k keeps its one path (25 %), Switch AR
        # steers away from the paths the snooped CNMs name and gets more; nothing dropped
        slow = ["topology=kary", "k=2", "n=3", "vcs=1", "voq=1", "buffer_flits=1600",
                "packet_flits=24", "cycle_ns=51.2", "flow_control=pfc", "qcn=on",
                "traffic=flow0-7", "load=0.9", "check_order=1", "warmup=0", "cycles=60000",
                "port_gap=8:1:9,9:1:9,10:1:1,11:1:3"]
        det, tdet, _ = net(asw, d, "sar_det", *slow, "routing=dmodk")
        sar, tsar, _ = net(asw, d, "sar", *slow, "routing=switch-ar")
        if det and sar:
            lane, q = sar.get("cnm_lane", {}), sar["qcn"]
            check(sar["routing_name"] == "switch-ar" and sar["pfc"]["frames_dropped"] == 0 and
                  sar["duplicates"] == 0, "switch-ar: no frame dropped, no duplicate")
            check(sar["accepted_throughput"] > 1.15 * det["accepted_throughput"] and
                  sar["adaptive_decisions"] > 0,
                  f"switch-ar beats D-mod-k's one path ({sar['accepted_throughput']:.4f} vs "
                  f"{det['accepted_throughput']:.4f} flits/node/cycle, "
                  f"{sar['adaptive_decisions']} steered)")
            check(lane.get("cnm_snooped", 0) >= 2 * q["cnm_sent"] > 0 and
                  lane["cnm_dropped"] == 0 and lane["cnm_unroutable"] == 0,
                  f"switch-ar: every CNM snooped at each switch on its way ({lane})")
            check(q["cnm_sent"] - 2 <= q["cnm_delivered"] <= q["cnm_sent"],
                  f"switch-ar: the CNMs reach their source ({q['cnm_delivered']}/{q['cnm_sent']})")
            check("cnm_lane" not in det, "routing=dmodk, cnm_path auto: direct, no lane keys")
            _, tsar2, _ = net(asw, d, "sar2", *slow, "routing=switch-ar")
            check(tsar2 is not None and strip(tsar) == strip(tsar2), "switch-ar: same seed, same JSON")
            # §17.8 level decay: a path left for another gets its mark back down, the flow
            # returns to it (measured 0.0569 against 0.0393 flits/node/cycle without decay)
            dec, _, _ = net(asw, d, "sar_decay", *slow, "routing=switch-ar", "sar_decay=6")
            if dec:
                check(dec["accepted_throughput"] > 1.25 * sar["accepted_throughput"] and
                      dec["pfc"]["frames_dropped"] == 0,
                      f"switch-ar sar_decay=6 beats held marks ({dec['accepted_throughput']:.4f} "
                      f"vs {sar['accepted_throughput']:.4f} flits/node/cycle)")
        # without rate limiters CNMs do not touch the data: D-mod-k over the lane (snooped,
        # not steering) gives the data results of D-mod-k with direct CNMs
        lane_js, _, _ = net(asw, d, "lane_det", *slow, "routing=dmodk", "cnm_path=lane")
        if det and lane_js:
            keys = ("accepted_throughput", "latency_mean", "latency_p99", "packets_delivered",
                    "flit_hops", "order_violations")
            check(all(det[k] == lane_js[k] for k in keys) and "cnm_lane" in lane_js and
                  lane_js["adaptive_decisions"] == 0,
                  "cnm_path=lane, rl=off, D-mod-k: the data results of cnm_path=direct")
        for args, key, what in ((["routing=switch-ar", "qcn=off"], "routing", "qcn=on"),
                                (["routing=switch-ar", "cnm_path=direct"], "cnm_path", "lane"),
                                (["routing=switch-ar", "sar_entries=33"], "sar_entries", "1..32"),
                                (["routing=switch-ar", "ar_timer_us=0"], "ar_timer_us", ""),
                                (["routing=switch-ar", "sar_decay=25"], "sar_decay", "0..24"),
                                (["routing=dmodk", "sar_decay=6"], "sar_decay", "lane")):
            _, _, err = net(asw, d, "bad_sar_" + key, *slow, *args, expect=2)
            check(key in err and what in err, f"{' '.join(args)}: rejected ({err.strip()})")
        # bad settings: exit 2 naming the key
        for args, key in ((["rl=on"], "rl"), (["qcn=on", "qcn_qeq=20000"], "qcn_qeq"),
                          (["qcn=on", "rl_bc=150000"], "rl_bc"), (["qcn=on", "qcn_w=3"], "qcn_w"),
                          (["qcn=on", "threads=2"], "threads"), (["qcn=maybe"], "qcn")):
            _, _, err = net(asw, d, "bad_" + key, *SEED004, *base, *args, expect=2)
            check(key in err, f"{' '.join(args)}: rejected naming {key}: {err.strip()}")
    return summary("test_net_qcn")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
