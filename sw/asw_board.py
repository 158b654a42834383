#!/usr/bin/env python3
"""asw-board: host tool of the arnswitch board system (docs/boards.md).

Talks to a board (or to the simulated board, tb/board/) over its UART with the framed
protocol of docs/boards.md: programs forwarding tables (the format of `asw switch
--table`, cmodel/asw_table.h), runs traffic tests and prints throughput, latency
histogram and counters as text and JSON.

  asw_board.py --port /dev/ttyUSB1 info
  asw_board.py --port /dev/ttyUSB1 table FILE
  asw_board.py --port /dev/ttyUSB1 run [--table FILE] [--seed N] [--pattern uniform|
               permutation|hotspot] [--target PORT] [--frac N] [--len N] [--fixed-len]
               [--load N] [--sink N] [--cycles N] [--mask M] [--hshift N] [--json FILE]
  asw_board.py --port /dev/ttyUSB1 counters [--json FILE]
  asw_board.py --port /dev/ttyUSB1 read ADDR | write ADDR VALUE
  (--port also takes pyserial URLs: socket://127.0.0.1:PORT for the simulated board)

Exit status: 0 success (a run: the test passed), 1 the board reported a failure or an
error reply, 2 a bad argument or table, 3 no answer from the board.
"""
import argparse
import json
import sys
import time

SYNC_REQ, SYNC_REP = 0xA5, 0x5A
CMD_READ, CMD_WRITE = 0x52, 0x57
STATUS = {0: "ok", 1: "bad checksum", 2: "unknown command", 3: "truncated frame",
          4: "bad address", 5: "illegal value", 6: "UART framing error"}
SYS = 0x800000
SYS_REGS = dict(SYS_ID=0x000, SYS_INFO=0x001, CLK_KHZ=0x002, CTRL=0x003, STATUS=0x004,
                SEED=0x005, PATTERN=0x006, LEN=0x007, LOAD=0x008, DURATION=0x009,
                PORT_MASK=0x00A, HSHIFT=0x00B, CYCLES=0x00C, INFLIGHT=0x00D, HIST=0x010,
                PORT_CNT=0x100)
SYS_ID, SW_ID = 0x41534231, 0x41535731
CNT_NAMES = ["tx_pkts", "tx_flits", "tx_stall", "rx_pkts", "rx_flits", "err_hdr", "err_seq",
             "err_pay", "lat_sum", "lat_max"]
SW_CNT_NAMES = ["flits_in", "flits_out", "packets_in", "packets_out", "credit_stall",
                "sa_lost", "route_errors", "adaptive"]
PATTERNS = {"uniform": 0, "permutation": 1, "hotspot": 2}
NBIN = 8


class BoardError(Exception):
    """An error reply (status != 0) or a malformed reply."""

    def __init__(self, msg, status=None):
        super().__init__(msg)
        self.status = status


class NoAnswer(Exception):
    pass


def checksum(bs):
    return (-sum(bs)) & 0xFF


def frame(cmd, addr, data=0):
    body = [cmd, addr >> 16 & 0xFF, addr >> 8 & 0xFF, addr & 0xFF] + \
           [data >> s & 0xFF for s in (24, 16, 8, 0)]
    return bytes([SYNC_REQ] + body + [checksum(body)])


class Link:
    """One board on a serial port (or pyserial URL)."""

    def __init__(self, port, baud=115200, timeout=2.0):
        import serial  # pyserial (mk/deps.mk)
        self.ser = serial.serial_for_url(port, baudrate=baud, timeout=timeout)
        self.timeout = timeout

    def close(self):
        self.ser.close()

    def send_raw(self, bs):
        self.ser.write(bs)
        self.ser.flush()

    def reply(self, timeout=None):
        """Reads one reply: (status, data). Bytes before the sync byte are skipped."""
        end = time.time() + (timeout or self.timeout)
        while True:
            b = self.ser.read(1)
            if not b:
                if time.time() > end:
                    raise NoAnswer("no reply from the board (wrong port, baud rate or bitstream?)")
                continue
            if b[0] == SYNC_REP:
                break
        rest = b""
        while len(rest) < 6:
            chunk = self.ser.read(6 - len(rest))
            if not chunk and time.time() > end:
                raise NoAnswer("truncated reply from the board")
            rest += chunk
        if sum(rest) & 0xFF:
            raise BoardError(f"reply with a bad checksum: {rest.hex()}")
        return rest[0], int.from_bytes(rest[1:5], "big")

    def access(self, cmd, addr, data=0):
        self.send_raw(frame(cmd, addr, data))
        st, val = self.reply()
        if st:
            raise BoardError(f"board replied '{STATUS.get(st, hex(st))}' to "
                             f"{'read' if cmd == CMD_READ else 'write'} 0x{addr:06x}", st)
        return val

    def read(self, addr):
        return self.access(CMD_READ, addr)

    def write(self, addr, data):
        self.access(CMD_WRITE, addr, data & 0xFFFFFFFF)

    def sread(self, name, off=0):
        return self.read(SYS + SYS_REGS[name] + off)

    def swrite(self, name, data):
        self.write(SYS + SYS_REGS[name], data)


# ---- forwarding tables: the format of `asw switch --table` (cmodel/asw_table.h) --------
NAMED = dict(ROUTE_CTRL=0x10, VC_CTRL=0x11, THRESH=0x12, LFSR_SEED=0x13, DEFAULT_PORT=0x14,
             CNT_CLEAR=0x15)


class TableError(Exception):
    pass


def number(tok, what, mx):
    hexa = tok[:2] in ("0x", "0X")
    digits = tok[2:] if hexa else tok
    ok = digits and all(c in ("0123456789abcdefABCDEF" if hexa else "0123456789") for c in digits)
    v = int(digits, 16 if hexa else 10) if ok else -1
    if not ok or v > mx:
        raise TableError(f"{what} '{tok}' is not a number in 0..{mx}")
    return v


def parse_table(text):
    """[(line, addr, data)] of the register writes, in order; TableError 'line: problem'."""
    writes = []
    for ln, line in enumerate(text.splitlines(), 1):
        t = line.split("#", 1)[0].split()
        if not t:
            continue
        try:
            writes += [(ln, a, d) for a, d in parse_line(t)]
        except TableError as e:
            raise TableError(f"{ln}: {e}") from None
    return writes


def parse_line(t):
    d, n = t[0], len(t)
    if d == "reg":
        if n != 3:
            raise TableError("reg needs NAME|ADDR VALUE")
        a = NAMED[t[1]] if t[1] in NAMED else number(t[1], "register address", 0xFFFFF)
        return [(a, number(t[2], "value", 0xFFFFFFFF))]
    if d == "fwd":
        if n < 3:
            raise TableError("fwd needs DEST PORT [lookahead=L] [cset=C] [multipath]")
        dest, port = number(t[1], "destination", 0xFFFF), number(t[2], "port", 63)
        look = cs = multi = 0
        for o in t[3:]:
            if o.startswith("lookahead="):
                look = number(o[10:], "lookahead", 63)
            elif o.startswith("cset="):
                cs = number(o[5:], "cset", 3)
            elif o == "multipath":
                multi = 1
            else:
                raise TableError(f"fwd: unknown option '{o}'")
        return [(0x80000 + dest, port | look << 8 | cs << 16 | multi << 30 | 1 << 31)]
    if d == "cset":
        if n != 3:
            raise TableError("cset needs C PORTS (e.g. 0,2,5-7 or none)")
        c, m = number(t[1], "candidate set", 3), 0
        if t[2] != "none":
            for p in [x for x in t[2].split(",") if x]:
                if "-" in p:
                    lo_s, hi_s = p.split("-", 1)
                    lo, hi = number(lo_s, "port", 63), number(hi_s, "port", 63)
                    if lo > hi:
                        raise TableError(f"cset: empty range {lo}-{hi}")
                else:
                    lo = hi = number(p, "port", 63)
                for q in range(lo, hi + 1):
                    m |= 1 << q
        return [(0x100 + 2 * c, m & 0xFFFFFFFF), (0x101 + 2 * c, m >> 32)]
    if d == "sl2vc":
        if n != 4:
            raise TableError("sl2vc needs OUT SL VC")
        o, s, v = number(t[1], "output", 63), number(t[2], "SL", 15), number(t[3], "VC", 7)
        return [(0x1000 + 16 * o + s, v)]
    if d == "route":
        modes, trigs = ["det", "oblivious", "adaptive"], ["noth", "th", "2th"]
        if n < 2:
            raise TableError("route needs MODE")
        if t[1] not in modes:
            raise TableError(f"route: mode '{t[1]}' is not det, oblivious or adaptive")
        mode, trig, stage, mask = modes.index(t[1]), 0, 1, 0xFF
        for o in t[2:]:
            if o.startswith("trigger="):
                if o[8:] not in trigs:
                    raise TableError(f"route: trigger '{o[8:]}' is not noth, th or 2th")
                trig = trigs.index(o[8:])
            elif o.startswith("stage="):
                stage = number(o[6:], "stage", 15)
            elif o.startswith("stage_mask="):
                mask = number(o[11:], "stage_mask", 255)
            else:
                raise TableError(f"route: unknown option '{o}'")
        return [(0x10, mode | trig << 2 | mask << 4 | stage << 12)]
    raise TableError(f"unknown directive '{d}' (reg, fwd, cset, sl2vc, route)")


def load_table(link, path):
    """Writes the table; an illegal value (REG_ERRORS grows) stops with its line."""
    try:
        text = open(path).read()
    except OSError as e:
        raise TableError(f"cannot read: {e.strerror}") from None
    writes = parse_table(text)
    errs = link.read(0x16)
    for ln, a, d in writes:
        link.write(a, d)
        e2 = link.read(0x16)
        if e2 != errs:
            raise TableError(f"{ln}: the switch refused 0x{d:08x} at register 0x{a:05x} "
                             "(illegal value, contract §11)")
    return len(writes)


# contract §1 optional features in PARAM2[31:23], PARAM3[7:6] bit order (cmodel asw_feature_name)
FEATURES = ("bubble", "pfc", "qcn", "link_faults", "vc_adaptive", "route_hash", "port_rate",
            "oblivious", "adaptive", "counters", "readback")


# ---- board information, tests, counters ---------------------------------------------
def board_info(link):
    if link.sread("SYS_ID") != SYS_ID or link.read(0) != SW_ID:
        raise BoardError("the device answers but is not an arnswitch board system")
    p0, p1, p2, p3 = link.read(1), link.read(2), link.read(3), link.read(4)
    si = link.sread("SYS_INFO")
    # PARAM2[31:23], PARAM3[7:6]: the contract §1 features built, bit k feature FEATURES[k]
    mask = (p2 >> 23 & 0x1FF) | (p3 >> 6 & 3) << 9
    feats = ",".join(f for k, f in enumerate(FEATURES) if mask >> k & 1) or "none"
    return dict(P=p0 & 0xFF, V=p0 >> 8 & 0xF, ITERS=p0 >> 12 & 7, VOQ=p0 >> 15 & 1,
                LMAX=p0 >> 16 & 0xFF, PW=p0 >> 24, BUF=p1 & 0xFFFF or 16384,
                DW=p1 >> 16 & 0x1F, TABLE=p2 & 0x1FFFF, AE=p2 >> 17 & 0x3F, features=feats,
                CNTW=si & 0xFF, DIV=si >> 16, clk_khz=link.sread("CLK_KHZ"))


def status_word(link):
    s = link.sread("STATUS")
    return dict(running=bool(s & 1), done=bool(s & 2), passed=bool(s & 4), failed=bool(s & 8),
                drain_timeout=bool(s & 16), init_done=bool(s & 32))


def read_counters(link, info):
    res = dict(cycles=link.sread("CYCLES"), ports=[], hist=[])
    for p in range(info["P"]):
        pc = {n: link.sread("PORT_CNT", 16 * p + k) for k, n in enumerate(CNT_NAMES)}
        pc["switch"] = {n: link.read(0x2000 + 8 * p + k) for k, n in enumerate(SW_CNT_NAMES)}
        res["ports"].append(pc)
    res["hist"] = [link.sread("HIST", b) for b in range(NBIN)]
    st = status_word(link)
    res["result"] = "pass" if st["passed"] else "fail" if st["failed"] else \
        "running" if st["running"] else "idle"
    res["drain_timeout"] = st["drain_timeout"]
    return res


def configure(link, info, ns):
    P, LMAX = info["P"], info["LMAX"]
    if not 0 <= ns.seed <= 0xFFFF:
        raise ValueError(f"--seed {ns.seed} is not in 0..65535")
    if not 0 <= ns.target < P:
        raise ValueError(f"--target {ns.target} is not a port of this board (0..{P - 1})")
    if not 0 <= ns.frac <= 255:
        raise ValueError(f"--frac {ns.frac} is not in 0..255")
    ln = LMAX if ns.len is None else ns.len
    if not 1 <= ln <= LMAX:
        raise ValueError(f"--len {ln} is not in 1..LMAX ({LMAX})")
    if not 0 <= ns.load <= 256:
        raise ValueError(f"--load {ns.load} is not in 0..256")
    if not 1 <= ns.sink <= 256:
        raise ValueError(f"--sink {ns.sink} is not in 1..256")
    top = min(2 ** 32 - 1, 2 ** (info["CNTW"] - 1))  # flit counters must not wrap
    if not 1 <= ns.cycles <= top:
        raise ValueError(f"--cycles {ns.cycles} is not in 1..{top} (counters are "
                         f"{info['CNTW']} bits on this board)")
    mask = (1 << P) - 1 if ns.mask is None else ns.mask
    if mask >> P or mask < 0:
        raise ValueError(f"--mask 0x{mask:x} names ports beyond P={P}")
    if not 0 <= ns.hshift <= 7:
        raise ValueError(f"--hshift {ns.hshift} is not in 0..7")
    test = dict(seed=ns.seed, pattern=ns.pattern, port=ns.target, frac=ns.frac, len=ln,
                randlen=0 if ns.fixed_len else 1, load=ns.load, sink=ns.sink, cycles=ns.cycles,
                mask=mask, hshift=ns.hshift)
    link.swrite("SEED", ns.seed)
    link.swrite("PATTERN", PATTERNS[ns.pattern] | ns.target << 8 | ns.frac << 16)
    link.swrite("LEN", ln | test["randlen"] << 8)
    link.swrite("LOAD", ns.load | ns.sink << 16)
    link.swrite("DURATION", ns.cycles)
    link.swrite("PORT_MASK", mask)
    link.swrite("HSHIFT", ns.hshift)
    return test


def wait_done(link, timeout):
    end = time.time() + timeout
    while True:
        st = status_word(link)
        if st["done"] and not st["running"]:
            return st
        if time.time() > end:
            raise NoAnswer(f"the test did not finish within {timeout:.0f} s "
                           "(raise --wait; status: " + ", ".join(k for k, v in st.items() if v) + ")")
        time.sleep(0.02)


def summarize(info, test, res):
    """Derived figures: throughput (flits per port per cycle), mean latency."""
    cyc = max(res["cycles"], 1)
    rx = sum(p["rx_flits"] for p in res["ports"])
    pk = sum(p["rx_pkts"] for p in res["ports"])
    res["throughput"] = round(rx / (cyc * info["P"]), 4)
    res["latency_mean"] = round(sum(p["lat_sum"] for p in res["ports"]) / pk, 3) if pk else None
    res["latency_max"] = max(p["lat_max"] for p in res["ports"])
    res["flits_per_second"] = round(rx / cyc * info["clk_khz"] * 1000)
    res["errors"] = sum(p["err_hdr"] + p["err_seq"] + p["err_pay"] for p in res["ports"])
    sent = sum(p["tx_pkts"] for p in res["ports"])
    res["lost_packets"] = sent - pk
    return res


def print_report(info, test, res, out=sys.stdout):
    w = out.write
    if test:
        w("test: " + " ".join(f"{k}={v}" for k, v in test.items()) + "\n")
    w(f"result: {res['result'].upper()}  cycles {res['cycles']}  "
      f"({res['cycles'] / info['clk_khz']:.3f} ms at {info['clk_khz'] / 1000:g} MHz)\n")
    w(f"throughput {res['throughput']:.4f} flits/port/cycle ({res['flits_per_second']} flits/s), "
      f"latency mean {res['latency_mean']} max {res['latency_max']} cycles, "
      f"errors {res['errors']}, lost packets {res['lost_packets']}\n")
    w("port  tx_pkts  tx_flits  tx_stall  rx_pkts  rx_flits  err_hdr err_seq err_pay  "
      "lat_mean lat_max | sw flits_in flits_out credit_stall sa_lost route_err\n")
    for p, c in enumerate(res["ports"]):
        lm = f"{c['lat_sum'] / c['rx_pkts']:.2f}" if c["rx_pkts"] else "-"
        s = c["switch"]
        w(f"{p:4d} {c['tx_pkts']:8d} {c['tx_flits']:9d} {c['tx_stall']:9d} {c['rx_pkts']:8d} "
          f"{c['rx_flits']:9d} {c['err_hdr']:8d} {c['err_seq']:7d} {c['err_pay']:7d}  "
          f"{lm:>8s} {c['lat_max']:7d} | {s['flits_in']:11d} {s['flits_out']:9d} "
          f"{s['credit_stall']:12d} {s['sa_lost']:7d} {s['route_errors']:9d}\n")
    sh = (test or {}).get("hshift", 0)
    tot = max(sum(res["hist"]), 1)
    w("latency histogram (cycles from the head on the input link to the tail at the sink):\n")
    for b, n in enumerate(res["hist"]):
        lo, hi = b << sh, ((b + 1) << sh) - 1
        rng = f"{lo}-{hi}" if b < NBIN - 1 else f">={lo}"
        w(f"  {rng:>9s} {n:10d} {'#' * round(40 * n / tot)}\n")


def parse_int(s):
    return int(s, 0)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="asw-board", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", required=True, help="serial port or pyserial URL")
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("--timeout", type=float, default=2.0, help="seconds to wait for a reply")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("info", help="board identity, switch parameters, status")
    t = sub.add_parser("table", help="program a register table (asw switch --table format)")
    t.add_argument("file")
    r = sub.add_parser("run", help="run a traffic test and report")
    r.add_argument("--table", help="program this table first")
    r.add_argument("--seed", type=parse_int, default=1)
    r.add_argument("--pattern", choices=list(PATTERNS), default="uniform")
    r.add_argument("--target", type=parse_int, default=0,
                   help="hot-spot port, or the permutation's shift")
    r.add_argument("--frac", type=parse_int, default=128, help="hot-spot share of packets, /256")
    r.add_argument("--len", type=parse_int, default=None, help="packet length (default LMAX)")
    r.add_argument("--fixed-len", action="store_true",
                   help="every packet --len flits (default: uniform in 1..--len)")
    r.add_argument("--load", type=parse_int, default=256,
                   help="injection probability per cycle, /256 (256: saturation)")
    r.add_argument("--sink", type=parse_int, default=256,
                   help="sink credit-return probability per cycle, /256")
    r.add_argument("--cycles", type=parse_int, default=100000, help="generation cycles")
    r.add_argument("--mask", type=parse_int, default=None, help="generating ports (default all)")
    r.add_argument("--hshift", type=parse_int, default=2, help="histogram bin width 2^N cycles")
    r.add_argument("--wait", type=float, default=None, help="seconds to wait for the end")
    r.add_argument("--json", help="write the result as JSON")
    r.add_argument("--quiet", action="store_true")
    c = sub.add_parser("counters", help="read the counters of the last test")
    c.add_argument("--json")
    rd = sub.add_parser("read", help="read a register (switch address, or 0x8000xx system)")
    rd.add_argument("addr", type=parse_int)
    wr = sub.add_parser("write", help="write a register")
    wr.add_argument("addr", type=parse_int)
    wr.add_argument("value", type=parse_int)
    ns = ap.parse_args(argv)

    try:
        link = Link(ns.port, ns.baud, ns.timeout)
    except Exception as e:  # pyserial: SerialException, ValueError for bad URLs
        print(f"asw-board: cannot open {ns.port}: {e}", file=sys.stderr)
        return 3
    try:
        info = board_info(link)
        if ns.cmd == "info":
            st = status_word(link)
            print("board: arnswitch board system, switch " +
                  " ".join(f"{k}={info[k]}" for k in ("P", "V", "BUF", "LMAX", "PW", "DW", "TABLE",
                                                      "VOQ", "ITERS", "AE", "features")) +
                  f", clock {info['clk_khz'] / 1000:g} MHz, UART divisor {info['DIV']}, "
                  f"counters {info['CNTW']} bits")
            print("status: " + (", ".join(k for k, v in st.items() if v) or "idle"))
        elif ns.cmd == "table":
            n = load_table(link, ns.file)
            print(f"table {ns.file}: {n} register writes")
        elif ns.cmd == "run":
            if ns.table:
                load_table(link, ns.table)
            if status_word(link)["running"]:
                link.swrite("CTRL", 2)  # stop the test in progress (e.g. the power-on test)
                wait_done(link, 60)
            test = configure(link, info, ns)
            link.write(0x15, 1)  # CNT_CLEAR: the switch counters count this test
            link.swrite("CTRL", 1)
            wait = ns.wait or (30 + 4 * ns.cycles / (info["clk_khz"] * 1000))
            wait_done(link, wait)
            res = summarize(info, test, read_counters(link, info))
            res["board"] = info
            res["test"] = test
            if not ns.quiet:
                print_report(info, test, res)
            if ns.json:
                with open(ns.json, "w") as f:
                    json.dump(res, f, indent=1)
            return 0 if res["result"] == "pass" else 1
        elif ns.cmd == "counters":
            res = summarize(info, None, read_counters(link, info))
            res["board"] = info
            print_report(info, None, res)
            if ns.json:
                with open(ns.json, "w") as f:
                    json.dump(res, f, indent=1)
        elif ns.cmd == "read":
            print(f"0x{link.read(ns.addr):08x}")
        elif ns.cmd == "write":
            link.write(ns.addr, ns.value)
        return 0
    except TableError as e:
        print(f"asw-board: {getattr(ns, 'file', None) or ns.table}:{e}", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"asw-board: {e}", file=sys.stderr)
        return 2
    except BoardError as e:
        print(f"asw-board: {e}", file=sys.stderr)
        return 1
    except NoAnswer as e:
        print(f"asw-board: {e}", file=sys.stderr)
        return 3
    finally:
        link.close()


if __name__ == "__main__":
    sys.exit(main())
