/* qcn_net.c — CNM transport and QCN 2.2 reaction points (contract §17.5). */
#include "qcn_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../asw_switch.h"

typedef struct {
  uint64_t at, seq, cnm;
} cnm_ev;

struct qcn_net {
  qcn_rp_params p;
  qcn_rp *rp;              /* [N*N] per (source, destination) flow */
  cnm_ev *heap;            /* CNMs in flight, min-heap on (at, seq) */
  size_t heap_n, heap_cap;
  uint64_t seq;
  qcn_net_stats st;
  double qlen_sum;
};

qcn_net *qcn_net_new(const qcn_rp_params *p, char *err, size_t errlen) {
  if (p->nodes > 4096) {
    snprintf(err, errlen, "qcn: at most 4096 end nodes (a rate limiter per flow), not %u",
             p->nodes);
    return NULL;
  }
  qcn_net *q = calloc(1, sizeof *q);
  if (q) q->rp = calloc((size_t)p->nodes * p->nodes, sizeof *q->rp);
  if (!q || !q->rp) {
    if (q) free(q);
    snprintf(err, errlen, "qcn: out of memory");
    return NULL;
  }
  q->p = *p;
  q->st.rl_min_rate = 1.0;
  return q;
}

void qcn_net_free(qcn_net *q) {
  if (!q) return;
  free(q->rp);
  free(q->heap);
  free(q);
}

static int ev_less(const cnm_ev *a, const cnm_ev *b) {
  return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

int qcn_net_send(qcn_net *q, uint64_t at, uint64_t cnm) {
  if (q->heap_n == q->heap_cap) {
    size_t cap = q->heap_cap ? 2 * q->heap_cap : 64;
    cnm_ev *h = realloc(q->heap, cap * sizeof *h);
    if (!h) return -1;
    q->heap = h;
    q->heap_cap = cap;
  }
  size_t i = q->heap_n++;
  cnm_ev e = {at, q->seq++, cnm};
  while (i && ev_less(&e, &q->heap[(i - 1) / 2])) {
    q->heap[i] = q->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  q->heap[i] = e;
  q->st.cnm_sent++;
  return 0;
}

static void heap_pop(qcn_net *q) {
  cnm_ev last = q->heap[--q->heap_n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= q->heap_n) break;
    if (c + 1 < q->heap_n && ev_less(&q->heap[c + 1], &q->heap[c])) c++;
    if (!ev_less(&q->heap[c], &last)) break;
    q->heap[i] = q->heap[c];
    i = c;
  }
  if (q->heap_n) q->heap[i] = last;
}

/* One increase event (byte counter or timer stage completed). */
static int rp_increase(const qcn_rp_params *p, qcn_rp *r) {
  if (r->bs > p->fr && r->ts > p->fr) /* hyper-active increase */
    r->tr += p->hai * ((r->bs < r->ts ? r->bs : r->ts) - p->fr);
  else if (r->bs > p->fr || r->ts > p->fr) /* active increase */
    r->tr += p->ai;
  if (r->tr > 1.0) r->tr = 1.0;
  r->cr = (r->cr + r->tr) / 2; /* fast recovery: halfway to the target */
  if (r->cr >= 0.999) { /* back at line rate: released */
    r->active = 0;
    return 1;
  }
  return 0;
}

int qcn_rp_time(const qcn_rp_params *p, qcn_rp *r, uint64_t now) {
  while (r->active && now >= r->timer_at) {
    r->timer_at += p->timer;
    if (r->ts < 255) r->ts++;
    if (rp_increase(p, r)) return 1;
  }
  return 0;
}

int qcn_rp_cnm(const qcn_rp_params *p, qcn_rp *r, unsigned q, uint64_t now) {
  int created = 0;
  qcn_rp_time(p, r, now);
  if (!r->active) {
    memset(r, 0, sizeof *r);
    r->active = 1;
    r->cr = r->tr = 1.0;
    r->next_send = (double)now;
    created = 1;
  }
  double f = 1.0 - p->gd * q / 63.0;
  if (f < 0.5) f = 0.5; /* minimum decrease factor */
  r->tr = r->cr;
  r->cr *= f;
  if (r->cr < p->min_rate) r->cr = p->min_rate;
  r->bc = 0;
  r->bs = r->ts = 0;
  r->timer_at = now + p->timer;
  return created;
}

int qcn_rp_sent(const qcn_rp_params *p, qcn_rp *r, unsigned len, uint64_t now) {
  if (qcn_rp_time(p, r, now)) return 1;
  if (!r->active) return 0;
  double start = r->next_send > (double)now ? r->next_send : (double)now;
  r->next_send = start + len / r->cr;
  r->bc += len;
  while (r->active && r->bc >= p->bc_flits) {
    r->bc -= p->bc_flits;
    if (r->bs < 255) r->bs++;
    if (rp_increase(p, r)) return 1;
  }
  return 0;
}

void qcn_net_deliver(qcn_net *q, uint64_t now) {
  while (q->heap_n && q->heap[0].at <= now) {
    uint64_t m = q->heap[0].cnm;
    heap_pop(q);
    q->st.cnm_delivered++;
    unsigned src = ASW_CNM_SRC(m), dest = ASW_CNM_DEST(m);
    if (!q->p.rl || src >= q->p.nodes || dest >= q->p.nodes) continue;
    qcn_rp *r = &q->rp[(size_t)src * q->p.nodes + dest];
    if (r->active && qcn_rp_time(&q->p, r, now)) q->st.rl_released++;
    if (qcn_rp_cnm(&q->p, r, ASW_CNM_FB(m), now)) q->st.rl_created++;
    if (r->cr < q->st.rl_min_rate) q->st.rl_min_rate = r->cr;
  }
}

int qcn_net_ready(qcn_net *q, unsigned src, unsigned dest, uint64_t now) {
  if (!q->p.rl) return 1;
  qcn_rp *r = &q->rp[(size_t)src * q->p.nodes + dest];
  if (!r->active) return 1;
  if (qcn_rp_time(&q->p, r, now)) {
    q->st.rl_released++;
    return 1;
  }
  return (double)now >= r->next_send;
}

void qcn_net_sent(qcn_net *q, unsigned src, unsigned dest, unsigned len, uint64_t now) {
  if (!q->p.rl) return;
  qcn_rp *r = &q->rp[(size_t)src * q->p.nodes + dest];
  if (r->active && qcn_rp_sent(&q->p, r, len, now)) q->st.rl_released++;
}

void qcn_net_get_stats(const qcn_net *q, qcn_net_stats *s) {
  *s = q->st;
  s->rl_active = 0;
  if (q->p.rl)
    for (size_t i = 0; i < (size_t)q->p.nodes * q->p.nodes; i++) s->rl_active += q->rp[i].active;
}

void qcn_net_queue_sample(qcn_net *q, uint64_t max_qlen) {
  if (max_qlen > q->st.qlen_max) q->st.qlen_max = max_qlen;
  q->qlen_sum += (double)max_qlen;
  q->st.qlen_samples++;
  q->st.qlen_max_mean = q->qlen_sum / (double)q->st.qlen_samples;
}
