#!/usr/bin/env python3
"""Tests of the Python binding (sw/arnswitch) against the library's documented behaviour.

Plain Python (no test framework): each test_* function asserts; the run ends with
"arnswitch-py: N passed, N failed". The library is found as the binding finds it
(ARNSWITCH_LIB: make test-lib points it at an installed copy).
"""
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arnswitch as asw  # noqa: E402


def send_packet(sw, port, vc, hdr, length, start_payload=0):
    """Sends one packet flit by flit; returns the outputs of each cycle."""
    outs = []
    for i in range(length):
        f = asw.Flit(head=int(i == 0), tail=int(i == length - 1), vc=vc,
                     hdr=hdr if i == 0 else 0, payload=start_payload + i)
        outs.append(sw.step(flits={port: f}))
    return outs


def test_config_and_errors():
    d = asw.default_config()
    assert d["ports"] == 8 and d["vcs"] == 2 and d["buf_flits"] == 32, d
    try:
        asw.Switch(ports=65)
        raise AssertionError("ports=65 accepted")
    except ValueError as e:
        assert "65" in str(e) and "2..64" in str(e), e
    try:
        asw.Switch(portz=4)
        raise AssertionError("unknown field accepted")
    except ValueError as e:
        assert "portz" in str(e), e
    try:
        asw.Switch(ports=-1)
        raise AssertionError("negative value accepted")
    except ValueError as e:
        assert "ports" in str(e), e


def test_param_registers():
    with asw.Switch(ports=5, vcs=3, iters=2, voq=0, max_packet=6, payload_bits=40,
                    buffer_flits=12) as sw:
        assert sw.reg_read(asw.REG_ID) == asw.ID_VALUE
        p0 = sw.reg_read(asw.REG_PARAM0)
        assert (p0 & 0xFF, p0 >> 8 & 0xF, p0 >> 12 & 7, p0 >> 15 & 1, p0 >> 16 & 0xFF,
                p0 >> 24) == (5, 3, 2, 0, 6, 40), hex(p0)
        assert sw.reg_read(asw.REG_PARAM1) & 0xFFFF == 12


def test_features():
    """The optional features (contract §1): the registers of a feature not built read 0
    and every write to them is illegal (EINVAL, counted in REG_ERRORS); PARAM2[31:23] and
    PARAM3[7:6] read the features built. (The §18.4 registers are RO: a write is refused with or
    without the hardware.)"""
    regs = {"bubble": (asw.REG_BUBBLE0, 1 << 6 | 1 << 8, False),
            "pfc": (asw.REG_PFC_THRESH, 2 << 16 | 4, False),
            "qcn": (asw.REG_QCN_QEQ, 17, False),
            "route_hash": (0x00047, 2 << 0 | 1 << 4 | 1 << 8, False),
            "port_rate": (0x00048, 3, False),
            "link_faults": (asw.REG_LINK_DOWN0, 1, True),
            "oblivious": (asw.REG_LFSR_SEED, 0xBEEF, False),
            "adaptive": (asw.REG_THRESH, 2 << 16 | 1, False),
            "counters": (asw.reg_counter(1, 2), 1, True),
            "readback": (asw.reg_occ(1, 1, 1), 1, True)}
    for mask in range(2048):
        on = {f: mask >> k & 1 for k, f in enumerate(asw.FEATURES)}
        with asw.Switch(ports=4, vcs=2, buffer_flits=8, max_packet=4, **on) as sw:
            assert all(sw.config[f] == v for f, v in on.items())
            assert (sw.reg_read(asw.REG_PARAM2) >> 23 | (sw.reg_read(asw.REG_PARAM3) >> 6 & 3) << 9) == mask
            errors = 0
            for feat, (addr, value, ro) in regs.items():
                before = sw.reg_read(addr)
                try:
                    sw.reg_write(addr, value)
                    refused = False
                except ValueError:
                    refused = True
                assert refused == (ro or not on[feat]), (mask, hex(addr))
                if refused:
                    assert before == 0 and sw.reg_read(addr) == 0, (mask, hex(addr))
                    errors += 1
                else:
                    assert sw.reg_read(addr) == value, (mask, hex(addr), sw.reg_read(addr))
            assert sw.reg_read(asw.REG_REG_ERRORS) == errors, (mask, errors)
    with asw.Switch() as sw:  # every feature off by default
        assert sw.reg_read(asw.REG_PARAM2) >> 23 == 0 and sw.reg_read(asw.REG_PARAM3) >> 6 == 0
    try:
        asw.Switch(pfc=2)
        raise AssertionError("pfc=2 accepted")
    except ValueError as e:
        assert "pfc" in str(e) and "0..1" in str(e), e


def test_packet_through_switch():
    """A packet leaves on its FWD port unchanged, credits flow back, CRED accounts."""
    sw = asw.Switch(ports=4, vcs=2, max_packet=4, buffer_flits=8, counters=1, readback=1)
    sw.reg_write(asw.reg_fwd(7), asw.fwd_entry(2))
    hdr = asw.hdr_make(7, src=1, sl=1, length=3, seq=42)
    outs = send_packet(sw, 1, 1, hdr, 3, start_payload=100)
    seen, credits_back, cycle = [], 0, 0
    first = None
    for o in outs + [sw.step() for _ in range(20)]:
        for p, f in o.flits.items():
            assert p == 2, "flit left on port %d, FWD says 2" % p
            if first is None:
                first = cycle
            seen.append(f)
        for p, v in o.credits.items():
            assert (p, v) == (1, 1), (p, v)
            credits_back += 1
        cycle += 1
        if cycle == 2 + 3:
            # the match took len credits of output 2 VC 1 (SL 1 -> VC 1)
            pass
    assert [f.payload for f in seen] == [100, 101, 102], seen
    assert seen[0].hdr == hdr and seen[0].head and seen[-1].tail
    assert all(f.hdr == 0 for f in seen[1:]), "body flits carry hdr = 0 (contract §2)"
    assert credits_back == 3
    assert first is not None and first >= 1
    # no credit came back from downstream: output 2 VC 1 is short of 3
    assert sw.reg_read(asw.reg_cred(2, 1)) == 8 - 3
    for _ in range(3):
        sw.step(credits={2: 1})
    assert sw.reg_read(asw.reg_cred(2, 1)) == 8
    assert sw.reg_read(asw.reg_counter(1, asw.CNT_PACKETS_IN)) == 1
    assert sw.reg_read(asw.reg_counter(2, asw.CNT_FLITS_OUT)) == 3
    assert sw.idle()


def test_zero_load_latency_is_the_models():
    """The latency seen through the binding is the C model's (no hard-coded value):
    the same packet twice, from reset, gives the same latency; one cycle later input,
    one cycle later output."""
    lat = []
    for delay in (0, 5):
        sw = asw.Switch(ports=4, vcs=1, max_packet=1, buffer_flits=4)
        sw.reg_write(asw.reg_fwd(3), asw.fwd_entry(3))
        c = 0
        for _ in range(delay):
            sw.step()
            c += 1
        sent = c
        o = sw.step(flits={0: asw.Flit(1, 1, 0, asw.hdr_make(3, length=1))})
        while not o.flits:
            c += 1
            o = sw.step()
            assert c < 50, "packet never left"
        lat.append(c - sent)
    assert lat[0] == lat[1] and lat[0] >= 1, lat


def test_protocol_error():
    sw = asw.Switch(ports=4, vcs=2)
    try:
        sw.step(flits={0: asw.Flit(head=0, tail=1, vc=0)})
        raise AssertionError("body flit without head accepted")
    except asw.ProtocolError as e:
        assert str(e), "empty protocol message"
    try:
        sw.step(credits={0: 0})
        raise AssertionError("credit above BUF accepted")
    except asw.ProtocolError:
        pass
    try:
        sw.step(flits={4: asw.Flit(1, 1, 0)})
        raise AssertionError("port 4 of a 4-port switch accepted")
    except ValueError as e:
        assert "port 4" in str(e)
    assert sw.idle(), "a refused step changed the state"
    assert sw.reg_read(asw.reg_counter(0, asw.CNT_FLITS_IN)) == 0


def test_register_access():
    sw = asw.Switch(ports=4)
    try:
        sw.reg_write(asw.REG_DEFAULT_PORT, 4)
        raise AssertionError("DEFAULT_PORT = P accepted")
    except ValueError as e:
        assert "0x00014" in str(e)
    assert sw.reg_read(asw.REG_REG_ERRORS) == 1
    sw.reg_write(asw.REG_DEFAULT_PORT, 3)
    # through the register bus of step(): read data the cycle after the read
    o = sw.step(reg_en=1, reg_we=0, reg_addr=asw.REG_DEFAULT_PORT)
    assert o.reg_rdata is None
    o = sw.step()
    assert o.reg_rdata == 3, o
    sw.step(reg_en=1, reg_we=1, reg_addr=asw.REG_DEFAULT_PORT, reg_wdata=1)
    assert sw.reg_read(asw.REG_DEFAULT_PORT) == 1
    sw.reset()
    assert sw.reg_read(asw.REG_DEFAULT_PORT) == 0 and sw.reg_read(asw.REG_REG_ERRORS) == 0


def test_load_table():
    sw = asw.Switch(ports=4, oblivious=1)  # the table sets ROUTE_CTRL mode 1
    sw.load_table("fwd 5 2\nroute oblivious\n")
    assert sw.reg_read(asw.reg_fwd(5)) == asw.fwd_entry(2)
    assert sw.reg_read(asw.REG_ROUTE_CTRL) & 3 == asw.ROUTE_OBLIVIOUS
    try:
        sw.load_table("fwd 1 1\nfwd 2 9\n", name="t")
        raise AssertionError("port 9 of 4 accepted")
    except ValueError as e:
        assert str(e).startswith("t:2:"), e
    assert sw.reg_read(asw.reg_fwd(1)) == 0, "a bad table must leave the switch untouched"


def test_vocabulary_names():
    """Switch and Network take the vocabulary's buffer_flits (docs/options.md) and refuse
    asw_config's buf_flits as a keyword with the name to use; a configuration dict keeps
    asw_config's fields (default_config(), .config), and may not disagree with a keyword."""
    with asw.Switch(ports=4, vcs=2, buffer_flits=12, max_packet=4) as sw:
        assert sw.config["buf_flits"] == 12, sw.config
        with asw.Switch(sw.config) as twin:  # a configuration round-trips
            assert twin.config == sw.config
    try:
        asw.Switch({"buf_flits": 8}, ports=4, buffer_flits=12)
        raise AssertionError("two values for one field accepted")
    except ValueError as e:
        assert "name the same field" in str(e), e
    for make in (asw.Switch, asw.Network):
        try:
            make(buf_flits=8)
            raise AssertionError("%s accepted buf_flits" % make.__name__)
        except ValueError as e:
            assert str(e) == "buf_flits: renamed to buffer_flits (docs/options.md)", e


def test_network():
    n = asw.Network(ports=4, stages=2, vcs=2, voq=True, traffic="uniform", load=0.4,
                    cycles=1500, warmup=300)
    a, b = n.run(seed=3), n.run(seed=3)
    assert "wall_seconds" in a.pop("wall") and b.pop("wall")
    assert a == b, "same seed, different results"
    assert a["packets_delivered"] > 0 and a["duplicates"] == 0 and a["order_violations"] == 0
    assert a["config"]["voq"] in (1, "on"), a["config"]["voq"]
    try:
        asw.Network(frobnicate=1).run()
        raise AssertionError("unknown key accepted")
    except RuntimeError as e:
        assert "frobnicate" in str(e), e


def main():
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]
    passed = failed = 0
    print("library: %s" % asw.LIBRARY_PATH)
    for name, f in tests:
        try:
            f()
            passed += 1
            print("PASS %s" % name)
        except Exception:  # noqa: BLE001 - report every failure and go on
            failed += 1
            print("FAIL %s\n%s" % (name, traceback.format_exc()))
    print("arnswitch-py: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
