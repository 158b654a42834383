#!/usr/bin/env python3
"""One vocabulary: the concepts that `make cosim`, `asw switch` and `asw net` share, each
with one name (asw's), its unit, its meaning and its spelling in every front end, and
the exceptions where a front end gives the name another unit or meaning.

Read by tb/cosim.py (the asw names `make cosim` accepts, `make cosim-help`) and checked
against mk/tb.mk's COSIM_ALIASES; docs/options.md is generated from it, with the defaults
asked from the tools themselves (tb/cosim.py's parser, `asw switch --help`,
`asw net --print-config`), so the page cannot drift from them:

  options.py --markdown ASW          the page on stdout (make options-doc writes it)
  options.py --check ASW             exit 1 if docs/options.md differs from the page
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, values/unit, meaning, make cosim variable, asw switch option, asw net key,
#  exception: where a front end differs ("" if none)). An empty spelling: the front end
# has no such knob.
CONCEPTS = [
    ("ports", "2..64", "switch ports P", "P", "--ports", "ports",
     "asw net: the RLFT's switch ports (other topologies derive P)"),
    ("vcs", "1..8", "virtual channels per port V", "V", "--vcs", "vcs", ""),
    ("voq", "on, off, 1, 0", "virtual output queues at the inputs", "VOQ", "--voq", "voq", ""),
    ("iters", "1..4", "iSLIP iterations", "ITERS", "--iters", "iters", ""),
    ("sa_pipe", "on, off, 1, 0", "pipelined switch allocation (contract §8.1; iters 1)",
     "SAPIPE", "--sa-pipe", "sa_pipe", "asw net: needs iters=1 (its default is 3)"),
    ("buffer_flits", "flits", "buffer per input VC (BUF)", "BUF", "--buffer-flits",
     "buffer_flits", ""),
    ("max_packet", "flits, 1..255", "longest packet (LMAX)", "PKT", "--max-packet", "",
     "make cosim draws packet lengths 1..max_packet; asw net's packets all have packet_flits "
     "flits (LMAX = packet_flits)"),
    ("packet_flits", "flits", "length of every packet", "", "--packet-flits", "packet_flits",
     "make cosim has no fixed length (lengths are drawn 1..max_packet)"),
    ("arn_entries", "0..32", "ARN-table entries per switch (AE; 0: no ARN hardware)", "AE", "",
     "arn_entries", "make cosim: 4 when arn is on, else 0; asw switch: the C model's default"),
    ("features", "all, none or feature names", "optional hardware built (contract §1)",
     "FEATURES", "", "", "asw switch: one on|off option per feature (--bubble, --pfc, --qcn, "
     "--route-hash, --link-faults, --port-rate, --vc-adaptive, --oblivious, --adaptive, "
     "--counters, --readback; the study adds the --routing mode, counters and readback); "
     "make cosim: a run option adds what it needs; asw net: its switches build every feature"),
    ("routing", "det, oblivious, adaptive, ...", "routing mode", "ROUTING", "--routing",
     "routing", "make cosim also: obl, ada, th, 2th (adaptive with that trigger); asw net: "
     "dmodk (= det) and the network's other modes"),
    ("trigger", "noth, th, 2th", "trigger of adaptive routing (seed 000's thresholds)",
     "TRIGGER", "--trigger", "trigger", "make cosim: trigger=th is ROUTING=th"),
    ("arn", "off, arn, afi", "ARN mechanism (contract §15)", "ARN", "--arn", "arn",
     "make cosim also: adaptive-th-afi (asw net: routing=adaptive-th with afi=1)"),
    ("hcdth", "flits", "high congestion-detection threshold (§15)", "HCDTH", "--hcdth", "hcdth",
     "asw net: percent of buffer_flits, not flits"),
    ("lcdth", "flits", "low congestion-detection threshold (§15)", "LCDTH", "--lcdth", "lcdth",
     "asw net: percent of buffer_flits, not flits"),
    ("fcth", "flits", "free-credit threshold of a root (§15)", "FCTH", "--fcth", "fcth",
     "asw net: percent of buffer_flits, not flits"),
    ("crt", "cycles", "congestion root timer (§15)", "CRT", "--crt", "crt", ""),
    ("arn_ttl", "cycles", "ARN-table entry lifetime (§15)", "TTL", "--arn-ttl", "arn_ttl", ""),
    ("bubble", "on, off", "the §16.1 bubble rule", "BUBBLE", "", "bubble",
     "asw net also: auto (on for tori)"),
    ("qcn", "on, off", "the §17.4 QCN congestion points", "QCN", "", "qcn", ""),
    ("seed", "0..2^64-1", "random seed", "SEED", "--seed", "seed", ""),
    ("cycles", "cycles", "length of the run", "CYCLES", "--cycles", "cycles",
     "make cosim: cycles compared; asw switch: cycles with generation, warm-up included; "
     "asw net: cycles measured after warmup"),
    ("warmup", "cycles", "cycles before measuring", "", "--warmup", "warmup",
     "make cosim measures nothing (it compares every cycle); asw net: 0 with traffic=trace"),
    ("load", "0..1", "offered load, flits per node (input) per cycle", "", "--load", "load",
     "make cosim's stimulus is SCEN (random, hotspot, full, ...)"),
    ("drain", "cycles", "run on after generation until everything is delivered", "",
     "--drain N", "drain, drain_limit",
     "asw switch: --drain N is the cycle limit; asw net: drain=1 and drain_limit=N"),
]


def cosim_defaults():
    sys.path.insert(0, os.path.join(ROOT, "tb"))
    import cosim
    ns = cosim.parser().parse_args(["cosim"])
    out = {}
    for _, _, _, var, _, _, _ in CONCEPTS:
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


def markdown(asw):
    cd, sd, nd = cosim_defaults(), switch_defaults(asw), net_defaults(asw)
    rows = []
    for name, unit, what, var, sw, net, exc in CONCEPTS:
        c = f"`{var}` ({cd.get(var, '-')})" if var else "-"
        s = f"`{sw}` ({sd.get(sw.split()[0], '-')})" if sw else "-"
        n = (", ".join(f"`{k}` ({nd.get(k, '-')})" for k in net.split(", "))) if net else "-"
        rows.append(f"| `{name}` | {unit} | {what} | {c} | {s} | {n} | {exc or '-'} |")
    return "\n".join([
        "# Options: one name per concept",
        "",
        "Generated by `make options-doc` from `tb/options.py` (the vocabulary table) with the",
        "defaults asked from the tools themselves; `make test-cosim-input` fails when this page",
        "is out of date or a front end does not take a name the table gives it.",
        "",
        "The name is `asw`'s. `asw net` and `asw switch` take it in both forms, `name=value`",
        "and `--name value` (`-` for `_`: `--buffer-flits 64` is `buffer_flits=64`);",
        "`make cosim name=value` (also under its make variable, in capitals). Each front",
        "end's column gives its spelling and, in brackets, its default; the last column states",
        "where a front end gives the name another unit or meaning.",
        "",
        "| name | values | meaning | make cosim | asw switch | asw net | exception |",
        "|---|---|---|---|---|---|---|",
    ] + rows) + "\n"


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
