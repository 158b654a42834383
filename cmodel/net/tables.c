/* tables.c — table generator and SL functions (see tables.h). */
#include "tables.h"

#include <string.h>

#include "../asw_switch.h"

uint32_t tables_fwd_entry(const topo *t, unsigned s, unsigned d) {
  unsigned det = topo_dmodk_port(t, s, d);
  unsigned multipath = !topo_below(t, s, d);
  /* Look-ahead: the port the packet requests at the next switch of its
   * D-mod-K path (0 when the next hop is the end node). */
  unsigned lookahead = 0;
  topo_peer next = topo_port_peer(t, s, det);
  if (next.kind == PEER_SWITCH) lookahead = topo_dmodk_port(t, next.id, d);
  return asw_fwd_entry(det, lookahead, 0, multipath);
}

int tables_program_switch(const topo *t, unsigned s, const route_cfg *rc,
                          reg_write_fn write, void *ctx) {
  int rv;
  unsigned n = topo_nodes(t);
  /* K/delta (seed 000): destination d may use the up ports whose rank (number of up ports
   * below them) is d mod delta. Candidate set c holds the up ports of rank = c mod delta
   * and d's entry names set d mod delta; delta = 1: set 0 = all up ports. */
  unsigned delta = rc->delta >= 1 && rc->delta <= TABLES_MAX_DELTA ? rc->delta : 1;
  for (unsigned d = 0; d < n; d++) {
    uint32_t e = tables_fwd_entry(t, s, d);
    if (e & 1u << 30) e |= (d % delta) << 16;  /* multipath entries: FWD.cset */
    if ((rv = write(ctx, ASW_REG_FWD(d), e))) return rv;
  }
  uint64_t up = topo_up_mask(t, s);
  uint64_t cs[TABLES_MAX_DELTA] = {0};
  unsigned rank = 0;
  for (uint64_t m = up; m; m &= m - 1, rank++) cs[rank % delta] |= m & -m;
  for (unsigned c = 0; c < delta; c++) {
    if ((rv = write(ctx, ASW_REG_CSET(c, 0), (uint32_t)cs[c]))) return rv;
    if ((rv = write(ctx, ASW_REG_CSET(c, 1), (uint32_t)(cs[c] >> 32)))) return rv;
  }
  if ((rv = write(ctx, ASW_REG_ROUTE_CTRL,
                  asw_route_ctrl(rc->mode, rc->trigger, rc->stage_mask,
                                 topo_level(t, s)))))
    return rv;
  if ((rv = write(ctx, ASW_REG_VC_CTRL, (rc->obqa ? 1u : 0u) | (rc->afi ? 2u : 0u))))
    return rv;
  if (rc->arn_regs) {
    uint64_t arn_up = up;
    if (rc->arn_up_nodes)
      for (unsigned p = 0; p < topo_ports(t); p++)
        if (topo_port_peer(t, s, p).kind == PEER_NODE) arn_up |= 1ull << p;
    if ((rv = write(ctx, ASW_REG_ARN_UP(0), (uint32_t)arn_up))) return rv;
    if ((rv = write(ctx, ASW_REG_ARN_UP(1), (uint32_t)(arn_up >> 32)))) return rv;
    if ((rv = write(ctx, ASW_REG_CD_THRESH, rc->hcdth | rc->lcdth << 16))) return rv;
    if ((rv = write(ctx, ASW_REG_FCTH, rc->fcth))) return rv;
    if ((rv = write(ctx, ASW_REG_CRT, rc->crt))) return rv;
    if ((rv = write(ctx, ASW_REG_ARN_TTL, rc->arn_ttl))) return rv;
    /* last: mode != 0 starts the mechanism with every parameter in place */
    if ((rv = write(ctx, ASW_REG_ARN_CTRL,
                    asw_arn_ctrl(rc->arn_mode, rc->mark_adapted) |
                        (rc->arn_mode && rc->adapted_arn ? ASW_ARN_CTRL_ADAPTED_ARN : 0u) |
                        (rc->arn_mode && rc->alt_refresh ? ASW_ARN_CTRL_ALT_REFRESH : 0u))))
      return rv;
  }
  if (rc->ltth || rc->htth)
    if ((rv = write(ctx, ASW_REG_THRESH, rc->ltth | (rc->htth << 16))))
      return rv;
  if ((rv = write(ctx, ASW_REG_LFSR_SEED, rc->lfsr_seed & 0xFFFFu))) return rv;
  return 0;
}

unsigned sqs_sl(sqs_kind kind, unsigned q, unsigned n, unsigned k,
                unsigned dest_bits, unsigned src, unsigned dst) {
  switch (kind) {
  case SQS_DBBM:
    return dst % q;
  case SQS_VFTREE:
    return (dst / k) % q;
  case SQS_FLOW2SL: {
    unsigned gs = (unsigned)((uint64_t)src * q / n);
    unsigned gd = (unsigned)((uint64_t)dst * q / n);
    return (gs + gd) % q;
  }
  case SQS_XORDET: {
    unsigned l = 0;
    while ((1u << l) < q) l++;
    if (l == 0) return 0;
    unsigned sl = 0;
    for (unsigned j = 0; j < l; j++) {
      unsigned bit = 0;
      for (unsigned b = j; b < dest_bits; b += l) bit ^= (dst >> b) & 1u;
      sl |= bit << j;
    }
    return sl;
  }
  case SQS_1Q:
  case SQS_OBQA:
  default:
    return 0;
  }
}

static const char *const sqs_names[] = {"1q",      "dbbm", "vftree",
                                        "flow2sl", "obqa", "xordet",
                                        "bbq", "iodet", "voqsw", "oodet", /* §16.4, §16.3: tori, meshes */
                                        "voqnet"}; /* §16.6: their reference fabric */

int sqs_parse(const char *name) {
  for (unsigned i = 0; i < sizeof sqs_names / sizeof *sqs_names; i++)
    if (!strcmp(name, sqs_names[i])) return (int)i;
  return -1;
}

const char *sqs_name(sqs_kind kind) { return sqs_names[kind]; }
