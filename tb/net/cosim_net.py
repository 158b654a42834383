#!/usr/bin/env python3
"""Multi-switch lockstep: a fat-tree of RTL switches (Verilator) against the same
network in the C model (tb/net/README.md). Called from mk/tbnet.mk.

  cosim_net.py cosim key=value ...   one network (the settings of `asw net`)
  cosim_net.py test                  the networks of `make test-cosim-net`

The switch parameters come from the network (netprobe); one Verilator build per
distinct parameter set, cached under build/cosim_net/rtl-<params>-<compiler>/."""
import glob
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tb"))
import cosim  # noqa: E402  (tb/cosim.py: RTL file list, run, newest)
# the RTL feature parameters in ASW_FEAT_* bit order (configs/switch_configs.py, via cosim)
FEATURE_PARAMS = cosim.switch_configs.FEATURE_PARAMS

BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"), "cosim_net")
# the network's switch parameters (netprobe); FEATURES: its contract §1 features built
# (ASW_FEAT_* bits; the network simulator builds them all), the RTL's BubbleEn ... below
PARAMS = ("P", "V", "BUF", "LMAX", "PW", "DW", "TABLE", "VOQ", "ITERS", "AE", "SE", "FEATURES")
JOBS = os.environ.get("COSIM_JOBS", "2")
CFLAGS = ["-std=c11", "-D_DEFAULT_SOURCE=", "-O2", "-Wall", "-Wextra", "-Werror",
          "-I" + os.path.join(ROOT, "cmodel"), "-I" + HERE]


# RTL_DIR=<dir>: build the copy of rtl/ in <dir> instead (e.g. a planted bug).
RTL_DIR = os.environ.get("RTL_DIR", "")


def rtl_files():
    """tb/cosim.py's list plus any other rtl/*.sv (the §15 blocks once wired)."""
    extra = sorted(f for f in glob.glob(os.path.join(ROOT, "rtl", "*.sv")) if f not in cosim.RTL)
    files = cosim.RTL[:-1] + extra + cosim.RTL[-1:]
    if RTL_DIR:
        files = [os.path.join(os.path.abspath(RTL_DIR), os.path.basename(f)) for f in files]
    return files


def c_sources():
    # net_mpi.c is the MPI transport, built only into build/asw-mpi (mpicc, -DASW_MPI).
    net = [f for f in sorted(glob.glob(os.path.join(ROOT, "cmodel", "net", "*.c")))
           if os.path.basename(f) != "net_mpi.c"]
    return (sorted(glob.glob(os.path.join(ROOT, "cmodel", "*.c"))) + net
            + [os.path.join(HERE, "netref.c")])


def c_headers():
    return (glob.glob(os.path.join(ROOT, "cmodel", "*.h"))
            + glob.glob(os.path.join(ROOT, "cmodel", "net", "*.h"))
            + [os.path.join(HERE, "netref.h")])


def libref():
    """C model + network + facade, gcc as C11, shared by every build."""
    d = os.path.join(BUILD, "ref")
    os.makedirs(d, exist_ok=True)
    lib = os.path.join(d, "libnetref.a")
    srcs = c_sources()
    if cosim.newest(srcs + c_headers() + [__file__]) <= cosim.newest([lib]):
        return lib
    objs = []
    for s in srcs:
        o = os.path.join(d, os.path.relpath(s, ROOT).replace(os.sep, "_")[:-2] + ".o")
        if cosim.run(["gcc"] + CFLAGS + ["-c", s, "-o", o]) != 0:
            sys.exit(f"cosim_net: gcc failed on {s}")
        objs.append(o)
    if os.path.exists(lib):
        os.remove(lib)
    if cosim.run(["ar", "rcs", lib] + objs) != 0:
        sys.exit("cosim_net: ar failed")
    return lib


def probe(settings):
    """The switch parameters of the network, or exit 2 with its own message."""
    lib = libref()
    exe = os.path.join(BUILD, "ref", "netprobe")
    src = os.path.join(HERE, "netprobe.c")
    if cosim.newest([src, lib]) > cosim.newest([exe]):
        if cosim.run(["gcc"] + CFLAGS + ["-o", exe, src, lib, "-lm", "-pthread"]) != 0:
            sys.exit("cosim_net: cannot build netprobe")
    r = subprocess.run([exe] + list(settings), stdout=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(r.returncode)
    return dict(zip(PARAMS, (int(x) for x in r.stdout.split())))


def tag(cfg):
    return "_".join(f"{k}{cfg[k]}" for k in PARAMS)


def build(cfg, traced=False):
    """Verilator model of one parameter set (asserts; FST tracing if traced) + the harness.
    Runs use the untraced model (faster); a failing run is repeated on the traced one."""
    lib = libref()
    kind = "fst" if traced else "rtl"
    kind += "-" + os.path.basename(os.path.abspath(RTL_DIR)) if RTL_DIR else ""
    d = os.path.join(BUILD, f"{kind}-{tag(cfg)}-{os.path.basename(cosim.CXX)}")
    exe = os.path.join(d, "obj", "cosim_net")
    main = os.path.join(HERE, "cosim_net.cpp")
    top = os.path.join(ROOT, "tb", "cosim_top.sv")  # the switch behind registered input pins
    deps = rtl_files() + [main, top, os.path.join(HERE, "netref.h"),
                          os.path.join(ROOT, "tb", "arn", "bits.h"),
                          os.path.join(ROOT, "tb", "clock_edge.h"), lib, __file__]
    if cosim.newest(deps) <= cosim.newest([exe]):
        return exe
    os.makedirs(d, exist_ok=True)
    defs = " ".join(f"-DASW_{k}={cfg[k]}" for k in PARAMS)
    cflags = f"-O2 {defs} -I{os.path.join(ROOT, 'cmodel')} -I{HERE}"
    cmd = ["verilator", "--cc", "--exe", "--build", "-j", JOBS, "-O3", "--x-assign", "fast",
           "--x-initial", "fast", "--top-module", "cosim_top", "--prefix", "Vasw_switch",
           "-Wno-fatal", "--assert"] + (["--trace-fst"] if traced else []) + ["-MAKEFLAGS",
           f"OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1 CXX={cosim.CXX} LINK={cosim.CXX}",
           "-CFLAGS", cflags, "-LDFLAGS", f"{lib} -lm", "-Mdir", os.path.join(d, "obj"),
           "-o", "cosim_net"]
    cmd += [f"-G{k}={cfg[k]}" for k in PARAMS if k != "FEATURES"]
    cmd += [f"-G{k}=1'b{cfg['FEATURES'] >> i & 1}" for i, k in enumerate(FEATURE_PARAMS)]
    cmd += rtl_files() + [top, main]
    if os.path.exists(exe):
        os.remove(exe)  # the library is not a make dependency: force the link
    print(f"cosim_net: building {tag(cfg)} ...", flush=True)
    t0 = time.time()
    if cosim.run(cmd, log=os.path.join(d, "build.log")) != 0:
        sys.exit(f"cosim_net: Verilator build failed, see {os.path.join(d, 'build.log')}")
    print(f"cosim_net: built in {time.time() - t0:.0f} s", flush=True)
    return exe


def run_net(settings, label, live=False):
    """live (make cosim-net): the configuration first, progress and messages on stderr."""
    cfg = probe(settings)
    if live:
        print(f"make cosim-net: NET=\"{' '.join(settings)}\" -> switch parameters {tag(cfg)}",
              flush=True)
    exe = build(cfg)
    fst_dir = os.path.join(BUILD, "fst")
    os.makedirs(fst_dir, exist_ok=True)
    cmd = [exe, "--label", label, "--fst", os.path.join(fst_dir, f"fail_{label}.fst")]
    cmd += ["--progress", cosim.progress_every()] if live else []
    err = None if live else subprocess.STDOUT
    r = subprocess.run(cmd + list(settings), stdout=subprocess.PIPE, stderr=err, text=True)
    if r.returncode != 0 and re.search(r"^MISMATCH", r.stdout, re.M):
        # the same run on the traced model: same failure, plus the waveform before it
        cmd[0] = build(cfg, traced=True)
        r = subprocess.run(cmd + list(settings), stdout=subprocess.PIPE, stderr=err, text=True)
    return r.returncode, r.stdout


def parse(out):
    """Figures of a run's output: cycles, flits, ARN counters ..."""
    f = {}
    m = re.search(r"^cycles (\d+) switches (\d+) .*\(idle (\d+)\) flits (\d+) credits (\d+) "
                  r"arn-msgs (\d+) .*\(([\d.]+) cycles/s\)", out, re.M)
    if m:
        f.update(cycles=int(m.group(1)), switches=int(m.group(2)), idle=int(m.group(3)),
                 flits=int(m.group(4)), credits=int(m.group(5)), arn_msgs=int(m.group(6)),
                 cps=float(m.group(7)))
    for line in re.findall(r"^(?:counters|arn|link|qcn) (.*)$", out, re.M):
        for k, v in re.findall(r"(\w+) (\d+)", line):
            f[k] = int(v)
    return f


def check_cmdline(given):
    """make cosim-net takes NET="<asw net settings>" (and make's own variables) only."""
    for name in given:
        if name == "NET" or name in cosim.MAKE_GLOBALS:
            continue
        if name in cosim.CMD_KNOBS["cosim"] or name in cosim.ALIASES or name.islower():
            cosim.fail("cosim-net", f"{name}: unknown key (make cosim-net takes the settings "
                                    f"of asw net in NET, e.g. NET=\"{name.lower()}=... stages=2 ...\")")
        cosim.fail("cosim-net", f"{name}: unknown key (make cosim-net takes NET=\"<asw net "
                                f"settings>\"; build/asw net --help lists them)")


def cmd_cosim(settings):
    if settings and settings[0].startswith("--cmdline="):
        check_cmdline(settings[0].split("=", 1)[1].split())
        settings = settings[1:]
    if not settings:
        cosim.fail("cosim-net", "NET is empty: give the network, e.g. NET=\"ports=4 stages=2 "
                                "traffic=hs25-1 cycles=20000\" (build/asw net --help)")
    for w in settings:
        if "=" not in w or w.startswith("-"):
            cosim.fail("cosim-net", f"NET: '{w}' is not a key=value setting of asw net")
    rc, out = run_net(settings, "cosim_net", live=True)
    print(out, end="")
    return rc


# The networks of `make test-cosim-net`: (label, settings, required), with required
# a list of (figure, minimum) the run must reach, so that it keeps exercising them.
# One switch parameter set for all (one Verilator build): P=4 (RLFT P=4 T=2 and the
# 2-ary 3-tree, both 8 nodes, TABLE=8), V=2, BUF=32, LMAX=8, ITERS=2, AE=4.
COMMON = "vcs=2 voq=1 buffer_flits=32 packet_flits=8 iters=2 arn_entries=4 warmup=0"
# Thresholds low enough for roots at up ports (with the defaults the 8-node networks
# only have the incast root at the hot node's leaf port, never consumed: README).
ARN = "hcdth_pct=50 lcdth_pct=25 fcth_pct=20 crt=64 arn_ttl=256"
ARN_EVENTS = [("arn_msgs", 1), ("roots", 1), ("sent", 1), ("received", 1), ("consumed", 1),
              ("expired", 1), ("adapted", 1), ("at_end_nodes", 1)]
# Tori and meshes (contract §16.4): one parameter set (P=5 V=2 BUF=16 LMAX=8 TABLE=16 AE=0);
# the torus exercises the §16.1 bubble rule (BUBBLE counters compared at the end).
CUBE = "vcs=2 buffer_flits=16 packet_flits=8 iters=2 arn_entries=0 warmup=0 cycles=10000"
TESTS = [
    ("torus44-dor-hs25", f"topology=torus dims=4x4 sqs=xordet traffic=hs25-1 load=0.6 {CUBE}",
     [("flits", 30000), ("credit_stalls", 1)]),
    ("mesh44-dirorder-transpose", f"topology=mesh dims=4x4 routing=direction-order sqs=iodet "
     f"traffic=transpose load=0.5 {CUBE}", [("flits", 30000), ("credit_stalls", 1)]),
    # §16.3 VC-adaptive routing (ROUTE_CTRL mode 3) in every RTL switch: fully adaptive
    # with escape VC 0 under transpose, OODET (any VC, fallback to the packet's VC) under
    # the hot spot; the adaptive choices and the bubble counters compared at the end
    ("torus44-fully-adaptive-transpose", f"topology=torus dims=4x4 routing=fully-adaptive "
     f"traffic=transpose load=0.8 {CUBE}", [("flits", 30000), ("adaptive", 1)]),
    ("torus44-oodet-hs25", f"topology=torus dims=4x4 sqs=oodet traffic=hs25-1 load=0.6 {CUBE}",
     [("flits", 30000), ("credit_stalls", 1)]),
    ("rlft42-dmodk-hs25", f"ports=4 stages=2 traffic=hs25-1 cycles=30000 {COMMON}",
     [("flits", 30000), ("credit_stalls", 1)]),
    ("rlft42-adaptive-uniform", f"ports=4 stages=2 routing=adaptive traffic=uniform load=0.8 "
     f"cycles=30000 {COMMON}", [("flits", 30000), ("adaptive", 1)]),
    ("kary23-oblivious-hs25", f"topology=kary k=2 n=3 routing=oblivious traffic=hs25-1 load=0.3 "
     f"cycles=30000 {COMMON}", [("flits", 30000), ("idle", 1000)]),
    ("rlft42-adapth-afi-hs25", f"ports=4 stages=2 routing=adap-th-s-k afi=1 traffic=hs25-1 "
     f"cycles=30000 {COMMON}", [("flits", 30000), ("adaptive", 1)]),
    # arn_up_nodes=1: incast ARNs consumed by the sources' leaves (seed 001 section 4.3)
    ("rlft42-arn-upnodes-hs25", f"ports=4 stages=2 traffic=hs25-1 arn=arn arn_up_nodes=1 {ARN} "
     f"cycles=30000 {COMMON}", ARN_EVENTS),
    ("rlft42-afi-hs25", f"ports=4 stages=2 traffic=hs25-1 arn=afi {ARN} cycles=30000 {COMMON}",
     ARN_EVENTS),
    # routing=arn-afi: ARN+AFI as seed 001's text reads (issue 27): arn_up_nodes=1 and the
    # ARN_CTRL options adapted_arn and alt_refresh in every RTL switch
    ("rlft42-arnafi-text-hs25", f"ports=4 stages=2 traffic=hs25-1 routing=arn-afi {ARN} "
     f"cycles=30000 {COMMON}", ARN_EVENTS),
    ("kary23-afi-hs25-2", f"topology=kary k=2 n=3 traffic=hs25-2 arn=afi {ARN} cycles=30000 "
     f"{COMMON}", ARN_EVENTS),
    # PFC links (contract §17): an incast onto a sink of 0.3 flit/cycle; the frames go
    # on the credit channel (counted as credits), so they are compared too
    ("rlft42-pfc-incast", f"ports=4 stages=2 flow_control=pfc traffic=hotspot hs_fraction=0.5 "
     f"hs_nodes=0 hs_sink_rate=0.3 load=0.6 cycles=30000 {COMMON}",
     [("flits", 30000), ("credits", 100)]),
    # Link faults (contract §18): the pins of both ends, padding, discards and the fabric
    # manager's FWD rewrites on the register buses during the run, all in lockstep; one
    # leaf up link down for 10 000 cycles, then random faults on every switch-to-switch link
    ("rlft42-linkfault-dmodk-fm", f"ports=4 stages=2 traffic=uniform load=0.6 "
     f"link_fault=0:2:5000:15000 fm_delay=300 cycles=30000 {COMMON}",
     [("flits", 30000), ("changes", 4), ("fm_writes", 1), ("flits_discarded", 1)]),
    ("rlft42-linkfault-rate-adaptive", f"ports=4 stages=2 routing=adaptive traffic=uniform "
     f"load=0.7 link_fault_rate=0.0002 link_down_cycles=300 fm_delay=200 cycles=30000 {COMMON}",
     [("flits", 30000), ("adaptive", 1), ("fm_writes", 1), ("flits_discarded", 1),
      ("packets_discarded", 1), ("packets_cut", 1), ("flits_padded", 1)]),
    # §17.4/§17.5 QCN: every switch a congestion point (QEQ 10 flits, a sample every 64
    # flits, FBSH 0 so q also saturates), the reaction points at the sources (rl=on);
    # every switch's CNM outputs compared with the C switch's, every cycle
    ("rlft42-qcn-rl-hs25", f"ports=4 stages=2 traffic=hs25-1 qcn=on rl=on qcn_qeq=640 "
     f"qcn_sample=4096 qcn_fb_shift=0 cycles=30000 {COMMON}",
     [("flits", 30000), ("cnms", 50), ("cnm_qsat", 1)]),
    # §17.8/§17.9 Switch AR: the CNMs of every switch's congestion point travel hop by hop on
    # the CNM lanes (cnm_path=lane), snooped into each RTL switch's 8-entry table, and steer
    # D-mod-k routes (SAR_CTRL.steer); every lane word compared with the C switch's
    ("rlft42-switch-ar-hs25", f"ports=4 stages=2 routing=switch-ar traffic=hs25-1 qcn=on rl=on "
     f"qcn_qeq=640 qcn_sample=4096 qcn_fb_shift=0 sar_entries=8 ar_timer_us=2 cycles=30000 "
     f"{COMMON}", [("flits", 30000), ("cnms", 50), ("lane", 50), ("adaptive", 1)]),
    # §17.6 ROUTE_HASH: seed 004's Hashed (flow hash, per-stage SHIFT) and S-mod-k (source
    # digit) programmed by the network into every RTL switch (the 2-ary 3-tree has two
    # stages with up ports, so two SHIFT/BITS values)
    ("kary23-hashed-uniform", f"topology=kary k=2 n=3 routing=hashed traffic=uniform load=0.6 "
     f"cycles=20000 {COMMON}", [("flits", 20000)]),
    ("kary23-smodk-hs25", f"topology=kary k=2 n=3 routing=smodk traffic=hs25-1 load=0.4 "
     f"cycles=20000 {COMMON}", [("flits", 20000)]),
    # §17.7 PORT_GAP: seed 004's slow root links (Figure 9: 10, 10, 50 and 25 % of a link on
    # the four roots' links towards nodes 4-7, and a slowed leaf link), programmed by the
    # network into the RTL switches; random routing over them under uniform traffic
    ("kary23-slow-roots", f"topology=kary k=2 n=3 routing=oblivious traffic=uniform load=0.5 "
     f"port_gap=8:1:9,9:1:9,10:1:1,11:1:3,0:2:2 cycles=20000 {COMMON}", [("flits", 10000)]),
]


def cmd_test():
    passed = failed = 0
    for label, settings, required in TESTS:
        t0 = time.time()
        rc, out = run_net(settings.split(), label)
        f = parse(out)
        missing = [f"{k} {f.get(k, 0)} < {n}" for k, n in required if f.get(k, 0) < n]
        ok = rc == 0 and "PASS" in out and not missing
        info = " ".join(f"{k} {f[k]}" for k in ("cycles", "switches", "idle", "flits", "arn_msgs",
                                                "adaptive", "roots", "sent", "received",
                                                "consumed", "expired", "adapted", "evicted",
                                                "cnms", "cnm_qsat")
                        if k in f)
        if "link_fault" in settings:
            info += " | link " + " ".join(f"{k} {f[k]}" for k in (
                "changes", "fm_writes", "flits_discarded", "packets_discarded", "packets_cut",
                "flits_padded") if k in f)
        print(f"{'PASS' if ok else 'FAIL'} {label}: {info} ({f.get('cps', 0):.0f} cycles/s, "
              f"{time.time() - t0:.1f} s)", flush=True)
        if not ok:
            for line in out.splitlines():
                if line.startswith(("MISMATCH", "waveform", "ERROR", "cosim_net:", "[")) \
                        or "Error" in line:
                    print("    " + line)
            if missing:
                print("    not exercised: " + ", ".join(missing))
        passed += ok
        failed += not ok
    # Bad settings: the network's own message (naming the key), exit status 2.
    r = subprocess.run([sys.executable, __file__, "cosim", "ports=4", "stages=2", "vcs=9"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ok = r.returncode == 2 and "vcs" in r.stdout
    print(f"{'PASS' if ok else 'FAIL'} bad settings rejected (exit {r.returncode}): "
          f"{r.stdout.strip()}")
    passed += ok
    failed += not ok
    print(f"cosim_net: {passed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv):
    if len(argv) >= 1 and argv[0] == "cosim":
        return cmd_cosim(argv[1:])
    if argv == ["test"]:
        return cmd_test()
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
