#!/usr/bin/env python3
"""The named switch configurations of every flow: configs/switch_configs.toml.

One file holds every named configuration (FPGA rows and make-test guards, board
switches, the co-simulation matrix and gate-level sets, the Verilator lint sets), written
in the user vocabulary of `asw switch --help` / `make cosim` (ports, vcs, buffer_flits,
max_packet, payload_bits, dest_bits, table_entries, voq, iters, arn_entries, sar_entries)
and the contract §1 optional features (bubble, pfc, qcn, route_hash, link_faults,
port_rate, vc_adaptive, oblivious, adaptive, counters, readback: on/off, every one off
unless set). This module reads it and turns a configuration into the RTL parameters (P, V,
..., BubbleEn, ...), the C model's feature mask (ASW_FEAT_* bits = PARAM2[31:23] and
PARAM3[7:6]) and -G flags; `parse_set` reads the ad-hoc
`SET="ports=6 vcs=2 ..."` of `make fpga`. Python 3.11 (tomllib).

  switch_configs.py list [SECTION]        the named configurations (SECTION: fpga, board, cosim, lint)
  switch_configs.py show SECTION.NAME     one, as user names and as RTL parameters
  switch_configs.py lint-gflags           one line of -G flags per lint set (mk/rtl.mk)
  switch_configs.py check                 every entry legal (contract §1 ranges); exit 1 if not
  switch_configs.py c-header              a C header of every named configuration (the C
                                          model's tests: cmodel/tests/test_named_configs.c)
"""
import os
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
FILE = os.path.join(HERE, "switch_configs.toml")


class ConfigError(ValueError):
    """An unknown name or an illegal value; str() names it."""


# user name -> (RTL parameter, kind, lo, hi); kind "int" or "bool" (on/off)
VOCAB = {
    "ports": ("P", "int", 2, 64),
    "vcs": ("V", "int", 1, 8),
    "buffer_flits": ("BUF", "int", 1, 16384),
    "max_packet": ("LMAX", "int", 1, 255),
    "payload_bits": ("PW", "int", 0, 64),
    "dest_bits": ("DW", "int", 1, 16),
    "table_entries": ("TABLE", "int", 1, 65536),
    "voq": ("VOQ", "bool", 0, 1),
    "iters": ("ITERS", "int", 1, 4),
    "sa_pipe": ("SAPIPE", "bool", 0, 1),   # contract §8.1 pipelined allocation
    "arn_entries": ("AE", "int", 0, 32),
    "sar_entries": ("SE", "int", 0, 32),
    # contract §1 optional features, off unless set
    "bubble": ("BubbleEn", "bool", 0, 1),
    "pfc": ("PfcEn", "bool", 0, 1),
    "qcn": ("QcnEn", "bool", 0, 1),
    "route_hash": ("RouteHashEn", "bool", 0, 1),
    "link_faults": ("LinkFaultEn", "bool", 0, 1),
    "port_rate": ("PortRateEn", "bool", 0, 1),
    "vc_adaptive": ("VcAdaptEn", "bool", 0, 1),
    "oblivious": ("RouteOblivEn", "bool", 0, 1),
    "adaptive": ("RouteAdaptEn", "bool", 0, 1),
    "counters": ("CountersEn", "bool", 0, 1),
    "readback": ("ReadbackEn", "bool", 0, 1),
}
# The features in PARAM2[31:23], PARAM3[7:6] / ASW_FEAT_* bit order (cmodel asw_feature_name).
FEATURES = ("bubble", "pfc", "qcn", "link_faults", "vc_adaptive", "route_hash", "port_rate",
            "oblivious", "adaptive", "counters", "readback")
RTL = {u: v[0] for u, v in VOCAB.items()}
USER = {v[0]: u for u, v in VOCAB.items()}
BASE_PARAMS = ("P", "V", "BUF", "LMAX", "PW", "DW", "TABLE", "VOQ", "ITERS", "AE")
FEATURE_PARAMS = tuple(RTL[f] for f in FEATURES)
ON = {"on": 1, "off": 0, "1": 1, "0": 0, "true": 1, "false": 0, "yes": 1, "no": 0}


def parse_value(name, value):
    """The integer value of user setting name (int, bool, or a word such as "on", "16")."""
    if name not in VOCAB:
        raise ConfigError(f"unknown setting {name!r}: the settings are {' '.join(VOCAB)}")
    _, kind, lo, hi = VOCAB[name]
    if isinstance(value, bool):
        v = int(value)
    elif isinstance(value, int):
        v = value
    else:
        s = str(value).strip().lower()
        if kind == "bool" and s in ON:
            v = ON[s]
        else:
            try:
                v = int(s, 0)
            except ValueError:
                want = "on or off" if kind == "bool" else f"an integer in {lo}..{hi}"
                raise ConfigError(f"{name}={value}: not {want}") from None
    if not lo <= v <= hi:
        want = "on or off" if kind == "bool" else f"in {lo}..{hi}"
        raise ConfigError(f"{name}={value}: out of range ({want})")
    return v


def check_rtl(p):
    """Contract §1 rules between parameters; raises ConfigError naming the settings."""
    if p["BUF"] < p["LMAX"]:
        raise ConfigError(f"buffer_flits={p['BUF']} is below max_packet={p['LMAX']} (BUF >= LMAX)")
    if p["V"] * p["BUF"] > 65536:
        raise ConfigError(f"vcs*buffer_flits = {p['V'] * p['BUF']} exceeds 65536")
    if p.get("SAPIPE") and p["ITERS"] != 1:
        raise ConfigError(f"sa_pipe=on needs iters=1 (iters={p['ITERS']}; contract §8.1)")
    if p.get("SAPIPE") and p.get("VcAdaptEn"):
        raise ConfigError("sa_pipe=on excludes vc_adaptive=on (contract §8.1)")
    if p["TABLE"] > 1 << p["DW"]:
        raise ConfigError(f"table_entries={p['TABLE']} exceeds 2^dest_bits = {1 << p['DW']}")


def load(path=FILE):
    with open(path, "rb") as f:
        return tomllib.load(f)


def defaults(data=None):
    """The switch's own defaults (RTL parameter defaults, every feature off), RTL names."""
    data = data or load()
    return {RTL[k]: parse_value(k, v) for k, v in data["defaults"].items()}


def resolve(entry, data=None, where="configuration", _seen=()):
    """A configuration table (user names, optional base = "section.name") -> complete RTL
    parameter dict on top of [defaults]."""
    data = data or load()
    entry = dict(entry)
    base = entry.pop("base", None)
    if base is not None:
        if base in _seen:
            raise ConfigError(f"{where}: base loop through {base}")
        sec, _, name = base.partition(".")
        if name not in data.get(sec, {}):
            raise ConfigError(f"{where}: base {base} does not exist")
        out = resolve(data[sec][name], data, base, _seen + (base,))
    else:
        out = defaults(data)
    for k, v in entry.items():
        try:
            out[RTL.get(k, k)] = parse_value(k, v)
        except ConfigError as e:
            raise ConfigError(f"{where}: {e}") from None
    check_rtl(out)
    return out


def section(name, data=None):
    """{entry name: complete RTL parameter dict} of one section (fpga, board, cosim)."""
    data = data or load()
    return {k: resolve(v, data, f"{name}.{k}") for k, v in data.get(name, {}).items()}


def lint_sets(data=None):
    data = data or load()
    return [resolve(e, data, f"lint[{i}]") for i, e in enumerate(data.get("lint", {}).get("sets", []))]


def parse_set(text, base=None):
    """SET="k=v k=v ..." (user names) applied on top of base (RTL dict; the defaults if
    None) -> RTL dict; ConfigError on an unknown name or a bad value."""
    out = dict(base if base is not None else defaults())
    for word in text.replace(",", " ").split():
        k, eq, v = word.partition("=")
        if not eq or not v:
            raise ConfigError(f"{word!r}: want name=value (names: {' '.join(VOCAB)})")
        out[RTL[k] if k in RTL else k] = parse_value(k, v)
    check_rtl(out)
    return out


def feature_mask(p):
    """ASW_FEAT_* bits (PARAM2[31:23], PARAM3[7:6] order) of the features on in RTL dict p."""
    return sum(1 << i for i, f in enumerate(FEATURES) if p.get(RTL[f], 0))


def features_on(p):
    return [f for f in FEATURES if p.get(RTL[f], 0)]


def gflags(p, sized=False):
    """-G flags of RTL dict p; sized: the 1-bit feature parameters as 1'b0/1'b1 (Verilator
    -Wall warns on a 32-bit value for a `bit` parameter)."""
    return " ".join(f"-G{k}=1'b{v}" if sized and k in FEATURE_PARAMS else f"-G{k}={v}"
                    for k, v in p.items())


def describe(p):
    """Short user-vocabulary text of p: the base parameters, SE if set, the features on."""
    s = " ".join(f"{USER[k]}={('on' if p[k] else 'off') if VOCAB[USER[k]][1] == 'bool' else p[k]}"
                 for k in BASE_PARAMS)
    if p.get("SE"):
        s += f" sar_entries={p['SE']}"
    if p.get("SAPIPE"):
        s += " sa_pipe=on"
    on = features_on(p)
    return s + (" " + " ".join(f"{f}=on" for f in on) if on else "")


def main(argv):
    data = load()
    if len(argv) >= 1 and argv[0] == "list":
        secs = argv[1:] or ["fpga", "board", "cosim"]
        for s in secs:
            if s == "lint":
                for i, p in enumerate(lint_sets(data)):
                    print(f"lint[{i}] {describe(p)}")
            else:
                for k, p in section(s, data).items():
                    print(f"{s}.{k}: {describe(p)}")
        return 0
    if len(argv) == 2 and argv[0] == "show":
        sec, _, name = argv[1].partition(".")
        if name not in data.get(sec, {}):
            print(f"switch_configs: no configuration {argv[1]}", file=sys.stderr)
            return 2
        p = resolve(data[sec][name], data, argv[1])
        print(describe(p))
        print(gflags(p))
        return 0
    if argv == ["lint-gflags"]:
        for p in lint_sets(data):
            print(gflags(p, sized=True))
        return 0
    if argv == ["check"]:
        n = 0
        try:
            for s in ("fpga", "board", "cosim"):
                n += len(section(s, data))
            n += len(lint_sets(data))
        except ConfigError as e:
            print(f"FAIL switch_configs: {e}")
            return 1
        print(f"PASS switch_configs: {n} configurations legal")
        return 0
    if argv == ["c-header"]:
        print(c_header(data), end="")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


C_FIELDS = (("P", "ports"), ("V", "vcs"), ("BUF", "buf_flits"), ("LMAX", "max_packet"),
            ("PW", "payload_bits"), ("DW", "dest_bits"), ("TABLE", "table_entries"),
            ("VOQ", "voq"), ("ITERS", "iters"), ("AE", "arn_entries"), ("SE", "sar_entries"),
            ("SAPIPE", "sa_pipe"),
            ("BubbleEn", "bubble"), ("PfcEn", "pfc"), ("QcnEn", "qcn"), ("RouteHashEn", "route_hash"),
            ("LinkFaultEn", "link_faults"), ("PortRateEn", "port_rate"), ("VcAdaptEn", "vc_adaptive"),
            ("RouteOblivEn", "oblivious"), ("RouteAdaptEn", "adaptive"), ("CountersEn", "counters"),
            ("ReadbackEn", "readback"))


def c_header(data=None):
    """Every named configuration as an asw_config initializer (generated; not in git)."""
    data = data or load()
    rows = []
    for sec in ("fpga", "board", "cosim"):
        rows += [(f"{sec}.{k}", p) for k, p in section(sec, data).items()]
    rows += [(f"lint[{i}]", p) for i, p in enumerate(lint_sets(data))]
    out = ["/* Generated by configs/switch_configs.py c-header from configs/switch_configs.toml. */",
           "#define ASW_NAMED_CONFIGS { \\"]
    for name, p in rows:
        init = ", ".join(f".{c} = {p.get(r, 0)}" for r, c in C_FIELDS)
        out.append(f'  {{"{name}", {{{init}}}, {feature_mask(p)}u}}, \\')
    out.append("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ConfigError as e:
        print(f"switch_configs: {e}", file=sys.stderr)
        sys.exit(2)
