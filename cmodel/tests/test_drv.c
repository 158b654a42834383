/* test_drv.c — see test_drv.h. */
#include "test_drv.h"

#include <string.h>

#include "test.h"

uint32_t test_rd(const asw_switch *sw, uint32_t a) {
  uint32_t v = 0xDEADBEEFu;
  CHECKF(asw_reg_read(sw, a, &v) == ASW_OK, "read of 0x%05x refused", (unsigned)a);
  return v;
}

int test_drv_init(test_drv *d, unsigned P, unsigned V, unsigned BUF, unsigned LMAX,
                  unsigned PW) {
  return test_drv_init_ext(d, P, V, BUF, LMAX, PW, 1, ASW_FEAT_ALL);
}

int test_drv_init_ext(test_drv *d, unsigned P, unsigned V, unsigned BUF, unsigned LMAX,
                      unsigned PW, unsigned voq, unsigned feats) {
  memset(d, 0, sizeof *d);
  asw_config c;
  asw_config_default(&c);
  c.ports = P;
  c.vcs = V;
  c.buf_flits = BUF;
  c.max_packet = LMAX;
  c.payload_bits = PW;
  c.voq = voq;
  asw_config_set_features(&c, feats);
  return test_drv_init_cfg(d, &c);
}

int test_drv_init_cfg(test_drv *d, const asw_config *c) {
  memset(d, 0, sizeof *d);
  char err[200];
  d->sw = asw_switch_new(c, err, sizeof err);
  CHECKF(d->sw != NULL, "%s", err);
  d->out.flit = d->out_flit;
  d->out.credit_vc = d->out_cr;
  d->out.cnm = d->out_cnm;
  for (unsigned p = 0; p < c->ports && d->sw; p++)
    asw_reg_write(d->sw, ASW_REG_FWD(p), asw_fwd_entry(p, 0, 0, 0));
  return d->sw ? 0 : -1;
}

int test_drv_step(test_drv *d) {
  d->in.flit = d->in_flit;
  d->in.credit_vc = d->in_cr;
  d->in.cnm = d->in_cnm;
  int rc = asw_switch_step(d->sw, &d->in, &d->out);
  memset(&d->in, 0, sizeof d->in);
  return rc;
}

void test_drv_put(test_drv *d, unsigned i, unsigned v, unsigned dest, unsigned len, unsigned k) {
  asw_flit *f = &d->in_flit[i];
  memset(f, 0, sizeof *f);
  f->valid = 1;
  f->head = k == 0;
  f->tail = k + 1 == len;
  f->vc = (uint8_t)v;
  f->hdr = k == 0 ? asw_hdr_make(dest, i, v, len, 0, 0, 7) : 0;
  f->payload = 0x100u + k;
  d->in.flit_mask |= 1ull << i;
}
