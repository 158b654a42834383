#!/usr/bin/env python3
"""One vocabulary: the concepts that `make cosim`, `asw switch`, `asw net` (and `asw sweep`,
the binding's `Network`, which take its keys), the binding's `Switch` and the DPI checker
share, each with one name (asw's), its unit, its meaning and its spelling in every front
end, and the exceptions where a front end lacks it or spells it otherwise.

Read by tb/cosim.py (the asw names `make cosim` accepts, `make cosim-help`) and checked
against mk/tb.mk's COSIM_ALIASES; docs/options.md is generated from it, with the defaults
asked from the tools themselves (tb/cosim.py's parser, `asw switch --help`,
`asw net --print-config`, the binding's default_config(), the DPI checker's parameters),
so the page cannot drift from them:

  options.py --markdown ASW          the page on stdout (make options-doc writes it)
  options.py --check ASW             exit 1 if docs/options.md differs from the page
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, values/unit, meaning, make cosim variable, asw switch option, asw net key,
#  exception: where a front end differs ("" if none),
#  defaults: why the front ends' defaults differ ("" if they agree)). An empty spelling:
# the front end has no such knob. A name has one unit and one meaning everywhere; where a
# front end needs another unit it has another name (hcdth flits, hcdth_pct percent), and
# the old spelling is refused with "renamed to" (RENAMED).
NET_STUDY = "asw net: seed 000's 432-node RLFT (the default study)"
NO_DRAIN = "make cosim has no drain: its stimulus ends with the run and it compares every cycle"
COSIM_SMALL = "make cosim: a small RTL model that builds in a minute and fills its buffers"
CONCEPTS = [
    ("ports", "2..64", "switch ports P", "P", "--ports", "ports",
     "asw net: the RLFT's switch ports (other topologies derive P)",
     f"{COSIM_SMALL}; asw switch: the 16-port single-switch study; {NET_STUDY}, 12-port switches"),
    ("vcs", "1..8", "virtual channels per port V", "V", "--vcs", "vcs", "",
     "make cosim: 2, so the VC paths are compared; asw switch, asw net: 1 (1Q)"),
    ("voq", "on, off, 1, 0", "virtual output queues at the inputs", "VOQ", "--voq", "voq", "",
     f"make cosim, asw switch: on (the switch's own queuing); {NET_STUDY} queues by the "
     "queuing scheme (sqs), without VOQs"),
    ("iters", "1..4", "iSLIP iterations", "ITERS", "--iters", "iters", "",
     f"{NET_STUDY} allocates with 3 iterations"),
    ("sa_pipe", "on, off, 1, 0", "pipelined switch allocation (contract §8.1; iters 1)",
     "SAPIPE", "--sa-pipe", "sa_pipe", "asw net: needs iters=1 (its default is 3)", ""),
    ("buffer_flits", "flits", "buffer per input VC (BUF)", "BUF", "--buffer-flits",
     "buffer_flits", "",
     f"{COSIM_SMALL}; asw switch: 64; {NET_STUDY}, 192 KB per port (3 072 flits of 64 B)"),
    ("max_packet", "flits, 1..255", "longest packet (LMAX)", "PKT", "--max-packet", "",
     "make cosim draws packet lengths 1..max_packet; asw net's packets all have packet_flits "
     "flits (LMAX = packet_flits)", "make cosim: 8, lengths 1..8 fit its 8-flit buffers; "
     "asw switch: 16 (or packet_flits if longer)"),
    ("packet_flits", "flits", "length of every packet", "", "--packet-flits", "packet_flits",
     "make cosim has no fixed length (lengths are drawn 1..max_packet)",
     f"asw switch: 1-flit packets (the single-switch study); {NET_STUDY}, 4 KB packets "
     "(64 flits)"),
    ("arn_entries", "0..32", "ARN-table entries per switch (AE; 0: no ARN hardware)", "AE", "",
     "arn_entries", "make cosim: 4 when arn is on, else 0; asw switch: the C model's default",
     "make cosim: no ARN hardware unless arn is on (the RTL's AE=0 builds none); asw net: 8"),
    ("features", "all, none or feature names", "optional hardware built (contract §1)",
     "FEATURES", "", "", "asw switch: one on|off option per feature (--bubble, --pfc, --qcn, "
     "--route-hash, --link-faults, --port-rate, --vc-adaptive, --oblivious, --adaptive, "
     "--counters, --readback; the study adds the --routing mode, counters and readback); "
     "make cosim: a run option adds what it needs; asw net: its switches build every feature; "
     "Python Switch, DPI checker: one field or parameter per feature (bubble, pfc, ...; "
     "BubbleEn, PfcEn, ...)", ""),
    ("routing", "det, oblivious, adaptive, ...", "routing mode", "ROUTING", "--routing",
     "routing", "make cosim also: obl, ada, th, 2th (adaptive with that trigger); asw net: "
     "dmodk (= det) and the network's other modes", ""),
    ("trigger", "noth, th, 2th", "trigger of adaptive routing (seed 000's thresholds)",
     "TRIGGER", "--trigger", "trigger", "make cosim: trigger=th is ROUTING=th", ""),
    ("arn", "off, arn, afi", "ARN mechanism (contract §15)", "ARN", "--arn", "arn",
     "make cosim also: adaptive-th-afi (asw net: routing=adaptive-th with afi=1)", ""),
    # the §15 thresholds: flits (hcdth) and, in asw net, percent of the buffer (hcdth_pct)
    *(row for name, what, low, pct in (
        ("hcdth", "high congestion-detection threshold (§15)", 1, 81),
        ("lcdth", "low congestion-detection threshold (§15)", 1, 63),
        ("fcth", "free-credit threshold of a root (§15)", 0, 78))
      for row in (
        (name, "flits", what, name.upper(), f"--{name}", "", f"asw net: {name}_pct",
         f"{pct} % of BUF wherever it is not given"),
        (f"{name}_pct", f"percent, {low}..100", f"{name} as percent of buffer_flits (rounded "
         f"down to flits{', at least 1' if low else ''})", "", "", f"{name}_pct",
         f"make cosim, asw switch: {name} in flits", ""))),
    ("crt", "cycles", "congestion root timer (§15)", "CRT", "--crt", "crt", "", ""),
    ("arn_ttl", "cycles", "ARN-table entry lifetime (§15)", "TTL", "--arn-ttl", "arn_ttl", "", ""),
    ("bubble", "on, off", "the §16.1 bubble rule", "BUBBLE", "", "bubble",
     "asw net also: auto (on for tori)", "asw net: auto (on for tori and meshes)"),
    ("qcn", "on, off", "the §17.4 QCN congestion points", "QCN", "", "qcn", "", ""),
    ("seed", "0..2^64-1", "random seed", "SEED", "--seed", "seed", "", ""),
    ("cycles", "cycles", "cycles measured, after the warm-up (the run is warmup + cycles)",
     "CYCLES", "--cycles", "cycles", "make cosim has no warm-up: it compares every cycle",
     "the DPI example (tb_dpi.sv +cycles): 4000, a short demonstration"),
    ("warmup", "cycles", "cycles before measuring", "", "--warmup", "warmup",
     "make cosim measures nothing (it compares every cycle)",
     "asw net: 0 with traffic=trace (a replay has no warm-up)"),
    ("load", "0..1", "offered load, flits per node (input) per cycle", "", "--load", "load",
     "make cosim's stimulus is SCEN (random, hotspot, full, ...)",
     f"asw switch: 0.5, a loaded switch short of saturation; {NET_STUDY} at full load"),
    ("drain", "on, off, 1, 0", "after the run stop generating and run on until every packet "
     "is delivered (the switch or network is then checked empty)", "", "--drain", "drain",
     NO_DRAIN, ""),
    ("drain_limit", "cycles", "at most this many cycles of draining", "", "--drain-limit",
     "drain_limit", NO_DRAIN, ""),
]

# The binding's Switch (Switch(name=...): asw_config's fields, buffer_flits for the C field
# buf_flits, whose keyword is refused) and the DPI checker (dpi/asw_dpi_checker.sv: the RTL's parameters; +cycles and
# +seed are the plusargs of its example testbench dpi/tb_dpi.sv). Both have one field or
# parameter per contract §1 feature (bubble, pfc, ...; BubbleEn, PfcEn, ...).
PY_SWITCH = {n: n for n in ("ports", "vcs", "voq", "iters", "sa_pipe", "buffer_flits",
                            "max_packet", "arn_entries", "bubble", "qcn")}
DPI = {"ports": "P", "vcs": "V", "voq": "VOQ", "iters": "ITERS", "sa_pipe": "SAPIPE",
       "buffer_flits": "BUF", "max_packet": "LMAX", "arn_entries": "AE", "bubble": "BubbleEn",
       "qcn": "QcnEn", "seed": "+seed", "cycles": "+cycles"}
# Why the Switch's and the DPI checker's defaults are what they are, where they differ
HARDWARE_DEFAULTS = ("the binding's Switch has the C model's defaults (asw_config_default) and "
                     "the DPI checker the RTL's (asw_switch.sv): a testbench gives the DUT's "
                     "parameters, so both match the hardware's defaults, not a study's; the RTL "
                     "builds no ARN table unless asked (AE 0), the C model 8 entries")

# Old spellings refused with "renamed to" the one name: (front end, old, new).
RENAMED = [("asw switch", "--drain N", "--drain-limit N (--drain is on|off)"),
           ("Python Switch", "buf_flits=", "buffer_flits="),
           ("asw trace", "iters", "rounds (repetitions of the pattern)"),
           ("asw net", "hcdth", "hcdth_pct"), ("asw net", "lcdth", "lcdth_pct"),
           ("asw net", "fcth", "fcth_pct")]


def cosim_defaults():
    sys.path.insert(0, os.path.join(ROOT, "tb"))
    import cosim
    ns = cosim.parser().parse_args(["cosim"])
    out = {}
    for _, _, _, var, *_ in CONCEPTS:
        if var:
            v = getattr(ns, var, None)
            out[var] = "-" if v is None else str(v)
    out["AE"] = "0 (4 with arn on)"
    out["ROUTING"] = "det"
    out["ARN"] = "off"
    return out


def switch_defaults(asw):
    text = subprocess.run([asw, "switch", "--help"], capture_output=True, text=True).stdout
    out = {}
    # each option's text runs to the next option; its default is the last [...] in it
    for m in re.finditer(r"^  (--[\w-]+)(.*?)(?=^  --|\Z)", text, re.M | re.S):
        d = re.findall(r"\[([^\]]*)\]", m.group(2))
        if d:
            out[m.group(1)] = d[-1]
    return out


def net_defaults(asw):
    text = subprocess.run([asw, "net", "--print-config"], capture_output=True, text=True).stdout
    return dict(ln.split(" = ", 1) for ln in text.splitlines() if " = " in ln)


def py_defaults():
    """Switch's defaults by vocabulary name (None: the library is not built)."""
    sys.path.insert(0, os.path.join(ROOT, "sw"))
    import arnswitch
    d = arnswitch.default_config()
    return {n: d[arnswitch.VOCABULARY_FIELDS.get(n, n)] for n in PY_SWITCH}


def dpi_defaults():
    """The DPI checker's parameter defaults, and tb_dpi.sv's plusargs'."""
    sv = open(os.path.join(ROOT, "dpi", "asw_dpi_checker.sv")).read()
    out = {m.group(1): str(int(m.group(2).replace("1'b", ""), 0)) for m in re.finditer(
        r"parameter (?:int unsigned|bit) (\w+) = ([\w']+)", sv)}
    tb = open(os.path.join(ROOT, "dpi", "tb_dpi.sv")).read()
    for m in re.finditer(r"(\+\w+)=N \(default (\d+)\)", tb):
        out[m.group(1)] = m.group(2)
    return out


def spellings(name):
    """{front end: its spelling of the vocabulary name} (those that have it)."""
    c = next(c for c in CONCEPTS if c[0] == name)
    out = dict(zip(("make cosim", "asw switch", "asw net"), c[3:6]))
    out["Python Switch"] = PY_SWITCH.get(name, "")
    out["DPI checker"] = DPI.get(name, "")
    return {k: v for k, v in out.items() if v}


def markdown(asw):
    cd, sd, nd = cosim_defaults(), switch_defaults(asw), net_defaults(asw)
    pd, dd = py_defaults(), dpi_defaults()
    rows = []
    for name, unit, what, var, sw, net, exc, why in CONCEPTS:
        c = f"`{var}` ({cd.get(var, '-')})" if var else "-"
        s = f"`{sw}` ({sd.get(sw.split()[0], '-')})" if sw else "-"
        n = (", ".join(f"`{k}` ({nd.get(k, '-')})" for k in net.split(", "))) if net else "-"
        py = f"`{PY_SWITCH[name]}` ({pd[name]})" if name in PY_SWITCH else "-"
        dp = f"`{DPI[name]}` ({dd.get(DPI[name], '-')})" if name in DPI else "-"
        rows.append(f"| `{name}` | {unit} | {what} | {c} | {s} | {n} | {py} | {dp} | "
                    f"{exc or '-'} | {why or '-'} |")
    return "\n".join([
        "# Options: one name per concept",
        "",
        "Generated by `make options-doc` from `tb/options.py` (the vocabulary table) with the",
        "defaults asked from the tools themselves; `make test-cosim-input` fails when this page",
        "is out of date or a front end does not take a name the table gives it.",
        "",
        "The name is `asw`'s. `asw net`, `asw sweep`, `asw trace` and `asw switch` take it in both",
        "forms, `name=value` and `--name value` (`-` for `_`: `--buffer-flits 64` is",
        "`buffer_flits=64`); `make cosim name=value` (also under its make variable, in",
        "capitals); the Python binding `Switch(name=value)`, and `Network(name=value)` with",
        "`asw net`'s keys, as `asw sweep` takes them; the DPI checker (`dpi/`) takes the RTL's",
        "parameters, as `make cosim`'s variables mostly spell them. Each front",
        "end's column gives its spelling and, in brackets, its default; \"exception\" states",
        "where a front end lacks the concept or spells it under another name, and \"defaults\"",
        "why a concept's defaults differ between the front ends (\"-\": the same everywhere).",
        "",
        "| name | values | meaning | make cosim | asw switch | asw net | Python Switch | "
        "DPI checker | exception | defaults |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ] + rows + [
        "",
        f"Python Switch and DPI checker: {HARDWARE_DEFAULTS}.",
        "",
        "Old spellings, refused with a message naming the new one:",
        "",
    ] + [f"- {tool} `{old}`: renamed to `{new}`" for tool, old, new in RENAMED] + [
        "",
        "## Values and messages",
        "",
        "Every front end reads a number alike: decimal, `0x` hexadecimal (a leading `0` is not",
        "octal: `010` is ten) or an integer in plain scientific notation (`2e5`); no sign, no",
        "blank. A bad value or an unknown key is refused before anything runs, exit 2, with one",
        "line in one wording (`cmodel/net/optval.h`; `make cosim` and the binding copy it),",
        "naming the key as it was written, the value and what is allowed:",
        "",
        "```",
        "asw switch: --vcs: '9' is not an integer in 1..8",
        "asw net: --vcs: 'x' is not an integer in 1..8",
        "make cosim: V: '9' is not an integer in 1..8",
        "asw net: --load: 'x' is not a number in 0..1",
        "asw net: voq: 'yes' is not one of on, off, 1, 0",
        "asw trace: --prots: unknown key (see asw trace --help)",
        "make cosim: prots: unknown key (see make cosim-help); did you mean ports?",
        "```",
        "",
        "The commands' own options take both forms too: `asw sweep`'s `jobs=N` (`--jobs N`,",
        "`-j N`), `dir=DIR`, `vary=KEY=V1,V2`, `slurm=on|off` (`--slurm`), `submit=on|off`,",
        "`merge=on|off`; `asw net`'s `json=FILE` (`--json FILE`), `csv=FILE`, `trace_out=FILE`,",
        "`write_topology=FILE`, `write_table=FILE`, `quiet=on|off` (`--quiet`),",
        "`print_config=on|off` (`--print-config`).",
    ]) + "\n"


def main(argv):
    if len(argv) == 2 and argv[0] == "--markdown":
        sys.stdout.write(markdown(argv[1]))
        return 0
    if len(argv) == 2 and argv[0] == "--check":
        want = markdown(argv[1])
        path = os.path.join(ROOT, "docs", "options.md")
        have = open(path).read() if os.path.exists(path) else ""
        if have != want:
            print("docs/options.md is out of date: make options-doc", file=sys.stderr)
            return 1
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
