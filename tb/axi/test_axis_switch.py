"""cocotb test of rtl/axi/asw_axis_switch.sv (toplevel tb/axi/tb_axis_switch.sv) against the
C golden model through the Python binding (sw/arnswitch).

The bus side is cocotbext-axi: an AxiStreamSource on every slave with random packets
(random VC, SL, length, destination, payload) and random pauses, an AxiStreamSink on
every master with random backpressure, an AxiLiteMaster that programs and reads the
registers. The simulator is Icarus, running the Yosys netlist of the toplevel
(rtl/axi/README.md: cocotbext-axi's models hang under Verilator 5.006). The same packets
go through the C model (arnswitch.Switch, programmed with the same register writes,
driven with credits).
Checked:
- losslessness: every packet sent leaves, once, whole;
- routing and headers against the model: each packet leaves on the model's output port
  with the model's output VC, header and payload;
- order: each flow (input, input VC, output, output VC) keeps the model's order;
- registers over AXI4-Lite equal the model's: ID, PARAM0..2, per-port flits/packets
  in/out and route-error counters, CRED after the drain, REG_ERRORS after an illegal
  write; a partial-strobe write answers SLVERR and writes nothing;
- a packet longer than LMAX and one on a VC >= V are dropped (rx_drop) and the
  traffic after them is intact.
Seed: ASW_AXI_SEED (default 1); packets per input: ASW_AXI_PACKETS (default 40);
parameters: ASW_AXI_PARAMS (the netlist has none left; `make axi-sim` sets it);
ASW_AXI_PLANT=1 programs the model with one different FWD entry (a planted bug).
"""
import logging
import os
import random
import sys

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotbext.axi import (AxiLiteBus, AxiLiteMaster, AxiStreamBus, AxiStreamFrame,
                           AxiStreamSink, AxiStreamSource)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sw"))
import arnswitch as asw  # noqa: E402

SEED = int(os.environ.get("ASW_AXI_SEED", "1"))
PACKETS = int(os.environ.get("ASW_AXI_PACKETS", "40"))
# ASW_AXI_PLANT=1: the model gets one different FWD entry (the test must fail)
PLANT = os.environ.get("ASW_AXI_PLANT") == "1"


PARAM_NAMES = ("P", "V", "BUF", "LMAX", "PW", "DW", "TABLE", "VOQ", "ITERS")


def params(dut):
    """The toplevel's parameters: from ASW_AXI_PARAMS ("P=4 V=2 ...", every name) when
    set (the Icarus run simulates a flattened netlist, which has no parameters left),
    else read from the toplevel."""
    env = os.environ.get("ASW_AXI_PARAMS")
    if env is None:
        return {k: int(getattr(dut, k).value) for k in PARAM_NAMES}
    p = dict((k, int(v)) for k, v in (kv.split("=") for kv in env.split()))
    missing = [k for k in PARAM_NAMES if k not in p]
    assert not missing, "ASW_AXI_PARAMS lacks %s" % ", ".join(missing)
    return p


def model_config(p):
    return dict(ports=p["P"], vcs=p["V"], buf_flits=p["BUF"], max_packet=p["LMAX"],
                payload_bits=p["PW"], dest_bits=p["DW"], table_entries=p["TABLE"],
                voq=p["VOQ"], iters=p["ITERS"], arn_entries=0,
                # contract §1: tb_axis_switch builds the counters and the read-back it reads
                counters=1, readback=1)


class Packet:
    def __init__(self, port, vc, dest, sl, seq, payload):
        self.port, self.vc, self.dest, self.sl, self.seq = port, vc, dest, sl, seq
        self.payload = payload

    def hdr(self):
        return asw.hdr_make(self.dest, src=self.port, sl=self.sl, length=len(self.payload),
                            seq=self.seq)

    def beats(self):
        """(tdata, tlast, tdest, tuser) of each beat."""
        tuser = (self.hdr() >> 16) << 3 | self.vc
        n = len(self.payload)
        return [(x, int(k == n - 1), self.dest, tuser) for k, x in enumerate(self.payload)]


OKAY, SLVERR = 0, 2


def pauses(rng, prob):
    """cocotbext-axi pause generator: pause (valid or ready low) with probability prob."""
    while True:
        yield rng.random() < prob


class Bfm:
    """The test's bus side, all cocotbext-axi: one AxiStreamSource per slave port and one
    AxiStreamSink per master port (one beat = one flit: byte_lanes=1, so a frame's tdata
    is the list of the packet's payloads), both with random pauses, and an AxiLiteMaster
    on s_axil. rx_drop pulses are counted by a task of its own."""

    def __init__(self, dut, P, rng, pause):
        self.dut, self.P = dut, P
        self.src, self.sink = [], []
        for n in ["s%d_axis" % i for i in range(P)] + ["m%d_axis" % i for i in range(P)] + [
                "s_axil"]:  # no listing of the bus signals, no line per frame
            logging.getLogger("cocotb.%s.%s" % (dut._name, n)).setLevel(logging.WARNING)
        for i in range(P):
            s = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s%d_axis" % i), dut.clk,
                                dut.rst_n, reset_active_level=False, byte_lanes=1)
            s.set_pause_generator(pauses(random.Random(rng.random()), pause))
            m = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m%d_axis" % i), dut.clk,
                              dut.rst_n, reset_active_level=False, byte_lanes=1)
            m.set_pause_generator(pauses(random.Random(rng.random()), pause))
            self.src.append(s)
            self.sink.append(m)
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst_n,
                                  reset_active_level=False)
        self.drops = [0] * P
        self.rx = [[] for _ in range(P)]      # packets received per master port

    async def count_drops(self):
        while True:
            await RisingEdge(self.dut.clk)
            v = int(self.dut.rx_drop.value)
            for i in range(self.P):
                self.drops[i] += v >> i & 1

    def send(self, pk):
        self.src[pk.port].send_nowait(AxiStreamFrame(tdata=list(pk.payload), tdest=pk.dest,
                                                     tuser=(pk.hdr() >> 16) << 3 | pk.vc))

    def poll(self):
        """Frames the sinks have received since the last call, as beat lists
        [(tdata, tdest, tuser)] per master port."""
        for i in range(self.P):
            while not self.sink[i].empty():
                f = self.sink[i].recv_nowait(compact=False)
                self.rx[i].append(list(zip(f.tdata, f.tdest, f.tuser)))

    async def write(self, addr, value, strb=0xF):
        """Register word address addr (byte address 4*addr); returns BRESP. strb 0x3
        writes the low two bytes only (WSTRB 4'b0011)."""
        n = 4 if strb == 0xF else 2
        assert strb in (0xF, 0x3)
        r = await self.axil.write(addr * 4, (value & (1 << 8 * n) - 1).to_bytes(n, "little"))
        return int(r.resp)

    async def read(self, addr):
        r = await self.axil.read(addr * 4, 4)
        assert int(r.resp) == OKAY, "read 0x%x: RRESP %d" % (addr, int(r.resp))
        return int.from_bytes(r.data, "little")

    async def cycles(self, n):
        await ClockCycles(self.dut.clk, n)


def run_model(p, writes, packets):
    """The packets through the C model, each input sending its packets in order as
    soon as it holds the credits, every output returning each credit the next cycle.
    Returns the switch and {(src, seq): (out_port, out_vc, hdr, payload list)} plus
    the order of arrival per output."""
    sw = asw.Switch(model_config(p))
    for a, d in writes:
        try:
            sw.reg_write(a, d)
        except ValueError:
            pass  # illegal writes are counted by the model, as by the RTL
    P, V = p["P"], p["V"]
    queues = [[pk for pk in packets if pk.port == i] for i in range(P)]
    credits = [[p["BUF"]] * V for _ in range(P)]
    cur = [None] * P
    idx = [0] * P
    got, order, partial = {}, {o: [] for o in range(P)}, {}
    back = {}
    cycles = 0
    total = len(packets)
    while len(got) < total:
        flits = {}
        for i in range(P):
            if cur[i] is None and queues[i]:
                pk = queues[i][0]
                if credits[i][pk.vc] >= len(pk.payload):
                    credits[i][pk.vc] -= len(pk.payload)
                    cur[i] = queues[i].pop(0)
                    idx[i] = 0
            if cur[i] is not None:
                pk, k = cur[i], idx[i]
                flits[i] = asw.Flit(head=int(k == 0), tail=int(k == len(pk.payload) - 1),
                                    vc=pk.vc, hdr=pk.hdr() if k == 0 else 0,
                                    payload=pk.payload[k])
                idx[i] += 1
                if idx[i] == len(pk.payload):
                    cur[i] = None
        out = sw.step(flits=flits, credits=back)
        back = {}
        for i, v in out.credits.items():
            credits[i][v] += 1
        for o, f in out.flits.items():
            back[o] = f.vc
            key = (o, f.vc)
            if f.head:
                h = asw.hdr_fields(f.hdr)
                partial[key] = [(h["src"], h["seq"]), f.hdr, []]
            partial[key][2].append(f.payload)
            if f.tail:
                ident, hdr, pl = partial.pop(key)
                got[ident] = (o, f.vc, hdr, pl)
                order[o].append(ident)
        cycles += 1
        assert cycles < 200000, "model did not deliver every packet"
    while back:  # the sinks' last credits
        out = sw.step(credits=back)
        back = {}
    return sw, got, order


@cocotb.test()
async def axis_switch_vs_model(dut):
    p = params(dut)
    P, V, LMAX, PW, TABLE = p["P"], p["V"], p["LMAX"], p["PW"], p["TABLE"]
    rng = random.Random(SEED)
    cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())
    bfm = Bfm(dut, P, rng, pause=0.3)
    drops = bfm.drops
    dut.rst_n.value = 0
    await Timer(40, units="ns")
    dut.rst_n.value = 1
    cocotb.start_soon(bfm.count_drops())
    await bfm.cycles(2)

    ref = asw.Switch(model_config(p))
    for a in (asw.REG_ID, asw.REG_PARAM0, asw.REG_PARAM1, asw.REG_PARAM2):
        assert await bfm.read(a) == ref.reg_read(a), "register 0x%x" % a

    # forwarding table: a random permutation of the ports, the last 3 entries invalid
    perm = list(range(P))
    rng.shuffle(perm)
    writes = [(asw.reg_fwd(d), asw.fwd_entry(perm[d % P])) for d in range(TABLE - 3)]
    writes.append((asw.REG_DEFAULT_PORT, P))        # illegal: counted in REG_ERRORS
    writes.append((asw.REG_DEFAULT_PORT, P - 1))
    for a, d in writes:
        assert await bfm.write(a, d) == OKAY
    # a partial-strobe write is refused and writes nothing
    assert await bfm.write(asw.REG_DEFAULT_PORT, 0, strb=0x3) == SLVERR
    assert await bfm.read(asw.REG_DEFAULT_PORT) == P - 1

    packets, seq = [], [0] * P
    for i in range(P):
        for _ in range(PACKETS):
            n = rng.randint(1, LMAX)
            packets.append(Packet(i, rng.randrange(V), rng.randrange(TABLE), rng.randrange(16),
                                  seq[i], [rng.getrandbits(PW) for _ in range(n)]))
            seq[i] += 1
    for pk in packets:
        bfm.send(pk)

    received = {}
    order = {o: [] for o in range(P)}
    taken = [0] * P

    def collect():
        bfm.poll()
        for o in range(P):
            for beats in bfm.rx[o][taken[o]:]:
                taken[o] += 1
                dest, user = beats[0][1], beats[0][2]
                assert all((b[1], b[2]) == (dest, user) for b in beats), \
                    "tdest/tuser change inside a packet"
                hdr = (user >> 3) << 16 | dest
                h = asw.hdr_fields(hdr)
                ident = (h["src"], h["seq"])
                assert ident not in received, "packet %s delivered twice" % (ident,)
                received[ident] = (o, user & 7, hdr, [b[0] for b in beats])
                order[o].append(ident)

    for _ in range(2000):
        await bfm.cycles(100)
        collect()
        if len(received) == len(packets):
            break
    assert len(received) == len(packets), "%d of %d packets delivered" % (len(received),
                                                                          len(packets))

    if PLANT:
        writes = writes + [(asw.reg_fwd(0), asw.fwd_entry((perm[0] + 1) % P))]
    sw, expect, morder = run_model(p, writes, packets)
    for ident, exp in expect.items():
        assert received[ident] == exp, "packet %s: RTL %s model %s" % (ident, received[ident],
                                                                       exp)
    # per flow (input, input VC, output, output VC) the order of the model
    in_vc = {(pk.port, pk.seq): pk.vc for pk in packets}
    for o in range(P):
        for src in range(P):
            for iv in range(V):
                for v in range(V):
                    a = [x for x in order[o]
                         if x[0] == src and in_vc[x] == iv and received[x][1] == v]
                    b = [x for x in morder[o]
                         if x[0] == src and in_vc[x] == iv and expect[x][1] == v]
                    assert a == b, "flow %d VC %d -> %d VC %d order" % (src, iv, o, v)
    await bfm.cycles(50)
    for i in range(P):
        for k in (asw.CNT_FLITS_IN, asw.CNT_FLITS_OUT, asw.CNT_PACKETS_IN, asw.CNT_PACKETS_OUT,
                  asw.CNT_ROUTE_ERRORS):
            a = asw.reg_counter(i, k)
            assert await bfm.read(a) == sw.reg_read(a), "counter %d of port %d" % (k, i)
        for v in range(V):
            assert await bfm.read(asw.reg_cred(i, v)) == p["BUF"] == sw.reg_read(
                asw.reg_cred(i, v))
    assert await bfm.read(asw.REG_REG_ERRORS) == sw.reg_read(asw.REG_REG_ERRORS) == 1
    assert sum(sw.reg_read(asw.reg_counter(i, asw.CNT_ROUTE_ERRORS)) for i in range(P)) > 0, \
        "no packet met an invalid entry: the test misses §7.5"

    # drops: too long, bad VC; the packets after them arrive
    assert drops == [0] * P, drops
    bad = [Packet(1, 0, 0, 0, 60000, list(range(LMAX + 2)))]
    if V < 8:
        bad.append(Packet(2, V, 0, 0, 60001, [7]))
    good = [Packet(1, 0, 1, 0, 60002, [1, 2]), Packet(2, 0, 2, 0, 60003, [3])]
    for pk in bad + good:
        bfm.send(pk)
    for _ in range(100):
        await bfm.cycles(20)
        collect()
        if all((pk.port, pk.seq) in received for pk in good):
            break
    assert drops[1] == 1 and drops[2] == (1 if V < 8 else 0), drops
    for pk in good:
        assert received[(pk.port, pk.seq)][3] == pk.payload
    assert all((pk.port, pk.seq) not in received for pk in bad)
    dut._log.info("%d packets, %d flits: RTL = model; drops %s", len(packets),
                  sum(len(pk.payload) for pk in packets), drops)
