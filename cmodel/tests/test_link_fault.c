/* Link faults (contract §18) on one switch: registers and pins, a packet
 * discarded whole on a down output (its credits come back by themselves), a
 * packet cut in the middle (no credits back: the far end pads it), padding of
 * a packet cut on a down input and the protocol error for a flit there, and
 * routing around a down output. */
#include <string.h>

#include "asw_switch.h"
#include "test.h"
#include "test_drv.h"

enum { LP = 4, LV = 2, LBUF = 8, LLMAX = 4 };

void test_link_registers(void) {
  test_drv d;
  if (test_drv_init(&d, LP, LV, LBUF, LLMAX, 16)) return;
  asw_switch *sw = d.sw;
  /* every link up: every §18 register reads 0, as the unmapped addresses did */
  CHECK(test_rd(sw, ASW_REG_LINK_DOWN(0)) == 0 && test_rd(sw, ASW_REG_LINK_DOWN(1)) == 0);
  CHECK(test_rd(sw, ASW_REG_LINK_RX_DOWN(0)) == 0 && test_rd(sw, ASW_REG_LINK_RX_DOWN(1)) == 0);
  for (unsigned k = 0; k < ASW_LCNT_NUM; k++) CHECK(test_rd(sw, ASW_REG_LINK_COUNTER(k)) == 0);
  uint32_t e0 = test_rd(sw, ASW_REG_REG_ERRORS);
  CHECK(asw_reg_write(sw, ASW_REG_LINK_DOWN(0), 0) == ASW_EINVAL); /* RO */
  CHECK(asw_reg_write(sw, ASW_REG_LINK_COUNTER(0), 5) == ASW_EINVAL);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == e0 + 2 && test_rd(sw, ASW_REG_LINK_DOWN(0)) == 0);
  CHECK(asw_switch_set_link_up(sw, 0x1F, 0xF) == ASW_EINVAL); /* port 4 >= P */
  CHECK(strstr(asw_switch_error(sw), "P = 4") != NULL);
  CHECK(asw_switch_set_link_up(sw, 0xD, 0xB) == ASW_OK);
  CHECK(!asw_switch_idle(sw)); /* LINK_DOWN follows the pins next cycle */
  CHECK(test_rd(sw, ASW_REG_LINK_DOWN(0)) == 0);
  CHECK(test_drv_step(&d) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_LINK_DOWN(0)) == 0x2 && test_rd(sw, ASW_REG_LINK_RX_DOWN(0)) == 0x4);
  CHECK(asw_switch_idle(sw));
  asw_switch_reset(sw);
  CHECK(test_rd(sw, ASW_REG_LINK_DOWN(0)) == 0 && test_rd(sw, ASW_REG_LINK_RX_DOWN(0)) == 0);
  asw_switch_free(sw);
}

/* Input 0 -> output 1, len 4: the packet of cycle t leaves in t+5..t+8. */
static unsigned run_packet(test_drv *d, unsigned down_at, unsigned *out_flits, unsigned *cr_up) {
  *out_flits = *cr_up = 0;
  unsigned tail_seen = 0;
  for (unsigned c = 0; c < 20; c++) {
    if (c < 4) test_drv_put(d, 0, 0, 1, 4, c);
    if (c == down_at) asw_switch_set_link_up(d->sw, 0xD, 0xF); /* output 1 down */
    if (test_drv_step(d) != ASW_OK) return 99;
    if (d->out.flit_mask >> 1 & 1u) {
      (*out_flits)++;
      tail_seen |= d->out_flit[1].tail;
    }
    if (d->out.credit_mask & 1u) (*cr_up)++;
  }
  asw_switch_set_link_up(d->sw, 0xF, 0xF);
  return tail_seen;
}

void test_link_output_discard(void) {
  test_drv d;
  /* dead: the link is down before the head reaches ST (cycle 5) */
  if (test_drv_init(&d, LP, LV, LBUF, LLMAX, 16)) return;
  unsigned fo, cu;
  CHECK(run_packet(&d, 2, &fo, &cu) == 0);
  CHECK(fo == 0 && cu == 4); /* nothing on the wire, every credit upstream */
  CHECK(test_rd(d.sw, ASW_REG_CRED(1, 0)) == LBUF); /* its own credits back */
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_DISCARDED)) == 4);
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_PACKETS_DISCARDED)) == 1);
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_PACKETS_CUT)) == 0);
  CHECK(test_rd(d.sw, ASW_REG_COUNTER(1, ASW_CNT_FLITS_OUT)) == 0);
  CHECK(test_drv_step(&d) == ASW_OK); /* LINK_DOWN takes the pins back */
  CHECK(asw_switch_idle(d.sw) && test_rd(d.sw, ASW_REG_OCC(0, 0, 1)) == 0);
  asw_switch_free(d.sw);
  /* cut: head and one body flit out (ST in cycles 5, 6), down from cycle 7;
   * the rest stays discarded although the link comes back in cycle 20 */
  if (test_drv_init(&d, LP, LV, LBUF, LLMAX, 16)) return;
  CHECK(run_packet(&d, 7, &fo, &cu) == 0);
  CHECK(fo == 2 && cu == 4);
  CHECK(test_rd(d.sw, ASW_REG_CRED(1, 0)) == LBUF - 4); /* the far end's pads return them */
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_DISCARDED)) == 2);
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_PACKETS_CUT)) == 1);
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_PACKETS_DISCARDED)) == 0);
  /* the next packet on the same output goes out whole */
  for (unsigned k = 0; k < 4; k++) { /* the far end returns the 4 credits */
    d.in.credit_mask = 1u << 1;
    d.in_cr[1] = 0;
    CHECK(test_drv_step(&d) == ASW_OK);
  }
  CHECK(test_rd(d.sw, ASW_REG_CRED(1, 0)) == LBUF);
  CHECK(run_packet(&d, 99, &fo, &cu) == 1 && fo == 4);
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_DISCARDED)) == 2);
  /* CNT_CLEAR clears the link counters */
  CHECK(asw_reg_write(d.sw, ASW_REG_CNT_CLEAR, 1) == ASW_OK);
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_PACKETS_CUT)) == 0);
  asw_switch_free(d.sw);
}

/* Input 0 -> output 1, len 4, output 1 down for V * LMAX = 8 cycles from the cycle after
 * the head left, while the output hands no flit: GAP 15 holds the next one (gap), or the
 * input waits for flits 2 and 3 until cycle 30 (hold = 1; flit 1 is not sendable before
 * flit 2 is written, §8). The far end pads the rest while
 * its link is down, so the packet is cut then (§18.2): nothing more leaves when the link is
 * back, and the output takes no credit back. */
static void cut_while_idle(unsigned gap, unsigned hold) {
  test_drv d;
  if (test_drv_init(&d, LP, LV, LBUF, LLMAX, 16)) return;
  if (gap) CHECK(asw_reg_write(d.sw, ASW_REG_PORT_GAP(0), asw_port_gap_field(1, gap)) == ASW_OK);
  unsigned fo = 0, cu = 0, head_at = 99;
  for (unsigned c = 0; c < 90; c++) {
    unsigned k = hold && c >= 2 ? c - 28 : c; /* flits 2, 3 in cycles 30, 31 */
    if (k < 4 && (!hold || c < 2 || c >= 30)) test_drv_put(&d, 0, 0, 1, 4, k);
    if (c == head_at + 1) asw_switch_set_link_up(d.sw, 0xD, 0xF); /* output 1 down */
    if (c == head_at + 9) asw_switch_set_link_up(d.sw, 0xF, 0xF);
    CHECK(test_drv_step(&d) == ASW_OK);
    if (d.out.flit_mask >> 1 & 1u) {
      fo++;
      if (d.out_flit[1].head) head_at = c;
    }
    if (d.out.credit_mask & 1u) cu++;
  }
  CHECKF(fo == 1 && head_at < 10, "gap %u hold %u: %u flits out (head in cycle %u)", gap, hold,
         fo, head_at);
  CHECK(cu == 4); /* every flit left the buffer: credits upstream */
  CHECK(test_rd(d.sw, ASW_REG_CRED(1, 0)) == LBUF - 4); /* the far end's pads return them */
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_PACKETS_CUT)) == 1);
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_PACKETS_DISCARDED)) == 0);
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_DISCARDED)) == 3);
  CHECK(test_rd(d.sw, ASW_REG_OCC(0, 0, 1)) == 0);
  asw_switch_free(d.sw);
}

void test_link_cut_while_idle(void) {
  cut_while_idle(15, 0); /* §17.7: the output waits through the whole down time */
  cut_while_idle(0, 1);  /* the input waits for the packet's flits */
}

void test_link_input_padding(void) {
  test_drv d;
  if (test_drv_init(&d, LP, LV, LBUF, LLMAX, 16)) return;
  /* head and one body flit of a 4-flit packet on input 2 VC 1 (to output 3),
   * then the receive side goes down: two padding flits in two cycles */
  test_drv_put(&d, 2, 1, 3, 4, 0);
  CHECK(test_drv_step(&d) == ASW_OK);
  test_drv_put(&d, 2, 1, 3, 4, 1);
  CHECK(test_drv_step(&d) == ASW_OK);
  asw_switch_set_link_up(d.sw, 0xF, 0xB);
  test_drv_put(&d, 2, 1, 3, 4, 2); /* a flit on a down input: protocol error, nothing changes */
  CHECK(test_drv_step(&d) == ASW_EPROTO);
  CHECK(strstr(asw_switch_error(d.sw), "input 2") != NULL);
  unsigned got = 0, pads = 0, tail = 0;
  for (unsigned c = 0; c < 15; c++) {
    CHECK(test_drv_step(&d) == ASW_OK);
    if (d.out.flit_mask >> 3 & 1u) {
      const asw_flit *f = &d.out_flit[3];
      CHECK(f->vc == 1 && f->head == (got == 0));
      if (got >= 2) pads += f->payload == 0xFFFF;
      else CHECK(f->payload == 0x100u + got);
      tail += f->tail;
      got++;
    }
  }
  CHECK(got == 4 && pads == 2 && tail == 1);
  CHECK(test_rd(d.sw, ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_PADDED)) == 2);
  CHECK(test_rd(d.sw, ASW_REG_COUNTER(2, ASW_CNT_FLITS_IN)) == 2);
  CHECK(asw_switch_idle(d.sw));
  /* link back: a new packet on the same VC is legal and intact */
  asw_switch_set_link_up(d.sw, 0xF, 0xF);
  got = 0;
  for (unsigned c = 0; c < 15; c++) {
    if (c < 2) test_drv_put(&d, 2, 1, 3, 2, c);
    CHECK(test_drv_step(&d) == ASW_OK);
    if (d.out.flit_mask >> 3 & 1u) CHECK(d.out_flit[3].payload == 0x100u + got++);
  }
  CHECK(got == 2);
  asw_switch_free(d.sw);
}

void test_link_routing(void) {
  test_drv d;
  if (test_drv_init(&d, LP, LV, LBUF, LLMAX, 16)) return;
  asw_switch *sw = d.sw;
  /* destination 0: det_port 1, candidates {1, 2, 3}; adaptive NoTH */
  CHECK(asw_reg_write(sw, ASW_REG_CSET(0, 0), 0xE) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_FWD(0), asw_fwd_entry(1, 0, 0, 1)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_ADAPTIVE, 0, 0xFF, 1)) == ASW_OK);
  /* every output has BUF credits: det_port 1 wins ties; with 1 down, 2 (the
   * first in scan order); with 1 and 2 down, 3; with all down, det_port */
  static const uint64_t up[4] = {0xF, 0xD, 0x9, 0x1};
  static const unsigned want[4] = {1, 2, 3, 1};
  for (unsigned t = 0; t < 4; t++) {
    asw_switch_set_link_up(sw, up[t], 0xF);
    unsigned seen = 99;
    for (unsigned c = 0; c < 12; c++) {
      if (c == 0) test_drv_put(&d, 0, 0, 0, 1, 0);
      CHECK(test_drv_step(&d) == ASW_OK);
      for (unsigned o = 1; o < 4; o++)
        if (d.out.flit_mask >> o & 1u) seen = o;
    }
    if (up[t] >> want[t] & 1u) CHECKF(seen == want[t], "case %u: out %u, want %u", t, seen, want[t]);
    else CHECKF(seen == 99, "case %u: a flit left on down output %u", t, seen);
  }
  CHECK(test_rd(sw, ASW_REG_COUNTER(0, ASW_CNT_ADAPTIVE)) == 2);
  asw_switch_free(sw);
}
