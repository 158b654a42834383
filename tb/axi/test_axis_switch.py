"""cocotb test of rtl/axi/asw_axis_switch.sv (toplevel tb/axi/tb_axis_switch.sv) against the
C golden model through the Python binding (sw/arnswitch).

A bus-functional model (class Bfm: one task steps every AXI4-Stream source and sink and
the AXI4-Lite master once per clock edge) drives every slave with random packets
(random VC, SL, length, destination, payload; random pauses) and every master with
random backpressure, and programs and reads the registers over AXI4-Lite.
cocotbext-axi 0.1.24 is not used: under cocotb 1.9.2 / 1.8.1 with Verilator 5.006
(Debian's) its driver tasks stop being resumed after their first clock edges (seen
here: tvalid never rises), so the test carries its own small BFM. The same packets go through the C
model (arnswitch.Switch, programmed with the same register writes, driven with credits).
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
ASW_AXI_PLANT=1 programs the model with one different FWD entry (a planted bug).
"""
import os
import random
import sys

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sw"))
import arnswitch as asw  # noqa: E402

SEED = int(os.environ.get("ASW_AXI_SEED", "1"))
PACKETS = int(os.environ.get("ASW_AXI_PACKETS", "40"))
# ASW_AXI_PLANT=1: the model gets one different FWD entry (the test must fail)
PLANT = os.environ.get("ASW_AXI_PLANT") == "1"


def params(dut):
    return {k: int(getattr(dut, k).value) for k in
            ("P", "V", "BUF", "LMAX", "PW", "DW", "TABLE", "VOQ", "ITERS")}


def model_config(p):
    return dict(ports=p["P"], vcs=p["V"], buf_flits=p["BUF"], max_packet=p["LMAX"],
                payload_bits=p["PW"], dest_bits=p["DW"], table_entries=p["TABLE"],
                voq=p["VOQ"], iters=p["ITERS"], arn_entries=0)


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


class Bfm:
    """AXI4-Stream sources and sinks of every port and the AXI4-Lite master, stepped by
    one task at every rising clock edge: handshakes are sampled there (values before
    the edge), then the next cycle's signals are driven. Random pauses (valid low,
    ready low) with probability `pause`."""

    def __init__(self, dut, P, rng, pause):
        self.dut, self.P, self.rng, self.pause = dut, P, rng, pause
        self.s = [dict(valid=getattr(dut, "s%d_axis_tvalid" % i),
                       ready=getattr(dut, "s%d_axis_tready" % i),
                       data=getattr(dut, "s%d_axis_tdata" % i),
                       last=getattr(dut, "s%d_axis_tlast" % i),
                       dest=getattr(dut, "s%d_axis_tdest" % i),
                       user=getattr(dut, "s%d_axis_tuser" % i)) for i in range(P)]
        self.m = [dict(valid=getattr(dut, "m%d_axis_tvalid" % i),
                       ready=getattr(dut, "m%d_axis_tready" % i),
                       data=getattr(dut, "m%d_axis_tdata" % i),
                       last=getattr(dut, "m%d_axis_tlast" % i),
                       dest=getattr(dut, "m%d_axis_tdest" % i),
                       user=getattr(dut, "m%d_axis_tuser" % i)) for i in range(P)]
        self.txq = [[] for _ in range(P)]     # beats still to send per slave port
        self.cur = [None] * P                 # beat on the bus
        self.rx = [[] for _ in range(P)]      # packets received per master port
        self.part = [[] for _ in range(P)]
        self.axil_cmd = None                  # ("w", addr, data, strb) or ("r", addr)
        self.axil_phase = 0
        self.axil_result = None
        self.drops = [0] * P
        for i in range(P):
            self.s[i]["valid"].value = 0
            self.m[i]["ready"].value = 0
        for n in ("awvalid", "wvalid", "bready", "arvalid", "rready"):
            getattr(dut, "s_axil_" + n).value = 0

    def send(self, pk):
        self.txq[pk.port].extend(pk.beats())

    def busy(self):
        return any(self.txq) or any(c is not None for c in self.cur)

    async def run(self):
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            v = int(d.rx_drop.value)
            for i in range(self.P):
                self.drops[i] += v >> i & 1
            for i in range(self.P):
                s, m = self.s[i], self.m[i]
                if self.cur[i] is not None and int(s["ready"].value):
                    self.cur[i] = None
                if int(m["valid"].value) and int(m["ready"].value):
                    self.part[i].append((int(m["data"].value), int(m["dest"].value),
                                         int(m["user"].value)))
                    if int(m["last"].value):
                        self.rx[i].append(self.part[i])
                        self.part[i] = []
                if self.cur[i] is None and self.txq[i] and self.rng.random() >= self.pause:
                    self.cur[i] = self.txq[i].pop(0)
                if self.cur[i] is not None:
                    data, last, dest, user = self.cur[i]
                    s["data"].value, s["last"].value = data, last
                    s["dest"].value, s["user"].value = dest, user
                    s["valid"].value = 1
                else:
                    s["valid"].value = 0
                m["ready"].value = int(self.rng.random() >= self.pause)
            self._axil_step()

    def _axil_step(self):
        d, c = self.dut, self.axil_cmd
        if c is None:
            return
        if self.axil_phase == 0:          # present the address (and data)
            if c[0] == "w":
                d.s_axil_awaddr.value, d.s_axil_wdata.value, d.s_axil_wstrb.value = c[1], c[2], c[3]
                d.s_axil_awvalid.value = d.s_axil_wvalid.value = 1
            else:
                d.s_axil_araddr.value = c[1]
                d.s_axil_arvalid.value = 1
            self.axil_phase = 1
        elif self.axil_phase == 1:        # address accepted?
            if c[0] == "w" and int(d.s_axil_awready.value):
                d.s_axil_awvalid.value = d.s_axil_wvalid.value = 0
                d.s_axil_bready.value = 1
                self.axil_phase = 2
            elif c[0] == "r" and int(d.s_axil_arready.value):
                d.s_axil_arvalid.value = 0
                d.s_axil_rready.value = 1
                self.axil_phase = 2
        elif self.axil_phase == 2:        # response
            if c[0] == "w" and int(d.s_axil_bvalid.value):
                d.s_axil_bready.value = 0
                self.axil_result = int(d.s_axil_bresp.value)
                self.axil_cmd, self.axil_phase = None, 0
            elif c[0] == "r" and int(d.s_axil_rvalid.value):
                d.s_axil_rready.value = 0
                self.axil_result = (int(d.s_axil_rresp.value), int(d.s_axil_rdata.value))
                self.axil_cmd, self.axil_phase = None, 0

    async def _axil(self, cmd):
        self.axil_cmd, self.axil_result = cmd, None
        for _ in range(1000):
            await Timer(10, units="ns")
            if self.axil_cmd is None:
                return self.axil_result
        raise AssertionError("AXI4-Lite %s got no response" % (cmd,))

    async def write(self, addr, value, strb=0xF):
        """Register word address addr (byte address 4*addr); returns BRESP."""
        return await self._axil(("w", addr * 4, value, strb))

    async def read(self, addr):
        resp, data = await self._axil(("r", addr * 4))
        assert resp == OKAY, "read 0x%x: RRESP %d" % (addr, resp)
        return data

    async def cycles(self, n):
        await Timer(10 * n, units="ns")


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
    cocotb.start_soon(bfm.run())
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
