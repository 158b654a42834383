#!/usr/bin/env python3
"""check_includes.py — the C layering of the C model, bottom up, as include rules.

Layers (a file may include headers of its own layer and of the layers below):

  regmap   cmodel/asw_regmap.h: error codes, asw_config, header fields, register map
  block    cmodel/*.[ch], one block each (lfsr, input_buffer, islip, pfc, ...),
           internal to the library; never the public headers
  top      cmodel/asw_switch.c, asw_config.c, cmodel/asw_table.c: the library's API over the blocks
  public   cmodel/asw_switch.h, cmodel/asw_table.h (installed; only regmap below them)
  net      cmodel/net/: the network simulator; net_internal.h is its own
  app      cmodel/app/: the asw program

Test benches and tests see the public headers, the network's (not net_internal.h)
and their own directory's (tb/tb_stim.h only the stimulus's files, tb/tb_*.c); the C model's tests (cmodel/tests) the blocks they test
too, tb/arn (RTL blocks against their C twins) the blocks; an application header
only where OWNERS says the test is that module's test.

Usage: check_includes.py [--root DIR] [--plant]
  Prints each violation and "includes: N passed, N failed" (N files checked);
  exit 1 on a violation. --plant adds one violation (cmodel/pfc.h including the
  public asw_switch.h) to show that the check finds it: exit 0 only if it does.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SEARCH = ["cmodel", "cmodel/app", "cmodel/net", "cmodel/tests", "tb", "tb/net", "tb/arn"]
PUBLIC = {"cmodel/asw_switch.h", "cmodel/asw_table.h"}
TOP = {"cmodel/asw_switch.c", "cmodel/asw_config.c", "cmodel/asw_table.c"}
REGMAP = "cmodel/asw_regmap.h"
# Application headers a test may include: the test is that module's test.
OWNERS = {
    "cmodel/tests/test_system.c": {"cmodel/app/switch_study.h"},  # the study's system test
}
# Known exceptions (each a reason), reported as such, not failures.
EXCEPTIONS = {
    ("tb/board/sysref.c", "cmodel/lfsr.h"): "the board's traffic generators are the LFSR block's twins",
}
ORDER = {"regmap": 0, "block": 1, "top": 2, "public": 2, "net": 3, "app": 4}


def kind(path):
    """Layer of a project file (None: not a layered file)."""
    if path == REGMAP:
        return "regmap"
    if path in PUBLIC:
        return "public"
    if path in TOP:
        return "top"
    d = os.path.dirname(path)
    if d == "cmodel":
        return "block"
    if d == "cmodel/net":
        return "net"
    if d == "cmodel/app":
        return "app"
    return None


def bench(path):
    """Test benches and tests: the area they belong to (None: not one)."""
    for pre in ("cmodel/tests/", "cmodel/net/tests/", "cmodel/bench/", "cmodel/fuzz/",
                "cmodel/lib/", "dpi/", "tb/arn/", "tb/"):
        if path.startswith(pre):
            return pre.rstrip("/")
    return None


def resolve(root, src, name):
    here = os.path.normpath(os.path.join(os.path.dirname(src), name))
    if os.path.isfile(os.path.join(root, here)):
        return here
    for d in SEARCH:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None  # a generated or system header (Vasw_switch.h, verilated.h, svdpi.h)


def allowed(src, hdr):
    """None if src may include hdr, else the rule it breaks."""
    ks, kh = kind(src), kind(hdr)
    same_dir = os.path.dirname(src) == os.path.dirname(hdr)
    if hdr == "cmodel/net/net_internal.h" and os.path.dirname(src) != "cmodel/net":
        return "net_internal.h is the network simulator's own header"
    if hdr == "tb/tb_stim.h" and not re.fullmatch(r"tb/tb_\w+\.c", src):
        return "tb_stim.h is the stimulus's own header (the harnesses use tb_traffic.h)"
    if ks is not None:
        if ks == "public" and kh not in ("regmap", "public"):
            return "a public header includes only the register map and public headers"
        if ks in ("regmap", "block") and kh in ("public", "top"):
            return "a block includes asw_regmap.h, never the public header"
        if kh is not None and ORDER[kh] > ORDER[ks]:
            return f"a {ks} file includes a {kh} header (the layers go bottom up)"
        return None
    area = bench(src)
    if area is None:
        return None
    if kh in ("regmap", "public", None) or same_dir:
        return None
    if kh == "net":
        return None if not src.startswith("cmodel/tests/") else "the C model's tests do not use the network"
    if kh == "block" and area in ("cmodel/tests", "tb/arn"):
        return None  # the blocks' unit tests, the RTL blocks against their C twins
    if hdr in OWNERS.get(src, ()):
        return None
    if area.startswith("tb") and hdr.startswith("tb/"):
        return None  # the benches' shared helpers
    return f"a test bench or test includes {'an' if kh == 'app' else 'a'} {kh} header it does not own"


def files(root):
    for top in ("cmodel", "tb", "dpi"):
        for d, _, fs in os.walk(os.path.join(root, top)):
            for f in sorted(fs):
                if f.endswith((".c", ".h", ".cpp")):
                    yield os.path.relpath(os.path.join(d, f), root)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--plant", action="store_true", help="plant a violation; succeed if it is found")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    bad, checked, planted_found = 0, 0, False
    bad_files = set()
    for src in sorted(files(root)):
        text = open(os.path.join(root, src), encoding="utf-8", errors="replace").read()
        names = INCLUDE.findall(text)
        if a.plant and src == "cmodel/pfc.h":
            names.append("asw_switch.h")
        checked += 1
        for name in names:
            hdr = resolve(root, src, name)
            if hdr is None:
                continue
            why = allowed(src, hdr)
            if why is None:
                continue
            if (src, hdr) in EXCEPTIONS:
                print(f"note {src} includes {hdr}: allowed ({EXCEPTIONS[(src, hdr)]})")
                continue
            if a.plant and src == "cmodel/pfc.h" and hdr in PUBLIC:
                print(f"  expected on the planted violation: FAIL {src} includes {hdr}: {why}")
                planted_found = True
                continue
            print(f"FAIL {src} includes {hdr}: {why}")
            bad += 1
            bad_files.add(src)
    if a.plant:
        print(f"includes-planted: {int(planted_found)} passed, {int(not planted_found)} failed")
        return 0 if planted_found and not bad else 1
    print(f"includes: {checked - len(bad_files)} passed, {len(bad_files)} failed ({bad} includes)"
          if bad else f"includes: {checked} passed, 0 failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
