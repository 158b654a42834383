/* Output port rate (contract §17.7) on one switch: the PORT_GAP registers and
 * their legality, the timeline of a packet streaming to an output with GAP g
 * (one flit every g + 1 cycles, the input's credits upstream at the same pace,
 * the match held), an output of two inputs' packets at the rate, a GAP
 * rewritten while a packet streams (the counter reloads with the value at the
 * start of the cycle), and idleness while a counter runs. */
#include <string.h>

#include "asw_switch.h"
#include "test.h"
#include "test_drv.h"

enum { GP = 4, GV = 2, GBUF = 16, GLMAX = 8 };

void test_port_gap_registers(void) {
  test_drv d;
  if (test_drv_init(&d, GP, GV, GBUF, GLMAX, 16)) return;
  asw_switch *sw = d.sw;
  for (unsigned k = 0; k < 8; k++) CHECK(test_rd(sw, ASW_REG_PORT_GAP(k)) == 0);
  uint32_t v = asw_port_gap_field(0, 1) | asw_port_gap_field(3, 15);
  CHECK(asw_reg_write(sw, ASW_REG_PORT_GAP(0), v) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_PORT_GAP(0)) == v);
  uint32_t e0 = test_rd(sw, ASW_REG_REG_ERRORS);
  /* a GAP for port 4 >= P: illegal, nothing changed */
  CHECK(asw_reg_write(sw, ASW_REG_PORT_GAP(0), asw_port_gap_field(4, 2)) == ASW_EINVAL);
  CHECKF(strstr(asw_switch_error(sw), "PORT_GAP") != NULL, "%s", asw_switch_error(sw));
  CHECK(asw_reg_write(sw, ASW_REG_PORT_GAP(1), 1) == ASW_EINVAL); /* port 8 */
  CHECK(asw_reg_write(sw, ASW_REG_PORT_GAP(7), 0) == ASW_OK);     /* 0: legal */
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == e0 + 2);
  CHECK(test_rd(sw, ASW_REG_PORT_GAP(0)) == v);
  asw_switch_reset(sw);
  CHECK(test_rd(sw, ASW_REG_PORT_GAP(0)) == 0);
  asw_switch_free(sw);
}

/* One len-flit packet from input 0 to output 1 with GAP g: the cycles its flits
 * leave in (out[k]) and its credits go upstream in (cr[k]). */
static void stream(unsigned g, unsigned len, unsigned *out, unsigned *cr) {
  test_drv d;
  if (test_drv_init(&d, GP, GV, GBUF, GLMAX, 16)) return;
  CHECK(asw_reg_write(d.sw, ASW_REG_PORT_GAP(0), asw_port_gap_field(1, g)) == ASW_OK);
  unsigned no = 0, nc = 0;
  for (unsigned c = 0; c < 200 && no < len; c++) {
    if (c < len) test_drv_put(&d, 0, 0, 1, len, c);
    CHECK(test_drv_step(&d) == ASW_OK);
    if (d.out.flit_mask >> 1 & 1u) {
      CHECK(d.out_flit[1].payload == 0x100u + no);
      out[no++] = c;
    }
    if (d.out.credit_mask & 1u) cr[nc++] = c;
  }
  CHECK(no == len && nc == len);
  for (unsigned c = 0; c < 20; c++) CHECK(test_drv_step(&d) == ASW_OK);
  CHECK(asw_switch_idle(d.sw));
  asw_switch_free(d.sw);
}

void test_port_gap_timeline(void) {
  for (unsigned g = 0; g <= 15; g += 5) {
    unsigned out[GLMAX] = {0}, cr[GLMAX] = {0};
    stream(g, GLMAX, out, cr);
    CHECKF(out[0] == ASW_ZERO_LOAD_LATENCY, "GAP %u: head at %u", g, out[0]);
    for (unsigned k = 1; k < GLMAX; k++) {
      CHECKF(out[k] - out[k - 1] == g + 1, "GAP %u: flit %u %u cycles after the previous", g, k,
             out[k] - out[k - 1]);
      CHECK(cr[k] == out[k]); /* the credit upstream in the cycle its flit leaves */
    }
  }
}

/* Two inputs' packets for output 2 with GAP 3: the output carries a flit every
 * 4 cycles and never more, until both packets are out. */
void test_port_gap_shared_output(void) {
  test_drv d;
  if (test_drv_init(&d, GP, GV, GBUF, GLMAX, 16)) return;
  CHECK(asw_reg_write(d.sw, ASW_REG_PORT_GAP(0), asw_port_gap_field(2, 3)) == ASW_OK);
  unsigned last = 0, n = 0;
  for (unsigned c = 0; c < 200; c++) {
    if (c < GLMAX) {
      test_drv_put(&d, 0, 0, 2, GLMAX, c);
      test_drv_put(&d, 3, 1, 2, GLMAX, c);
    }
    CHECK(test_drv_step(&d) == ASW_OK);
    CHECK(!(d.out.flit_mask & ~4ull));
    if (d.out.flit_mask & 4u) {
      if (n) CHECKF(c - last == 4, "flit %u %u cycles after the previous", n, c - last);
      last = c;
      n++;
    }
  }
  CHECK(n == 2 * GLMAX);
  asw_switch_free(d.sw);
}

/* GAP 7 rewritten to 1 while a packet streams: the flit after the write's
 * cycle still waits the counter it loaded (8 cycles); the next ones 2. */
void test_port_gap_rewrite(void) {
  test_drv d;
  if (test_drv_init(&d, GP, GV, GBUF, GLMAX, 16)) return;
  CHECK(asw_reg_write(d.sw, ASW_REG_PORT_GAP(0), asw_port_gap_field(1, 7)) == ASW_OK);
  unsigned out[GLMAX], no = 0;
  for (unsigned c = 0; c < 200 && no < GLMAX; c++) {
    if (c < GLMAX) test_drv_put(&d, 0, 0, 1, GLMAX, c);
    if (no == 2 && c == out[1] + 1) { /* through the register bus, legal */
      d.in.reg_en = d.in.reg_we = 1;
      d.in.reg_addr = ASW_REG_PORT_GAP(0);
      d.in.reg_wdata = asw_port_gap_field(1, 1);
    }
    CHECK(test_drv_step(&d) == ASW_OK);
    if (d.out.flit_mask >> 1 & 1u) out[no++] = c;
  }
  CHECK(no == GLMAX);
  CHECKF(out[1] - out[0] == 8 && out[2] - out[1] == 8, "%u %u", out[1] - out[0], out[2] - out[1]);
  for (unsigned k = 3; k < GLMAX; k++) CHECKF(out[k] - out[k - 1] == 2, "flit %u: %u", k, out[k] - out[k - 1]);
  asw_switch_free(d.sw);
}
