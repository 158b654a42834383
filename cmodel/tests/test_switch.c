/* Whole switch: parameter checks, zero-load latency, pipeline timing,
 * cut-through bubbles, register bus timing, counters, protocol errors,
 * reset/determinism, idle detection. */
#include <stdlib.h>
#include <string.h>

#include "asw_switch.h"
#include "test.h"

void test_config_ranges(void) {
  struct { const char *name; int field; unsigned value; } cases[] = {
      {"P (ports)", 0, 1}, {"P (ports)", 0, 65}, {"V (vcs)", 1, 0}, {"V (vcs)", 1, 9},
      {"LMAX", 2, 0}, {"LMAX", 2, 256}, {"BUF", 3, 15}, {"BUF", 3, 16385},
      {"PW", 4, 65}, {"DW", 5, 0}, {"DW", 5, 17}, {"TABLE", 6, 0}, {"TABLE", 6, 65537},
      {"VOQ", 7, 2}, {"ITERS", 8, 0}, {"ITERS", 8, 5},
  };
  for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    asw_config c;
    asw_config_default(&c);
    asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
    unsigned *f[] = {&c.ports, &c.vcs, &c.max_packet, &c.buf_flits, &c.payload_bits,
                     &c.dest_bits, &c.table_entries, &c.voq, &c.iters};
    *f[cases[k].field] = cases[k].value;
    char err[200] = "";
    CHECK(asw_config_check(&c, err, sizeof err) == ASW_EINVAL);
    CHECKF(strstr(err, cases[k].name) != NULL, "'%s' does not name %s", err, cases[k].name);
    CHECK(asw_switch_new(&c, NULL, 0) == NULL);
  }
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.vcs = 8;
  c.buf_flits = 8193;
  char err[200];
  CHECK(asw_config_check(&c, err, sizeof err) == ASW_EINVAL && strstr(err, "V*BUF"));
  c.dest_bits = 8;
  c.buf_flits = 8192;
  c.table_entries = 257;
  CHECK(asw_config_check(&c, err, sizeof err) == ASW_EINVAL && strstr(err, "TABLE"));
  /* extremes that are legal */
  asw_config big = {64, 8, 8192, 255, 64, 16, 65536, 1, 4, 32, 32, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
  CHECK(asw_config_check(&big, err, sizeof err) == ASW_OK);
  asw_config small = {2, 1, 1, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  CHECK(asw_config_check(&small, err, sizeof err) == ASW_OK);
  /* §8.1: SAPIPE is 0 or 1, with one iteration and without VC-adaptive routing */
  small.sa_pipe = 1;
  CHECK(asw_config_check(&small, err, sizeof err) == ASW_OK);
  small.sa_pipe = 2;
  CHECK(asw_config_check(&small, err, sizeof err) == ASW_EINVAL && strstr(err, "SAPIPE"));
  small.sa_pipe = 1;
  small.iters = 2;
  CHECK(asw_config_check(&small, err, sizeof err) == ASW_EINVAL && strstr(err, "ITERS"));
  small.iters = 1;
  small.vc_adaptive = 1;
  CHECK(asw_config_check(&small, err, sizeof err) == ASW_EINVAL && strstr(err, "vc_adaptive"));
  small.vc_adaptive = 0;
  asw_switch *sw = asw_switch_new(&small, err, sizeof err);
  CHECK(sw != NULL);
  asw_switch_free(sw);
}

/* ---- a cycle-by-cycle driver ---- */
typedef struct {
  asw_switch *sw;
  unsigned P;
  asw_flit in_flit[64], out_flit[64];
  uint8_t in_cr[64], out_cr[64];
  uint32_t arn[64];
  asw_inputs in;
  asw_outputs out;
  long cycle;
} drv;

static int drv_init(drv *d, const asw_config *c) {
  memset(d, 0, sizeof *d);
  char err[200];
  d->sw = asw_switch_new(c, err, sizeof err);
  CHECKF(d->sw != NULL, "%s", err);
  d->P = c->ports;
  d->in.flit = d->in_flit;
  d->in.credit_vc = d->in_cr;
  d->out.flit = d->out_flit;
  d->out.credit_vc = d->out_cr;
  d->out.arn = d->arn;
  return d->sw ? 0 : -1;
}
static void drv_flit(drv *d, unsigned p, int head, int tail, unsigned vc, uint64_t hdr, uint64_t payload) {
  asw_flit f = {1, (uint8_t)head, (uint8_t)tail, (uint8_t)vc, hdr, payload};
  d->in_flit[p] = f;
  d->in.flit_mask |= 1ull << p;
}
static void drv_credit(drv *d, unsigned o, unsigned vc) {
  d->in_cr[o] = (uint8_t)vc;
  d->in.credit_mask |= 1ull << o;
}
static int drv_step(drv *d) {
  int rc = asw_switch_step(d->sw, &d->in, &d->out);
  if (rc == ASW_OK) {
    memset(&d->in, 0, sizeof d->in);
    d->in.flit = d->in_flit;
    d->in.credit_vc = d->in_cr;
    d->cycle++;
  }
  return rc;
}
static asw_config cfg(unsigned P, unsigned V, unsigned BUF, unsigned LMAX, unsigned voq) {
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = P;
  c.vcs = V;
  c.buf_flits = BUF;
  c.max_packet = LMAX;
  c.voq = voq;
  c.payload_bits = 64;
  return c;
}
static void program_identity(asw_switch *sw, unsigned P) {
  for (unsigned d = 0; d < P; d++) asw_reg_write(sw, ASW_REG_FWD(d), asw_fwd_entry(d, 0, 0, 0));
}

/* §5/§8: the pipelined allocation keeps full throughput for back-to-back
 * 1-flit packets: one input streaming 1-flit packets to one output (one
 * queue, matched every cycle with its second packet's SR check), and two
 * inputs sharing an output; the downstream returns every credit at once. */
void test_back_to_back_single_flit(void) {
  for (unsigned voq = 0; voq <= 1; voq++)
    for (unsigned two = 0; two <= 1; two++) {
      asw_config c = cfg(4, 1, 16, 4, voq);
      drv d;
      if (drv_init(&d, &c)) return;
      program_identity(d.sw, 4);
      unsigned out_flits = 0, last_gap = 0;
      long first = -1;
      for (long cyc = 0; cyc < 200; cyc++) {
        if (cyc < 150) {
          unsigned in = two ? (unsigned)(cyc & 1) : 0;
          drv_flit(&d, in, 1, 1, 0, asw_hdr_make(2, in, 0, 1, 0, 0, (unsigned)cyc), 0);
        }
        CHECK(drv_step(&d) == ASW_OK);
        /* the far end of output 2 returns its flit's credit in the next cycle */
        if (d.out.flit_mask >> 2 & 1u) {
          drv_credit(&d, 2, 0);
          if (first < 0) first = cyc;
          out_flits++;
        } else if (first >= 0 && out_flits < 150) {
          last_gap++;
        }
      }
      /* the credits cover the packet, the one reserved last cycle and those in
       * flight: no gap once the stream runs */
      CHECKF(out_flits == 150 && last_gap == 0 && first == (long)ASW_ZERO_LOAD_LATENCY,
             "voq %u two %u: %u flits, %u gaps, first in cycle %ld", voq, two, out_flits,
             last_gap, first);
      asw_switch_free(d.sw);
    }
}

void test_zero_load_latency(void) {
  for (unsigned voq = 0; voq <= 1; voq++)
    for (unsigned len = 1; len <= 16; len += 7) {
      asw_config c = cfg(4, 2, 32, 16, voq);
      drv d;
      if (drv_init(&d, &c)) return;
      program_identity(d.sw, 4);
      asw_reg_write(d.sw, ASW_REG_SL2VC(2, 5), 0); /* SL 5 leaves output 2 on VC 0 */
      uint64_t hdr = asw_hdr_make(2, 9, 5, len, 0, 0, 77);
      long t0 = 3;
      unsigned seen = 0;
      for (long cyc = 0; cyc < 40; cyc++) {
        if (cyc >= t0 && cyc < t0 + (long)len) {
          unsigned k = (unsigned)(cyc - t0);
          drv_flit(&d, 1, k == 0, k == len - 1, 1, k == 0 ? hdr : 0xABCDull + k, 1000 + k);
        }
        CHECK(drv_step(&d) == ASW_OK);
        long k = cyc - t0 - (long)ASW_ZERO_LOAD_LATENCY; /* flit k expected on output 2 now */
        if (k >= 0 && k < (long)len) {
          CHECKF(d.out.flit_mask == 1u << 2, "len %u cycle %ld: outputs 0x%llx", len, cyc, (unsigned long long)d.out.flit_mask);
          const asw_flit *f = &d.out_flit[2];
          CHECK(f->valid && f->head == (k == 0) && f->tail == (k == (long)len - 1) && f->vc == 0);
          CHECK(f->hdr == (k == 0 ? hdr : 0)); /* body hdr forced to 0 */
          CHECK(f->payload == 1000u + (unsigned)k);
          CHECK(d.out.credit_mask == 1u << 1 && d.out_cr[1] == 1);
          seen++;
        } else {
          CHECKF(d.out.flit_mask == 0 && d.out.credit_mask == 0, "len %u cycle %ld: unexpected output", len, cyc);
        }
      }
      CHECK(seen == len);
      CHECK(asw_switch_idle(d.sw));
      asw_switch_free(d.sw);
    }
}

void test_back_to_back(void) {
  /* two 3-flit packets on input 0 and one on input 1, all for output 3,
   * arriving back to back: output 3 sends 9 flits without a gap */
  asw_config c = cfg(4, 2, 32, 16, 1);
  drv d;
  if (drv_init(&d, &c)) return;
  program_identity(d.sw, 4);
  int sent = 0;
  long first = -1, last = -1;
  for (long cyc = 0; cyc < 30; cyc++) {
    if (cyc < 6) {
      unsigned k = (unsigned)cyc % 3;
      drv_flit(&d, 0, k == 0, k == 2, 0, k == 0 ? asw_hdr_make(3, 0, 0, 3, 0, 0, 0) : 0, (uint64_t)cyc);
    }
    if (cyc < 3) drv_flit(&d, 1, cyc == 0, cyc == 2, 1, cyc == 0 ? asw_hdr_make(3, 1, 1, 3, 0, 0, 0) : 0, 100 + (uint64_t)cyc);
    CHECK(drv_step(&d) == ASW_OK);
    if (d.out.flit_mask) {
      CHECK(d.out.flit_mask == 8);
      if (first < 0) first = cyc;
      last = cyc;
      sent++;
    }
  }
  CHECK(first == (long)ASW_ZERO_LOAD_LATENCY && sent == 9 && last == first + 8);
  asw_switch_free(d.sw);
}

void test_cut_through_bubbles(void) {
  /* Z = zero-load latency (ST in t+Z-1). Head at t = 0, body at Z-1, tail at
   * Z+2: the head cannot leave in ST cycle Z-1 before its successor is
   * written (bubble), so it leaves at Z+1; the body waits for the tail
   * (written at Z+2) and leaves at Z+4, the tail right after at Z+5; the
   * output stays reserved in between, so input 1's packet is matched in the
   * tail's ST cycle and leaves at Z+6. */
  const long Z = (long)ASW_ZERO_LOAD_LATENCY;
  asw_config c = cfg(4, 1, 32, 16, 1);
  drv d;
  if (drv_init(&d, &c)) return;
  program_identity(d.sw, 4);
  long when[3] = {-1, -1, -1};
  long other = -1;
  for (long cyc = 0; cyc < 24; cyc++) {
    if (cyc == 0) drv_flit(&d, 0, 1, 0, 0, asw_hdr_make(2, 0, 0, 3, 0, 0, 0), 10);
    if (cyc == Z - 1) drv_flit(&d, 0, 0, 0, 0, 0, 11);
    if (cyc == Z + 2) drv_flit(&d, 0, 0, 1, 0, 0, 12);
    if (cyc == 1) drv_flit(&d, 1, 1, 1, 0, asw_hdr_make(2, 1, 0, 1, 0, 0, 0), 20);
    CHECK(drv_step(&d) == ASW_OK);
    if (d.out.flit_mask & 4) {
      uint64_t pl = d.out_flit[2].payload;
      if (pl >= 10 && pl <= 12) when[pl - 10] = cyc;
      else other = cyc;
    }
  }
  CHECKF(when[0] == Z + 1 && when[1] == Z + 4 && when[2] == Z + 5, "head %ld body %ld tail %ld",
         when[0], when[1], when[2]);
  CHECKF(other == Z + 6, "other packet at %ld", other);
  asw_switch_free(d.sw);
}

void test_register_bus_timing(void) {
  asw_config c = cfg(4, 1, 32, 16, 1);
  drv d;
  if (drv_init(&d, &c)) return;
  asw_reg_write(d.sw, ASW_REG_FWD(5), asw_fwd_entry(1, 0, 0, 0));
  /* cycle 0: write FWD[5] -> port 2 while a head for 5 arrives (old entry) */
  drv_flit(&d, 0, 1, 1, 0, asw_hdr_make(5, 0, 0, 1, 0, 0, 0), 1);
  d.in.reg_en = 1;
  d.in.reg_we = 1;
  d.in.reg_addr = ASW_REG_FWD(5);
  d.in.reg_wdata = asw_fwd_entry(2, 0, 0, 0);
  CHECK(drv_step(&d) == ASW_OK);
  /* cycle 1: a head for 5 on input 3 (new entry); read flits_in[3] (old: 0) */
  drv_flit(&d, 3, 1, 1, 0, asw_hdr_make(5, 3, 0, 1, 0, 0, 0), 2);
  d.in.reg_en = 1;
  d.in.reg_addr = ASW_REG_COUNTER(3, ASW_CNT_FLITS_IN);
  CHECK(drv_step(&d) == ASW_OK);
  CHECK(d.out.reg_rvalid == 0 && d.out.reg_rdata == 0);
  /* cycle 2: read it again (now 1); see cycle 1's read */
  d.in.reg_en = 1;
  d.in.reg_addr = ASW_REG_COUNTER(3, ASW_CNT_FLITS_IN);
  CHECK(drv_step(&d) == ASW_OK);
  CHECK(d.out.reg_rvalid == 1 && d.out.reg_rdata == 0);
  CHECK(drv_step(&d) == ASW_OK); /* cycle 3 */
  CHECK(d.out.reg_rvalid == 1 && d.out.reg_rdata == 1);
  /* cycle 4: nothing read in cycle 3; the packets are in SA and SR */
  CHECK(drv_step(&d) == ASW_OK);
  CHECK(d.out.reg_rvalid == 0 && d.out.reg_rdata == 0 && d.out.flit_mask == 0);
  CHECK(drv_step(&d) == ASW_OK); /* cycle 5: in ST and SA */
  CHECK(d.out.flit_mask == 0);
  /* cycle 6 = 0 + ASW_ZERO_LOAD_LATENCY: outputs of the first packet */
  CHECK(drv_step(&d) == ASW_OK);
  CHECK(d.out.flit_mask == 2 && d.out_flit[1].payload == 1);
  CHECK(drv_step(&d) == ASW_OK); /* cycle 7 */
  CHECK(d.out.flit_mask == 4 && d.out_flit[2].payload == 2);
  /* CNT_CLEAR in a cycle with arrivals overrides that cycle's increments */
  drv_flit(&d, 0, 1, 1, 0, asw_hdr_make(1, 0, 0, 1, 0, 0, 0), 3);
  d.in.reg_en = 1;
  d.in.reg_we = 1;
  d.in.reg_addr = ASW_REG_CNT_CLEAR;
  CHECK(drv_step(&d) == ASW_OK);
  uint32_t v;
  asw_reg_read(d.sw, ASW_REG_COUNTER(0, ASW_CNT_FLITS_IN), &v);
  CHECK(v == 0);
  asw_reg_read(d.sw, ASW_REG_COUNTER(1, ASW_CNT_FLITS_OUT), &v);
  CHECK(v == 0);
  /* an illegal write through the bus is counted, the step succeeds */
  d.in.reg_en = 1;
  d.in.reg_we = 1;
  d.in.reg_addr = ASW_REG_ID;
  CHECK(drv_step(&d) == ASW_OK);
  asw_reg_read(d.sw, ASW_REG_REG_ERRORS, &v);
  CHECK(v == 1);
  /* LFSR_SEED and THRESH through the bus take effect like out-of-loop */
  d.in.reg_en = 1;
  d.in.reg_we = 1;
  d.in.reg_addr = ASW_REG_THRESH;
  d.in.reg_wdata = 3u << 16 | 2u;
  CHECK(drv_step(&d) == ASW_OK);
  asw_reg_read(d.sw, ASW_REG_THRESH, &v);
  CHECK(v == (3u << 16 | 2u));
  asw_switch_free(d.sw);
}

void test_counters_and_occupancy(void) {
  asw_config c = cfg(4, 1, 8, 4, 1);
  c.table_entries = 4;
  drv d;
  if (drv_init(&d, &c)) return;
  program_identity(d.sw, 4);
  asw_reg_write(d.sw, ASW_REG_DEFAULT_PORT, 3);
  uint32_t v;
  /* inputs 0 (two packets) and 2 (one packet) send 4-flit packets to
   * output 1, whose downstream returns no credits for a while: 8 credits
   * for 12 flits; input 3 sends to dest 9 >= TABLE. */
  for (long cyc = 0; cyc < 8; cyc++) {
    unsigned k = (unsigned)cyc % 4;
    drv_flit(&d, 0, k == 0, k == 3, 0, k == 0 ? asw_hdr_make(1, 0, 0, 4, 0, 0, 0) : 0, 0);
    if (cyc < 4) drv_flit(&d, 2, k == 0, k == 3, 0, k == 0 ? asw_hdr_make(1, 2, 0, 4, 0, 0, 0) : 0, 0);
    if (cyc == 0) drv_flit(&d, 3, 1, 1, 0, asw_hdr_make(9, 3, 0, 1, 0, 0, 0), 0);
    CHECK(drv_step(&d) == ASW_OK);
    if (cyc == 1) {
      asw_reg_read(d.sw, ASW_REG_OCC(0, 0, 1), &v);
      CHECK(v == 0); /* routed in RC (cycle 1), not yet appended */
    }
    if (cyc == 2) {
      asw_reg_read(d.sw, ASW_REG_OCC(0, 0, 1), &v);
      CHECK(v == 4); /* appended in RQ (cycle 2) */
    }
  }
  for (int k = 0; k < 20; k++) CHECK(drv_step(&d) == ASW_OK);
  asw_reg_read(d.sw, ASW_REG_COUNTER(0, ASW_CNT_FLITS_IN), &v);
  CHECK(v == 8);
  asw_reg_read(d.sw, ASW_REG_COUNTER(0, ASW_CNT_PACKETS_IN), &v);
  CHECK(v == 2);
  asw_reg_read(d.sw, ASW_REG_COUNTER(1, ASW_CNT_FLITS_OUT), &v);
  CHECK(v == 8);
  asw_reg_read(d.sw, ASW_REG_COUNTER(1, ASW_CNT_PACKETS_OUT), &v);
  CHECK(v == 2);
  asw_reg_read(d.sw, ASW_REG_COUNTER(3, ASW_CNT_ROUTE_ERRORS), &v);
  CHECK(v == 1);
  asw_reg_read(d.sw, ASW_REG_COUNTER(3, ASW_CNT_FLITS_OUT), &v);
  CHECK(v == 1); /* forwarded to DEFAULT_PORT */
  asw_reg_read(d.sw, ASW_REG_CRED(1, 0), &v);
  CHECK(v == 0);
  /* input 2 lost the first allocation to input 0 (ties: gp = 0) */
  asw_reg_read(d.sw, ASW_REG_COUNTER(2, ASW_CNT_SA_LOST), &v);
  CHECK(v >= 1);
  uint32_t stall0;
  asw_reg_read(d.sw, ASW_REG_COUNTER(1, ASW_CNT_CREDIT_STALL), &stall0);
  CHECK(stall0 > 5);
  /* input 2 won the second allocation (gp[1] = 1 after the first), so
   * input 0's second packet waits for credits */
  asw_reg_read(d.sw, ASW_REG_OCC(0, 0, 1), &v);
  CHECK(v == 4);
  asw_reg_read(d.sw, ASW_REG_OCC(2, 0, 1), &v);
  CHECK(v == 0);
  asw_reg_read(d.sw, ASW_REG_COUNTER(0, ASW_CNT_SA_LOST), &v);
  CHECK(v >= 1);
  /* one more cycle without credits: one more stall */
  CHECK(drv_step(&d) == ASW_OK);
  asw_reg_read(d.sw, ASW_REG_COUNTER(1, ASW_CNT_CREDIT_STALL), &v);
  CHECK(v == stall0 + 1);
  /* return 4 credits: input 0's second packet goes */
  for (int k = 0; k < 4; k++) {
    drv_credit(&d, 1, 0);
    CHECK(drv_step(&d) == ASW_OK);
  }
  int got = 0;
  for (int k = 0; k < 10; k++) {
    CHECK(drv_step(&d) == ASW_OK);
    got += (d.out.flit_mask >> 1) & 1;
  }
  CHECK(got == 4);
  asw_reg_read(d.sw, ASW_REG_OCC(0, 0, 1), &v);
  CHECK(v == 0);
  asw_switch_free(d.sw);
}

void test_rc_sees_cycle_start_credits(void) {
  /* Adaptive RC in cycle c must see the credits at the start of c, not
   * those reserved by SA in the same cycle. Port 2 has 6 credits (a 2-flit
   * packet went out earlier), port 1 has 8 until a 4-flit packet matched in
   * cycle t+2 reserves 4. A packet whose RC is in cycle t+2 and may use
   * port 1 (det) or 2 must pick port 1 (8 > 6), not port 2 (6 > 4). */
  asw_config c = cfg(4, 1, 8, 4, 1);
  drv d;
  if (drv_init(&d, &c)) return;
  asw_reg_write(d.sw, ASW_REG_FWD(3), asw_fwd_entry(1, 0, 0, 0));
  asw_reg_write(d.sw, ASW_REG_FWD(2), asw_fwd_entry(2, 0, 0, 0));
  asw_reg_write(d.sw, ASW_REG_FWD(0), asw_fwd_entry(1, 0, 0, 1));
  asw_reg_write(d.sw, ASW_REG_CSET(0, 0), 0x6);
  asw_reg_write(d.sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_ADAPTIVE, ASW_TRIG_NOTH, 0xFF, 1));
  drv_flit(&d, 3, 1, 0, 0, asw_hdr_make(2, 3, 0, 2, 0, 0, 0), 0);
  CHECK(drv_step(&d) == ASW_OK);
  drv_flit(&d, 3, 0, 1, 0, 0, 0);
  CHECK(drv_step(&d) == ASW_OK);
  for (int k = 0; k < 8; k++) CHECK(drv_step(&d) == ASW_OK);
  uint32_t v;
  asw_reg_read(d.sw, ASW_REG_CRED(2, 0), &v);
  CHECK(v == 6);
  for (int k = 0; k < 8; k++) {
    if (k < 4) drv_flit(&d, 0, k == 0, k == 3, 0, k == 0 ? asw_hdr_make(3, 0, 0, 4, 0, 0, 0) : 0, 0);
    if (k == 1) drv_flit(&d, 2, 1, 1, 0, asw_hdr_make(0, 2, 0, 1, 0, 0, 0), 0);
    CHECK(drv_step(&d) == ASW_OK);
  }
  for (int k = 0; k < 10; k++) CHECK(drv_step(&d) == ASW_OK);
  asw_reg_read(d.sw, ASW_REG_COUNTER(2, ASW_CNT_ADAPTIVE), &v);
  CHECK(v == 0);
  asw_reg_read(d.sw, ASW_REG_COUNTER(1, ASW_CNT_PACKETS_OUT), &v);
  CHECK(v == 2);
  asw_reg_read(d.sw, ASW_REG_CRED(1, 0), &v);
  CHECK(v == 3);
  asw_switch_free(d.sw);
}

void test_protocol_errors_named(void) {
  /* each violation: ASW_EPROTO, a message naming it, nothing changed */
  asw_config c = cfg(4, 2, 8, 4, 1);
  c.dest_bits = 4;
  c.table_entries = 16;
  drv d;
  if (drv_init(&d, &c)) return;
  struct { int kind; const char *msg; } cases[] = {
      {0, "dest"}, {2, "still due"}, {3, "no tail"},
      {4, "more flits"}, {5, "NULL"}, {6, "NULL"}, {7, "exceed BUF"},
  };
  for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    /* state before: input 1 has a 3-flit packet in progress on VC 0 with
     * 6 of 8 credits held (3 of an earlier packet) */
    asw_switch_reset(d.sw);
    drv_flit(&d, 1, 1, 0, 0, asw_hdr_make(9, 0, 0, 3, 0, 0, 0), 0);
    CHECK(drv_step(&d) == ASW_OK);
    drv_flit(&d, 1, 0, 0, 0, 0, 0);
    CHECK(drv_step(&d) == ASW_OK);
    drv_flit(&d, 1, 0, 1, 0, 0, 0);
    CHECK(drv_step(&d) == ASW_OK);
    drv_flit(&d, 1, 1, 0, 0, asw_hdr_make(9, 0, 0, 3, 0, 0, 0), 0);
    CHECK(drv_step(&d) == ASW_OK);
    uint32_t before;
    asw_reg_read(d.sw, ASW_REG_COUNTER(1, ASW_CNT_FLITS_IN), &before);
    asw_inputs saved = d.in;
    switch (cases[k].kind) {
    case 0: drv_flit(&d, 2, 1, 1, 0, asw_hdr_make(16, 0, 0, 1, 0, 0, 0), 0); break; /* dest >= 2^DW */
    case 2: drv_flit(&d, 1, 1, 1, 0, asw_hdr_make(1, 0, 0, 1, 0, 0, 0), 0); break; /* head inside packet */
    case 3: drv_flit(&d, 1, 0, 0, 0, 0, 0);
            CHECK(drv_step(&d) == ASW_OK);
            asw_reg_read(d.sw, ASW_REG_COUNTER(1, ASW_CNT_FLITS_IN), &before);
            drv_flit(&d, 1, 0, 0, 0, 0, 0); break; /* third flit without tail */
    case 4: drv_flit(&d, 1, 0, 1, 0, 0, 0); break; /* tail on the 2nd of 3 */
    case 5: d.in.flit_mask = 1; d.in.flit = NULL; break;
    case 6: d.in.credit_mask = 1; d.in.credit_vc = NULL; break;
    case 7: drv_credit(&d, 2, 1); break; /* no flit was ever sent on output 2 */
    }
    int rc = asw_switch_step(d.sw, &d.in, &d.out);
    const char *msg = asw_switch_error(d.sw);
    CHECKF(rc == ASW_EPROTO, "case %u accepted", k);
    CHECKF(strstr(msg, cases[k].msg) != NULL, "case %u: '%s' lacks '%s'", k, msg, cases[k].msg);
    uint32_t after;
    asw_reg_read(d.sw, ASW_REG_COUNTER(1, ASW_CNT_FLITS_IN), &after);
    CHECK(after == before);
    (void)saved;
    memset(&d.in, 0, sizeof d.in);
    d.in.flit = d.in_flit;
    d.in.credit_vc = d.in_cr;
  }
  /* overflow: output 2 gets no credits back, so of four 4-flit packets from
   * input 3 two leave (8 downstream credits) and two stay: VC 0 of input 3
   * then holds all its BUF = 8 flits and any further head overflows */
  asw_switch_reset(d.sw);
  asw_reg_write(d.sw, ASW_REG_FWD(2), asw_fwd_entry(2, 0, 0, 0));
  for (int p = 0; p < 4; p++) {
    for (int k = 0; k < 4; k++) {
      drv_flit(&d, 3, k == 0, k == 3, 0, k == 0 ? asw_hdr_make(2, 3, 0, 4, 0, 0, 0) : 0, 0);
      CHECK(drv_step(&d) == ASW_OK);
    }
    CHECK(drv_step(&d) == ASW_OK); /* a gap: the packet two ahead has left (§5) */
  }
  for (int k = 0; k < 10; k++) CHECK(drv_step(&d) == ASW_OK);
  uint32_t occ;
  asw_reg_read(d.sw, ASW_REG_OCC(3, 0, 2), &occ);
  CHECK(occ == 8); /* two packets stuck: the VC's 8 credits are all held */
  drv_flit(&d, 3, 1, 1, 0, asw_hdr_make(2, 3, 0, 1, 0, 0, 0), 0);
  CHECK(asw_switch_step(d.sw, &d.in, &d.out) == ASW_EPROTO);
  CHECK(strstr(asw_switch_error(d.sw), "overflow") != NULL);
  memset(&d.in, 0, sizeof d.in);
  d.in.flit = d.in_flit;
  d.in.credit_vc = d.in_cr;
  /* a credit back from output 2 lets one packet go; 4 credits return
   * upstream and a 4-flit head is legal again */
  for (int k = 0; k < 4; k++) {
    drv_credit(&d, 2, 0);
    CHECK(drv_step(&d) == ASW_OK);
  }
  for (int k = 0; k < 12; k++) CHECK(drv_step(&d) == ASW_OK);
  drv_flit(&d, 3, 1, 0, 0, asw_hdr_make(2, 3, 0, 4, 0, 0, 0), 0);
  CHECK(drv_step(&d) == ASW_OK);
  asw_switch_free(d.sw);
}
