/* network.c — building and freeing a network (see network.h; the simulator's
 * files by concern are listed in net_internal.h and cmodel/net/README.md). */
#include "net_internal.h"

#include <stdlib.h>
#include <string.h>

const char *net_error(const net *n) { return n->err; }
const char *net_watchdog_report(const net *n) {
  return n->report ? n->report : "";
}
unsigned net_deadlock_cycle(const net *n, const net_dl_hop **hops) {
  if (hops) *hops = n->dl_cycle;
  return n->dl_len;
}
const topo *net_topo(const net *n) { return n->t; }
uint64_t net_hs_closed(const net *n) { return n->hs_closed; }

const char *net_routing_check(const net *n) { return n->cdg_note ? n->cdg_note : ""; }

int net_reg_write_cb(void *ctx, uint32_t addr, uint32_t data) {
  net *n = ctx;
  int rv = asw_reg_write(n->sw[n->prog_switch], addr, data);
  if (rv == 0 && n->obs.reg_write) n->obs.reg_write(n->obs.ctx, n->prog_switch, addr, data);
  return rv;
}

/* §16.5 topology=file: the tables of the routing and the channel-dependency
 * check (refuse, or note the cycle). */
static int file_routing(net *n, char *err, size_t errlen) {
  const net_cfg *c = &n->cfg;
  if (fwd_tables_for(c, n->t, &n->ft, err, errlen)) return -1;
  if (n->ft.has_vc && c->sqs != SQS_1Q) {
    snprintf(err, errlen, "sqs: %s gives the VCs; leave sqs at 1q", c->table_path);
    return -1;
  }
  unsigned q = c->vcs; /* no AFC with a file topology */
  cdg_hop *h = NULL;
  int k = fwd_tables_cdg(n->t, &n->ft, c->vcs, q, c->sqs, &h);
  if (k < 0) {
    snprintf(err, errlen, "routing: out of memory for the channel-dependency graph");
    return -1;
  }
  if (k == 0) return 0;
  size_t len = 64 + (size_t)k * 64;
  char *buf = malloc(len);
  if (!buf) { free(h); snprintf(err, errlen, "out of memory"); return -1; }
  cdg_describe(h, (unsigned)k, buf, len);
  free(h);
  if (c->cdg_check == 0) {
    snprintf(err, errlen, "routing: %s may deadlock: %s (cdg_check=warn runs it anyway)",
             c->file_routing == 3 ? c->table_path : c->file_routing == 2 ? "updn" : "minhop", buf);
    free(buf);
    return -1;
  }
  n->cdg_note = buf;
  return 0;
}

static net *net_build(const net_cfg *cfg, const net_observer *obs, const net_comm *comm,
                      char *err, size_t errlen);

net *net_new(const net_cfg *cfg, char *err, size_t errlen) {
  return net_build(cfg, NULL, NULL, err, errlen);
}

net *net_new_observed(const net_cfg *cfg, const net_observer *obs, char *err,
                      size_t errlen) {
  return net_build(cfg, obs, NULL, err, errlen);
}

net *net_new_part(const net_cfg *cfg, const net_comm *comm, char *err, size_t errlen) {
  if (!comm || !comm->exchange || !comm->sum || comm->ranks != cfg->ranks ||
      comm->rank >= comm->ranks) {
    snprintf(err, errlen, "ranks: %u configured but the transport has %u ranks",
             cfg->ranks, comm ? comm->ranks : 0u);
    return NULL;
  }
  return net_build(cfg, NULL, comm, err, errlen);
}

void net_switch_config(const net *n, asw_config *out) { *out = n->sw_cfg; }
asw_switch *net_switch(const net *n, unsigned s) { return s < n->S ? n->sw[s] : NULL; }

/* The routing's name in the JSON and the text (routing_name). */
static void routing_name(net *n) {
  const net_cfg *c = &n->cfg;
  if (n->cube) /* §16.4 */
    snprintf(n->routing_name, sizeof n->routing_name, "%s",
             n->crc.adapt == CUBE_ADAPT_FULLY ? "fully-adaptive"
             : n->crc.adapt == CUBE_ADAPT_XOR ? "xoradap"
             : n->crc.order == CUBE_ORDER_DIRECTION ? "direction-order" : "dor");
  else if (n->ft.port) /* §16.5 */
    snprintf(n->routing_name, sizeof n->routing_name, "%s",
             c->file_routing == 3 ? "table" : c->file_routing == 2 ? "updn" : "minhop");
  else if (c->route_hash)
    snprintf(n->routing_name, sizeof n->routing_name, c->route_hash == 1 ? "hashed" : "smodk");
  else if (c->switch_ar) snprintf(n->routing_name, sizeof n->routing_name, "switch-ar"); /* §17.8 */
  else if (c->routing == ASW_ROUTE_DET) snprintf(n->routing_name, sizeof n->routing_name, "dmodk");
  else if (c->routing == ASW_ROUTE_OBLIVIOUS) snprintf(n->routing_name, sizeof n->routing_name, "oblivious");
  else if (c->trigger == 0 && (c->adaptive_stages & 0xFF) == 0xFF && c->delta == 1)
    snprintf(n->routing_name, sizeof n->routing_name, "fully-adaptive");
  else {
    char st[24], dl[16];
    if ((c->adaptive_stages & 0xFF) == 0xFF) snprintf(st, sizeof st, "s");
    else {
      size_t k = 0;
      for (unsigned b = 0; b < 8; b++)
        if (c->adaptive_stages & (1u << b)) k += (size_t)snprintf(st + k, sizeof st - k, "%u", b + 1);
      snprintf(st + k, sizeof st - k, "s");
    }
    if (c->delta > 1) snprintf(dl, sizeof dl, "k/%u", c->delta);
    else snprintf(dl, sizeof dl, "k");
    snprintf(n->routing_name, sizeof n->routing_name, "adap-%s-%s-%s",
             c->trigger == 0 ? "noth" : c->trigger == 1 ? "th" : "2th", st, dl);
  }
}

static net *net_build(const net_cfg *cfg, const net_observer *obs, const net_comm *comm,
                      char *err, size_t errlen) {
  if (netcfg_check(cfg, err, errlen)) return NULL;
  if (cfg->ranks > 1 && !comm) {
    snprintf(err, errlen, "ranks: %u ranks need the MPI build run under mpirun "
             "(mpirun -np %u build/asw-mpi net ... ranks=%u)", cfg->ranks, cfg->ranks,
             cfg->ranks);
    return NULL;
  }
  if (cfg->ranks > 1 && obs) {
    snprintf(err, errlen, "ranks: an observed network runs in one process");
    return NULL;
  }
  net *n = calloc(1, sizeof *n);
  if (!n) { snprintf(err, errlen, "out of memory"); return NULL; }
  n->cfg = *cfg;
  if (obs) n->obs = *obs;
  n->observed = obs != NULL;
  n->R = 1;
  if (comm && cfg->ranks > 1) {
    n->rk.comm = *comm;
    n->rank = comm->rank;
    n->R = comm->ranks;
  }
  const net_cfg *c = &n->cfg;
  n->t = topofile_topo_for(c, err, errlen); /* any kind */
  if (!n->t) { free(n); return NULL; }
  if (c->topology == TOPO_TORUS || c->topology == TOPO_MESH) { /* §16.4 tori and meshes */
    n->cube = topo_cube(n->t);
    n->crc = (cube_route_cfg){.order = c->cube_order == 2 ? CUBE_ORDER_DIRECTION : CUBE_ORDER_DOR,
                              .adapt = c->cube_order == 3   ? CUBE_ADAPT_FULLY
                                       : c->cube_order == 4 ? CUBE_ADAPT_XOR
                                                            : CUBE_ADAPT_NONE,
                              .groups = c->groups,
                              .sqs = c->sqs, .vcs = c->vcs, .lfsr_seed = c->lfsr_seed,
                              .bubble = c->bubble == 2 ? c->topology == TOPO_TORUS : c->bubble};
  }
  if (c->topology == TOPO_FILE && file_routing(n, err, errlen)) { /* §16.5 */
    net_free(n);
    return NULL;
  }
  n->N = topo_nodes(n->t);
  n->S = topo_switches(n->t);
  n->P = topo_ports(n->t);
  n->V = c->vcs;
  n->Q = c->vcs - ((c->afi || c->arn == 2) ? 1u : 0u);
  n->L = c->link_latency;
  n->LC = c->credit_latency;
  n->W = (n->L > n->LC ? n->L : n->LC) + 1;
  /* cycle pairs (net.pairs): what t+1 stages must not land in t's slot */
  if (n->R == 1 && n->L >= 2 && n->LC >= 2) n->W++;
  n->Lmin = n->L;
  if (topo_has_latencies(n->t)) { /* §16.5: links of the file with latencies of their own */
    size_t np = (size_t)n->S * n->P;
    n->port_lat = malloc(np * 2 * sizeof *n->port_lat);
    if (!n->port_lat) {
      snprintf(err, errlen, "out of memory");
      net_free(n);
      return NULL;
    }
    for (unsigned s = 0; s < n->S; s++)
      for (unsigned p = 0; p < n->P; p++) {
        uint16_t *pl = &n->port_lat[((size_t)s * n->P + p) * 2];
        for (int k = 0; k < 2; k++) { /* flits, credits; a link without its own: L, LC */
          unsigned l = topo_port_latency(n->t, s, p, k);
          pl[k] = (uint16_t)(l ? l : k ? n->LC : n->L);
          if (pl[k] + 1u > n->W) n->W = pl[k] + 1u;
        }
        if (pl[0] < n->Lmin && topo_port_peer(n->t, s, p).kind == PEER_SWITCH) n->Lmin = pl[0];
      }
  }
  n->len = c->packet_flits;
  n->cap = c->source_pool;
  n->dest_cap = c->source_queue;
  n->leaf_arity = topo_down_ports(n->t, 1);
  n->pod_nodes = n->leaf_arity * (topo_levels(n->t) >= 2 ? topo_down_ports(n->t, 2) : 1);
  n->dest_bits = 1;
  while ((1u << n->dest_bits) < n->N) n->dest_bits++;
  if (c->delta > topo_up_ports(n->t, 1) && c->routing != 0) {
    /* allowed by the switch, but say so rather than silently route det */
  }
  n->total = c->warmup + c->cycles;
  n->sw = calloc(n->S, sizeof *n->sw);
  n->peer = calloc((size_t)n->S * n->P, sizeof *n->peer);
  n->node_leaf = calloc(n->N, sizeof *n->node_leaf);
  n->node_port = calloc(n->N, 1);
  if (!n->sw || !n->peer || !n->node_leaf || !n->node_port || net_switches_build(n) ||
      net_nodes_build(n) || net_stats_build(n)) {
    snprintf(err, errlen, "out of memory building the network");
    net_free(n);
    return NULL;
  }
  for (unsigned s = 0; s < n->S; s++)
    for (unsigned p = 0; p < n->P; p++) n->peer[(size_t)s * n->P + p] = topo_port_peer(n->t, s, p);
  n->node_lo = 0;
  n->node_hi = n->N;
  if (net_par_build(n, err, errlen)) { /* threads; ranks: partition, exchange buffers */
    net_free(n);
    return NULL;
  }
  for (unsigned d = 0; d < n->N; d++) {
    n->node_leaf[d] = topo_node_switch(n->t, d);
    n->node_port[d] = (uint8_t)topo_node_port(n->t, d);
  }
  int det_only = (c->routing == ASW_ROUTE_DET || c->route_hash) && c->arn == 0 && /* ARN re-routes */
                 c->cube_order < 3 && c->sqs != SQS_OODET; /* §16.3: out of order */
  n->r.order_checked = c->check_order == 1 || (c->check_order == 2 && det_only && n->N <= 4096);
  if (n->r.order_checked) {
    n->flow_last = calloc((size_t)n->N * n->N, 4);
    if (!n->flow_last) {
      snprintf(err, errlen, "check_order: out of memory for %u x %u flows", n->N, n->N);
      net_free(n);
      return NULL;
    }
  }
  asw_config sc;
  asw_config_default(&sc);
  sc.ports = n->P;
  sc.vcs = n->V;
  sc.buf_flits = c->buffer_flits;
  sc.max_packet = c->packet_flits;
  sc.payload_bits = 64;
  sc.dest_bits = 16;
  sc.table_entries = n->N;
  sc.voq = c->voq;
  sc.iters = c->iters;
  sc.arn_entries = c->arn_entries;
  asw_config_set_features(&sc, ASW_FEAT_ALL); /* §1: the simulator's switches build them all */
  if (c->sa_pipe) { /* §8.1: pipelined allocation, without the §16.3 hardware it excludes */
    sc.sa_pipe = 1;
    sc.vc_adaptive = 0;
  }
  net_mech_configure(n, &sc); /* e.g. §17.9: the CNM lane's SAR table */
  char e2[256];
  if (asw_config_check(&sc, e2, sizeof e2)) {
    snprintf(err, errlen, "switch parameters: %s", e2);
    net_free(n);
    return NULL;
  }
  n->sw_cfg = sc;
  if (net_mech_build(n, err, errlen)) { /* PFC, VOQnet, the CNM lane, ... */
    net_free(n);
    return NULL;
  }
  route_cfg rc = {.mode = c->routing, .trigger = c->trigger,
                  .stage_mask = c->adaptive_stages & 0xFF, .delta = c->delta,
                  .obqa = c->sqs == SQS_OBQA, .ltth = c->ltth, .htth = c->htth,
                  .lfsr_seed = c->lfsr_seed};
  unsigned afi = c->afi || c->arn == 2, B = c->buffer_flits;
  rc.arn_regs = c->arn_entries >= 1;
  rc.arn_mode = c->arn;
  rc.afi = afi;
  rc.mark_adapted = c->arn == 0 && afi; /* Adaptive-Th + AFI (§15.1) */
  /* thresholds in % of BUF, rounded down as the register reset values */
  rc.hcdth = c->hcdth * B / 100 ? c->hcdth * B / 100 : 1;
  rc.lcdth = c->lcdth * B / 100 ? c->lcdth * B / 100 : 1;
  rc.fcth = c->fcth * B / 100;
  rc.crt = c->crt;
  rc.arn_ttl = c->arn_ttl;
  rc.arn_up_nodes = c->arn_up_nodes;
  rc.adapted_arn = c->adapted_arn;
  rc.alt_refresh = c->alt_refresh;
  if (rc.obqa && n->V < 1) rc.obqa = 0;
  for (unsigned s = 0; s < n->S && !n->vq; s++) {
    if (n->R > 1 && n->rk.sw_owner[s] != n->rank) continue; /* another rank's */
    n->sw[s] = asw_switch_new(&sc, e2, sizeof e2);
    if (!n->sw[s]) {
      snprintf(err, errlen, "switch %u: %s", s, e2);
      net_free(n);
      return NULL;
    }
    n->prog_switch = s;
    int rv = n->cube ? cube_tables_program_switch(n->cube, &n->crc, s, net_reg_write_cb, n) /* §16.4 */
             : n->ft.port ? fwd_tables_program_switch(&n->ft, s, c->lfsr_seed, net_reg_write_cb, n) /* §16.5 */
             : tables_program_switch(n->t, s, &rc, net_reg_write_cb, n);
    if (!rv) rv = net_mech_program(n, s); /* PFC, route hash, port gaps, QCN, lane */
    if (rv) {
      snprintf(err, errlen, "switch %u: the table generator wrote an illegal "
               "register value (%d); check delta/ltth/htth", s, rv);
      net_free(n);
      return NULL;
    }
  }
  net_nodes_init(n);
  routing_name(n);
  if (net_traffic_setup(n)) {
    snprintf(err, errlen, "%s", n->err);
    net_free(n);
    return NULL;
  }
  if (net_mech_build_late(n, err, errlen)) { /* QCN, trace replay, link faults, ... */
    net_free(n);
    return NULL;
  }
  net_injection_init(n);
  return n;
}

void net_free(net *n) {
  if (!n) return;
  net_mech_free(n);
  free(n->port_lat);
  if (n->sw)
    for (unsigned s = 0; s < n->S; s++)
      if (n->sw[s]) asw_switch_free(n->sw[s]);
  free(n->sw);
  free(n->peer); free(n->node_leaf); free(n->node_port);
  net_switches_free(n);
  net_par_free(n);
  net_nodes_free(n);
  net_stats_free(n);
  free(n->flow_last); free(n->hot_rx); free(n->is_hotspot); free(n->ihs_dest); free(n->report); free(n->dl_cycle);
  fwd_tables_free(&n->ft); free(n->cdg_note);
  topo_free(n->t);
  free(n);
}
