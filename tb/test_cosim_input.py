#!/usr/bin/env python3
"""Bad input to `make cosim`, `make cosim-net`, `make soak` and `make coverage` (make
test-cosim-input): every probe must exit 2 with one line naming what is wrong, before
anything is built or run (no Verilator build, no simulation). Then the knobs that exist
under asw's names are accepted, the resolved configuration is the first line of a run and
a run reports progress while it goes (C side alone, REFONLY=1: no Verilator either).

Each probe runs `make -s <target> <variables>` from the repository root with make's
inherited MAKEFLAGS removed (so an outer `make test X=1` does not change what it sees)."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (target, variables, words the message must contain). Every probe of issue 28 and more.
BAD = [
    ("cosim", ["PROTS=4"], ["make cosim: PROTS: unknown key"]),
    ("cosim", ["prots=4"], ["make cosim: prots: unknown key", "ports"]),
    ("cosim", ["packet_flits=4"], ["make cosim: packet_flits: unknown key", "max_packet"]),
    ("cosim", ["load=0.2"], ["make cosim: load: unknown key"]),
    ("cosim", ["buf=16"], ["make cosim: buf: renamed to buffer_flits (make variable BUF)"]),
    ("cosim", ["pkt=4"], ["make cosim: pkt: renamed to max_packet (make variable PKT)"]),
    ("cosim", ["lmax=4"], ["make cosim: lmax: renamed to max_packet"]),
    ("cosim", ["buf_flits=16"], ["make cosim: buf_flits: renamed to buffer_flits"]),
    ("cosim", ["p=8"], ["make cosim: p: renamed to ports (make variable P)"]),
    ("cosim", ["ttl=100"], ["make cosim: ttl: renamed to arn_ttl (make variable TTL)"]),
    ("cosim", ["warmup=100"], ["make cosim: warmup: unknown key"]),
    ("cosim", ["hcdth=abc"], ["make cosim: hcdth: 'abc' is not an integer in 0..65535"]),
    ("cosim", ["hcdth=50", "lcdth=60", "ARN=afi", "CYCLES=1000"], ["HCDTH"]),  # C model's rule
    ("cosim", ["trigger=sometimes"], ["make cosim: trigger: 'sometimes' is not one of noth, th, 2th"]),
    ("cosim", ["trigger=th", "ROUTING=det"], ["trigger=th", "ROUTING=det"]),
    ("cosim", ["CYCLES=99999999999999999999999"],
     ["make cosim: CYCLES: '99999999999999999999999' is not an integer in 1..4294967295"]),
    ("cosim", ["CYCLES=abc"], ["make cosim: CYCLES: 'abc' is not an integer in 1..4294967295"]),
    ("cosim", ["CYCLES=-5"], ["make cosim: CYCLES: '-5' is not an integer in 1..4294967295"]),
    ("cosim", ["CYCLES=0"], ["make cosim: CYCLES: '0' is not an integer in 1..4294967295"]),
    ("cosim", ["cycles=0"], ["make cosim: cycles: '0' is not an integer in 1..4294967295"]),
    ("cosim", ["CYCLES=1e-3"], ["make cosim: CYCLES: '1e-3' is not an integer in 1..4294967295"]),
    ("cosim", ["CYCLES=2.5"], ["make cosim: CYCLES: '2.5' is not an integer in 1..4294967295"]),
    ("cosim", ["CYCLES=1e10"], ["make cosim: CYCLES: '1e10' is not an integer in 1..4294967295"]),
    ("cosim", ["SEED=-1"], ["make cosim: SEED: '-1' is not an integer in 0..18446744073709551615"]),
    ("cosim", ["SEED=18446744073709551616"], ["make cosim: SEED: '18446744073709551616'"]),
    ("cosim", ["P=1"], ["make cosim: P: '1' is not an integer in 2..64"]),
    ("cosim", ["P=65"], ["make cosim: P: '65' is not an integer in 2..64"]),
    ("cosim", ["ports=4294967297"], ["make cosim: ports: '4294967297' is not an integer in 2..64"]),
    ("cosim", ["V=9"], ["make cosim: V: '9' is not an integer in 1..8"]),
    ("cosim", ["BUF=x"], ["make cosim: BUF: 'x' is not an integer"]),
    ("cosim", ["PKT=0"], ["make cosim: PKT: '0' is not an integer in 1..255"]),
    ("cosim", ["ITERS=5"], ["make cosim: ITERS: '5' is not an integer in 1..4"]),
    ("cosim", ["AE=33"], ["make cosim: AE: '33' is not an integer in 0..32"]),
    ("cosim", ["FEATURES=colour"], ["make cosim: FEATURES: 'colour' is not one of all, none, bubble"]),
    ("cosim", ["OMIT=4"], ["make cosim: OMIT: unknown key"]),
    ("cosim", ["TTL=16777216"], ["make cosim: TTL: '16777216' is not an integer in 0..16777215"]),
    ("cosim", ["STAGE=16"], ["make cosim: STAGE: '16' is not an integer in 0..15"]),
    ("cosim", ["VOQ=maybe"], ["make cosim: VOQ: 'maybe' is not one of on, off, 1, 0"]),
    ("cosim", ["voq=yes"], ["make cosim: voq: 'yes' is not one of on, off, 1, 0"]),
    ("cosim", ["QCN=2"], ["make cosim: QCN: '2' is not one of on, off, 1, 0"]),
    ("cosim", ["REFONLY=yes"], ["make cosim: REFONLY: 'yes' is not one of on, off, 1, 0"]),
    ("cosim", ["ROUTING=fast"], ["make cosim: ROUTING: 'fast' is not one of"]),
    ("cosim", ["VCMAP=x"], ["make cosim: VCMAP: 'x' is not one of"]),
    ("cosim", ["SCEN=x"], ["make cosim: SCEN: 'x' is not one of"]),
    ("cosim", ["ARN=on"], ["make cosim: ARN: 'on' is not one of off, arn, afi, adaptive-th-afi"]),
    ("cosim", ["LINKFAULT=2"], ["make cosim: LINKFAULT: '2' is not a number in 0..1"]),
    ("cosim", ["LINKFAULT=nan"], ["make cosim: LINKFAULT: 'nan' is not a number in 0..1"]),
    ("cosim", ["PFC=0x100"], ["make cosim: PFC: '0x100' is not a mask of ports < P = 4"]),
    ("cosim", ["SAR=1"], ["make cosim: SAR=1 needs SE >= 1"]),
    ("cosim", ["VCMAP=afi", "V=1"], ["make cosim: VCMAP=afi needs V >= 2"]),
    ("cosim", ["SCEN=consume"], ["make cosim: SCEN=consume is a directed §15 scenario"]),
    ("cosim", ["SOAK_SEEDS=2"], ["make cosim: SOAK_SEEDS: not a variable of make cosim",
                                 "make soak's"]),
    ("cosim", ["ports=8", "P=4"], ["ports=8 and P=4 name the same knob"]),
    ("soak", ["P=8"], ["make soak: P: not a variable of make soak"]),
    ("soak", ["SOAK_CYCLES=0"], ["make soak: SOAK_CYCLES: '0' is not an integer in 200000..4294967295"]),
    ("soak", ["SOAK_CYCLES=1000"], ["make soak: SOAK_CYCLES: '1000' is not an integer in 200000.."]),
    ("soak", ["SOAK_CYCLES=99999999999999999999999"], ["make soak: SOAK_CYCLES: '9999"]),
    ("soak", ["SOAK_SEEDS=abc"], ["make soak: SOAK_SEEDS: 'abc' is not an integer in 1..100000"]),
    ("soak", ["SOAK_SEEDS=0"], ["make soak: SOAK_SEEDS: '0' is not an integer in 1..100000"]),
    ("soak", ["SEED=-5"], ["make soak: SEED: '-5' is not an integer"]),
    ("soak", ["soak_seeds=3"], ["make soak: soak_seeds: unknown key", "SOAK_SEEDS"]),
    ("coverage", ["COV_SCALE=0"], ["make coverage: COV_SCALE: '0' is not a number in 0.001..100"]),
    ("coverage", ["CYCLES=100"], ["make coverage: CYCLES: not a variable of make coverage"]),
    ("cosim-net", ["ports=4"], ["make cosim-net: ports: unknown key", "NET="]),
    ("cosim-net", ["PROTS=4"], ["make cosim-net: PROTS: unknown key"]),
    ("cosim-net", [], ["make cosim-net: NET is empty"]),
    ("cosim-net", ["NET=ports=4 stages=2 prots=3"], ["prots: unknown key"]),
    ("cosim-net", ["NET=ports=4 stages=2 cycles=0"], ["make cosim-net: NET: cycles: '0' is not an integer in 1..2000000000"]),
    ("cosim-net", ["NET=ports=4 stages=2 cycles=99999999999999999999999"],
     ["cycles: '99999999999999999999999' is not an integer in 1..2000000000"]),
    ("cosim-net", ["NET=ports=4 stages=2 cycles=abc"], ["cycles: 'abc' is not an integer in 1..2000000000"]),
    ("cosim-net", ["NET=ports=4 stages=2 cycles=-5"], ["cycles: '-5' is not an integer in 1..2000000000"]),
    ("cosim-net", ["NET=ports=4 stages=2 hcdth_pct=500"], ["hcdth_pct"]),
    ("cosim-net", ["NET=ports=4 stages=2 hcdth=50"], ["hcdth: renamed to hcdth_pct"]),
    ("cosim-net", ["NET=ports=4 stages=2 --seed 3"], ["NET: '--seed' is not a key=value setting"]),
]
# Real knobs under asw's names (and the resolved configuration as the first line): run on
# the C side alone. (variables, words of the configuration line)
GOOD = [
    (["trigger=th", "ports=8", "vcs=4", "buffer_flits=16", "max_packet=8", "voq=off"],
     ["ROUTING=th", "P=8", "V=4", "BUF=16", "PKT=8", "VOQ=0"]),
    (["routing=adaptive", "trigger=2th", "iters=2", "seed=5"], ["ROUTING=2th", "ITERS=2", "SEED=5"]),
    (["arn=afi", "hcdth=6", "lcdth=3", "fcth=2", "crt=16", "arn_ttl=200"],
     ["ARN=afi", "AE=4", "HCDTH=6", "LCDTH=3", "FCTH=2", "CRT=16", "TTL=200", "VCMAP=afi"]),
    (["CYCLES=0x10"], ["CYCLES=16"]),
    (["CYCLES=2e3", "ports=010"], ["CYCLES=2000", "P=10"]),  # asw's number syntax: 2e3, 010 is ten
]


# The same settings given to every front end under the vocabulary's names (tb/options.py)
# must resolve to the same configuration: make cosim's first line, asw switch's JSON
# "config", asw net --print-config, the binding's Switch(...).config. (name, value, value
# as resolved)
AGREE = [("ports", "8", "8"), ("vcs", "2", "2"), ("voq", "off", "0"), ("iters", "1", "1"),
         ("sa_pipe", "on", "1"), ("buffer_flits", "32", "32"), ("max_packet", "8", "8"),
         ("routing", "adaptive", "adaptive"), ("trigger", "th", "th"), ("seed", "7", "7"),
         ("cycles", "3000", "3000"), ("warmup", "300", "300"), ("drain", "on", "1"),
         ("drain_limit", "5000", "5000"), ("arn_entries", "4", "4"), ("crt", "100", "100"),
         ("arn_ttl", "300", "300")]
COSIM_WORDS = {"ada": "adaptive", "det": "det", "obl": "oblivious", "th": "adaptive"}

# One wording (cmodel/net/optval.h; tb/cosim.py and the binding copy it): the same bad
# number, out-of-range number and unknown key, given to every front end in each of its forms,
# is refused with exit 2 and one line naming the key as written, the value and the range.
# The concept is vcs (1..8 everywhere); asw trace has none of the switch's concepts, so its
# nodes (2..65536) stands in. (front end, arguments, the line)
NET4 = ["ports=4", "stages=2"]
WORDING = [
    ("asw switch", ["switch", "vcs=x"], "asw switch: vcs: 'x' is not an integer in 1..8"),
    ("asw switch", ["switch", "--vcs", "9"], "asw switch: --vcs: '9' is not an integer in 1..8"),
    ("asw switch", ["switch", "--vcs=-1"], "asw switch: --vcs: '-1' is not an integer in 1..8"),
    ("asw net", ["net", *NET4, "vcs=9"], "asw net: vcs: '9' is not an integer in 1..8"),
    ("asw net", ["net", *NET4, "--vcs", "x"], "asw net: --vcs: 'x' is not an integer in 1..8"),
    ("asw sweep", ["sweep", *NET4, "vcs=x", "--vary", "seed=1"],
     "asw sweep: vcs: 'x' is not an integer in 1..8"),
    ("asw sweep", ["sweep", *NET4, "--vcs", "9", "--vary", "seed=1"],
     "asw sweep: --vcs: '9' is not an integer in 1..8"),
    ("asw sweep", ["sweep", *NET4, "--vary", "vcs=1,9"], "asw sweep: vcs: '9' is not an integer in 1..8"),
    ("asw trace", ["trace", "pattern=alltoall", "size=8", "out=-", "nodes=x"],
     "asw trace: nodes: 'x' is not an integer in 2..65536"),
    ("asw trace", ["trace", "pattern=alltoall", "size=8", "out=-", "--nodes", "1"],
     "asw trace: --nodes: '1' is not an integer in 2..65536"),
    ("make cosim", ["vcs=x"], "make cosim: vcs: 'x' is not an integer in 1..8"),
    ("make cosim", ["V=9"], "make cosim: V: '9' is not an integer in 1..8"),
    ("make cosim-net", ["NET=ports=4 stages=2 vcs=9"],
     "make cosim-net: NET: vcs: '9' is not an integer in 1..8"),
    ("Python Switch", {"vcs": 9}, "vcs: '9' is not an integer in 1..8"),
    ("Python Switch", {"vcs": "x"}, "vcs: 'x' is not an integer in 0..4294967295"),  # its type
    # a real number
    ("asw switch", ["switch", "load=2"], "asw switch: load: '2' is not a number in 0..1"),
    ("asw net", ["net", *NET4, "--load", "x"], "asw net: --load: 'x' is not a number in 0..1"),
    ("make cosim", ["LINKFAULT=2"], "make cosim: LINKFAULT: '2' is not a number in 0..1"),
    # a word
    ("asw switch", ["switch", "--voq", "yes"], "asw switch: --voq: 'yes' is not one of on, off, 1, 0"),
    ("asw net", ["net", *NET4, "voq=yes"], "asw net: voq: 'yes' is not one of on, off, 1, 0"),
    ("make cosim", ["voq=yes"], "make cosim: voq: 'yes' is not one of on, off, 1, 0"),
    # an unknown key: the line up to the help it points to
    ("asw switch", ["switch", "prots=4"], "asw switch: prots: unknown key (see asw switch --help)"),
    ("asw switch", ["switch", "--prots", "4"], "asw switch: --prots: unknown key (see asw switch --help)"),
    ("asw net", ["net", "prots=4"], "asw net: prots: unknown key (see asw net --help)"),
    ("asw net", ["net", "--prots", "4"], "asw net: --prots: unknown key (see asw net --help)"),
    ("asw sweep", ["sweep", "prots=4"], "asw sweep: prots: unknown key (see asw net --help)"),
    ("asw sweep", ["sweep", "--prots=4"], "asw sweep: --prots: unknown key (see asw net --help)"),
    ("asw trace", ["trace", "prots=4"], "asw trace: prots: unknown key (see asw trace --help)"),
    ("asw trace", ["trace", "--prots", "4"], "asw trace: --prots: unknown key (see asw trace --help)"),
    ("make cosim", ["prots=4"], "make cosim: prots: unknown key (see make cosim-help)"),
    ("make cosim-net", ["NET=ports=4 stages=2 prots=4"],
     "make cosim-net: NET: prots: unknown key (see asw net --help)"),
    ("Python Switch", {"prots": 4}, "prots: unknown key (fields: "),
]


def wording(asw):
    """[(ok, what, detail)] for the WORDING probes."""
    sys.path.insert(0, os.path.join(ROOT, "sw"))
    import arnswitch
    out = []
    for tool, args, want in WORDING:
        if tool == "Python Switch":
            try:
                arnswitch.Switch(**args)
                rc, lines = 0, ["accepted"]
            except ValueError as e:
                rc, lines = 2, [str(e)]
            shown = f"Switch({', '.join(f'{k}={v!r}' for k, v in args.items())})"
        elif tool.startswith("make"):
            r = make(tool.split()[1], args)
            rc, lines = r.returncode, [ln for ln in r.stderr.splitlines() if not ln.startswith("make: ***")]
            shown = f"{tool} {' '.join(args)}"
        else:
            r = subprocess.run([asw, *args], capture_output=True, text=True, cwd=tmpdir[0])
            rc, lines = r.returncode, r.stderr.splitlines()
            shown = f"asw {' '.join(args)}"
        # an unknown key's line may go on after its help: "; did you mean ports?"
        ok = rc == 2 and len(lines) == 1 and (lines[0] == want or "unknown key (" in want
                                              and lines[0].startswith(want))
        out.append((ok, f"{shown}: '{want}'", f"exit {rc}: {lines}"))
    # docs/options.md's examples of the wording are lines these probes see
    page = open(os.path.join(ROOT, "docs", "options.md")).read()
    block = re.search(r"## Values and messages.*?```\n(.*?)```", page, re.S)
    examples = block.group(1).splitlines() if block else []
    wants = [w for _, _, w in WORDING]
    unseen = [e for e in examples if not any(e == w or "unknown key (" in w and e.startswith(w)
                                             for w in wants)]
    out.append((examples and not unseen, f"docs/options.md's {len(examples)} example messages are "
                "lines of the probes", f"not seen: {unseen}"))
    return out


tmpdir = [None]  # where asw sweep may create its folder


def agreement(asw, tmp):
    """(ok, detail): every AGREE name resolved alike by the front ends that have it."""
    import json
    sys.path.insert(0, os.path.join(ROOT, "tb"))
    import options
    spell = {c[0]: c[3:6] for c in options.CONCEPTS}
    r = make("cosim", ["REFONLY=1"] + [f"{n}={v}" for n, v, _ in AGREE if spell[n][0]])
    first = r.stdout.splitlines()[0] if r.stdout else ""
    cos = dict(w.split("=", 1) for w in first.split()[2:] if "=" in w)
    sw_args = []
    for n, v, _ in AGREE:
        if spell[n][1]:
            sw_args += [spell[n][1], v]
    js = os.path.join(tmp, "agree.json")
    subprocess.run([asw, "switch", *sw_args, "--quiet", "--json", js], capture_output=True)
    swc = json.load(open(js))["config"] if os.path.exists(js) else {}
    # (asw net's packets have a fixed length: one that fits the buffer)
    net = subprocess.run([asw, "net", "packet_flits=8"] + [f"{n}={v}" for n, v, _ in AGREE
                                                         if spell[n][2]] + ["--print-config"],
                         capture_output=True, text=True).stdout
    netc = dict(ln.split(" = ", 1) for ln in net.splitlines() if " = " in ln)
    sys.path.insert(0, os.path.join(ROOT, "sw"))
    import arnswitch  # the binding's Switch takes integers
    bad = []
    # asw sweep (asw switch's --key value form here) and the binding's Network pass asw net the
    # same settings: what they hand it resolves as asw net's own line did
    net_args = ["packet_flits=8"] + [f"{n}={v}" for n, v, _ in AGREE if spell[n][2]]
    dashed = [w for a in net_args for w in ("--" + a.split("=")[0].replace("_", "-"),
                                            a.split("=", 1)[1])]
    subprocess.run([asw, "sweep", "--slurm", "--dir", os.path.join(tmp, "sw"), *dashed,
                    "--vary", "seed=7"], capture_output=True)  # (AGREE's seed)
    handed = {"asw sweep": open(os.path.join(tmp, "sw", "run-000.args")).read().split()
              if os.path.exists(os.path.join(tmp, "sw", "run-000.args")) else ["no-run"],
              "Python Network": arnswitch.Network(**dict(a.split("=", 1) for a in net_args)).args()}
    for tool, args in handed.items():
        out = subprocess.run([asw, "net", *args, "--print-config"], capture_output=True,
                             text=True).stdout
        if out != net or not net:
            bad.append(f"{tool} hands asw net {' '.join(args)}: another configuration")
    pyc = arnswitch.Switch(**{n: {"on": 1, "off": 0}.get(v, v if not v.isdigit() else int(v))
                              for n, v, _ in AGREE if n in options.PY_SWITCH}).config
    for n, v, want in AGREE:
        var, sw, nk = spell[n]
        got = {}
        if n in options.PY_SWITCH:
            got["Python Switch"] = str(pyc[arnswitch.VOCABULARY_FIELDS.get(n, n)])
        if var:
            x = cos.get(var)
            got["make cosim"] = COSIM_WORDS.get(x, x) if n == "routing" else x
        if n == "trigger" and "ROUTING" in cos:  # make cosim: the trigger is in ROUTING
            got["make cosim"] = cos["ROUTING"]
        if sw and n in swc:  # (its JSON echoes no §15 timers)
            got["asw switch"] = str(swc[n])
        if nk:
            got["asw net"] = netc.get(nk)
        wrong = {k: x for k, x in got.items() if x != want}
        if wrong:
            bad.append(f"{n}={v}: want {want}, got {wrong}")
    return not bad and r.returncode == 0, "; ".join(bad) or f"make cosim exit {r.returncode}"


def trace_agreement(asw, tmp):
    """(ok, detail): asw trace has none of the switch's concepts (it writes the traffic that
    asw net replays), so its agreement is between its forms: the same settings as key=value,
    --key value and --key=value write the same trace, and asw net replays it."""
    keys = [("pattern", "inception"), ("nodes", "8"), ("size", "512"), ("rounds", "2"),
            ("layers", "2"), ("compute", "30"), ("skip", "3"), ("format", "text")]
    forms = {"key=value": [f"{k}={v}" for k, v in keys],
             "--key value": [w for k, v in keys for w in (f"--{k}", v)],
             "--key=value": [f"--{k}={v}" for k, v in keys]}
    got, bad = {}, []
    for form, args in forms.items():
        path = os.path.join(tmp, f"t-{len(got)}.txt")
        r = subprocess.run([asw, "trace", *args, f"out={path}"], capture_output=True, text=True)
        got[form] = open(path).read() if r.returncode == 0 and os.path.exists(path) else None
        if got[form] is None:
            bad.append(f"{form}: exit {r.returncode} {r.stderr.strip()}")
    if len(set(got.values())) != 1:
        bad.append("the forms wrote different traces")
    r = subprocess.run([asw, "net", "ports=4", "stages=2", f"traffic=trace:{os.path.join(tmp, 't-0.txt')}",
                        "--quiet", "--json", "-"], capture_output=True, text=True)
    if r.returncode != 0:
        bad.append(f"asw net does not replay it: exit {r.returncode} {r.stderr.strip()[-200:]}")
    return not bad, "; ".join(bad)


def make(target, variables, extra_env=None):
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    env.update(extra_env or {})
    return subprocess.run(["make", "-s", "--no-print-directory", target] + variables, cwd=ROOT,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main(argv):
    import tempfile
    asw = os.path.abspath(argv[0]) if argv else os.path.join(ROOT, "build", "asw")
    passed = failed = 0

    def report(ok, what, detail=""):
        nonlocal passed, failed
        print(f"{'PASS' if ok else 'FAIL'} {what}" + ("" if ok else f"\n    {detail}"), flush=True)
        passed += ok
        failed += not ok

    for target, variables, words in BAD:
        r = make(target, variables)
        out = r.stdout + r.stderr
        msgs = [ln for ln in r.stderr.splitlines() if not ln.startswith("make: ***")]
        built = re.search(r"building|built in|^cycles \d+", out, re.M)
        ok = (r.returncode == 2 and len(msgs) == 1 and all(w in msgs[0] for w in words)
              and not built)
        report(ok, f"make {target} {' '.join(variables)}: exit {r.returncode}: "
                   f"{msgs[0] if msgs else '(no message)'}",
               f"want exit 2, one line with {words}, nothing built; got:\n    "
               + "\n    ".join(out.splitlines()[-6:]))
    for variables, words in GOOD:
        r = make("cosim", ["REFONLY=1", "CYCLES=2000"] + variables)
        first = r.stdout.splitlines()[0] if r.stdout else ""
        ok = (r.returncode == 0 and first.startswith("make cosim: ")
              and all(f" {w} " in first + " " for w in words) and r.stdout.rstrip().endswith("PASS"))
        report(ok, f"make cosim REFONLY=1 {' '.join(variables)}: accepted, first line has "
                   f"{' '.join(words)}", f"exit {r.returncode}, first line: {first!r}, stderr: "
               f"{r.stderr.strip()[-300:]}")
    # Progress while a run goes (not a terminal here: lines), COSIM_PROGRESS seconds apart.
    r = make("cosim", ["REFONLY=1", "CYCLES=400000"], {"COSIM_PROGRESS": "0.001"})
    lines = re.findall(r"^refsim: cycle (\d+) of 400000 \(\d+ %\)", r.stderr, re.M)
    ok = r.returncode == 0 and len(lines) >= 3 and r.stdout.startswith("make cosim: ")
    report(ok, f"make cosim REFONLY=1 CYCLES=400000: configuration first, {len(lines)} progress "
               "lines on stderr while it runs", f"exit {r.returncode}, stderr {r.stderr[-300:]!r}")
    # One vocabulary (tb/options.py): docs/options.md generated from it is up to date, mk/tb.mk
    # copies the same asw names, every front end takes the names the table gives it, and the
    # same settings resolve alike everywhere.
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tb", "options.py"), "--check", asw],
                       capture_output=True, text=True)
    report(r.returncode == 0, "docs/options.md is tb/options.py's page", r.stderr.strip())
    sys.path.insert(0, os.path.join(ROOT, "tb"))
    import options
    mk = open(os.path.join(ROOT, "mk", "tb.mk")).read()
    m = re.search(r"^COSIM_ALIASES := ((?:.*\\\n)*.*)$", mk, re.M)
    mk_alias = dict(w.split(":") for w in m.group(1).replace("\\\n", " ").split()) if m else {}
    table = {c[0]: c[3] for c in options.CONCEPTS if c[3]}
    report(mk_alias == table, "mk/tb.mk COSIM_ALIASES = the vocabulary's make cosim names",
           f"only in mk: {set(mk_alias.items()) - set(table.items())}, only in the table: "
           f"{set(table.items()) - set(mk_alias.items())}")
    sw_help = subprocess.run([asw, "switch", "--help"], capture_output=True, text=True).stdout
    net_help = subprocess.run([asw, "net", "--help"], capture_output=True, text=True).stdout
    sys.path.insert(0, os.path.join(ROOT, "tb"))
    import cosim
    missing = [f"make cosim {c[3]}" for c in options.CONCEPTS if c[3] and c[3] not in cosim.CMD_KNOBS["cosim"]]
    missing += [f"asw switch {c[4]}" for c in options.CONCEPTS
                if c[4] and not re.search(rf"(^|\s){c[4].split()[0]}\b", sw_help, re.M)]
    missing += [f"asw net {k}" for c in options.CONCEPTS if c[5] for k in c[5].split(", ")
                if not re.search(rf"^\s+{k}\s", net_help, re.M)]
    report(not missing, f"every front end takes the vocabulary's names ({len(options.CONCEPTS)} "
                        "concepts)", f"missing: {missing}")
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir[0] = tmp
        for ok, what, detail in wording(asw):
            report(ok, f"wording: {what}", detail)
        ok, detail = agreement(asw, tmp)
        report(ok, f"same settings, same configuration in make cosim, asw switch, asw net, "
                   f"asw sweep, Python Switch and Network: {' '.join(f'{n}={v}' for n, v, _ in AGREE)}",
               detail)
        ok, detail = trace_agreement(asw, tmp)
        report(ok, "asw trace: key=value, --key value and --key=value write the same trace", detail)
    # the DPI checker's spellings are parameters of the checker and of the RTL switch (its
    # DUT), or plusargs of its example testbench
    sv = {f: open(os.path.join(ROOT, f)).read() for f in
          ("dpi/asw_dpi_checker.sv", "rtl/asw_switch.sv", "dpi/tb_dpi.sv")}
    missing = [f"{f} {p}" for p in options.DPI.values() if not p.startswith("+")
               for f in ("dpi/asw_dpi_checker.sv", "rtl/asw_switch.sv")
               if not re.search(rf"parameter (int unsigned|bit) {p} =", sv[f])]
    missing += [f"tb_dpi.sv {p}" for p in options.DPI.values() if p.startswith("+")
                and f'$value$plusargs("{p[1:]}=' not in sv["dpi/tb_dpi.sv"]]
    report(not missing, f"the DPI checker takes the vocabulary's parameters ({len(options.DPI)})",
           f"missing: {missing}")
    # old spellings: refused, one line naming the new name (docs/options.md's list); asw's
    # commands exit 2, the binding raises ValueError
    probes = {"--drain N": ["switch", "--drain", "100"],
              "iters": ["trace", "pattern=ptrans", "nodes=8", "size=8", "iters=2", "out=-"],
              "hcdth": ["net", "hcdth=50"], "lcdth": ["net", "lcdth=30"], "fcth": ["net", "fcth=20"]}
    import arnswitch
    for tool, old, new in options.RENAMED:
        want = f"renamed to {new.split()[0].rstrip('=')}"
        if old == "buf_flits=":
            try:
                arnswitch.Switch(buf_flits=8)
                ok, got = False, "accepted"
            except ValueError as e:
                ok, got = want in str(e), f"ValueError: {e}"
        else:
            r = subprocess.run([asw, *probes[old]], capture_output=True, text=True)
            ok = r.returncode == 2 and want in r.stderr and len(r.stderr.splitlines()) == 1
            got = f"exit {r.returncode}: {r.stderr.strip()}"
        report(ok, f"{tool} {old}: refused, '{want}'", got)
    print(f"test-cosim-input: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
