/* voqnet.c — VOQnet reference fabric of the network simulator (contract §16.6).
 * See voqnet.h. */
#include "voqnet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../islip.h"
#include "cube_tables.h"

enum { NIL = 0xFFFFFFFFu, NIL16 = 0xFFFF };

typedef struct { /* one packet in an input buffer (or on its way into one) */
  uint64_t hdr, p0, p1; /* header; payloads of flits 0 and 1 (the others carry 0) */
  uint64_t ready;       /* first cycle SA may match it: head's arrival + 4 (IW, RC, RQ, SR) */
  uint32_t next;        /* next packet of its queue */
  uint16_t dest;
  uint8_t len, arrived; /* flits; flits written so far */
} vpkt;

typedef struct { uint32_t pi; asw_flit f; } ev_flit;  /* flit reaching input pi */
typedef struct { uint32_t po; uint16_t d; } ev_cred;  /* credit of output po, VC d */
typedef struct { uint32_t node; uint16_t d; } ev_ncr; /* credit of a node for dest d */

struct vqn {
  vqn_cfg cfg;
  cube cb;
  unsigned N, S, P, W, local;
  uint8_t *rt;      /* [S*N] output port at switch s for destination d */
  int32_t *nb;      /* [S*P] switch beyond port p (-1: none or the local port) */
  /* per input port pi = s*P + i */
  uint32_t *qh, *qt;   /* [S*P*N] queue of destination d: head, tail packet */
  uint16_t *ne;        /* [S*P*N] destinations with a non-empty queue, ne_n of them */
  uint16_t *ne_pos;    /* [S*P*N] index of d in ne, NIL16 if its queue is empty */
  uint16_t *ne_n;      /* [S*P] */
  uint32_t *rx;        /* [S*P] packet whose flits the input is receiving */
  uint32_t *bpk;       /* [S*P] packet the input streams (NIL: free) */
  uint8_t *bout, *sent;/* [S*P] its output, flits sent */
  uint16_t *vp;        /* [S*P*P] VC (destination) pointer of (input, output) */
  /* per output port po = s*P + o */
  uint8_t *obusy;      /* [S*P] */
  uint16_t *cred;      /* [S*P*N] credits of downstream VC d */
  uint64_t *rcyc;      /* [S*P] cycle of the output's last credit return (one a cycle) */
  uint16_t *rd;        /* [S*P] ... its VC (destination) */
  uint32_t *fout, *cstall; /* [S*P] §12 flits_out and credit_stall counters (32-bit, wrap) */
  /* per switch */
  uint32_t *queued, *busy; /* [S] packets in queues, inputs streaming */
  asw_islip *sa;       /* [S] the switch's allocator (islip.h) with one VC: the port
                        * match and its pointers; the destination is chosen here */
  /* end nodes */
  uint16_t *ncred;     /* [N*N] credits of node s for the local queue of dest d */
  uint8_t *ncredited;  /* [N] */
  /* packets */
  vpkt *pool;
  uint32_t pool_n, pool_cap, free_head;
  /* events, per slot (cycle mod W) */
  ev_flit *evf; uint32_t *evf_n; /* [W*S*P], [W] */
  ev_cred *evc; uint32_t *evc_n; /* [W*S*P], [W] */
  ev_ncr *evn; uint32_t *evn_n;  /* [W*N], [W] */
  uint64_t buffered;
  uint64_t hops;       /* flits ST sent this cycle: on the outputs (flit-hops) next cycle */
  int oom;
};

static int fail(char *err, size_t errlen, const char *msg) {
  if (err && errlen) snprintf(err, errlen, "%s", msg);
  return -1;
}

void vqn_free(vqn *q) {
  if (!q) return;
  for (unsigned s = 0; q->sa && s < q->S; s++) asw_islip_destroy(&q->sa[s]);
  void *p[] = {q->rt, q->nb, q->qh, q->qt, q->ne, q->ne_pos, q->ne_n, q->rx, q->bpk, q->bout,
               q->sent, q->vp, q->obusy, q->sa, q->cred, q->rcyc, q->rd, q->fout, q->cstall, q->queued, q->busy, q->ncred,
               q->ncredited, q->pool, q->evf, q->evf_n, q->evc, q->evc_n, q->evn, q->evn_n};
  for (size_t i = 0; i < sizeof p / sizeof *p; i++) free(p[i]);
  free(q);
}

vqn *vqn_new(const vqn_cfg *c, char *err, size_t errlen) {
  const char *bad = !c || !c->cb ? "voqnet: no topology"
                    : c->cb->nodes > VQN_MAX_NODES ? "voqnet: more than 1024 nodes (N queues per port)"
                    : c->bubble && !c->cb->torus ? "voqnet: bubble flow control needs a torus"
                    : c->order > CUBE_ORDER_DIRECTION ? "voqnet: routing is dor or direction-order"
                    : c->max_packet < 1 || c->max_packet > 255 ? "voqnet: LMAX out of range 1..255"
                    : c->buf_flits < c->max_packet || c->buf_flits > 16384
                        ? "voqnet: BUF out of range LMAX..16384"
                    : c->iters < 1 || c->iters > 4 ? "voqnet: ITERS out of range 1..4"
                    : c->link_latency < 1 || c->credit_latency < 1
                        ? "voqnet: link and credit latencies must be >= 1"
                    : NULL;
  if (bad) return fail(err, errlen, bad), NULL;
  vqn *q = calloc(1, sizeof *q);
  if (!q) return fail(err, errlen, "voqnet: out of memory"), NULL;
  q->cfg = *c;
  q->cb = *c->cb;
  q->N = q->cb.nodes;
  q->S = q->N;
  q->P = 2 * q->cb.n + 1;
  q->local = 2 * q->cb.n;
  q->W = (c->link_latency > c->credit_latency ? c->link_latency : c->credit_latency) + 2;
  size_t SP = (size_t)q->S * q->P, SPN = SP * q->N, N = q->N;
  q->rt = malloc((size_t)q->S * N);
  q->nb = malloc(SP * sizeof *q->nb);
  q->qh = malloc(SPN * 4);
  q->qt = malloc(SPN * 4);
  q->ne = malloc(SPN * 2);
  q->ne_pos = malloc(SPN * 2);
  q->ne_n = calloc(SP, 2);
  q->rx = malloc(SP * 4);
  q->bpk = malloc(SP * 4);
  q->bout = calloc(SP, 1);
  q->sent = calloc(SP, 1);
  q->vp = calloc(SP * q->P, 2);
  q->obusy = calloc(SP, 1);
  q->sa = calloc(q->S, sizeof *q->sa);
  q->cred = malloc(SPN * 2);
  q->rcyc = malloc(SP * sizeof *q->rcyc);
  q->rd = calloc(SP, 2);
  q->fout = calloc(SP, 4);
  q->cstall = calloc(SP, 4);
  q->queued = calloc(q->S, 4);
  q->busy = calloc(q->S, 4);
  q->ncred = malloc(N * N * 2);
  q->ncredited = calloc(N, 1);
  q->pool_cap = 1024;
  q->pool = malloc(q->pool_cap * sizeof *q->pool);
  q->evf = malloc((size_t)q->W * SP * sizeof *q->evf);
  q->evf_n = calloc(q->W, 4);
  q->evc = malloc((size_t)q->W * SP * sizeof *q->evc);
  q->evc_n = calloc(q->W, 4);
  q->evn = malloc((size_t)q->W * N * sizeof *q->evn);
  q->evn_n = calloc(q->W, 4);
  if (!q->rt || !q->nb || !q->qh || !q->qt || !q->ne || !q->ne_pos || !q->ne_n || !q->rx ||
      !q->bpk || !q->bout || !q->sent || !q->vp || !q->obusy || !q->sa || !q->cred || !q->rcyc || !q->rd || !q->fout || !q->cstall ||
      !q->queued || !q->busy || !q->ncred || !q->ncredited || !q->pool || !q->evf ||
      !q->evf_n || !q->evc || !q->evc_n || !q->evn || !q->evn_n) {
    vqn_free(q);
    return fail(err, errlen, "voqnet: out of memory"), NULL;
  }
  memset(q->qh, 0xFF, SPN * 4);
  memset(q->qt, 0xFF, SPN * 4);
  memset(q->ne_pos, 0xFF, SPN * 2);
  memset(q->rx, 0xFF, SP * 4);
  memset(q->bpk, 0xFF, SP * 4);
  memset(q->rcyc, 0xFF, SP * sizeof *q->rcyc);
  for (size_t i = 0; i < SPN; i++) q->cred[i] = (uint16_t)c->buf_flits;
  for (size_t i = 0; i < N * N; i++) q->ncred[i] = (uint16_t)c->buf_flits;
  for (unsigned s = 0; s < q->S; s++) {
    if (asw_islip_init(&q->sa[s], q->P, 1, c->iters)) {
      vqn_free(q);
      return fail(err, errlen, "voqnet: out of memory"), NULL;
    }
    for (unsigned d = 0; d < N; d++) q->rt[(size_t)s * N + d] = (uint8_t)cube_route_port(&q->cb, c->order, s, d);
    for (unsigned p = 0; p < q->P; p++)
      q->nb[(size_t)s * q->P + p] = p == q->local ? -1 : cube_neighbor(&q->cb, s, p);
  }
  q->free_head = NIL;
  return q;
}

unsigned vqn_node_credits(const vqn *q, unsigned node, unsigned dest) {
  return q->ncred[(size_t)node * q->N + dest];
}

void vqn_node_reserve(vqn *q, unsigned node, unsigned dest, unsigned len) {
  q->ncred[(size_t)node * q->N + dest] = (uint16_t)(q->ncred[(size_t)node * q->N + dest] - len);
}

int vqn_node_credited(vqn *q, unsigned node) {
  int r = q->ncredited[node];
  q->ncredited[node] = 0;
  return r;
}

static void push_flit(vqn *q, uint64_t at, uint32_t pi, const asw_flit *f) {
  unsigned sl = (unsigned)(at % q->W);
  ev_flit *e = &q->evf[(size_t)sl * q->S * q->P + q->evf_n[sl]++];
  e->pi = pi;
  e->f = *f;
}

static void push_cred(vqn *q, uint64_t at, uint32_t po, unsigned d) {
  unsigned sl = (unsigned)(at % q->W);
  ev_cred *e = &q->evc[(size_t)sl * q->S * q->P + q->evc_n[sl]++];
  e->po = po;
  e->d = (uint16_t)d;
}

void vqn_node_send(vqn *q, unsigned node, const asw_flit *f, uint64_t cycle) {
  push_flit(q, cycle + q->cfg.link_latency, node * q->P + q->local, f);
}

void vqn_node_credit(vqn *q, unsigned node, uint64_t cycle) {
  push_cred(q, cycle + q->cfg.credit_latency, node * q->P + q->local, node);
}

uint64_t vqn_buffered(const vqn *q) { return q->buffered; }

void vqn_port_counters(const vqn *q, unsigned s, unsigned p, uint32_t *flits_out,
                       uint32_t *credit_stall) {
  *flits_out = q->fout[(size_t)s * q->P + p];
  *credit_stall = q->cstall[(size_t)s * q->P + p];
}

/* Credits a head for output o arriving on input i needs (§16.1 with every VC
 * under the rule: the packet enters the ring of o unless it came in on the
 * ring's input; its VC, the destination, never changes). */
static inline unsigned need(const vqn *q, unsigned i, unsigned o, unsigned len) {
  return q->cfg.bubble && o != q->local && i != (o ^ 1u) ? 2 * len : len;
}

/* The head of queue (s, i, d) in cycle `cycle` (§8 with §16.1): 1 if it
 * requests its output (*out), 0 if not, -1 if it is in its queue, its output
 * is free and it lacks credits (a credit stall). §8 checks the credits of the
 * previous cycle's start, one more where a match of that cycle reserved: for
 * a free output (a match of the last cycle was a 1-flit packet) that is the
 * credits now less one returned in the last cycle. */
static inline int requests(const vqn *q, unsigned s, unsigned i, unsigned d, uint64_t cycle,
                           unsigned *out) {
  size_t pi = (size_t)s * q->P + i;
  const vpkt *pk = &q->pool[q->qh[pi * q->N + d]];
  unsigned o = q->rt[(size_t)s * q->N + d];
  *out = o;
  const size_t po = (size_t)s * q->P + o;
  if (pk->ready > cycle || q->obusy[po]) return 0;
  const unsigned cr = q->cred[po * q->N + d] - (q->rcyc[po] + 1 == cycle && q->rd[po] == d);
  return cr >= need(q, i, o, pk->len) ? 1 : -1;
}

static void ne_remove(vqn *q, size_t pi, unsigned d) {
  uint16_t *ne = &q->ne[pi * q->N], *pos = &q->ne_pos[pi * q->N];
  unsigned k = pos[d], last = --q->ne_n[pi];
  if (k != last) {
    ne[k] = ne[last];
    pos[ne[k]] = (uint16_t)k;
  }
  pos[d] = NIL16;
}

/* ST of switch s in cycle `cycle` (§8): every streaming input sends its
 * flit if it is sendable (cut-through). */
static int traverse(vqn *q, unsigned s, uint64_t cycle, vqn_deliver_fn deliver, void *ctx) {
  int moved = 0;
  const unsigned P = q->P, L = q->cfg.link_latency, LC = q->cfg.credit_latency;
  for (unsigned i = 0; i < P; i++) {
    size_t pi = (size_t)s * P + i;
    uint32_t k = q->bpk[pi];
    if (k == NIL) continue;
    vpkt *pk = &q->pool[k];
    unsigned f = q->sent[pi], tail = f + 1u == pk->len;
    if (!(tail ? pk->arrived == pk->len : pk->arrived >= f + 2u)) continue; /* a bubble */
    asw_flit fl = {.valid = 1, .head = f == 0, .tail = (uint8_t)tail, .vc = 0,
                   .hdr = f == 0 ? pk->hdr : 0, .payload = f == 0 ? pk->p0 : f == 1 ? pk->p1 : 0};
    unsigned o = q->bout[pi], d = pk->dest;
    if (o == q->local) deliver(ctx, s, &fl, cycle + 1 + L);
    else push_flit(q, cycle + 1 + L, (uint32_t)q->nb[(size_t)s * P + o] * P + (o ^ 1u), &fl);
    q->hops++;
    q->fout[(size_t)s * P + o]++;
    moved = 1;
    q->buffered--;
    if (i == q->local) { /* the node counts it in end_nodes of cycle + 1 + LC */
      unsigned sl = (unsigned)((cycle + LC) % q->W);
      ev_ncr *e = &q->evn[(size_t)sl * q->N + q->evn_n[sl]++];
      e->node = s;
      e->d = (uint16_t)d;
    } else {
      push_cred(q, cycle + 1 + LC, (uint32_t)q->nb[pi] * P + (i ^ 1u), d);
    }
    if (tail) {
      q->bpk[pi] = NIL;
      q->obusy[(size_t)s * P + o] = 0;
      q->busy[s]--;
      pk->next = q->free_head;
      q->free_head = k;
    } else {
      q->sent[pi] = (uint8_t)(f + 1);
    }
  }
  return moved;
}

/* SA of switch s in cycle `cycle` (§8): iSLIP over the free inputs and
 * outputs, then the VC (destination) choice of each match. */
static void allocate(vqn *q, unsigned s, uint64_t cycle) {
  const unsigned P = q->P, N = q->N;
  asw_islip *sa = &q->sa[s];
  uint64_t in_mask = 0, mout = 0, stall = 0;
  uint8_t mo[64], mv[64];
  for (unsigned i = 0; i < P; i++) {
    size_t pi = (size_t)s * P + i;
    if (q->bpk[pi] != NIL) continue;
    const uint16_t *ne = &q->ne[pi * N];
    uint64_t r = 0;
    for (unsigned j = 0, nn = q->ne_n[pi]; j < nn; j++) {
      unsigned o;
      int rq = requests(q, s, i, ne[j], cycle, &o);
      if (rq > 0) r |= 1ull << o;
      else if (rq < 0) stall |= 1ull << o;
    }
    if (r) { /* one VC: the port request is the VC's (req_vc = req; req_vcs unread) */
      sa->req[i] = r;
      in_mask |= 1ull << i;
    }
  }
  const uint64_t min = in_mask ? asw_islip_allocate_req(sa, in_mask, sa->req, mo, mv) : 0;
  for (unsigned i = 0; i < P; i++) {
    if (!(min >> i & 1u)) continue;
    size_t pi = (size_t)s * P + i;
    unsigned o = mo[i], vp = q->vp[pi * P + o], best = NIL16, bd = 0;
    const uint16_t *ne = &q->ne[pi * N];
    for (unsigned j = 0, nn = q->ne_n[pi]; j < nn; j++) {
      unsigned d = ne[j], oo, dist = d >= vp ? d - vp : d + N - vp;
      if (dist < best && requests(q, s, i, d, cycle, &oo) > 0 && oo == o) best = dist, bd = d;
    }
    /* best exists: input i requested o, so one of its heads does */
    q->vp[pi * P + o] = (uint16_t)(bd + 1 == N ? 0 : bd + 1);
    size_t qi = pi * N + bd;
    uint32_t k = q->qh[qi];
    q->qh[qi] = q->pool[k].next;
    if (q->qh[qi] == NIL) {
      q->qt[qi] = NIL;
      ne_remove(q, pi, bd);
    }
    q->queued[s]--;
    q->busy[s]++;
    q->bpk[pi] = k;
    q->bout[pi] = (uint8_t)o;
    q->sent[pi] = 0;
    q->obusy[(size_t)s * P + o] = 1;
    mout |= 1ull << o;
    q->cred[((size_t)s * P + o) * N + bd] = (uint16_t)(q->cred[((size_t)s * P + o) * N + bd] - q->pool[k].len);
  }
  for (uint64_t m = stall & ~mout; m; m &= m - 1) q->cstall[(size_t)s * P + (unsigned)__builtin_ctzll(m)]++;
}

static uint32_t pkt_alloc(vqn *q) {
  if (q->free_head != NIL) {
    uint32_t k = q->free_head;
    q->free_head = q->pool[k].next;
    return k;
  }
  if (q->pool_n == q->pool_cap) {
    vpkt *p = realloc(q->pool, (size_t)q->pool_cap * 2 * sizeof *p);
    if (!p) return NIL;
    q->pool = p;
    q->pool_cap *= 2;
  }
  return q->pool_n++;
}

/* IW (§6): a flit reaches input pi in cycle `cycle`. 0, or -1 out of memory. */
static int input_write(vqn *q, uint32_t pi, const asw_flit *f, uint64_t cycle) {
  const unsigned N = q->N;
  q->buffered++;
  if (!f->head) {
    vpkt *pk = &q->pool[q->rx[pi]];
    if (pk->arrived == 1) pk->p1 = f->payload;
    pk->arrived++;
    return 0;
  }
  uint32_t k = pkt_alloc(q);
  if (k == NIL) return -1;
  vpkt *pk = &q->pool[k];
  unsigned d = ASW_HDR_DEST(f->hdr);
  *pk = (vpkt){.hdr = f->hdr, .p0 = f->payload, .ready = cycle + 4, .next = NIL,
               .dest = (uint16_t)d, .len = (uint8_t)ASW_HDR_LEN(f->hdr), .arrived = 1};
  q->rx[pi] = k;
  size_t qi = (size_t)pi * N + d;
  if (q->qt[qi] == NIL) {
    q->qh[qi] = k;
    q->ne_pos[qi] = q->ne_n[pi];
    q->ne[(size_t)pi * N + q->ne_n[pi]++] = (uint16_t)d;
  } else {
    q->pool[q->qt[qi]].next = k;
  }
  q->qt[qi] = k;
  q->queued[pi / q->P]++;
  return 0;
}

int vqn_step(vqn *q, uint64_t cycle, vqn_deliver_fn deliver, void *ctx, uint64_t *hops) {
  int moved = 0;
  *hops += q->hops; /* what ST sent last cycle is on the outputs now */
  q->hops = 0;
  for (unsigned s = 0; s < q->S; s++) {
    if (!q->queued[s] && !q->busy[s]) continue;
    if (q->busy[s]) moved |= traverse(q, s, cycle, deliver, ctx);
    if (q->queued[s]) allocate(q, s, cycle);
  }
  unsigned sl = (unsigned)(cycle % q->W);
  const ev_flit *ef = &q->evf[(size_t)sl * q->S * q->P];
  for (uint32_t j = 0, m = q->evf_n[sl]; j < m; j++)
    if (input_write(q, ef[j].pi, &ef[j].f, cycle)) q->oom = 1;
  moved |= q->evf_n[sl] != 0;
  q->evf_n[sl] = 0;
  const ev_cred *ec = &q->evc[(size_t)sl * q->S * q->P];
  for (uint32_t j = 0, m = q->evc_n[sl]; j < m; j++) {
    q->cred[(size_t)ec[j].po * q->N + ec[j].d]++;
    q->rcyc[ec[j].po] = cycle;
    q->rd[ec[j].po] = ec[j].d;
  }
  q->evc_n[sl] = 0;
  const ev_ncr *en = &q->evn[(size_t)sl * q->N];
  for (uint32_t j = 0, m = q->evn_n[sl]; j < m; j++) {
    q->ncred[(size_t)en[j].node * q->N + en[j].d]++;
    q->ncredited[en[j].node] = 1;
  }
  q->evn_n[sl] = 0;
  return q->oom ? -1 : moved;
}
