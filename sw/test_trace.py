#!/usr/bin/env python3
"""Tests of trace replay (`asw net traffic=trace:FILE`, `asw trace`, docs/traces.md).

usage: test_trace.py ASW [--plant]

Checks, on a 64-node 4-ary 3-tree:
  - dependencies: a chain of k dependent messages takes exactly k times one
    message's time on the idle network; without the dependencies less; a
    message with time T completes T cycles later than at time 0;
  - the three application patterns: every message and packet delivered once, in
    order, none lost or left in flight; the completion time is at least the
    simulator's lower bound, which is at least the pattern's own analytical bound;
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
    return iters * 6 * fl  # halo3d: 6 messages injected per iteration


def test_patterns(tmp):
    for p, size, iters in (("alltoall", 1024, 1), ("allreduce", 65536, 1), ("halo3d", 4096, 2)):
        path = os.path.join(tmp, f"{p}.txt")
        rc, so, se = run("trace", f"pattern={p}", f"nodes={N}", f"size={size}", f"iters={iters}",
                         f"out={path}")
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
        rc, so, se = run("trace", "pattern=allreduce", f"nodes={N}", "size=4608", "iters=2",
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
    run("trace", "pattern=halo3d", f"nodes={N}", "size=2048", "iters=3", f"out={path}")
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
        (["trace", "pattern=alltoall", "nodes=1", "size=8", "out=-"], 2, "nodes: bad value '1'"),
        (["trace", "pattern=alltoall", "nodes=8", "out=-"], 2, "pattern, nodes, size and out are needed"),
        (["trace", "pattern=alltoall", "nodes=300", "size=8", f"out={tmp}/x.tra", "format=netrace"], 1,
         "netrace holds at most 255 nodes"),
        (["trace", "pattern=alltoall", "nodes=8", "size=8", "out=-", "colour=red"], 2, "colour: unknown key"),
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
            test_record_replay(tmp)
            test_netrace(tmp)
            test_determinism(tmp)
            test_errors(tmp)
    print(f"trace{'-planted' if PLANT else ''}: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
