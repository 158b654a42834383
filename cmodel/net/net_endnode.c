/* net_endnode.c — the end nodes: sinks (receiving, checking, measuring, slow
 * consumption), the sources' admission queues and injection into the leaf
 * switch. The traffic (which packets, when) is net_traffic.c's. */
#include "net_internal.h"

#include <stdlib.h>
#include <string.h>

int net_grow_bits(net *n, uint64_t id) {
  size_t need = (size_t)(id / 64) + 1;
  if (need <= n->bits_words) return 0;
  size_t nw = n->bits_words * 2;
  while (nw < need) nw *= 2;
  uint64_t *p = realloc(n->delivered_bits, nw * 8);
  if (!p) return -1;
  memset(p + n->bits_words, 0, (nw - n->bits_words) * 8);
  n->delivered_bits = p;
  n->bits_words = nw;
  return 0;
}

static int mark_delivered(net *n, uint32_t id) {
  size_t w = id / 64;
  /* with ranks, ids are issued elsewhere: grow (out of memory: unchecked) */
  if (w >= n->bits_words && (n->R == 1 || net_grow_bits(n, id))) return 0; /* never issued */
  uint64_t bit = 1ull << (id % 64);
  if (n->delivered_bits[w] & bit) return 1;
  n->delivered_bits[w] |= bit;
  return 0;
}

static inline __attribute__((always_inline)) void sink_consume_credit(net *n, unsigned d,
                                                                       unsigned vc, int mt) {
  if (n->vq) vqn_node_credit(n->vq, d, n->cycle); /* §16.6 */
  else if (!n->pfc.on) stage_credit(n, n->node_leaf[d], n->node_port[d], vc, mt);
  n->consumed_flits++; /* §17.3: a PFC sink returns no credits */
}

/* Inlined in end_nodes (mt constant there). */
static inline __attribute__((always_inline)) void sink_receive(net *n, unsigned d,
                                                               const asw_flit *f,
                                                               int measuring, int mt) {
  sink_pkt *sp = &n->sinkp[(size_t)d * n->V + f->vc];
  window_stat *ws = n->ws;
  if (f->head) {
    sp->id = (uint32_t)f->payload;
    sp->gen = (uint32_t)(f->payload >> 32) & 0x7FFFFFFFu;
    sp->hot = (uint8_t)(f->payload >> 63);
    sp->src = ASW_HDR_SRC(f->hdr);
    sp->flits = 0;
    sp->damaged = 0;
    sp->len = (uint8_t)ASW_HDR_LEN(f->hdr);
  } else if (n->lf.faults && f->payload == n->lf.pad_payload) { /* §18.3 padding */
    sp->damaged = 1;
  } else if (sp->flits == 1) {
    sp->inject = (uint32_t)f->payload;
  } else if (n->lf.faults && f->payload) { /* §18.6 checker: body flits carry 0 */
    sp->damaged = 2;
  }
  sp->flits++;
  if (n->lf.faults && f->tail && (sp->damaged || sp->flits != sp->len)) {
    if (sp->damaged == 1) n->lf.pkts_damaged++; /* a cut packet, discarded by the sink */
    else n->lf.pkts_bad++;                      /* must never happen */
    if (!n->nodes[d].sink_slow) sink_consume_credit(n, d, f->vc, mt);
    else n->sink_buf[(size_t)d * n->V + f->vc]++;
    return;
  }
  if (ws) {
    ws->accepted++;
    if (sp->hot) ws->acc_hot++; else ws->acc_cold++;
  }
  if (measuring) {
    if (sp->hot) n->r.accepted_hot += 1; else n->r.accepted_cold += 1;
  }
  if (f->tail) {
    n->r.packets_delivered++;
    if (sp->hot && n->hot_rx) n->hot_rx[d]++; /* hs_packets */
    if (mark_delivered(n, sp->id)) n->r.duplicates++;
    if (n->tr.rp && !sp->hot && trace_replay_delivered(n->tr.rp, sp->id, n->cycle))
      n->tr.errors++; /* trace (a hot packet of trace_hs is not one of its messages) */
    if (n->flow_last) {
      uint32_t *last = &n->flow_last[(size_t)sp->src * n->N + d];
      if (*last > sp->id) n->r.order_violations++;
      *last = sp->id + 1;
    }
    uint64_t lat = n->cycle - sp->inject, e2e = n->cycle - sp->gen;
    if (ws) { ws->lat_sum += (double)lat; ws->lat_count++; }
    if (measuring) {
      n->r.packets_measured++;
      hist_add(&n->h_net, lat);
      hist_add(&n->h_e2e, e2e);
      hist_add(sp->hot ? &n->h_hot : &n->h_cold, lat);
    }
  }
  if (!n->nodes[d].sink_slow) sink_consume_credit(n, d, f->vc, mt);
  else if (++n->sink_buf[(size_t)d * n->V + f->vc] > n->cfg.buffer_flits && !n->pfc.sink_drop)
    n->pfc.sink_drop = 1 + (uint64_t)d * n->V + f->vc; /* §17.3: a frame would be dropped */
}

/* (net_internal.h) */
uint32_t net_src_enqueue(net *n, unsigned s, node *nd, unsigned qi, unsigned dest,
                         unsigned sl, unsigned vc, unsigned len, int hot) {
  uint16_t k = nd->free_head;
  if (k != NIL16) nd->free_head = src_at(n, s, k)->next;
  else k = nd->fresh++;
  src_pkt *p = src_at(n, s, k);
  p->id = (uint32_t)n->next_id;
  n->next_id += n->R;
  p->gen = (uint32_t)n->cycle;
  p->dest = (uint16_t)dest;
  p->hot = (uint8_t)hot;
  p->next = NIL16;
  p->sl = (uint8_t)sl;
  p->vc = (uint8_t)vc;
  p->len = (uint8_t)len;
  n->r.packets_generated++;
  nd->queued++;
  nd->inj_blocked = 0;
  if (qi != NIL16) {
    dest_q *q = dq_at(n, s, vc, qi);
    src_at(n, s, q->tail)->next = k;
    q->tail = k;
    q->count++;
    return p->id;
  }
  qi = nd->nactive[vc]++;
  dest_q *q = dq_at(n, s, vc, qi);
  q->dest = (uint16_t)dest;
  q->head = q->tail = k;
  q->count = 1;
  if (n->dmap) n->dmap[(size_t)s * n->N + dest] = (uint16_t)(qi + 1);
  return p->id;
}

/* Flits of the packet inject() would start on VC vc: packet_flits, or a trace
 * packet's own length. */
static unsigned inj_len(const net *n, unsigned s, const node *nd, unsigned vc) {
  if (!n->tr.rp) return n->len;
  /* the packet inject() would take from this VC: the head of its next queue */
  return src_at(n, s, dq_at(n, s, vc, nd->rr[vc] % nd->nactive[vc])->head)->len;
}

/* The next body or tail flit of the packet source s is streaming: the
 * common injection (15 of 16 flits in the bench), inlined in end_nodes
 * (mt constant) instead of a call of inject. */
static inline __attribute__((always_inline)) void inject_body(net *n, unsigned s, node *nd,
                                                              int mt) {
  asw_flit f = {.valid = 1, .vc = nd->cur.vc};
  if (nd->cur_sent == 1) f.payload = nd->cur.gen; /* injection cycle */
  nd->cur_sent++;
  if (nd->cur_sent == nd->cur_len) {
    f.tail = 1;
    nd->streaming = 0;
  }
  if (n->vq) vqn_node_send(n->vq, s, &f, n->cycle); /* §16.6 */
  else stage_flit(n, n->node_leaf[s], n->node_port[s], &f, mt);
  n->injected_flits++;
  n->last_progress = n->cycle;
}

static void inject(net *n, unsigned s, node *nd, int mt) {
  unsigned leaf = n->node_leaf[s], port = n->node_port[s];
  vqn *const vq = n->vq; /* §16.6 */
  asw_flit f = {0};
  if (!nd->streaming) {
    if (!nd->queued) return;
    /* round robin over the VCs with credits for a packet, then over the
     * destinations queued on that VC */
    uint16_t *cr = &n->credits[(size_t)s * n->V];
    unsigned vc = NIL16, rl_pick = NIL16;
    int rl_held = 0; /* §17.5: a VC with credits whose flows all wait for their rate limiters */
    if (__builtin_expect(vq != NULL, 0)) {
      if ((rl_pick = net_vq_pick(n, s, nd)) != NIL16) vc = 0;
    } else for (unsigned j = 0; j < n->V; j++) {
      unsigned v = nd->rr_vc + j; /* (rr_vc + j) mod V */
      if (v >= n->V) v -= n->V;
      if (nd->nactive[v] && cr[v] >= inj_len(n, s, nd, v)) {
        if (n->cg.rl && (rl_pick = net_rl_ready_queue(n, s, nd, v)) == NIL16) {
          rl_held = 1;
          continue;
        }
        vc = v;
        break;
      }
    }
    if (vc == NIL16) {
      if (!rl_held) nd->inj_blocked = 1;
      return;
    }
    nd->rr_vc = (uint8_t)(vc + 1 == n->V ? 0 : vc + 1);
    unsigned pick = n->cg.rl || vq ? rl_pick : nd->rr[vc] % nd->nactive[vc];
    dest_q *q = dq_at(n, s, vc, pick);
    uint16_t k = q->head;
    src_pkt *p = src_at(n, s, k);
    nd->cur = *p;
    q->head = p->next;
    q->count--;
    p->next = nd->free_head;
    nd->free_head = k;
    nd->queued--;
    if (q->head == NIL16) {
      /* queue empty: the last queue takes its place */
      if (n->dmap) n->dmap[(size_t)s * n->N + q->dest] = 0;
      unsigned last = --nd->nactive[vc];
      if (pick != last) {
        *q = *dq_at(n, s, vc, last);
        if (n->dmap) n->dmap[(size_t)s * n->N + q->dest] = (uint16_t)(pick + 1);
      }
      nd->rr[vc] = (uint16_t)(nd->nactive[vc] ? pick % nd->nactive[vc] : 0);
    } else {
      nd->rr[vc] = (uint16_t)((pick + 1) % nd->nactive[vc]);
    }
    if (vq) vqn_node_reserve(vq, s, nd->cur.dest, nd->cur.len); /* §16.6 */
    else if (!n->pfc.on) cr[nd->cur.vc] = (uint16_t)(cr[nd->cur.vc] - nd->cur.len); /* PFC: pause view */
    nd->streaming = 1;
    nd->cur_sent = 0;
    nd->cur_len = nd->cur.len;
    if (n->cg.rl) qcn_net_sent(n->cg.qcn, s, nd->cur.dest, nd->cur.len, n->cycle); /* §17.5 */
    f.head = 1;
    f.hdr = asw_hdr_make(nd->cur.dest, s, nd->cur.sl, nd->cur.len, 0, 0, nd->cur.id & 0xFFFFu);
    f.payload = (uint64_t)nd->cur.id | ((uint64_t)(nd->cur.gen & 0x7FFFFFFFu) << 32) |
                ((uint64_t)nd->cur.hot << 63);
    nd->cur.gen = (uint32_t)n->cycle; /* reuse: injection cycle of the head */
    nd->last_inject = n->cycle;
  } else if (nd->cur_sent == 1) {
    f.payload = nd->cur.gen; /* injection cycle */
  }
  f.valid = 1;
  f.vc = nd->cur.vc;
  nd->cur_sent++;
  if (nd->cur_sent == nd->cur_len) {
    f.tail = 1;
    nd->streaming = 0;
  }
  if (vq) vqn_node_send(vq, s, &f, n->cycle); /* §16.6 */
  else stage_flit(n, leaf, port, &f, mt);
  n->injected_flits++;
  n->last_progress = n->cycle;
}

/* Nodes' phase of a cycle: credits and flits arriving at the end nodes,
 * slow sinks, generation, injection. It reads only the slot of this cycle
 * and stages into the slots of later cycles, like the switch phase: with
 * threads the two run at the same time (mt: staging with atomics). */
static inline __attribute__((always_inline)) void
end_nodes(net *n, int generating, int measuring, int mt) {
  const net_cfg *c = &n->cfg;
  const unsigned slot = n->slot_now, V = n->V;
  uint8_t *src_cr = &n->src_cr[(size_t)slot * n->N];
  uint8_t *sink_valid = &n->sink_valid[(size_t)slot * n->N];
  const asw_flit *sink_in = &n->sink_in[(size_t)slot * n->N];
  /* loop invariants in locals: the stores in the loop may alias *n */
  node *const nodes = n->nodes;
  const int bernoulli = generating && n->inj == &net_inj_bernoulli;
  const uint64_t cycle = n->cycle;
  vqn *const vq = n->vq; /* §16.6 */
  for (unsigned d = n->node_lo, hi = n->node_hi; d < hi; d++) {
    node *nd = &nodes[d];
    if (src_cr[d]) {
      const unsigned v = src_cr[d] - 1u;
      uint16_t *cr = &n->credits[(size_t)d * V + v];
      if (n->pfc.on) *cr = *cr ? 0 : (uint16_t)c->buffer_flits; /* §17.3: a frame flips it */
      else (*cr)++;
      src_cr[d] = 0;
      /* A credit can make only VC v eligible: a blocked source stays blocked until v
       * has the credits for the packet inject() would start on it (a call before
       * would find no VC and block again, changing nothing; a queued packet unblocks). */
      if (vq || (nd->nactive[v] && *cr >= inj_len(n, d, nd, v))) nd->inj_blocked = 0;
    } else if (vq && vqn_node_credited(vq, d)) { /* §16.6 */
      nd->inj_blocked = 0;
    }
    if (sink_valid[d]) {
      sink_receive(n, d, &sink_in[d], measuring, mt);
      sink_valid[d] = 0;
    }
    if (nd->sink_slow) {
      nd->sink_acc += nd->sink_rate;
      int have = 0;
      for (unsigned v = 0; v < V; v++) have |= n->sink_buf[(size_t)d * V + v] != 0;
      if (!have) { if (nd->sink_acc > 1.0) nd->sink_acc = 1.0; }
      else if (nd->sink_acc >= 1.0) {
        for (unsigned j = 0; j < V; j++) {
          unsigned v = nd->sink_rr + j;
          if (v >= V) v -= V;
          if (n->sink_buf[(size_t)d * V + v]) {
            n->sink_buf[(size_t)d * V + v]--;
            nd->sink_rr = (uint8_t)(v + 1 == V ? 0 : v + 1);
            nd->sink_acc -= 1.0;
            sink_consume_credit(n, d, v, mt);
            break;
          }
        }
      }
      if (n->pfc.on) net_pfc_sink(n, d, mt);
    }
    if (bernoulli) { /* net_inj_bernoulli, inlined */
      while (nd->next_gen <= cycle) {
        net_generate(n, d, nd, measuring);
        net_geometric_next(n, nd, nd->next_gen);
      }
    } else if (generating) {
      n->inj->step(n, d, nd, measuring); /* on-off, trace replay, ... (net_traffic.c) */
    }
    if (nd->streaming) inject_body(n, d, nd, mt);
    else if (nd->queued && !nd->inj_blocked) inject(n, d, nd, mt);
  }
}

void net_end_nodes(net *n, int generating, int measuring, int mt) {
  if (mt) end_nodes(n, generating, measuring, 1);
  else end_nodes(n, generating, measuring, 0);
}

void net_nodes_init(net *n) {
  const net_cfg *c = &n->cfg;
  /* Node i's state is the i-th output of a master splitmix64 seeded from
   * `seed`: well-mixed, so the node streams are unrelated offsets of the
   * generator's period (a state of seed*a + i*gamma would make node i's stream
   * node 0's shifted by i draws). */
  uint64_t master = c->seed ^ 0x6A09E667F3BCC909ull;
  for (unsigned i = 0; i < n->N; i++) {
    node *nd = &n->nodes[i];
    nd->rng = rng_next(&master);
    if (i < n->node_lo || i >= n->node_hi) continue; /* another rank's */
    nd->free_head = NIL16; /* all cap packets fresh */
    nd->fresh = 0;
    for (unsigned v = 0; v < n->V; v++) n->credits[(size_t)i * n->V + v] = (uint16_t)c->buffer_flits;
    nd->sink_rate = c->sink_rate;
  }
}

/* The end nodes' state: sources' pools and queues, credits, sinks, the
 * delivered-id bitmap: 0, or -1 out of memory. */
int net_nodes_build(net *n) {
  size_t WN = (size_t)n->W * n->N;
  n->nodes = calloc(n->N, sizeof(node));
  n->pool = calloc((size_t)n->N * n->cap, sizeof(src_pkt));
  n->dq = calloc((size_t)(n->cap + DQ_BLOCK - 1) / DQ_BLOCK * DQ_BLOCK * n->V * n->N, sizeof(dest_q));
  if ((size_t)n->N * n->N * 2 <= (64u << 20) && !(n->dmap = calloc((size_t)n->N * n->N, 2)))
    return -1;
  n->credits = calloc((size_t)n->N * n->V, 2);
  n->sink_in = calloc(WN, sizeof(asw_flit));
  n->sink_valid = calloc(WN, 1);
  n->src_cr = calloc(WN, 1);
  n->sinkp = calloc((size_t)n->N * n->V, sizeof(sink_pkt));
  n->sink_buf = calloc((size_t)n->N * n->V, 4);
  n->bits_words = 1024;
  n->delivered_bits = calloc(n->bits_words, 8);
  return !n->nodes || !n->pool || !n->dq || !n->credits || !n->sink_in || !n->sink_valid ||
                 !n->src_cr || !n->sinkp || !n->sink_buf || !n->delivered_bits
             ? -1
             : 0;
}

void net_nodes_free(net *n) {
  free(n->nodes); free(n->pool); free(n->dq); free(n->dmap); free(n->credits);
  free(n->sink_in); free(n->sink_valid); free(n->src_cr); free(n->sinkp);
  free(n->sink_buf); free(n->delivered_bits);
}
