#!/usr/bin/env python3
"""Command-line tests of `asw net` and `asw sweep`: help, errors naming the
key, config file + overrides, --seed, determinism of the JSON (wall-clock
line aside) and CSV bytes, JSON fields, sweep merging in grid order.
Usage: test_net_cli.py path/to/asw"""
import json
import os
import subprocess
import sys
import tempfile

from checks import check, summary


def run(asw, *args):
    return subprocess.run([asw, *args], capture_output=True, text=True)


def strip_wall(text):
    return "\n".join(l for l in text.splitlines() if "wall_seconds" not in l)


def main(asw):
    small = ["topology=kary", "k=4", "n=2", "packet_flits=8", "buffer_flits=32",
             "warmup=200", "cycles=2000", "window=500", "--quiet"]
    r = run(asw, "net", "--help")
    check(r.returncode == 0 and "buffer_flits" in r.stdout and "sqs" in r.stdout,
          "net --help lists the keys")
    r = run(asw, "net", "frobnicate=3")
    check(r.returncode == 2 and "frobnicate" in r.stderr, f"unknown key named: {r.stderr.strip()}")
    r = run(asw, "net", "load=2")
    check(r.returncode == 2 and "load" in r.stderr, f"bad value named: {r.stderr.strip()}")
    r = run(asw, "net", "routing=zigzag")
    check(r.returncode == 2 and "routing" in r.stderr, f"bad enum named: {r.stderr.strip()}")
    r = run(asw, "net", "--seed")
    check(r.returncode == 2, "--seed without value is a usage error")
    # One spelling per concept: switches take on/off as well as 1/0 (as asw switch --voq).
    outs = [run(asw, "net", "topology=rlft", "ports=4", "stages=2", f"voq={w}", "cycles=300",
                "--json", "-") for w in ("on", "1")]
    check(all(o.returncode == 0 for o in outs) and '"voq": 1' in outs[0].stdout and
          strip_wall(outs[0].stdout) == strip_wall(outs[1].stdout), "voq=on is voq=1")
    r = run(asw, "net", "voq=yes")
    check(r.returncode == 2 and "voq" in r.stderr and "is not one of on, off, 1, 0" in r.stderr,
          f"bad switch value named with the legal ones: {r.stderr.strip()}")
    with tempfile.TemporaryDirectory() as d:
        cfg = os.path.join(d, "run.cfg")
        with open(cfg, "w") as f:
            f.write("# test config\ntopology = kary\nk = 4\nn = 2\nload = 0.9\n"
                    "packet_flits = 8\nbuffer_flits = 32\nwarmup = 200\ncycles = 2000\n")
        outs = []
        for i, seed in enumerate(["5", "5", "6"]):
            j, c = os.path.join(d, f"r{i}.json"), os.path.join(d, f"r{i}.csv")
            r = run(asw, "net", cfg, "load=0.4", "--seed", seed, "--json", j, "--csv", c,
                    "--quiet", "traffic=hs25-1")
            check(r.returncode == 0, f"net run {i}: {r.stderr.strip()}")
            outs.append((open(j).read(), open(c).read()))
        check(strip_wall(outs[0][0]) == strip_wall(outs[1][0]) and outs[0][1] == outs[1][1],
              "same seed: same JSON (wall line aside) and CSV bytes")
        check(outs[0][1] != outs[2][1], "different --seed: different series")
        js = json.loads(outs[0][0])
        for key in ["accepted_throughput", "offered_load", "latency_mean", "latency_p99",
                    "flit_hops", "wall_seconds", "config", "adaptive_decisions",
                    "accepted_hot", "accepted_cold"]:
            check(key in js, f"JSON has {key}")
        check(js["config"]["load"] == 0.4 and js["config"]["seed"] == 5 and
              js["config"]["k"] == 4 and js["config"]["traffic"] == "hotspot",
              "config file, then overrides, then --seed are echoed")
        check(abs(js["offered_load"] - 0.4) < 0.05, f"offered {js['offered_load']} ~ 0.4")
        lines = outs[0][1].splitlines()
        check(lines[0].startswith("cycle,time_us,offered,accepted") and len(lines) == 1 + 3,
              f"CSV: header and 2200 cycles / 1000 -> 3 windows ({len(lines) - 1})")
        # rerun from the echoed configuration gives the same results
        echo = os.path.join(d, "echo.cfg")
        with open(echo, "w") as f:
            for k, v in js["config"].items():
                f.write(f"{k} = {v}\n")
        r = run(asw, "net", echo, "--json", os.path.join(d, "echo.json"), "--quiet")
        check(r.returncode == 0 and strip_wall(open(os.path.join(d, "echo.json")).read())
              == strip_wall(outs[0][0]), "echoed configuration reruns to the same bytes")
        # sweep: 2 x 2 grid, 2 processes, merged in grid order
        sd = os.path.join(d, "sweep")
        r = run(asw, "sweep", "-j", "2", "--dir", sd, *small[:-1], "--vary", "load=0.2,0.5",
                "--vary", "routing=dmodk,oblivious")
        check(r.returncode == 0, f"sweep runs: {r.stderr.strip()[-300:]}")
        res = json.load(open(os.path.join(sd, "results.json")))
        got = [(x["config"]["load"], x["config"]["routing"]) for x in res]
        check(got == [(0.2, "dmodk"), (0.2, "oblivious"), (0.5, "dmodk"), (0.5, "oblivious")],
              f"sweep results merged in grid order: {got}")
        summ = open(os.path.join(sd, "summary.csv")).read().splitlines()
        check(len(summ) == 5 and summ[0].startswith("run,load,routing,status"),
              "sweep summary.csv")
        single = run(asw, "net", *small[:-1], "load=0.5", "routing=oblivious", "--quiet",
                     "--json", os.path.join(d, "single.json"))
        check(strip_wall(open(os.path.join(sd, "run-003.json")).read()) ==
              strip_wall(open(os.path.join(d, "single.json")).read()),
              "a sweep run equals the same single run")
        r = run(asw, "sweep", "--dir", sd, "--vary", "vcs=1,nine")
        check(r.returncode == 2 and "vcs" in r.stderr, f"sweep rejects a bad value up front: {r.stderr.strip()}")
        # watchdog exit status
        r = run(asw, "net", *small, "sink_rate=0", "watchdog=1000", "cycles=20000")
        check(r.returncode == 3 and "deadlock" in r.stderr, "watchdog: exit 3 with a report")
    return summary("net_cli")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
