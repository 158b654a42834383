/* mech_voqnet.c — §16.6 sqs = voqnet: the simulator-only reference fabric in
 * place of the switches (voqnet.c): the end nodes use one VC, their credits are
 * the fabric's per destination. */
#include "net_internal.h"

static int voqnet_on(const net_cfg *c) { return c->sqs == SQS_VOQNET; }

static int voqnet_build(net *n, char *err, size_t errlen) {
  const net_cfg *c = &n->cfg;
  if (n->observed) {
    snprintf(err, errlen, "sqs: voqnet is the simulator-only reference fabric; there is no "
             "switch of the contract to co-simulate");
    return -1;
  }
  vqn_cfg vc = {.cb = n->cube, .order = n->crc.order, .bubble = n->crc.bubble,
                .buf_flits = c->buffer_flits, .max_packet = c->packet_flits, .iters = c->iters,
                .link_latency = n->L, .credit_latency = n->LC};
  if (!(n->vq = vqn_new(&vc, err, errlen))) {
    return -1;
  }
  return 0;
}

static void voqnet_free(net *n) { vqn_free(n->vq); }

const net_mech net_mech_voqnet = {.name = "voqnet", .on = voqnet_on, .build = voqnet_build,
                                  .free = voqnet_free};

/* §16.6: the destinations are the VCs: the queue of the first destination from rr_dest
 * on, in id order, whose queue at the switch has room for its next packet (NIL16: none). */
unsigned net_vq_pick(net *n, unsigned s, node *nd) {
  unsigned best = n->N, pick = NIL16;
  for (unsigned k = 0, na = nd->nactive[0]; k < na; k++) {
    const dest_q *q = dq_at(n, s, 0, k);
    unsigned d = q->dest, dist = d >= nd->rr_dest ? d - nd->rr_dest : d + n->N - nd->rr_dest;
    if (dist < best && vqn_node_credits(n->vq, s, d) >= src_at(n, s, q->head)->len) {
      best = dist;
      pick = k;
    }
  }
  if (pick != NIL16) {
    unsigned d = dq_at(n, s, 0, pick)->dest;
    nd->rr_dest = (uint16_t)(d + 1u == n->N ? 0u : d + 1u);
  }
  return pick;
}

/* §16.6: a flit of the reference fabric for node d, staged for its arrival cycle
 * (at = now + 1 + L: the slot end_nodes read this cycle, or a later one). */
static void vq_deliver(void *ctx, unsigned d, const asw_flit *f, uint64_t at) {
  net *n = ctx;
  size_t i = (size_t)(at % n->W) * n->N + d;
  n->sink_in[i] = *f;
  n->sink_valid[i] = 1;
}

/* A cycle: the end nodes, then the reference fabric. */
int net_voqnet_cycle(net *n, int generating, int measuring) {
  net_end_nodes(n, generating, measuring, 0);
  uint64_t hops = 0;
  int mv = vqn_step(n->vq, n->cycle, vq_deliver, n, &hops);
  if (mv < 0) {
    snprintf(n->err, sizeof n->err, "cycle %llu: voqnet: out of memory for packets",
             (unsigned long long)n->cycle);
    return -1;
  }
  n->r.flit_hops += hops;
  if (mv) n->last_progress = n->cycle;
  return 0;
}
