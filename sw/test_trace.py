#!/usr/bin/env python3
"""Tests of trace replay (`asw net traffic=trace:FILE`, `asw trace`, docs/traces.md).

usage: test_trace.py ASW [--plant]

Checks, on a 64-node 4-ary 3-tree:
  - dependencies: a chain of k dependent messages takes exactly k times one
    message's time on the idle network; without the dependencies less; a
    message with time T completes T cycles later than at time 0;
  - the five application patterns: every message and packet delivered once, in
    order, none lost or left in flight; the completion time is at least the
    simulator's lower bound, which is at least the pattern's own analytical bound;
  - ptrans and inception (seed 001 Fig. 8): message counts, bytes, the pairing of
    each round, the dependency structure, the compute delays, skip=;
  - compute delays (+DELAY): a dependent message with +D completes D cycles later;
  - trace_hs: an HS tree beside a replay (hot sources drawn outside the trace), the
    replay still complete and slower, its errors;
  - record and replay: the packets a synthetic run generated (--trace-out),
    replayed, give the same latencies, throughput, flit-hops and link loads;
  - netrace: a trace written as netrace (bzip2 or not) reads back to the same
    text, and replays to the same results;
  - determinism: the same run twice, and with 2 threads, gives the same bytes;
  - errors: bad traces and settings exit non-zero with a message naming the
    file and line (netrace: record) and the problem.
--plant: the ASW binary was built with the planted bug ASW_PLANT_TRACE_NODEPS
(dependencies ignored); the test then expects the dependency check to fail.
Prints "trace: N passed, N failed".
"""
import json
import math
import os
import subprocess
import sys
import tempfile

ASW = os.path.abspath(sys.argv[1])
PLANT = "--plant" in sys.argv
NET = ["topology=kary", "k=4", "n=3", "vcs=2", "buffer_flits=64", "packet_flits=16",
       "warmup=0", "cycles=200000"]
N = 64
LINK = 2  # link_latency default
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name}{': ' + detail if detail else ''}")


def run(*args):
    p = subprocess.run([ASW, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def net(tmp, trace, *extra, name="r"):
    out = os.path.join(tmp, name + ".json")
    rc, so, se = run("net", *NET, f"traffic=trace:{trace}", *extra, "--quiet", "--json", out)
    if rc:
        return None, se
    with open(out) as f:
        text = f.read()
    return json.loads(text), text


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def body(text):
    """The JSON text without the wall-clock line and the traffic key's file name."""
    lines = text.splitlines()[:-2]
    return "\n".join(l for l in lines if '"config"' not in l)


def test_dependencies(tmp):
    one = write(tmp, "one.txt", "nodes 64\n0 0 0 63 1024\n")
    r1, _ = net(tmp, one)
    c1 = r1["trace"]["completion_cycles"] if r1 else None
    k = 5
    chain = write(tmp, "chain.txt", "nodes 64\n0 0 0 63 1024\n" +
                  "".join(f"{i} 0 0 63 1024 {i - 1}\n" for i in range(1, k)))
    free = write(tmp, "free.txt", "nodes 64\n" + "".join(f"{i} 0 0 63 1024\n" for i in range(k)))
    late = write(tmp, "late.txt", "nodes 64\n0 1000 0 63 1024\n")
    rc, _ = net(tmp, chain)
    rf, _ = net(tmp, free)
    rl, _ = net(tmp, late)
    if not (r1 and rc and rf and rl):
        check("dependency chain runs", False)
        return
    cc, cf, cl = (x["trace"]["completion_cycles"] for x in (rc, rf, rl))
    check(f"dependent chain of {k} takes {k} x one message ({c1} cycles): {cc}", cc == k * c1,
          f"expected {k * c1}")
    check(f"the same {k} messages without dependencies pipeline: {cf} < {cc}", cf < cc)
    check(f"a message sent at time 1000 completes at 1000 + {c1}: {cl}", cl == 1000 + c1)
    lb = rc["trace"]["lower_bound_cycles"]
    check(f"chain completion {cc} >= its lower bound {lb}", cc >= lb)


def pattern_bound(p, size, iters):
    """The pattern's analytical completion bound on any network of these nodes."""
    fl = max(2, math.ceil(size / 64))
    if p == "alltoall":  # each node injects (N-1) messages
        return iters * (N - 1) * fl
    if p == "allreduce":  # 2(N-1) dependent steps, each at least a chunk over one switch
        ch = max(2, math.ceil(math.ceil(size / N) / 64))
        return iters * 2 * (N - 1) * (ch + 2 * LINK + 1)
    if p == "ptrans":  # node 0 is paired in every round k < N: a chain of iters exchanges
        return iters * (fl + 2 * LINK + 1)
    if p == "inception":  # INC_LAYERS allreduces an iteration, each after INC_COMPUTE cycles,
        # each a chain of log2(N) dependent exchanges (N = 64, a power of two)
        return iters * INC_LAYERS * (INC_COMPUTE + int(math.log2(N)) * (fl + 2 * LINK + 1))
    return iters * 6 * fl  # halo3d: 6 messages injected per iteration


INC_LAYERS, INC_COMPUTE = 3, 700


def test_patterns(tmp):
    for p, size, iters in (("alltoall", 1024, 1), ("allreduce", 65536, 1), ("halo3d", 4096, 2),
                           ("ptrans", 4096, 20), ("inception", 4096, 2)):
        path = os.path.join(tmp, f"{p}.txt")
        extra = [f"layers={INC_LAYERS}", f"compute={INC_COMPUTE}"] if p == "inception" else []
        rc, so, se = run("trace", f"pattern={p}", f"nodes={N}", f"size={size}", f"rounds={iters}",
                         *extra, f"out={path}")
        if rc:
            check(f"asw trace pattern={p}", False, se.strip())
            continue
        r, text = net(tmp, path, name=p)
        if not r:
            check(f"replay {p}", False, text.strip())
            continue
        t = r["trace"]
        ok = (t["messages_delivered"] == t["messages"] and t["packets_delivered"] == t["packets"]
              == r["packets_generated"] == r["packets_delivered"] and r["in_flight"] == 0
              and r["duplicates"] == 0 and t["errors"] == 0 and r["order_violations"] == 0
              and r["order_checked"])
        check(f"{p}: {t['messages']} messages, {t['packets']} packets delivered once, in order", ok,
              json.dumps(t))
        ab = pattern_bound(p, size, iters)
        check(f"{p}: completion {t['completion_cycles']} >= lower bound {t['lower_bound_cycles']} "
              f">= analytical {ab}", t["completion_cycles"] >= t["lower_bound_cycles"] >= ab)


def parse_trace(text):
    """(nodes, [(id, time, src, dst, bytes, deps, delay)]) of a text trace."""
    nodes, msgs = None, []
    for line in text.splitlines():
        line = line.split("#")[0].split()
        if not line:
            continue
        if line[0] == "nodes":
            nodes = int(line[1])
            continue
        deps, delay = [], 0
        rest = line[5:]
        if rest and rest[-1].startswith("+"):
            delay = int(rest.pop()[1:])
        if rest and rest[0] != "-":
            deps = [int(x) for x in rest[0].split(",")]
        msgs.append((int(line[0]), int(line[1]), int(line[2]), int(line[3]), int(line[4]), deps,
                     delay))
    return nodes, msgs


def gen(*keys):
    rc, so, se = run("trace", *keys, "out=-")
    return (parse_trace(so) if rc == 0 else (None, None)), se


def test_forms():
    """asw trace takes --key value and --key=value as key=value (the vocabulary's two forms)."""
    kv = run("trace", "pattern=ptrans", "nodes=8", "size=64", "rounds=2", "out=-")
    dash = run("trace", "--pattern", "ptrans", "--nodes=8", "--size", "64", "--rounds", "2", "--out", "-")
    check("asw trace --key value / --key=value: the same trace as key=value",
          kv[0] == 0 and kv == dash and kv[1].count("\n") > 8, f"{kv[0]} {dash[0]} {dash[2].strip()}")


def test_ptrans():
    for n, iters in ((7, 9), (8, 10)):
        (nodes, msgs), se = gen("pattern=ptrans", f"nodes={n}", "size=3000", f"rounds={iters}")
        if msgs is None:
            check(f"ptrans nodes={n}", False, se)
            continue
        # round k: i with (k - i) mod n, fixed points (2i = k mod n) sit out
        want, rounds, k_of = [], [], {}
        for k in range(1, iters + 1):
            pairs = [(i, (k - i) % n) for i in range(n) if (k - i) % n != i]
            rounds.append(pairs)
            want += pairs
        got = [(m[2], m[3]) for m in msgs]
        check(f"ptrans nodes={n} rounds={iters}: {len(want)} messages, each (i, (k-i) mod n) of its "
              f"round, in order", got == want, f"{got[:12]}")
        check(f"ptrans nodes={n}: every message 3000 bytes, time 0, ids 0, 1, ...",
              all(m[4] == 3000 and m[1] == 0 for m in msgs) and [m[0] for m in msgs] == list(range(len(msgs))))
        # dependencies: the node's own last message and the one it last received
        last_sent, last_recv, ok, ix = {}, {}, True, 0
        for pairs in rounds:
            cur = []
            for (i, p) in pairs:
                want_deps = sorted(d for d in (last_sent.get(i), last_recv.get(i)) if d is not None)
                ok &= sorted(msgs[ix][5]) == want_deps and msgs[ix][6] == 0
                cur.append((i, p, ix))
                ix += 1
            for (i, p, x) in cur:
                last_sent[i] = x
                last_recv[p] = x
        check(f"ptrans nodes={n}: each message waits for its source's last exchange (sent and "
              f"received), no other", ok)
    (nodes, msgs), se = gen("pattern=ptrans", "nodes=10", "size=64", "rounds=6", "skip=2,5")
    used = {m[2] for m in msgs or []} | {m[3] for m in msgs or []}
    check("ptrans nodes=10 skip=2,5: 'nodes 10', runs on the 8 other nodes in order",
          nodes == 10 and used == {0, 1, 3, 4, 6, 7, 8, 9} and msgs[0][2:4] == (0, 1), f"{used}")


def test_inception():
    for n, layers, iters, comp in ((6, 2, 2, 50), (13, 3, 2, 0), (8, 1, 3, 9)):
        (nodes, msgs), se = gen("pattern=inception", f"nodes={n}", "size=5000", f"layers={layers}",
                                f"rounds={iters}", f"compute={comp}")
        if msgs is None:
            check(f"inception nodes={n}", False, se)
            continue
        p2 = 1 << (n.bit_length() - 1)
        r, lg, a = n - p2, p2.bit_length() - 1, layers * iters
        per = 2 * r + p2 * lg
        check(f"inception nodes={n}: {a} allreduces x (2 x {r} fold/unfold + {p2} x {lg} doubling) "
              f"= {a * per} messages of 5000 bytes",
              len(msgs) == a * per and all(m[4] == 5000 for m in msgs), f"{len(msgs)}")
        active = [2 * x + 1 if x < r else x + r for x in range(p2)]
        ok, last, delayed = True, {}, 0
        for ar in range(a):
            base = ar * per
            ms = msgs[base:base + per]
            fold, steps, unfold = ms[:r], ms[r:r + p2 * lg], ms[r + p2 * lg:]
            ok &= [(m[2], m[3]) for m in fold] == [(2 * x, 2 * x + 1) for x in range(r)]
            ok &= [(m[2], m[3]) for m in unfold] == [(2 * x + 1, 2 * x) for x in range(r)]
            for j in range(lg):
                st = steps[j * p2:(j + 1) * p2]
                ok &= [(m[2], m[3]) for m in st] == [(active[x], active[x ^ (1 << j)]) for x in range(p2)]
            # every message waits for what its source received last (none: time = compute),
            # with the compute delay exactly on a rank's first message of the allreduce
            # (a phase's receipts count from the next phase on)
            first = set()
            for group in [fold] + [steps[j * p2:(j + 1) * p2] for j in range(lg)] + [unfold]:
                for m in group:
                    src = m[2]
                    want_deps = [last[src]] if src in last else []
                    is_first = src not in first and not (src % 2 and src < 2 * r)
                    first.add(src)
                    ok &= m[5] == want_deps
                    if want_deps:
                        ok &= m[6] == (comp if is_first else 0) and m[1] == 0
                    else:
                        ok &= m[1] == comp and m[6] == 0
                    delayed += bool(m[6])
                for m in group:
                    last[m[3]] = m[0]
        check(f"inception nodes={n}: fold, doubling steps (rank x with x ^ 2^j), unfold; each "
              f"message after its source's last receipt, +{comp} on a rank's first of an "
              f"allreduce", ok)
        check(f"inception nodes={n}: {(a - 1) * p2 if comp else 0} delayed messages "
              f"({p2} an allreduce after the first)", delayed == ((a - 1) * p2 if comp else 0),
              f"{delayed}")


def test_delay(tmp):
    one = write(tmp, "d_one.txt", "nodes 64\n0 0 0 63 1024\n")
    two = write(tmp, "d_two.txt", "nodes 64\n0 0 0 63 1024\n1 0 0 63 1024 0\n")
    late = write(tmp, "d_late.txt", "nodes 64\n0 0 0 63 1024\n1 0 0 63 1024 0 +500\n")
    r1, _ = net(tmp, one, name="d1")
    r2, _ = net(tmp, two, name="d2")
    rl, _ = net(tmp, late, name="dl")
    if not (r1 and r2 and rl):
        check("compute-delay traces run", False)
        return
    c1, c2, cl = (x["trace"]["completion_cycles"] for x in (r1, r2, rl))
    check(f"+500 on a dependent message: completes 500 cycles later ({c2} + 500 = {cl})",
          c2 == 2 * c1 and cl == c2 + 500)
    lb = rl["trace"]["lower_bound_cycles"]
    check(f"the lower bound counts the delay: {lb} >= 500 + 2 messages, <= {cl}",
          lb >= 500 + 2 * 16 and lb <= cl)
    # text round trip keeps the delays
    src = os.path.join(tmp, "inc.txt")
    run("trace", "pattern=inception", "nodes=12", "size=100", "layers=2", "compute=77", f"out={src}")
    rc, so, se = run("trace", f"in={src}", "out=-")
    check("a trace with +DELAY reads back to the same text", rc == 0 and so == open(src).read(), se)
    rc, so, se = run("trace", f"in={src}", f"out={tmp}/inc.tra", "format=netrace")
    check("netrace refuses compute delays (exit 1, names the message)",
          rc == 1 and "netrace has no compute delay (message" in se, se.strip())


def test_trace_hs(tmp):
    hot, srcs = 32, [3, 17, 40, 45, 50, 60]  # 0.1 x 64 = 6 hot sources outside the trace
    skip = ",".join(map(str, sorted([hot] + srcs)))
    path = os.path.join(tmp, "hs_ptrans.txt")
    rc, so, se = run("trace", "pattern=ptrans", "nodes=64", "size=4096", "rounds=40", f"skip={skip}",
                     f"out={path}")
    if rc:
        check("trace_hs: trace written", False, se)
        return
    alone, _ = net(tmp, path, name="hs_alone")
    tree, text = net(tmp, path, "trace_hs=0.1", "hs_count=1", f"hs_nodes={hot}", "hs_start=500",
                     "hs_end=20000", "load=1", name="hs_tree")
    if not (alone and tree):
        check("trace_hs runs", False, text)
        return
    t = tree["trace"]
    check(f"trace_hs=0.1: the replay completes ({t['messages_delivered']} of {t['messages']} "
          f"messages, {t['packets_delivered']} of {t['packets']} packets, 0 errors)",
          t["messages_delivered"] == t["messages"] and t["packets_delivered"] == t["packets"]
          and t["errors"] == 0, json.dumps(t))
    check(f"trace_hs=0.1: hot packets delivered beside it (accepted_hot {tree['accepted_hot']:.3f} "
          f"> 0, {tree['packets_generated']} packets generated > {t['packets']} of the trace)",
          tree["accepted_hot"] > 0 and tree["packets_generated"] > t["packets"])
    ca, ct = alone["trace"]["completion_cycles"], t["completion_cycles"]
    check(f"the HS tree slows the replay: {ct} > {ca} cycles", ct > ca)
    again, _ = net(tmp, path, "trace_hs=0.1", "hs_count=1", f"hs_nodes={hot}", "hs_start=500",
                   "hs_end=20000", "load=1", name="hs_tree2")
    check("trace_hs: the same run twice, the same completion",
          again and again["trace"]["completion_cycles"] == ct)
    full = os.path.join(tmp, "hs_full.txt")
    run("trace", "pattern=ptrans", "nodes=64", "size=64", "rounds=2", f"out={full}")
    for args, want in (
            ([f"traffic=trace:{full}", "trace_hs=0.1"],
             "trace_hs: 0.1 of 64 nodes is 6 hot sources, but 0 nodes are outside the trace"),
            (["traffic=hs10-1", "trace_hs=0.1"], "trace_hs: only with traffic=trace:FILE")):
        rc, so, se = run("net", *NET, *args, "--quiet")
        check(f"asw net {' '.join(args)[-30:]} -> exit 2, '{want[:50]}'", rc == 2 and want in se,
              f"rc {rc}: {se.strip()}")


def test_record_replay(tmp):
    args = ["topology=kary", "k=4", "n=3", "vcs=2", "buffer_flits=64", "packet_flits=16",
            "warmup=1000", "cycles=4000", "drain=1", "load=0.7", "routing=adaptive"]
    rec = os.path.join(tmp, "rec.txt.bz2")
    sj, rj = os.path.join(tmp, "syn.json"), os.path.join(tmp, "rep.json")
    a = run("net", *args, "--trace-out", rec, "--quiet", "--json", sj)
    b = run("net", *args, f"traffic=trace:{rec}", "--quiet", "--json", rj)
    if a[0] or b[0]:
        check("record and replay run", False, a[2] + b[2])
        return
    s, r = json.load(open(sj)), json.load(open(rj))
    keys = ["accepted_throughput", "admitted_load", "latency_mean", "latency_p99", "latency_e2e_mean",
            "latency_e2e_p99", "packets_generated", "packets_delivered", "packets_measured",
            "flit_hops", "adaptive_decisions", "credit_stalls", "cycles_run", "link_utilization"]
    diff = [k for k in keys if s[k] != r[k]]
    check(f"replay of a recorded synthetic run ({s['packets_generated']} packets, adaptive routing) "
          f"equals it in {len(keys)} results", not diff, f"differ: {diff}")


def test_netrace(tmp):
    txt, nt, ntz = (os.path.join(tmp, x) for x in ("ar.txt", "ar.tra", "ar.tra.bz2"))
    for out, fmt in ((txt, "text"), (nt, "netrace"), (ntz, "netrace")):
        rc, so, se = run("trace", "pattern=allreduce", f"nodes={N}", "size=4608", "rounds=2",
                         f"out={out}", f"format={fmt}")
        if rc:
            check(f"asw trace format={fmt}", False, se)
            return
    with open(ntz, "rb") as f:
        check("netrace .bz2 is bzip2-compressed", f.read(3) == b"BZh")
    with open(nt, "rb") as f:
        check("netrace header: magic 0x484A5455, version 1.0, 64 nodes",
              f.read(8) == bytes.fromhex("55544a480000803f") and f.read(31)[30] == 64)
    ref = open(txt).read()
    for src in (nt, ntz):
        back = os.path.join(tmp, "back.txt")
        rc, so, se = run("trace", f"in={src}", f"out={back}")
        check(f"{os.path.basename(src)} reads back to the same text trace",
              rc == 0 and open(back).read() == ref, se.strip())
    rt, tt = net(tmp, txt, name="t")
    rn, tn = net(tmp, ntz, name="n")
    check("netrace and text replays give the same results", rt and rn and body(tt) == body(tn))


def test_determinism(tmp):
    path = os.path.join(tmp, "halo.txt")
    run("trace", "pattern=halo3d", f"nodes={N}", "size=2048", "rounds=3", f"out={path}")
    r1, t1 = net(tmp, path, "routing=adaptive", name="d1")
    r2, t2 = net(tmp, path, "routing=adaptive", name="d2")
    r3, t3 = net(tmp, path, "routing=adaptive", "threads=2", name="d3")
    ok = r1 and r2 and r3
    check("same replay twice: same bytes", ok and t1.splitlines()[:-2] == t2.splitlines()[:-2])
    check("replay with threads=2: same bytes", ok and t1.splitlines()[:-2] == t3.splitlines()[:-2])


def test_errors(tmp):
    text_cases = [
        ("0 0 0 1\n", ":1: expected ID TIME SRC DST BYTES [DEP,DEP,...]: size missing"),
        ("0 0 0 1 64\n1 0 1 0 x\n", ":2: size: not a number"),
        ("0 0 0 1 64\n0 0 1 0 64\n", ":2: id 0 does not follow 0"),
        ("0 0 0 1 64 5\n", ":1: dependency 5 is not the id of an earlier message"),
        ("# c\n\n0 0 3 3 64\n", ":3: source and destination are both node 3"),
        ("0 0 0 1 0\n", ":1: size 0 bytes is not in 1.."),
        ("0 0 0 1 64 0\n", ":1: dependency 0 is not the id of an earlier message"),
        ("nodes 8\n0 0 0 9 64\n", ":2: node 9 is not below nodes = 8"),
        ("0 0 0 1 64\nnodes 8\n", ":2: 'nodes' must come before the messages"),
        ("0 0 0 1 64\n1 0 1 0 64 0,0\n", ":2: dependency 0 listed twice"),
        ("0 0 0 70 64\n", ":1: node 70, but the network has 64 nodes"),
        ("nodes 128\n0 0 0 1 64\n", "is for 128 nodes, the network has 64"),
        ("# nothing\n", ": no messages"),
        ("0 0 0 1 64 - +5\n", ":1: delay +5: a message without dependencies has none"),
        ("0 0 0 1 64\n1 0 1 0 64 +5\n", ":2: delay: +CYCLES follows the dependencies (or '-')"),
        ("0 0 0 1 64\n1 0 1 0 64 0 +x\n", ":2: delay: expected +CYCLES"),
        ("0 0 0 1 64\n1 0 1 0 64 0 7\n", ":2: dependencies: expected ids separated by commas"),
    ]
    for i, (content, want) in enumerate(text_cases):
        path = write(tmp, f"bad{i}.txt", content)
        rc, so, se = run("net", *NET, f"traffic=trace:{path}", "--quiet")
        check(f"bad trace -> exit 2, '{path.split('/')[-1]}{want}'", rc == 2 and want in se and
              path in se, f"rc {rc}: {se.strip()}")
    # netrace: corrupt a good file
    good = os.path.join(tmp, "g.tra")
    run("trace", "pattern=allreduce", "nodes=4", "size=288", f"out={good}", "format=netrace")
    data = bytearray(open(good, "rb").read())
    rec1 = 72  # first record
    cases = []
    d = bytearray(data); d[4:8] = bytes.fromhex("00000040"); cases.append((d, "version 2, only 1.0"))
    d = bytearray(data[:-3]); cases.append((d, "file ends inside"))
    d = bytearray(data); d[48] += 1; cases.append((d, "the file holds"))
    d = bytearray(data); d[rec1 + 16] = 7; cases.append((d, "netrace record 1: packet type 7 is not a valid command"))
    d = bytearray(data); d[rec1 + 17] = d[rec1 + 18]; cases.append((d, "netrace record 1: source and destination are both"))
    for i, (content, want) in enumerate(cases):
        path = os.path.join(tmp, f"badnt{i}.tra")
        open(path, "wb").write(content)
        rc, so, se = run("trace", f"in={path}")
        check(f"bad netrace -> exit 2, '{want}'", rc == 2 and want in se and path in se, f"rc {rc}: {se.strip()}")
    # netrace: a dependent packet that comes first
    two = write(tmp, "two.txt", "nodes 4\n0 0 0 1 72\n1 0 1 2 72 0\n")
    tnt = os.path.join(tmp, "two.tra")
    run("trace", f"in={two}", f"out={tnt}", "format=netrace")
    d = bytearray(open(tnt, "rb").read())
    r0, r1 = d[72:72 + 25], d[72 + 25:72 + 46]  # record 0 names 1 dependent (4 bytes)
    open(tnt, "wb").write(bytes(d[:72]) + bytes(r1) + bytes(r0))
    rc, so, se = run("trace", f"in={tnt}")
    check("netrace: a dependent before its dependency -> error naming the record",
          rc == 2 and "record 2: dependent packet 1 comes before it (record 1)" in se, se.strip())
    other = [
        (["net", *NET, "traffic=trace:"], 2, "trace:FILE needs a file name"),
        (["net", *NET, f"traffic=trace:{tmp}/missing.txt"], 2, "missing.txt: cannot open"),
        (["net", *NET, "traffic=trace:a#b"], 2, "must not hold #"),
        (["net", *NET, f"traffic=trace:{tmp}/one.txt", "ranks=2"], 2, "trace replay runs in one process"),
        (["net", *NET[:-1], "cycles=50", f"traffic=trace:{tmp}/chain.txt"], 1,
         "the trace did not complete: 0 of 5 messages delivered after 50 cycles"),
        (["trace", "pattern=ring", "nodes=8", "size=8", "out=-"], 2, "pattern: 'ring' is not one of"),
        (["trace", "pattern=halo3d", "nodes=64", "size=8", "dims=4x4x3", "out=-"], 2,
         "dims: 4x4x3 is not 64 nodes"),
        (["trace", "pattern=halo3d", "nodes=8", "size=8", "out=-"], 2, "each dimension needs 3"),
        (["trace", "pattern=alltoall", "nodes=1", "size=8", "out=-"], 2, "nodes: '1' is not an integer in 2..65536"),
        (["trace", "pattern=alltoall", "nodes=8", "out=-"], 2, "pattern, nodes, size and out are needed"),
        (["trace", "pattern=alltoall", "nodes=300", "size=8", f"out={tmp}/x.tra", "format=netrace"], 1,
         "netrace holds at most 255 nodes"),
        (["trace", "pattern=alltoall", "nodes=8", "size=8", "out=-", "colour=red"], 2, "asw trace: colour: unknown key (see asw trace --help)"),
        (["trace", "pattern=ptrans", "nodes=8", "size=8", "skip=9", "out=-"], 2,
         "skip: node 9 is not below nodes = 8"),
        (["trace", "pattern=ptrans", "nodes=8", "size=8", "skip=1,1", "out=-"], 2, "skip: node 1 listed twice"),
        (["trace", "pattern=ptrans", "nodes=8", "size=8", "skip=1,", "out=-"], 2, "skip: '1,' is not node ids"),
        (["trace", "pattern=ptrans", "nodes=3", "size=8", "skip=0,1", "out=-"], 2, "leaves fewer than 2"),
        (["trace", "pattern=ptrans", "nodes=8", "size=8", "compute=5", "out=-"], 2,
         "compute: only with pattern=inception"),
        (["trace", "pattern=inception", "nodes=8", "size=8", "layers=0", "out=-"], 2, "layers: '0' is not an integer in 1..100000"),
        # one name, one meaning (docs/options.md): iters is the iSLIP iterations elsewhere
        (["trace", "pattern=ptrans", "nodes=8", "size=8", "iters=2", "out=-"], 2,
         "iters: renamed to rounds"),
        (["trace", "--pattern", "ptrans", "--nodes", "8", "--size=8", "--rounds", "0", "--out", "-"], 2,
         "asw trace: --rounds: '0' is not an integer in 1..1000000"),
    ]
    bz = os.path.join(tmp, "broken.bz2")
    open(bz, "wb").write(b"BZh91AY&SY" + b"\x00" * 40)
    other.append((["trace", f"in={bz}"], 2, "bzip2 could not decompress it"))
    for args, want_rc, want in other:
        rc, so, se = run(*args)
        check(f"asw {args[0]} {args[-1][:40]} -> exit {want_rc}, '{want}'", rc == want_rc and want in se,
              f"rc {rc}: {se.strip()}")


def main():
    with tempfile.TemporaryDirectory(prefix="asw-trace-") as tmp:
        if PLANT:
            test_dependencies(tmp)
        else:
            test_dependencies(tmp)
            test_patterns(tmp)
            test_forms()
            test_ptrans()
            test_inception()
            test_delay(tmp)
            test_trace_hs(tmp)
            test_record_replay(tmp)
            test_netrace(tmp)
            test_determinism(tmp)
            test_errors(tmp)
    print(f"trace{'-planted' if PLANT else ''}: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
