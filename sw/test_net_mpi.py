#!/usr/bin/env python3
"""test-mpi: a network split over MPI ranks gives the bytes of the one-process
run (`asw net`): --json (without its last, wall-clock line) and --csv of
several configurations (D-mod-K, adaptive, oblivious, ARN+AFI, 1..4 VCs,
VOQ off/on, drain, exchanges every 1..4 cycles (the links' latency as lookahead), a watchdog stop: same cycle and figures, the list of
blocked resources in its report is each rank's own) under mpirun with 1, 2 and 3 ranks, the
exchange carrying messages; and the command-line errors of ranks=.

usage: test_net_mpi.py --asw build/net/asw --asw-mpi build/asw-mpi --mpirun "mpirun ..."
Prints "net_mpi: N passed, N failed"; exit status 1 on a failure.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

KARY = "topology=kary k=4 n=3 buffer_flits=32 packet_flits=8 warmup=300 cycles=1500"
RLFT = "topology=rlft ports=12 stages=3 buffer_flits=256 packet_flits=16 warmup=300 cycles=1500"
CONFIGS = [
    f"{KARY} vcs=1 routing=dmodk load=0.9",
    f"{KARY} vcs=2 routing=adaptive load=0.8 voq=1",
    f"{KARY} vcs=3 routing=oblivious load=0.7 sqs=dbbm",
    f"{KARY} vcs=4 routing=adaptive voq=1 sqs=vftree load=1 threads=2",
    f"{RLFT} vcs=2 routing=adaptive arn=afi traffic=hs25-1 voq=1 sqs=vftree",
    f"{RLFT} vcs=2 routing=adaptive arn=arn traffic=hs25-1 voq=1 load=0.9 arn_ttl=300",
    f"{RLFT} vcs=1 routing=adap-th-s-k traffic=hs10-4 voq=0 link_latency=3 credit_latency=1",
    f"{RLFT} vcs=4 routing=oblivious voq=1 sqs=flow2sl load=0.6 drain=1",
    f"{KARY} vcs=2 routing=adaptive load=0.9 link_latency=4 credit_latency=5 sync_every=3",
    # a slow sink: the network blocks and the watchdog stops the run (exit 3)
    f"{KARY} vcs=1 routing=dmodk load=1 sink_rate=0 watchdog=401 cycles=3000 link_latency=4",
]
RANKS = [1, 2, 3]

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}", file=sys.stderr)


def strip_wall(text, watchdog=False):
    """The JSON without its wall-clock line; with watchdog, the report (its
    list of blocked resources is each rank's own) cut to its first line."""
    lines = [l for l in text.splitlines() if '"wall_seconds"' not in l]
    if watchdog:
        lines = [re.sub(r'("watchdog": "[^"]*?resources)[^"]*"', r'\1', l) for l in lines]
    return "\n".join(lines)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--asw", required=True)
    ap.add_argument("--asw-mpi", required=True)
    ap.add_argument("--mpirun", required=True)
    a = ap.parse_args()
    mpirun = shlex.split(a.mpirun)
    with tempfile.TemporaryDirectory() as tmp:
        for ci, cfg in enumerate(CONFIGS):
            args = cfg.split() + ["--quiet"]
            ref_j, ref_c = os.path.join(tmp, f"{ci}.json"), os.path.join(tmp, f"{ci}.csv")
            r0 = run([a.asw, "net", *args, "--json", ref_j, "--csv", ref_c])
            wd = r0.returncode == 3
            ref_json, ref_csv = strip_wall(open(ref_j).read(), wd), open(ref_c).read()
            for R in RANKS:
                j, c = os.path.join(tmp, f"{ci}_{R}.json"), os.path.join(tmp, f"{ci}_{R}.csv")
                cmd = mpirun + ["-np", str(R), a.asw_mpi, "net", *cfg.split(), f"ranks={R}",
                                "--json", j, "--csv", c]
                r = run(cmd)
                what = f"config {ci} ({cfg}) with {R} rank(s)"
                check(r.returncode == r0.returncode,
                      f"{what}: exit {r.returncode}, one process {r0.returncode}: {r.stderr[-500:]}")
                if not os.path.exists(j):
                    check(False, f"{what}: no JSON written")
                    continue
                check(strip_wall(open(j).read(), wd) == ref_json, f"{what}: JSON differs")
                check(open(c).read() == ref_csv, f"{what}: CSV differs")
                m = re.search(r"exchange: (\d+) messages", r.stdout)
                if R > 1:  # the partition really cuts links
                    check(m is not None and int(m.group(1)) > 0,
                          f"{what}: no messages between ranks: {r.stdout[-300:]}")
                if r0.returncode == 3:
                    check("watchdog" in r.stderr, f"{what}: no watchdog report")
        # errors: ranks= without MPI, a rank count unlike mpirun's, too many ranks
        r = run([a.asw, "net", "ranks=2", "cycles=10", "warmup=0"])
        check(r.returncode == 2 and "mpirun" in r.stderr,
              f"plain asw with ranks=2: exit {r.returncode}, {r.stderr!r}")
        r = run(mpirun + ["-np", "2", a.asw_mpi, "net", "ranks=3", "cycles=10", "warmup=0"])
        check(r.returncode == 2 and "ranks: 3 configured but mpirun started 2" in r.stderr
              and r.stderr.count("asw net:") == 1,
              f"ranks=3 under -np 2: exit {r.returncode}, {r.stderr!r}")
        r = run(mpirun + ["-np", "3", a.asw_mpi, "net", "topology=kary", "k=2", "n=2",
                          "ranks=3", "cycles=10", "warmup=0"])
        check(r.returncode == 2 and "leaf switches" in r.stderr,
              f"3 ranks on 2 leaves: exit {r.returncode}, {r.stderr!r}")
    print(f"net_mpi: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
