#!/usr/bin/env python3
"""One source for the register map: rtl/regs.rdl (SystemRDL) against everything else.

  rdl_regs.py [--out DIR] [--pkg FILE ...] [--contract FILE]

Compiles rtl/regs.rdl (systemrdl-compiler), writes into DIR (build/rdl):
  asw_regs_rdl.h   C header (PeakRDL c-header: field masks, positions, resets, and a
                   struct whose member offsets are the byte addresses)
  regmap.md        the register table in the contract's form (word addresses)
  check_c.c        static assertions: struct offsets / 4 == cmodel/asw_regmap.h ASW_REG_*
and checks, printing PASS/FAIL lines and "rdl: N passed, N failed":
  - the contract's tables (docs/microarchitecture.md §11, §15.8, §17.2, §17.4, §17.8, §18.4): every row's address,
    strides and name are those of the description, and every register is in them;
  - the RTL: every `localparam logic [19:0] Reg* = 20'h...` of rtl/asw_pkg.sv and
    rtl/regs.sv (or the --pkg files) is the description's address, and every register
    of the description has one;
  - the C model: check_c.c compiles (gcc -fsyntax-only).
Legality rules of writes are not in the description (hand-written in rtl/regs.sv and
cmodel/regs.c).
"""
import argparse
import os
import re
import subprocess
import sys

from systemrdl import RDLCompiler
from systemrdl.node import RegNode

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# index names of the arrays, as the contract writes them
INDEX = {"ARN_UP": "w", "CSET": "cw", "SL2VC": "os", "COUNTER": "pk", "ARN_COUNTER": "pk",
         "ARN_ENTRY": "ew", "ROOT": "ow", "OCC": "ivq", "CRED": "ov", "FWD": "d",
         "BUBBLE": "o", "BUBBLE_COUNTER": "pk",
         "PFC_EN": "w", "PFC_COUNTER": "pk", "PFC_STATE": "p",
         "QCN_COUNTER": "pk", "QCN_QLEN": "p", "SAR_COUNTER": "pk", "SAR_ENTRY": "ew",
         "LINK_DOWN": "w", "LINK_RX_DOWN": "w", "LINK_COUNTER": "k", "PORT_GAP": "k"}
# RTL localparam -> (register, word offset inside it)
RTL_ALIAS = {"RegArnUp0": ("ARN_UP", 0), "RegArnUp1": ("ARN_UP", 1),
             "RegArnCntBase": ("ARN_COUNTER", 0),
             "RegPfcEn0": ("PFC_EN", 0), "RegPfcEn1": ("PFC_EN", 1),
             "RegPfcCntBase": ("PFC_COUNTER", 0),
             "RegLinkDown0": ("LINK_DOWN", 0), "RegLinkDown1": ("LINK_DOWN", 1),
             "RegLinkRxDown0": ("LINK_RX_DOWN", 0), "RegLinkRxDown1": ("LINK_RX_DOWN", 1),
             "RegPortGap0": ("PORT_GAP", 0)}


def regs_of(rdl):
    c = RDLCompiler()
    c.compile_file(rdl)
    top = c.elaborate().top
    out = []
    for node in top.children(unroll=False):
        if not isinstance(node, RegNode):
            continue
        dims = list(node.array_dimensions or [])
        stride_b = node.array_stride if dims else 0
        # row-major strides in words
        strides = []
        acc = stride_b // 4
        for d in reversed(dims):
            strides.insert(0, acc)
            acc *= d
        fields = [(f.inst_name, f.msb, f.lsb, f.get_property("reset"))
                  for f in node.fields()]
        out.append(dict(name=node.inst_name, word=node.raw_address_offset // 4, dims=dims,
                        strides=strides, fields=fields,
                        desc=node.get_property("desc") or "",
                        ro=not node.has_sw_writable))
    return out


def addr_expr(r):
    if not r["dims"]:
        return "0x%05X" % r["word"]
    terms = []
    for s, n in zip(r["strides"], INDEX[r["name"]]):
        terms.append(n if s == 1 else "%d%s" % (s, n))
    return "0x%05X + %s" % (r["word"], " + ".join(terms))


def write_markdown(regs, path):
    with open(path, "w") as f:
        f.write("<!-- generated from rtl/regs.rdl by sw/rdl_regs.py: do not edit -->\n")
        f.write("| address | name | fields | reset |\n|---|---|---|---|\n")
        for r in regs:
            name = r["name"] + "".join("[%s]" % n for n in INDEX.get(r["name"], "")[:len(r["dims"])])
            fields = ", ".join("`[%s]` %s" % ("%d:%d" % (m, l) if m != l else "%d" % l, n)
                               for n, m, l, _ in r["fields"])
            resets = ", ".join("%s = 0x%X" % (n, v) for n, _, _, v in r["fields"] if v is not None)
            f.write("| `%s` | `%s`%s | %s%s | %s |\n" % (
                addr_expr(r), name, " (RO)" if r["ro"] else "", fields,
                ("; " + r["desc"]) if r["desc"] else "", resets))


def contract_rows(path):
    """(address cell, name cell) of the register-table rows of §11, §15.8, §17.2 and §17.4."""
    rows = []
    sec = None
    for ln in open(path, encoding="utf-8"):
        m = re.match(r"^#+\s+([\d.]+)\s", ln)
        if m:
            sec = m.group(1)
        if sec in ("11.", "15.8", "17.2", "17.4", "17.8", "18.4") and ln.startswith("| `0x"):
            cells = [c.strip() for c in ln.strip().strip("|").split("|")]
            rows.append((sec, cells[0], cells[1]))
    return rows


def parse_addr(cell):
    """Base word address and {index letter: stride} of an address cell."""
    m = re.match(r"`0x([0-9A-Fa-f]+)(?:\s*\+\s*([^`]*))?`", cell)
    if not m:
        return None, None
    base = int(m.group(1), 16)
    strides = {}
    if m.group(2):
        for t in m.group(2).split("+"):
            t = t.strip()
            tm = re.match(r"^(\d*)([a-z])$", t)
            if not tm:
                return base, None
            strides[tm.group(2)] = int(tm.group(1) or 1)
    return base, strides


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "rdl"))
    ap.add_argument("--rdl", default=os.path.join(ROOT, "rtl", "regs.rdl"))
    ap.add_argument("--pkg", nargs="*", default=[os.path.join(ROOT, "rtl", "asw_pkg.sv"),
                                                 os.path.join(ROOT, "rtl", "regs.sv"),
                                                 os.path.join(ROOT, "rtl", "pfc.sv"),
                                                 os.path.join(ROOT, "rtl", "link_fault.sv"),
                                                 os.path.join(ROOT, "rtl", "qcn_cp.sv"),
                                                 os.path.join(ROOT, "rtl", "sar_table.sv"),
                                                 os.path.join(ROOT, "rtl", "route_hash.sv"),
                                                 os.path.join(ROOT, "rtl", "port_gap.sv")])
    ap.add_argument("--contract", default=os.path.join(ROOT, "docs", "microarchitecture.md"))
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    results = []

    def check(ok, what):
        results.append(ok)
        print("%s %s" % ("PASS" if ok else "FAIL", what))

    regs = regs_of(a.rdl)
    by_name = {r["name"]: r for r in regs}
    by_word = {r["word"]: r for r in regs}
    write_markdown(regs, os.path.join(a.out, "regmap.md"))
    hdr = os.path.join(a.out, "asw_regs_rdl.h")
    p = subprocess.run(["peakrdl", "c-header", a.rdl, "-o", hdr], capture_output=True, text=True)
    check(p.returncode == 0, "PeakRDL c-header writes %s" % os.path.relpath(hdr, ROOT)
          + ("" if p.returncode == 0 else ": " + p.stderr.strip()))

    # ---- contract ------------------------------------------------------------------
    seen = set()
    bad = []
    for sec, acell, ncell in contract_rows(a.contract):
        base, strides = parse_addr(acell)
        r = by_word.get(base)
        if ".." in acell and r is None:
            continue
        ident = re.match(r"`([A-Z][A-Z0-9_]*)", ncell)
        if r is None:
            bad.append("§%s row %s %s: no register at 0x%05X in the description"
                       % (sec, acell, ncell, base))
            continue
        seen.add(r["name"])
        if ".." in acell:       # a range row (`0x00020`..`0x00026`) points elsewhere
            continue
        if ident and ident.group(1) != r["name"]:
            bad.append("§%s %s: contract name %s, description %s" % (sec, acell, ident.group(1),
                                                                     r["name"]))
        want = dict(zip(INDEX.get(r["name"], ""), r["strides"]))
        if strides and strides != want and not (r["name"] == "ARN_UP" and not strides):
            bad.append("§%s %s %s: contract strides %s, description %s"
                       % (sec, acell, r["name"], strides, want))
        if ident and r["name"] == "ARN_UP":
            w = re.search(r"w(\d)", ncell)
            if w and base != r["word"]:
                seen.add("ARN_UP")
        # read-only marks
        if "(RO)" in ncell and not r["ro"]:
            bad.append("§%s %s: RO in the contract, writable in the description" % (sec, r["name"]))
    # ARN_UP w1 row (0x00022) is the array's second word
    for b in bad[:]:
        if "0x00022" in b and "no register" in b:
            bad.remove(b)
    missing = [r["name"] for r in regs if r["name"] not in seen]
    for b in bad:
        print("  " + b)
    check(not bad, "contract §11/§15.8 rows agree with the description (address, strides, "
          "name, RO)")
    check(not missing, "every register of the description is in the contract"
          + ("" if not missing else ": missing " + ", ".join(missing)))

    # ---- RTL -----------------------------------------------------------------------
    decl = {}
    for path in a.pkg:
        for m in re.finditer(r"localparam\s+logic\s*\[19:0\]\s*(Reg\w+)\s*=\s*20'h([0-9A-Fa-f_]+)",
                             open(path).read()):
            decl[m.group(1)] = (int(m.group(2).replace("_", ""), 16), os.path.relpath(path, ROOT))
    rtl_bad, covered = [], set()
    for lp, (word, where) in sorted(decl.items()):
        if lp in RTL_ALIAS:
            name, off = RTL_ALIAS[lp]
        else:
            base = re.sub(r"Base$", "", lp[3:])
            name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", base).upper()
            off = 0
        r = by_name.get(name)
        if r is None:
            rtl_bad.append("%s (%s): no register %s in the description" % (lp, where, name))
        elif r["word"] + off != word:
            rtl_bad.append("%s (%s) = 0x%05X, description %s = 0x%05X"
                           % (lp, where, word, name, r["word"] + off))
        else:
            covered.add(name)
    for b in rtl_bad:
        print("  " + b)
    check(bool(decl) and not rtl_bad, "RTL register addresses (%d localparams of %s) agree with "
          "the description" % (len(decl), ", ".join(os.path.relpath(x, ROOT) for x in a.pkg)))
    unc = [r["name"] for r in regs if r["name"] not in covered]
    check(not unc, "every register of the description has an RTL address"
          + ("" if not unc else ": none for " + ", ".join(unc)))

    # ---- C model -------------------------------------------------------------------
    lines = ['#include <stddef.h>', '#include "asw_switch.h"', '#include "asw_regs_rdl.h"',
             "/* generated by sw/rdl_regs.py: struct offsets of the description == the C "
             "model's addresses */"]
    for r in regs:
        if not r["dims"]:
            lines.append("_Static_assert(offsetof(asw_regs_t, %s) / 4 == ASW_REG_%s, \"%s\");"
                         % (r["name"], r["name"], r["name"]))
            continue
        for pick in ("first", "mid", "last"):
            idx = [0 if pick == "first" else (d - 1 if pick == "last" else d // 2)
                   for d in r["dims"]]
            sub = "".join("[%d]" % i for i in idx)
            lines.append("_Static_assert(offsetof(asw_regs_t, %s%s) / 4 == ASW_REG_%s(%s), "
                         "\"%s%s\");" % (r["name"], sub, r["name"],
                                         ", ".join(str(i) for i in idx), r["name"], sub))
    csrc = os.path.join(a.out, "check_c.c")
    with open(csrc, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = subprocess.run(["gcc", "-std=c11", "-fsyntax-only", "-Wall", "-Werror",
                        "-I" + os.path.join(ROOT, "cmodel"), "-I" + a.out, csrc],
                       capture_output=True, text=True)
    if p.returncode:
        print("\n".join("  " + x for x in p.stderr.splitlines()[:10]))
    check(p.returncode == 0, "C model addresses (cmodel/asw_regmap.h ASW_REG_*) agree with the "
          "description (%d static assertions)" % (len(lines) - 4))
    print("rdl: %d passed, %d failed" % (sum(results), len(results) - sum(results)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
