/* mech_route.c — switch settings beyond the forwarding tables: §17.6 hashed
 * or S-mod-k up-port selection (routing = hashed / smodk) and §17.7 output
 * port rates (port_gap). */
#include "net_internal.h"

static int route_on(const net_cfg *c) { return c->route_hash || c->pg_count; }

static int route_build(net *n, char *err, size_t errlen) {
  const net_cfg *c = &n->cfg;
  for (unsigned l = 1; c->route_hash == 2 && l <= topo_levels(n->t); l++) { /* §17.6 */
    unsigned w = topo_up_ports(n->t, l);
    if (w & (w - 1)) {
      snprintf(err, errlen, "routing: smodk takes the up port from source digits and needs "
               "power-of-two up-port counts (stage %u has %u)", l, w);
      return -1;
    }
  }
  for (unsigned i = 0; i < c->pg_count; i++) { /* §17.7 */
    unsigned s = c->pg[i].sw, p = c->pg[i].port;
    if (s >= n->S || p >= n->P || topo_port_peer(n->t, s, p).kind == PEER_NONE) {
      snprintf(err, errlen, "port_gap: %u:%u:%u: %s", s, p, c->pg[i].gap,
               s >= n->S ? "no such switch" : p >= n->P ? "no such port" : "the port has no link");
      return -1;
    }
  }
  return 0;
}

/* §17.6: the bits of r a stage with w up ports uses, which the stages above skip
 * (their SHIFT grows by it). S-mod-k (kind 2): log2 w, w a power of two. The flow
 * hash (kind 1): log2 w too when w is a power of two, which makes the stages'
 * choices independent; else ceil(log2 w) + 2, so that the next stage's r, taken that
 * many bits lower, runs over at least four whole periods within each choice of this
 * stage and its choice is nearly uniform (with log2 w bits skipped, w = 6 would leave
 * the next stage 2 of its 6 ports for each choice here). */
static unsigned hash_stage_bits(unsigned w, unsigned kind) {
  if (w < 2) return 0;
  unsigned ceil_log2 = 32u - (unsigned)__builtin_clz(w - 1);
  return (w & (w - 1)) == 0 || kind != 1 ? ceil_log2 : ceil_log2 + 2;
}

static int route_program(net *n, unsigned s) {
  const net_cfg *c = &n->cfg;
  int rv = 0;
  if (!rv && c->route_hash) { /* §17.6: hashed, or S-mod-k by source digits */
    unsigned lvl = topo_level(n->t, s), shift = 0, bits = 0;
    for (unsigned l = 1; l < lvl; l++) shift += hash_stage_bits(topo_up_ports(n->t, l), c->route_hash);
    if (topo_up_ports(n->t, lvl)) bits = (unsigned)__builtin_ctz(topo_up_ports(n->t, lvl));
    rv = net_reg_write_cb(n, ASW_REG_ROUTE_HASH, c->route_hash == 1 ? asw_route_hash_reg(ASW_RH_FLOW, shift > 8 ? 8 : shift, 0)
                                             : bits ? asw_route_hash_reg(ASW_RH_SRC_DIGIT, shift, bits) : 0);
  }
  if (!rv && c->pg_count) { /* §17.7: output port rates, one write per PORT_GAP register */
    uint32_t word[8] = {0};
    unsigned touched = 0;
    for (unsigned i = 0; i < c->pg_count; i++)
      if (c->pg[i].sw == s) {
        word[c->pg[i].port / 8] |= asw_port_gap_field(c->pg[i].port, c->pg[i].gap);
        touched |= 1u << (c->pg[i].port / 8);
      }
    for (unsigned k = 0; k < 8 && !rv; k++)
      if (touched >> k & 1u) rv = net_reg_write_cb(n, ASW_REG_PORT_GAP(k), word[k]);
  }
  return rv;
}

const net_mech net_mech_route = {.name = "route_hash, port_gap", .on = route_on,
                                 .build = route_build, .program = route_program};
