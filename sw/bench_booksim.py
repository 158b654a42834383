#!/usr/bin/env python3
"""`asw net` and BookSim2 side by side on the 512-node 8-ary 3-tree (make bench-booksim;
docs/results.md, Speed §3): 4 VCs x 32 flits, 16-flit packets, random up-port routing,
iSLIP with 1 iteration, uniform traffic offered at 0.9 flits/node/cycle. The two run one
after the other in this process; the CPU time of each is its process's (user + system,
getrusage of the child), so both include their set-up.

  bench_booksim.py ASW BOOKSIM OUTDIR

ASW: our `asw` binary. BOOKSIM: a BookSim2 binary built from its own source tree (nothing
of BookSim is in this repository); its configuration is written to OUTDIR. Flit-hops:
ours are counted (the JSON's flit_hops); BookSim counts none, so its figure is
accepted flit rate x nodes x cycles run (warm-up, sample and drain) x average hops per
packet: an upper bound, as the drain carries less than the sampled rate.
"""
import json
import os
import re
import resource
import subprocess
import sys

NODES = 512
ASW_ARGS = ["net", "topology=kary", "k=8", "n=3", "vcs=4", "buffer_flits=32", "packet_flits=16",
            "iters=1", "sqs=dbbm", "routing=oblivious", "warmup=2000", "cycles=20000", "load=0.9",
            "--quiet"]
# BookSim2's configuration (its config-file syntax: `name = value;`).
BOOKSIM_CFG = dict(
    topology="fattree", k=8, n=3, routing_function="nca", num_vcs=4, vc_buf_size=32,
    packet_size=16, traffic="uniform", injection_rate=0.9, injection_rate_uses_flits=1,
    vc_allocator="islip", sw_allocator="islip", alloc_iters=1, credit_delay=2, routing_delay=0,
    sim_type="latency", warmup_periods=1, sample_period=2000, max_samples=1, latency_thres="1e6")


def timed(cmd, out_path):
    """Runs cmd with stdout to out_path; returns (exit code, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(out_path, "w") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return rc, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def last_float(text, label):
    m = re.findall(re.escape(label) + r"\s*=\s*([0-9.eE+-]+)", text)
    return float(m[-1]) if m else None


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    asw, booksim, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    js = os.path.join(out, "asw_512.json")
    rc, asw_cpu = timed([asw] + ASW_ARGS + ["--json", js], os.path.join(out, "asw_512.log"))
    if rc != 0:
        sys.exit(f"bench-booksim: asw net failed (exit {rc}), see {out}/asw_512.log")
    r = json.load(open(js))
    cfg = os.path.join(out, "booksim_512.cfg")
    with open(cfg, "w") as f:
        f.write("// arnswitch make bench-booksim: the 512-node 8-ary 3-tree of asw net\n")
        f.writelines(f"{k} = {v};\n" for k, v in BOOKSIM_CFG.items())
    log = os.path.join(out, "booksim_512.log")
    rc, bs_cpu = timed([booksim, cfg], log)
    text = open(log, errors="replace").read()
    m = re.search(r"Time taken is (\d+) cycles", text)
    acc = last_float(text, "Accepted flit rate average")
    hops = last_float(text, "Hops average")
    # BookSim2's main returns -1 (exit 255) when its run completed, so the exit code says
    # nothing: a completed run prints its time and overall statistics.
    if not m or acc is None or hops is None:
        sys.exit(f"bench-booksim: BookSim2 printed no statistics (exit {rc}), see {log}")
    bs_cycles = int(m.group(1))
    bs_hops = acc * NODES * bs_cycles * hops
    rows = [("asw net", r["cycles_run"], r["accepted_throughput"], f"{r['flit_hops'] / 1e6:.1f} M",
             asw_cpu, r["flit_hops"] / asw_cpu),
            ("BookSim2", bs_cycles, acc, f"~{bs_hops / 1e6:.1f} M ({hops:.2f} hops/packet)",
             bs_cpu, bs_hops / bs_cpu)]
    print(f"bench-booksim: 512-node 8-ary 3-tree, 4 VCs x 32 flits, 16-flit packets, "
          f"uniform 0.9, one after the other (logs in {out})")
    print(f"{'simulator':10s} {'cycles':>7s} {'accepted':>8s}  {'flit-hops':34s} {'CPU s':>7s} "
          f"{'flit-hops per CPU-s':>20s}")
    for name, cyc, a, fh, cpu, rate in rows:
        print(f"{name:10s} {cyc:7d} {a:8.3f}  {fh:34s} {cpu:7.2f} {rate / 1e6:18.3f} M")
    print(f"ratio: {rows[0][5] / rows[1][5]:.0f}x BookSim2 flit-hops per CPU-s")


if __name__ == "__main__":
    main()
