#!/usr/bin/env python3
"""Any topology from a file (contract §16.5, docs/topology-file.md, issue 11):
built-in fat-trees and tori written as files (--write-topology, --write-table)
give the built-in results byte for byte (timing, configuration echo and the
per-stage link table of fat-trees aside), and a changed table does not; bad
topology and table files are refused naming file:line; on random irregular
networks updn passes the channel-dependency check, its tables are up*/down*
(checked here independently) and a saturated run drains without the
watchdog; minhop routes are shortest paths; minhop on a torus and a cyclic
table are refused naming the cycle, and run anyway (cdg_check=warn) the
cyclic table deadlocks on the channels the check named.
Usage: test_net_topofile.py path/to/asw"""
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import deque

from checks import check, summary

SMALL = ["buffer_flits=64", "packet_flits=8", "cycles=3000", "warmup=500"]


def run(asw, *args):
    return subprocess.run([asw, "net", *args, "--quiet"], capture_output=True, text=True)


def results(path, stages):
    """The JSON's result lines: without the configuration echo, the names, the topology
    object, the timing line and (stages: fat-trees) the per-stage link table."""
    out = []
    for line in open(path).read().splitlines():
        if any(k in line for k in ('"config"', '"routing_name"', '"topology"', '"wall_seconds"')):
            continue
        if stages and '"link_utilization"' in line:
            continue
        out.append(line)
    return out


def write(d, name, text):
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write(text)
    return p


def read_topo(path):
    """switches {id: ports}, nodes {id: (sw, port)}, adj {sw: {port: (sw2, port2)}}."""
    sw, nodes, adj = {}, {}, {}
    for line in open(path):
        t = line.split("#")[0].split()
        if not t:
            continue
        if t[0] == "switch":
            sw[int(t[1])] = int(t[2])
            adj.setdefault(int(t[1]), {})
        elif t[0] == "node":
            nodes[int(t[1])] = (int(t[2]), int(t[3]))
        elif t[0] == "link":
            a, pa, b, pb = map(int, t[1:5])
            adj.setdefault(a, {})[pa] = (b, pb)
            adj.setdefault(b, {})[pb] = (a, pa)
    return sw, nodes, adj


def read_table(path):
    tab = {}
    for line in open(path):
        t = line.split("#")[0].split()
        if t:
            tab[(int(t[1]), int(t[2]))] = int(t[3])
    return tab


def bfs(adj, root):
    dist = {root: 0}
    q = deque([root])
    while q:
        s = q.popleft()
        for (x, _) in adj[s].values():
            if x not in dist:
                dist[x] = dist[s] + 1
                q.append(x)
    return dist


def random_net(rng, S, extra, ports=6):
    """A connected random graph of S switches (a random tree plus `extra` links), one or
    two nodes per switch."""
    free = {s: list(range(ports)) for s in range(S)}
    lines = [f"switch {s} {ports}" for s in range(S)]
    links = []
    for s in range(1, S):
        links.append((rng.randrange(s), s))
    for _ in range(extra):
        a, b = rng.sample(range(S), 2)
        links.append((a, b))
    for a, b in links:
        if len(free[a]) > 2 and len(free[b]) > 2 or (a, b) in links[:S - 1]:
            pa, pb = free[a].pop(rng.randrange(len(free[a]))), free[b].pop(rng.randrange(len(free[b])))
            lines.append(f"link {a} {pa} {b} {pb}")
    nid = 0
    for s in range(S):
        for _ in range(rng.choice((1, 2)) if len(free[s]) >= 2 else 1):
            lines.append(f"node {nid} {s} {free[s].pop(0)}")
            nid += 1
    rng.shuffle(lines)  # any order
    return "\n".join(lines) + "\n"


def updn_legal(adj, tab, nodes, root):
    """Independent check: every route from every switch is up* then down* for the ranks
    BFS-from-root gives (up: to a lower (rank, id))."""
    rank = bfs(adj, root)
    key = lambda s: (rank[s], s)
    for d, (leaf, _) in nodes.items():
        for s0 in adj:
            s, went_down, hops = s0, False, 0
            while s != leaf:
                x = adj[s][tab[(s, d)]][0]
                up = key(x) < key(s)
                if up and went_down:
                    return f"route {s0} -> node {d} turns down then up at switch {s}"
                went_down |= not up
                s, hops = x, hops + 1
                if hops > len(adj):
                    return f"route {s0} -> node {d} loops"
    return None


def two_switches(d, lat, clat=None):
    """Two switches joined by one link of latency lat (credits clat), a node on each."""
    return write(d, f"two-{lat}-{clat}.topo", "switch 0 4\nswitch 1 4\nnode 0 0 0\nnode 1 1 0\n"
                 f"link 0 1 1 1 {lat}{'' if clat is None else ' %d' % clat}\n")


def latency_checks(asw, d):
    """Links with latencies of their own (§16.5): a packet's zero-load latency grows by
    exactly the link's extra cycles; a saturated flow over the link is limited by its
    credit loop, BUF flits per round trip of flit latency + credit latency + the
    switches' fixed part: the fixed part is the same for every latency pair, so each
    direction's latency counts once."""
    lat = {}
    for L in (2, 12):
        j = os.path.join(d, f"zl-{L}.json")
        r = run(asw, f"topology=file:{two_switches(d, L)}", "load=0.02", "cycles=20000", "--json", j)
        lat[L] = json.load(open(j)) if r.returncode == 0 else None
    ok = lat[2] and lat[12]
    check(ok and lat[12]["latency_mean"] - lat[2]["latency_mean"] == 10.0
          and lat[2]["latency_p99"] == lat[2]["latency_mean"],
          f"zero load: a 12-cycle link adds 10 cycles to every packet against a 2-cycle one "
          f"({lat[2] and lat[2]['latency_mean']} -> {lat[12] and lat[12]['latency_mean']})")
    buf, fixed = 32, []
    for L, C in ((50, 50), (100, 100), (50, 2), (100, 2), (2, 100)):
        j = os.path.join(d, f"cr-{L}-{C}.json")
        r = run(asw, f"topology=file:{two_switches(d, L, C)}", "load=1", "cycles=20000",
                f"buffer_flits={buf}", "packet_flits=8", "--json", j)
        thr = json.load(open(j))["accepted_throughput"] if r.returncode == 0 else 0.0
        check(0 < thr <= buf / (L + C), f"link {L}/{C} cycles: {thr:.4f} flits/node/cycle "
              f"<= BUF / (flit + credit latency) = {buf / (L + C):.4f}")
        if thr:
            fixed.append(buf / thr - L - C)
    check(len(fixed) == 5 and max(fixed) - min(fixed) < 1.0,
          "credit loop: BUF / throughput - flit latency - credit latency is the same for five "
          f"latency pairs ({', '.join(f'{x:.2f}' for x in fixed)} cycles)")


def main(asw):
    d = tempfile.mkdtemp(prefix="asw_topofile_")
    # 1. built-in topologies as files: the same results
    for name, topo, extra, stages in (
            ("kary-2-3", ["topology=kary", "k=2", "n=3"], ["vcs=2", "sqs=dbbm", "load=0.7"], True),
            ("rlft-4-2", ["topology=rlft", "ports=4", "stages=2"], ["load=0.9"], True),
            # links written with their latencies (`link ... 5 3`): per-link staging
            ("rlft-4-2-lat", ["topology=rlft", "ports=4", "stages=2"],
             ["load=0.9", "link_latency=5", "credit_latency=3"], True),
            ("torus-4x4", ["topology=torus", "dims=4x4", "bubble=off"], ["vcs=2", "sqs=dbbm", "load=0.3"], False),
            ("mesh-4x3", ["topology=mesh", "dims=4x3"], ["vcs=2", "sqs=xordet", "load=0.3"], False)):
        tp, tb = os.path.join(d, name + ".topo"), os.path.join(d, name + ".fwd")
        r = run(asw, *topo, *extra, *SMALL, "--write-topology", tp, "--write-table", tb)
        check(r.returncode == 0, f"{name}: written as files ({r.stderr.strip()})")
        ja, jb = os.path.join(d, name + "-a.json"), os.path.join(d, name + "-b.json")
        ra = run(asw, *topo, *extra, *SMALL, "--json", ja)
        fextra = [e for e in extra if not e.startswith("sqs=")] if not stages else extra
        fb = [f"topology=file:{tp}", f"routing=table:{tb}", *fextra, *SMALL, "--json", jb]
        if name.startswith("torus"):
            fb.append("cdg_check=warn")  # DOR on a torus without bubbles: a cycle
        rb = run(asw, *fb)
        ok = ra.returncode == 0 and rb.returncode == 0
        check(ok and results(ja, stages) == results(jb, stages),
              f"{name}: the file network gives the built-in results ({rb.stderr.strip()[:200]})")
        if ok:
            delivered = json.load(open(ja))["packets_delivered"]
            check(delivered > 100, f"{name}: a loaded run ({delivered} packets delivered)")
        if name == "kary-2-3":  # the comparison can fail: one entry changed
            tab = open(tb).read()
            was = "\nfwd 0 7 3\n" if "\nfwd 0 7 3\n" in tab else "\nfwd 0 7 2\n"
            tab = tab.replace(was, "\nfwd 0 7 %d\n" % (5 - int(was.split()[3])))
            check(was not in tab, "kary-2-3: entry (0, 7) moved to the other up port")
            tc = write(d, "kary-2-3-changed.fwd", tab)
            jc = os.path.join(d, name + "-c.json")
            rc = run(asw, *fb[:1], f"routing=table:{tc}", *fextra, *SMALL, "--json", jc)
            check(rc.returncode == 0 and results(jc, True) != results(ja, True),
                  "kary-2-3: a changed table gives other results")

    # 2. bad files: file:line and exit status 2
    good = "switch 0 4\nswitch 1 4\nnode 0 0 0\nnode 1 1 0\nlink 0 1 1 1 2\n"
    bad = [
        ("frob 1 2\n", ":1: unknown line `frob`"),
        ("switch 0 4\nswitch 0 4\n", ":2: switch 0 declared twice"),
        ("switch 0 99\n", ":1: switch 0: ports `99`"),
        ("switch 0 4\nswitch 2 4\n", "switch 1 is missing"),
        ("switch 0 4\nnode 0 3 0\n", ":2: unknown switch `3`"),
        ("switch 0 4\nnode 0 0 4\n", ":2: switch 0: port `4` out of range"),
        ("switch 0 4\nswitch 1 4\nnode 0 0 0\nlink 0 0 1 0\n", ":4: switch 0 port 0 used twice (also on line 3)"),
        ("switch 0 4\nswitch 1 4\nlink 0 1 0 1\n", ":3: switch 0 port 1 used twice"),
        ("switch 0 4\nswitch 1 4\nnode 0 0 0\nnode 0 1 0\nlink 0 1 1 1\n", ":4: node 0 declared twice"),
        ("switch 0 4\nswitch 1 4\nnode 0 0 0\nnode 2 1 0\nlink 0 1 1 1\n", "node 1 is missing"),
        ("switch 0 4\nswitch 1 4\nswitch 2 4\nnode 0 0 0\nnode 1 1 0\nlink 0 1 1 1\n", ":3: switch 2 is not connected"),
        ("switch 0 4\nswitch 1 4\nnode 0 0 0\nnode 1 1 0\nlink 0 1 1 1 0\n", ":5: latency `0` is not a number 1..1000"),
        ("switch 0 4\nswitch 1 4\nnode 0 0 0\nnode 1 1 0\nlink 0 1 1 1 1001\n", ":5: latency `1001`"),
        ("switch 0 4\nswitch 1 4\nnode 0 0 0\nnode 1 1 0\nlink 0 1 1 1 2 x\n", ":5: credit latency `x`"),
        ("switch 0 4\nswitch 1 4\nnode 0 0 0\nnode 1 1 0\nlink 0 1 1 1 2 2 2\n", ":5: a link line is"),
        ("switch 0 4\nswitch 1 4\nnode 0 0 0\nlink 0 1 1 1 2\n", "one end node"),
        ("switch 0 4\nnode 0 0 x\n", ":2: switch 0: port `x`"),
        ("switch 0 4\nnode 0 0\n", ":2: a node line is"),
        ("switch 0 4\n", "no end node"),
        ("# nothing\n", "no switch"),
    ]
    for i, (text, want) in enumerate(bad):
        p = write(d, f"bad{i}.topo", text)
        r = run(asw, f"topology=file:{p}", "cycles=100")
        check(r.returncode == 2 and want in r.stderr and p in r.stderr,
              f"bad topology file {i}: {r.stderr.strip()}")
    gp = write(d, "good.topo", good)
    r = run(asw, f"topology=file:{gp}", "cycles=100")
    check(r.returncode == 0, f"good file runs: {r.stderr.strip()}")
    latency_checks(asw, d)
    badtab = [
        ("fwd 0 0 0\nfwd 0 1 1\nfwd 1 0 1\n", "no entry for switch 1 node 1"),
        ("fwd 0 0 0\nfwd 0 1 1\nfwd 1 0 1\nfwd 1 1 1\n", "the route to node 1 loops"),
        ("fwd 0 0 0\nfwd 0 1 0\n", ":2: switch 0 port 0 leads to node 0, not to node 1"),
        ("fwd 0 0 3\n", ":1: switch 0: port `3` is not a connected port"),
        ("fwd 0 0 0 0\nfwd 0 1 1\n", ":2: gives no VC"),
        ("fwd 0 0 0 5\n", ":1: VC `5` out of range"),
        ("fwd 0 0 0\nfwd 0 0 0\n", ":2: switch 0 node 0 given twice"),
        ("route 0 0 0\n", ":1: unknown line `route`"),
    ]
    for i, (text, want) in enumerate(badtab):
        p = write(d, f"bad{i}.fwd", text)
        r = run(asw, f"topology=file:{gp}", f"routing=table:{p}", "cycles=100")
        check(r.returncode == 2 and want in r.stderr, f"bad table file {i}: {r.stderr.strip()}")
    for args, want in ((["routing=minhop"], "routing: minhop is for topology=file"),
                       (["cdg_check=warn"], "cdg_check: only for topology=file"),
                       ([f"topology=file:{gp}", "routing=adaptive"], "takes minhop, updn or table:FILE"),
                       ([f"topology=file:{gp}", "sqs=vftree", "vcs=2"], "topology=file takes 1q dbbm"),
                       ([f"topology=file:{gp}", "traffic=ihs"], "traffic: not with topology=file"),
                       ([f"topology=file:{d}/none.topo"], "cannot open"),
                       (["topology=file:"], "file:FILE needs a file name"),
                       ([f"topology=file:{gp}", "routing=table:"], "table:FILE needs a file name")):
        r = run(asw, *args, "cycles=100")
        check(r.returncode == 2 and want in r.stderr, f"{' '.join(args)}: {r.stderr.strip()}")

    # 3. random irregular networks: updn deadlock-free, minhop minimal
    rng = random.Random(11)
    for i in range(6):
        S = rng.randrange(6, 13)
        tp = write(d, f"rand{i}.topo", random_net(rng, S, S))
        sw, nodes, adj = read_topo(tp)
        for routing in ("updn", "minhop"):
            tb = os.path.join(d, f"rand{i}-{routing}.fwd")
            r = run(asw, f"topology=file:{tp}", f"routing={routing}", "--write-table", tb)
            if routing == "updn":
                check(r.returncode == 0, f"rand{i}: updn tables ({r.stderr.strip()})")
                ecc = {s: max(bfs(adj, s).values()) for s in adj}
                root = min(adj, key=lambda s: (ecc[s], s))
                why = updn_legal(adj, read_table(tb), nodes, root)
                check(why is None, f"rand{i} ({S} switches): updn routes are up*/down* from root {root}: {why}")
                j = os.path.join(d, f"rand{i}.json")
                r = run(asw, f"topology=file:{tp}", "routing=updn", "vcs=2", "sqs=dbbm",
                        "buffer_flits=16", "packet_flits=8", "load=1", "warmup=0", "cycles=4000",
                        "drain=1", "watchdog=3000", "--json", j)
                res = json.load(open(j)) if r.returncode == 0 else {}
                check(r.returncode == 0 and res.get("watchdog") is None and res.get("drained") is True
                      and res.get("cdg_cycle") is None and res.get("packets_delivered", 0) > 100,
                      f"rand{i}: saturated updn run drains ({res.get('packets_delivered')} packets; "
                      f"{r.stderr.strip()[:200]})")
            else:
                if r.returncode == 2:  # minhop may have a cycle: then it names one
                    check("channel-dependency cycle" in r.stderr, f"rand{i}: minhop refused naming a cycle")
                    r = run(asw, f"topology=file:{tp}", "routing=minhop", "cdg_check=warn", "--write-table", tb)
                if r.returncode != 0 or not os.path.exists(tb):
                    check(False, f"rand{i}: minhop tables ({r.stderr.strip()[:200]})")
                    continue
                tab = read_table(tb)
                longer = []
                for dd, (leaf, port) in nodes.items():
                    dist = bfs(adj, leaf)
                    for s in adj:
                        hops, x = 0, s
                        while x != leaf:
                            x = adj[x][tab[(x, dd)]][0]
                            hops += 1
                        if hops != dist[s]:
                            longer.append((s, dd, hops, dist[s]))
                check(r.returncode == 0 and not longer and tab[(leaf, dd)] == port,
                      f"rand{i}: minhop routes are shortest paths {longer[:3]}")

    # minhop balances equal-cost ports, deterministically: in a 2-ary 3-tree every switch
    # below the top splits the destinations above it evenly over its two up ports
    tp = os.path.join(d, "k23.topo")
    run(asw, "topology=kary", "k=2", "n=3", "--write-topology", tp)
    tabs = []
    for k in range(2):
        tb = os.path.join(d, f"k23-minhop{k}.fwd")
        r = run(asw, f"topology=file:{tp}", "routing=minhop", "--write-table", tb)
        tabs.append(open(tb).read() if r.returncode == 0 else f"exit {r.returncode}")
    check(tabs[0] == tabs[1] and tabs[0].startswith("#"), "minhop tables are deterministic")
    tab = read_table(os.path.join(d, "k23-minhop0.fwd"))
    uneven = []
    for s_ in range(8):  # leaves 0..3, second stage 4..7 (ports 2, 3 go up)
        use = [sum(1 for dd in range(8) if tab[(s_, dd)] == p) for p in (2, 3)]
        if abs(use[0] - use[1]) > 1 or sum(use) == 0:
            uneven.append((s_, use))
    check(not uneven, f"minhop spreads the destinations over equal-cost up ports {uneven}")

    # 4. cycles: minhop on a torus, a cyclic table; the watchdog finds the same cycle
    tp = os.path.join(d, "torus.topo")
    run(asw, "topology=torus", "dims=4x4", "--write-topology", tp)
    r = run(asw, f"topology=file:{tp}", "routing=minhop", "cycles=100")
    check(r.returncode == 2 and "minhop may deadlock: channel-dependency cycle of" in r.stderr,
          f"minhop on a torus is refused: {r.stderr.strip()[:160]}")
    r = run(asw, f"topology=file:{tp}", "routing=updn", "cycles=100")
    check(r.returncode == 0, f"updn on a torus passes: {r.stderr.strip()}")
    ring = write(d, "ring.topo", "".join(f"switch {s} 3\nnode {s} {s} 2\nlink {s} 0 {(s + 1) % 4} 1\n"
                                        for s in range(4)))
    cw = write(d, "ring.fwd", "".join(f"fwd {s} {t} {2 if s == t else 0}\n"
                                      for s in range(4) for t in range(4)))
    r = run(asw, f"topology=file:{ring}", f"routing=table:{cw}", "cycles=100")
    want = ("switch 0 in1.vc0 -> out0.vc0 -> switch 1 in1.vc0 -> out0.vc0 -> switch 2 in1.vc0 -> "
            "out0.vc0 -> switch 3 in1.vc0 -> out0.vc0 -> switch 0 in1.vc0")
    check(r.returncode == 2 and want in r.stderr, f"a clockwise ring table is refused naming its cycle: {r.stderr.strip()}")
    j = os.path.join(d, "ring.json")
    r = run(asw, f"topology=file:{ring}", f"routing=table:{cw}", "cdg_check=warn", "load=1",
            "buffer_flits=16", "packet_flits=8", "warmup=0", "cycles=20000", "watchdog=2000", "--json", j)
    res = json.load(open(j)) if os.path.exists(j) else {}
    hops = [(h["switch"], h["in"], h["out"]) for h in res.get("deadlock_cycle", [])]
    check(r.returncode == 3 and "warning: the routing may deadlock" in r.stderr and
          hops == [(s, 1, 0) for s in range(4)],
          f"run anyway, it deadlocks on the cycle the check named: exit {r.returncode}, {hops}")
    return summary("test_net_topofile")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
