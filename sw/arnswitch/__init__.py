"""arnswitch — Python binding of the arnswitch golden model (libarnswitch, ctypes).

    from arnswitch import Switch, Flit, hdr_make, reg_fwd, fwd_entry
    sw = Switch(ports=4, vcs=2, max_packet=4)       # any asw_config field; ValueError if illegal
    sw.reg_write(reg_fwd(3), fwd_entry(3))         # FWD[3]: leave on port 3
    out = sw.step(flits={0: Flit(head=1, tail=1, vc=0, hdr=hdr_make(dest=3, length=1))})
    out.flits, out.credits, out.arn, out.reg_rdata  # this cycle's outputs (contract §3, §10)
    Network(ports=4, stages=2, traffic="uniform", load=0.5, cycles=2000).run()  # asw net

One Switch is one asw_switch: step() is one clock cycle (outputs of the cycle,
then the state update, exactly as asw_switch_step). A link-protocol violation
raises ProtocolError and changes nothing; illegal register writes raise
ValueError (the switch counts them in REG_ERRORS like the hardware).
The shared library is found through ARNSWITCH_LIB, the installation this
package belongs to (PREFIX/lib), the repository's build/lib (make lib) or the
system's library path.
"""
import ctypes
import dataclasses
import json
import os
import shutil
import subprocess
from typing import Dict, Optional

from . import _lib

_C, LIBRARY_PATH = _lib.load()

OK, EINVAL, ENOMEM, EPROTO = 0, -1, -2, -3

# Register addresses (contract §11, §15.8, §16.2); word addresses as on the register bus.
REG_ID, REG_PARAM0, REG_PARAM1, REG_PARAM2 = 0x00000, 0x00001, 0x00002, 0x00003
REG_ROUTE_CTRL, REG_VC_CTRL, REG_THRESH, REG_LFSR_SEED = 0x00010, 0x00011, 0x00012, 0x00013
REG_DEFAULT_PORT, REG_CNT_CLEAR, REG_REG_ERRORS = 0x00014, 0x00015, 0x00016
REG_ARN_CTRL, REG_CD_THRESH, REG_FCTH, REG_CRT, REG_ARN_TTL = 0x20, 0x23, 0x24, 0x25, 0x26
ID_VALUE = 0x41535731
CNT_FLITS_IN, CNT_FLITS_OUT, CNT_PACKETS_IN, CNT_PACKETS_OUT = 0, 1, 2, 3
CNT_CREDIT_STALL, CNT_SA_LOST, CNT_ROUTE_ERRORS, CNT_ADAPTIVE = 4, 5, 6, 7
ROUTE_DET, ROUTE_OBLIVIOUS, ROUTE_ADAPTIVE, ROUTE_VCADAPT = 0, 1, 2, 3
# contract §1 optional features (asw_config fields, 1 built, 0 left out: the default; a
# feature not built has its registers unmapped) and their bits k: PARAM2[23 + k] for k < 9,
# PARAM3[6 + k - 9] for k = 9, 10 (§11)
FEATURES = ("bubble", "pfc", "qcn", "link_faults", "vc_adaptive", "route_hash", "port_rate",
            "oblivious", "adaptive", "counters", "readback")
FEAT_BUBBLE, FEAT_PFC, FEAT_QCN, FEAT_LINK_FAULTS, FEAT_VC_ADAPTIVE = 1, 2, 4, 8, 16
FEAT_ROUTE_HASH, FEAT_PORT_RATE, FEAT_OBLIVIOUS, FEAT_ADAPTIVE = 32, 64, 128, 256
FEAT_COUNTERS, FEAT_READBACK = 512, 1024
REG_BUBBLE0, REG_PFC_EN0, REG_PFC_THRESH = 0x04000, 0x00040, 0x00042
REG_QCN_QEQ = 0x00044  # §17.4
REG_PARAM3, REG_SAR_CTRL, REG_SAR_TTL, REG_SAR_SEED = 0x00004, 0x00050, 0x00051, 0x00052  # §17.8
REG_LINK_DOWN0 = 0x00018  # §18.4 (RO)


def reg_cset(c, w): return 0x00100 + 2 * c + w
def reg_sl2vc(o, s): return 0x01000 + 16 * o + s
def reg_counter(p, k): return 0x02000 + 8 * p + k
def reg_occ(i, v, q): return 0x40000 + 512 * i + 64 * v + q
def reg_cred(o, v): return 0x50000 + 8 * o + v
def reg_fwd(d): return 0x80000 + d
def reg_arn_up(w): return 0x00021 + w
def reg_arn_counter(p, k): return 0x02800 + 16 * p + k
def reg_bubble(o): return 0x04000 + o                   # §16.2
def reg_bubble_counter(p, k): return 0x04040 + 2 * p + k  # k 0 ring_enter, 1 bubble_stall


def bubble_entry(ring_in, ring_valid=1, vcs=1):
    """BUBBLE[o] value (contract §16.2): the input continuing o's ring, the VCs under the rule."""
    return (ring_in & 0x3F) | (ring_valid & 1) << 6 | (vcs & 0xFF) << 8


def fwd_entry(det_port, lookahead=0, cset=0, multipath=0):
    """FWD[d] value (contract §7.1), valid bit set."""
    return ((det_port & 0x3F) | (lookahead & 0x3F) << 8 | (cset & 3) << 16
            | (multipath & 1) << 30 | 1 << 31)


def route_ctrl(mode, trigger=0, stage_mask=0xFF, stage=1):
    return (mode & 3) | (trigger & 3) << 2 | (stage_mask & 0xFF) << 4 | (stage & 0xF) << 12


def hdr_make(dest, src=0, sl=0, length=1, adapted=0, orig_vc=0, seq=0):
    """64-bit header (contract §2)."""
    return ((dest & 0xFFFF) | (src & 0xFFFF) << 16 | (sl & 0xF) << 32 | (length & 0xFF) << 36
            | (adapted & 1) << 44 | (orig_vc & 7) << 45 | (seq & 0xFFFF) << 48)


def hdr_fields(h):
    return {"dest": h & 0xFFFF, "src": h >> 16 & 0xFFFF, "sl": h >> 32 & 0xF,
            "len": h >> 36 & 0xFF, "adapted": h >> 44 & 1, "orig_vc": h >> 45 & 7,
            "seq": h >> 48 & 0xFFFF}


class ProtocolError(RuntimeError):
    """A link-protocol violation on the inputs of a step (contract §2, §9)."""


@dataclasses.dataclass(frozen=True)
class Flit:
    head: int
    tail: int
    vc: int
    hdr: int = 0
    payload: int = 0


@dataclasses.dataclass
class Inputs:
    flits: Dict[int, Flit] = dataclasses.field(default_factory=dict)   # input port -> flit
    credits: Dict[int, int] = dataclasses.field(default_factory=dict)  # output port -> VC
    arn: Dict[int, int] = dataclasses.field(default_factory=dict)      # output port -> message
    reg_en: int = 0
    reg_we: int = 0
    reg_addr: int = 0
    reg_wdata: int = 0
    cnm: Dict[int, int] = dataclasses.field(default_factory=dict)      # port -> CNM word (§17.8 lane)


@dataclasses.dataclass
class Outputs:
    flits: Dict[int, Flit]       # output port -> flit leaving
    credits: Dict[int, int]      # input port -> VC of the credit returned upstream
    arn: Dict[int, int]          # input port -> ARN message upstream
    reg_rdata: Optional[int]     # read data (reg_rvalid), None if no read last cycle
    cnm: Dict[int, int] = dataclasses.field(default_factory=dict)  # port -> CNM word sent (§17.8)


CONFIG_FIELDS = [n for n, _ in _lib.AswConfig._fields_]


def default_config():
    c = _lib.AswConfig()
    _C.asw_config_default(ctypes.byref(c))
    return {n: getattr(c, n) for n in CONFIG_FIELDS}


# Vocabulary name -> asw_config field where they differ (Switch takes both).
VOCABULARY_FIELDS = {"buffer_flits": "buf_flits"}


class Switch:
    """One golden-model switch. Switch(cfg_dict) or Switch(ports=..., vcs=..., ...):
    fields of asw_config (CONFIG_FIELDS), the others at asw_config_default."""

    def __init__(self, cfg=None, **kw):
        merged = dict(cfg or {})
        merged.update(kw)
        # the vocabulary's names (docs/options.md) for the fields that asw_config spells
        # otherwise: Switch(buffer_flits=8) as Network(buffer_flits=8)
        for name, field in VOCABULARY_FIELDS.items():
            if name in merged:
                if field in merged and merged[field] != merged[name]:
                    raise ValueError("%s=%r and %s=%r name the same field" % (
                        name, merged[name], field, merged[field]))
                merged[field] = merged.pop(name)
        c = _lib.AswConfig()
        _C.asw_config_default(ctypes.byref(c))
        for k, v in merged.items():
            if k not in CONFIG_FIELDS:
                raise ValueError("unknown configuration field '%s' (fields: %s)"
                                 % (k, ", ".join(CONFIG_FIELDS)))
            if not isinstance(v, int) or v < 0 or v > 0xFFFFFFFF:
                raise ValueError("configuration field %s: not an unsigned 32-bit integer: %r"
                                 % (k, v))
            setattr(c, k, v)
        err = ctypes.create_string_buffer(256)
        self._h = _C.asw_switch_new(ctypes.byref(c), err, len(err))
        if not self._h:
            raise ValueError(err.value.decode())
        self.config = {n: getattr(c, n) for n in CONFIG_FIELDS}
        P = self.ports = c.ports
        self._fin = (_lib.AswFlit * P)()
        self._cin = (ctypes.c_uint8 * P)()
        self._ain = (ctypes.c_uint32 * P)()
        self._fout = (_lib.AswFlit * P)()
        self._cout = (ctypes.c_uint8 * P)()
        self._aout = (ctypes.c_uint32 * P)()
        self._nin = (ctypes.c_uint64 * P)()
        self._nout = (ctypes.c_uint64 * P)()
        self._in = _lib.AswInputs()
        self._in.flit, self._in.credit_vc, self._in.arn = self._fin, self._cin, self._ain
        self._out = _lib.AswOutputs()
        self._out.flit, self._out.credit_vc, self._out.arn = self._fout, self._cout, self._aout
        self._in.cnm, self._out.cnm = self._nin, self._nout

    def close(self):
        if getattr(self, "_h", None):
            _C.asw_switch_free(self._h)
            self._h = None

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if not self._h:
            raise ValueError("switch is closed")
        return self._h

    def _port(self, p, what):
        if not isinstance(p, int) or not 0 <= p < self.ports:
            raise ValueError("%s: port %r out of range 0..%d" % (what, p, self.ports - 1))
        return p

    def step(self, inputs=None, **kw):
        """One clock cycle. inputs: an Inputs, a dict of its fields, or its fields as
        keywords; returns this cycle's Outputs."""
        if inputs is None:
            inputs = Inputs(**kw)
        elif isinstance(inputs, dict):
            inputs = Inputs(**inputs)
        i = self._in
        i.flit_mask = i.credit_mask = i.arn_mask = i.cnm_mask = 0
        for p, f in inputs.flits.items():
            self._port(p, "flits")
            self._fin[p] = _lib.AswFlit(1, f.head, f.tail, f.vc, f.hdr, f.payload)
            i.flit_mask |= 1 << p
        for p, vc in inputs.credits.items():
            self._port(p, "credits")
            self._cin[p] = vc
            i.credit_mask |= 1 << p
        for p, m in inputs.arn.items():
            self._port(p, "arn")
            self._ain[p] = m
            i.arn_mask |= 1 << p
        for p, w in inputs.cnm.items():
            self._port(p, "cnm")
            self._nin[p] = w
            i.cnm_mask |= 1 << p
        i.reg_en, i.reg_we = inputs.reg_en, inputs.reg_we
        i.reg_addr, i.reg_wdata = inputs.reg_addr, inputs.reg_wdata
        o = self._out
        rc = _C.asw_switch_step(self._handle(), ctypes.byref(i), ctypes.byref(o))
        if rc != OK:
            raise ProtocolError(_C.asw_switch_error(self._h).decode())
        flits, credits, arn = {}, {}, {}
        m = o.flit_mask
        while m:
            p = (m & -m).bit_length() - 1
            m &= m - 1
            f = self._fout[p]
            flits[p] = Flit(f.head, f.tail, f.vc, f.hdr, f.payload)
        m = o.credit_mask
        while m:
            p = (m & -m).bit_length() - 1
            m &= m - 1
            credits[p] = self._cout[p]
        m = o.arn_mask
        while m:
            p = (m & -m).bit_length() - 1
            m &= m - 1
            arn[p] = self._aout[p]
        cnm = {}
        m = o.cnm_mask
        while m:
            p = (m & -m).bit_length() - 1
            m &= m - 1
            cnm[p] = self._nout[p]
        return Outputs(flits, credits, arn, o.reg_rdata if o.reg_rvalid else None, cnm)

    def reg_read(self, addr):
        d = ctypes.c_uint32()
        if _C.asw_reg_read(self._handle(), addr, ctypes.byref(d)) != OK:
            raise ValueError("register read 0x%05x refused" % addr)
        return d.value

    def reg_write(self, addr, value):
        if _C.asw_reg_write(self._handle(), addr, value) != OK:
            raise ValueError("register write 0x%05x = 0x%x refused: illegal value or read-only/"
                             "unmapped address (contract §11; counted in REG_ERRORS)"
                             % (addr, value))

    def load_table(self, text=None, path=None, name="table"):
        """Applies a register table (cmodel/asw_table.h format) given as text or a file."""
        err = ctypes.create_string_buffer(512)
        if (text is None) == (path is None):
            raise ValueError("load_table: give exactly one of text= and path=")
        if path is not None:
            rc = _C.asw_table_load(self._handle(), os.fsencode(path), err, len(err))
        else:
            rc = _C.asw_table_apply(self._handle(), text.encode(), name.encode(), err, len(err))
        if rc != OK:
            raise ValueError(err.value.decode())

    def reset(self):
        _C.asw_switch_reset(self._handle())

    def idle(self):
        return bool(_C.asw_switch_idle(self._handle()))


def find_asw():
    """The asw program: ARNSWITCH_ASW, the installation's bin/, build/asw, PATH."""
    here = os.path.dirname(os.path.abspath(__file__))
    for p in (os.environ.get("ARNSWITCH_ASW"),
              os.path.join(here, "..", "..", "..", "..", "bin", "asw"),
              os.path.join(here, "..", "..", "build", "asw"), shutil.which("asw")):
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return os.path.normpath(p)
    raise OSError("the asw program was not found: `make build/asw`, `make install`, "
                  "or set ARNSWITCH_ASW")


class Network:
    """A whole-network run of `asw net`: Network(key=value, ...) with the keys of
    `asw net --help`; run() returns the JSON summary as a dict (its wall-clock
    figures, which differ from run to run, under "wall")."""

    def __init__(self, config_file=None, **keys):
        for field, name in ((f, n) for n, f in VOCABULARY_FIELDS.items()):
            if field in keys:  # asw_config's spelling: the vocabulary's name here
                raise ValueError("%s: renamed to %s (docs/options.md)" % (field, name))
        self.config_file = config_file
        self.keys = keys

    def args(self):
        a = [self.config_file] if self.config_file else []
        for k, v in self.keys.items():
            if isinstance(v, bool):
                v = "on" if v else "off"
            elif isinstance(v, (list, tuple)):
                v = ",".join(str(x) for x in v)
            a.append("%s=%s" % (k, v))
        return a

    def run(self, seed=None, asw=None):
        cmd = [asw or find_asw(), "net"] + self.args() + ["--json", "-", "--quiet"]
        if seed is not None:
            cmd += ["--seed", str(seed)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("asw net failed (exit %d): %s" % (p.returncode,
                                                                  p.stderr.strip()))
        res = json.loads(p.stdout)
        # asw net writes the wall-clock figures on the JSON's last line: they go
        # under "wall", so two runs of one seed compare equal without them.
        lines = p.stdout.rstrip().splitlines()
        last = lines[-2].strip().rstrip(",") if len(lines) >= 2 else ""
        try:
            wall_keys = json.loads("{%s}" % last).keys()
        except ValueError:
            wall_keys = ()
        res["wall"] = {k: res.pop(k) for k in list(wall_keys) if k in res}
        return res
