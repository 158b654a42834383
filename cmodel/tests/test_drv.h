/* test_drv.h — helpers the C model's tests share: a register read that must
 * succeed, and a one-switch cycle driver (inputs cleared after every step). */
#ifndef ASW_TEST_DRV_H
#define ASW_TEST_DRV_H

#include <stdint.h>

#include "asw_switch.h"

/* The register at address a (a CHECK fails if the read is refused). */
uint32_t test_rd(const asw_switch *sw, uint32_t a);

typedef struct {
  asw_switch *sw;
  asw_flit in_flit[64], out_flit[64];
  uint8_t in_cr[64], out_cr[64];
  uint64_t in_cnm[64], out_cnm[64]; /* §17.8 lane */
  asw_inputs in;
  asw_outputs out;
} test_drv;

/* A switch of P ports, V VCs, BUF flits per VC, packets up to LMAX flits and
 * PW payload bits, every destination d < P forwarded to port d on VC 0.
 * 0, or -1 (a CHECK failed) if the switch cannot be made. */
int test_drv_init(test_drv *d, unsigned P, unsigned V, unsigned BUF, unsigned LMAX,
                  unsigned PW);
/* The same with VOQ and the §1 features built (ASW_FEAT_* bits) given (test_drv_init:
 * VOQ = 1, every feature built: ASW_FEAT_ALL). */
int test_drv_init_ext(test_drv *d, unsigned P, unsigned V, unsigned BUF, unsigned LMAX,
                      unsigned PW, unsigned voq, unsigned feats);
/* The same for a whole configuration c (every destination d < P to port d). */
int test_drv_init_cfg(test_drv *d, const asw_config *c);
/* One asw_switch_step with d->in (then cleared); its return code. */
int test_drv_step(test_drv *d);
/* Puts flit k (0-based) of a len-flit packet from input i to dest on VC v into d->in:
 * the head carries the header (SL v, seq 7), payload 0x100 + k. */
void test_drv_put(test_drv *d, unsigned i, unsigned v, unsigned dest, unsigned len, unsigned k);

#endif
