#!/usr/bin/env python3
"""The C library example (cmodel/lib/example.c) through the Python binding.

Same switch, table, stimulus and checks; prints the same lines, so `make test-lib`
can require both to agree bit for bit (a hash of every output flit).

  python3 sw/arnswitch_example.py [CYCLES]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arnswitch as asw  # noqa: E402

P, V, LMAX, NDEST, DRAIN = 4, 2, 4, 16, 300
M64 = (1 << 64) - 1


def main(argv):
    cycles = 3000
    if len(argv) > 1:
        if not argv[1].isdigit() or int(argv[1]) <= DRAIN:
            print("example: CYCLES must be a number > %d, not '%s'" % (DRAIN, argv[1]),
                  file=sys.stderr)
            return 2
        cycles = int(argv[1])
    try:
        asw.Switch(sa_pipe=1, iters=3)  # contract §8.1 has one grant phase: refused
    except ValueError as e:
        print("refused: %s" % e)
    sw = asw.Switch(ports=P, vcs=V, max_packet=LMAX, counters=1)  # the counters read below
    sw.load_table("".join("fwd %d %d\n" % (d, d % P) for d in range(NDEST)), name="example-table")
    print("ID 0x%08x" % sw.reg_read(asw.REG_ID))

    state = [0x9E3779B97F4A7C15]

    def rnd():
        s = state[0]
        s ^= (s << 13) & M64
        s ^= s >> 7
        s ^= (s << 17) & M64
        state[0] = s
        return s >> 32

    def fnv(h, v):
        for i in range(8):
            h ^= (v >> (8 * i)) & 0xFF
            h = (h * 0x100000001B3) & M64
        return h

    buf = sw.config["buf_flits"]
    credits = [[buf] * V for _ in range(P)]
    left, length, vc, seq, hdr = [0] * P, [0] * P, [0] * P, [0] * P, [0] * P
    expect = {}
    next_credits = {}
    h = 0xCBF29CE484222325
    sent = received = packets = first_latency = first_sent_at = errors = 0
    for c in range(cycles):
        flits = {}
        for p in range(P):
            if left[p] == 0 and c < cycles - DRAIN and rnd() % 4 == 0:
                v, ln, d = rnd() % V, 1 + rnd() % LMAX, rnd() % NDEST
                if credits[p][v] >= ln:
                    credits[p][v] -= ln
                    left[p] = length[p] = ln
                    vc[p] = v
                    hdr[p] = asw.hdr_make(d, src=p, sl=v, length=ln, seq=seq[p] & 0xFFFF)
                    seq[p] += 1
                    if sent == 0:
                        first_sent_at = c
            if left[p] > 0:
                i = length[p] - left[p]
                flits[p] = asw.Flit(head=int(i == 0), tail=int(left[p] == 1), vc=vc[p],
                                    hdr=hdr[p] if i == 0 else 0,
                                    payload=p << 24 | (seq[p] - 1) << 8 | i)
                left[p] -= 1
                sent += 1
        out = sw.step(flits=flits, credits=next_credits)
        next_credits = {}
        for p, v in out.credits.items():
            credits[p][v] += 1
        for p in sorted(out.flits):
            f = out.flits[p]
            h = fnv(fnv(fnv(h, c), p), f.head | f.tail << 1 | f.vc << 2)
            h = fnv(fnv(h, f.hdr), f.payload)
            received += 1
            next_credits[p] = f.vc
            if f.head:
                fl = asw.hdr_fields(f.hdr)
                packets += 1
                if packets == 1:
                    first_latency = c - first_sent_at
                key = (fl["src"], f.vc, p)
                if fl["dest"] % P != p or fl["seq"] < expect.get(key, 0):
                    errors += 1
                expect[key] = fl["seq"] + 1
    in_cnt = sum(sw.reg_read(asw.reg_counter(p, asw.CNT_FLITS_IN)) for p in range(P))
    out_cnt = sum(sw.reg_read(asw.reg_counter(p, asw.CNT_FLITS_OUT)) for p in range(P))
    print("flits sent %d received %d packets %d" % (sent, received, packets))
    print("counters flits_in %d flits_out %d" % (in_cnt, out_cnt))
    print("first packet latency %d cycles" % first_latency)
    print("output hash %016x" % h)
    print("idle %d" % int(sw.idle()))
    sw.close()
    if errors or sent != received or in_cnt != sent or out_cnt != received:
        print("FAIL: %d routing/order errors, %d flits lost" % (errors, sent - received))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
