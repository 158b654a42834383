/* cube_tables.c — see cube_tables.h. */
#include "cube_tables.h"

#include "../asw_switch.h"

/* Signed minimal offset from a to b in dimension d (+ on a torus tie), as cube.c. */
static int offset(const cube *c, unsigned d, unsigned a, unsigned b) {
  int k = (int)c->k[d], o = (int)b - (int)a;
  if (!c->torus) return o;
  if (o < 0) o += k;
  return 2 * o <= k ? o : o - k;
}

unsigned cube_route_port(const cube *c, unsigned order, unsigned cur, unsigned dst) {
  if (order != CUBE_ORDER_DIRECTION) return cube_dor_port(c, cur, dst);
  unsigned xa[CUBE_MAX_DIMS], xb[CUBE_MAX_DIMS];
  cube_coords(c, cur, xa);
  cube_coords(c, dst, xb);
  for (unsigned d = 0; d < c->n; d++)
    if (offset(c, d, xa[d], xb[d]) > 0) return 2 * d;
  for (unsigned d = 0; d < c->n; d++)
    if (offset(c, d, xa[d], xb[d]) < 0) return 2 * d + 1;
  return 2 * c->n;
}

int cube_vc_adaptive(const cube_route_cfg *rc) {
  return rc->adapt != CUBE_ADAPT_NONE || rc->sqs == SQS_OODET;
}

/* §16.3 candidate VCs for dst: [*vlo, *vlo + *vn). */
static void vca_vcs(const cube *c, const cube_route_cfg *rc, unsigned dst, unsigned *vlo,
                    unsigned *vn) {
  if (rc->adapt == CUBE_ADAPT_NONE) { /* OODET: every VC */
    *vlo = 0;
    *vn = rc->vcs;
    return;
  }
  unsigned g = rc->adapt == CUBE_ADAPT_XOR ? rc->groups : 1, per = (rc->vcs - 1) / g;
  unsigned x = g > 1 ? cube_vc(c, CUBE_VC_XORDET, dst, 0, g) : 0;
  *vlo = 1 + x * per;
  *vn = per;
}

uint32_t cube_vca_entry(const cube *c, const cube_route_cfg *rc, unsigned cur, unsigned dst) {
  unsigned det = cube_route_port(c, rc->order, cur, dst), vlo, vn, amask = 0;
  vca_vcs(c, rc, dst, &vlo, &vn);
  if (rc->adapt != CUBE_ADAPT_NONE && cur != dst) {
    unsigned xa[CUBE_MAX_DIMS], xb[CUBE_MAX_DIMS];
    cube_coords(c, cur, xa);
    cube_coords(c, dst, xb);
    for (unsigned d = 0; d < c->n; d++) {
      int o = offset(c, d, xa[d], xb[d]);
      if (o > 0) amask |= 1u << (2 * d);
      if (o < 0) amask |= 1u << (2 * d + 1);
      if (c->torus && o != 0 && 2 * (o > 0 ? o : -o) == (int)c->k[d]) /* a tie: both ways */
        amask |= 3u << (2 * d);
    }
  }
  return asw_fwd_entry(det, vlo | (vn - 1) << 3, 0, 0) | amask << 18;
}

unsigned cube_route_vc(const cube *c, const cube_route_cfg *rc, unsigned cur, unsigned dst) {
  unsigned q = rc->vcs, o = cube_route_port(c, rc->order, cur, dst);
  if (cube_vc_adaptive(rc)) { /* §16.3: the source spreads over dst's candidate VCs */
    unsigned vlo, vn;
    vca_vcs(c, rc, dst, &vlo, &vn);
    return vlo + dst % vn;
  }
  if (q <= 1) return 0;
  switch (rc->sqs) {
  case SQS_DBBM: return cube_vc(c, CUBE_VC_DBBM, dst, 0, q);
  case SQS_BBQ: return cube_vc(c, CUBE_VC_BBQ, dst, 0, q);
  case SQS_XORDET: return cube_vc(c, CUBE_VC_XORDET, dst, 0, q);
  case SQS_IODET: return o == 2 * c->n ? 0 : cube_vc(c, CUBE_VC_IODET, dst, o / 2, q);
  case SQS_VOQSW: {
    if (o == 2 * c->n) return 0;
    int next = cube_neighbor(c, cur, o); /* a minimal route never leaves the mesh */
    return next < 0 ? 0 : cube_route_port(c, rc->order, (unsigned)next, dst) % q;
  }
  default: return 0; /* 1q */
  }
}

int cube_tables_program_switch(const cube *c, const cube_route_cfg *rc, unsigned s,
                               reg_write_fn write, void *ctx) {
  int rv;
  const int vca = cube_vc_adaptive(rc);
  for (unsigned d = 0; d < c->nodes; d++)
    if ((rv = write(ctx, ASW_REG_FWD(d),
                    vca ? cube_vca_entry(c, rc, s, d)
                        : asw_fwd_entry(cube_route_port(c, rc->order, s, d), cube_route_vc(c, rc, s, d), 0, 0))))
      return rv;
  if (vca) { /* §16.3: mode 3; fallback = escape VC 0 (adaptive) or the packet's VC (OODET) */
    if ((rv = write(ctx, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_VCADAPT, 0, 0xFF, 1))))
      return rv;
    if ((rv = write(ctx, ASW_REG_VC_CTRL, rc->adapt != CUBE_ADAPT_NONE ? 1u << 2 : 3u << 2)))
      return rv;
  } else {
    if ((rv = write(ctx, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_DET, 0, 0, 1)))) return rv;
    if ((rv = write(ctx, ASW_REG_VC_CTRL, 1u))) return rv; /* OBQA: ovc = lookahead mod V */
  }
  if (c->torus && rc->bubble) { /* adaptive: the escape VC only */
    unsigned all = rc->adapt != CUBE_ADAPT_NONE ? 1u : (1u << rc->vcs) - 1u;
    for (unsigned d = 0; d < c->n; d++) {
      if ((rv = write(ctx, ASW_REG_BUBBLE(2 * d), asw_bubble_entry(2 * d + 1, 1, all)))) return rv;
      if ((rv = write(ctx, ASW_REG_BUBBLE(2 * d + 1), asw_bubble_entry(2 * d, 1, all)))) return rv;
    }
  }
  return write(ctx, ASW_REG_LFSR_SEED, rc->lfsr_seed & 0xFFFFu);
}
