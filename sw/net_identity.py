#!/usr/bin/env python3
"""Byte-identity of two `asw net` builds (make net-identity BASE=<binary>): runs both on
the configurations below (fat-trees, tori and meshes; deterministic, adaptive, oblivious
and hashed routing; ARN, AFI, PFC, QCN, Switch AR, link faults, port gaps, VOQs, 1..4
VCs, threads, on/off bursts with drain, odd windows, unequal latencies, the watchdog,
the starvation check, small source pools, trace replay, VOQnet) and compares --json
(without its timing lines), --csv and the exit status. A speed change must pass it
against the build before it (docs/results.md, Speed §1).

  net_identity.py BASE NEW OUTDIR [--quick]
"""
import concurrent.futures
import os
import re
import subprocess
import sys

K = "topology=kary k=8 n=3 vcs=4 buffer_flits=32 packet_flits=16 iters=1 sqs=dbbm"
R = "topology=rlft ports=12 stages=3 buffer_flits=64 packet_flits=8"
RUN = "warmup=300 cycles=2000"
CONFIGS = [
    f"{K} {RUN} load=0.9",
    f"{K} {RUN} load=0.3",
    f"{K} {RUN} load=0.9 threads=2",
    f"{K} {RUN} load=0.9 routing=oblivious",
    f"{R} {RUN} vcs=2 load=0.5",
    f"{R} {RUN} vcs=2 load=0.7 routing=adaptive trigger=th",
    f"{R} {RUN} vcs=2 load=0.7 routing=adaptive trigger=2th",
    f"{R} {RUN} vcs=2 load=0.6 traffic=hs25-1 arn=arn voq=1 sqs=vftree",
    f"{R} {RUN} vcs=3 load=0.6 traffic=hs25-1 arn=afi voq=1 sqs=vftree",
    f"{R} {RUN} vcs=2 load=0.6 routing=adaptive afi=1",
    f"{R} vcs=1 buffer_flits=3072 packet_flits=64 load=1 warmup=0 cycles=2000",
    f"{R} {RUN} vcs=2 voq=1 load=0.8",
    f"{R} {RUN} vcs=2 voq=1 load=0.8 threads=2",
    f"topology=kary k=4 n=3 {RUN} vcs=4 load=0.8 traffic=bitrev",
    f"{R} {RUN} vcs=2 load=0.9 flow_control=pfc traffic=hs25-1",
    f"{R} {RUN} vcs=2 load=0.5 injection=onoff drain=1",
    f"{R} vcs=2 load=0.5 warmup=7 cycles=1300 window=13",
    f"{R} {RUN} vcs=2 load=0.5 link_latency=3 credit_latency=2",
    f"{R} {RUN} vcs=2 load=0.5 link_latency=2 credit_latency=1",
    f"{R} {RUN} vcs=2 load=0.9 starvation=500",
    f"{R} {RUN} vcs=2 load=0.8 link_fault=20:6:500:900",
    f"{R} {RUN} vcs=2 load=0.8 qcn=on rl=on traffic=hs25-1",
    f"{R} {RUN} vcs=2 load=0.8 routing=switch-ar qcn=on traffic=hs25-1",
    f"{R} {RUN} vcs=2 load=0.8 port_gap=20:6:3",
    f"{R} {RUN} vcs=2 load=0.8 routing=hashed",
    f"{R} {RUN} vcs=2 load=0.6 traffic=hs25-1 hs_packets=200",
    f"{R} {RUN} vcs=1 load=0.6 source_pool=8 source_queue=2",
    f"{R} vcs=2 traffic=trace:{{trace}} cycles=2500",
    f"topology=torus dims=8x8 {RUN} vcs=2 load=0.4",
    f"topology=torus dims=4x4x4 {RUN} vcs=2 load=0.4 threads=2",
    f"topology=mesh dims=8x8 {RUN} vcs=2 load=0.4",
    f"topology=mesh dims=4x4 {RUN} vcs=1 sqs=voqnet load=0.4",
    "topology=rlft ports=8 stages=3 vcs=2 buffer_flits=8 packet_flits=8 load=1 "
    "routing=oblivious watchdog=300 warmup=0 cycles=3000",
]
TIMING = re.compile(r'"(wall|cpu|max_rss)|per_s')


def outputs(exe, cfg, stem):
    """(exit status, JSON without timing lines, CSV) of one run."""
    js, cs = stem + ".json", stem + ".csv"
    for f in (js, cs):
        if os.path.exists(f):
            os.remove(f)
    rc = subprocess.run([exe, "net", *cfg.split(), "--quiet", "--json", js, "--csv", cs],
                        capture_output=True).returncode
    text = open(js).read() if os.path.exists(js) else ""
    text = "\n".join(l for l in text.splitlines() if not TIMING.search(l))
    return rc, text, open(cs).read() if os.path.exists(cs) else ""


def main():
    args = [a for a in sys.argv[1:] if a != "--quick"]
    if len(args) != 3:
        sys.exit(__doc__)
    base, new, out = args
    os.makedirs(out, exist_ok=True)
    trace = os.path.join(out, "replay.trace")
    subprocess.run([base, "net", *R.split(), "vcs=2", "load=0.5", "warmup=0", "cycles=1500",
                    "--quiet", "--trace-out", trace], check=True)
    configs = [c.replace("{trace}", trace) for c in CONFIGS]
    if "--quick" in sys.argv:
        configs = configs[:6]

    def check(k):
        stem = os.path.join(out, str(k))
        a, b = outputs(base, configs[k], stem + "a"), outputs(new, configs[k], stem + "b")
        return a == b, a[0]

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        for cfg, (same, rc) in zip(configs, ex.map(check, range(len(configs)))):
            print(f"{'ok  ' if same else 'FAIL'} (exit {rc}) {cfg}")
            failed += not same
    print(f"net-identity: {len(configs) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
