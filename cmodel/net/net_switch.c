/* net_switch.c — the switch phase of a cycle: each switch to step is stepped
 * with the inputs staged for this cycle, its outputs staged for the cycles they
 * arrive in (another switch, an end node, another rank), and left idle, carried
 * to the next cycle or pending (only ARN entries ageing: made up later). */
#include "net_internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Steps switch s with the inputs staged for this cycle and stages its
 * outputs. Returns 0, or -1 with the message in w->err. */
static inline __attribute__((always_inline)) int
step_switch(net *n, net_worker *w, unsigned s, int mt) {
  /* the cycle and its slots: the worker's (a pair's second step runs at t+1) */
  const unsigned slot = w->now, slot_fl = w->fl, slot_cr = w->cr;
  const uint64_t cycle = w->cyc;
  size_t i = (size_t)slot * n->S + s;
  st_head *h = st_at(n, i);
  asw_inputs in = {.flit_mask = h->flit_mask, .flit = &n->st_flit[i * n->P],
                   .credit_mask = h->cr_mask, .credit_vc = h->cr_vc,
                   .arn_mask = h->arn_mask, .arn = &n->st_arn[i * n->P],
                   .reg_en = 0, .reg_we = 0, .reg_addr = 0, .reg_wdata = 0};
  if (n->cg.lane) { /* §17.9: the CNM lane (one thread) */
    in.cnm_mask = n->cg.st_cnm_mask[i];
    in.cnm = &n->cg.st_cnm[i * n->P];
    n->cg.st_cnm_mask[i] = 0;
  }
  if (n->lf.faults && faults_fm_take(n->lf.faults, s, cycle, &in.reg_addr, &in.reg_wdata))
    in.reg_en = in.reg_we = 1; /* §18.6: the fabric manager's write of this cycle */
  asw_outputs out = {.flit_mask = 0, .flit = w->out_flit, .credit_mask = 0,
                     .credit_vc = w->out_cr_vc, .arn_mask = 0, .arn = w->out_arn,
                     .reg_rvalid = 0, .reg_rdata = 0, .cnm_mask = 0, .cnm = n->cg.out_cnm};
  if (n->cg.lane) n->cg.cnm_generated += (uint64_t)__builtin_popcountll(asw_switch_cnm(n->sw[s], NULL));
  int rv = asw_switch_step(n->sw[s], &in, &out);
  if (rv) {
    if (n->pfc.on && rv == ASW_EPROTO) w->frames_dropped++; /* §17.3: a buffer overflowed */
    snprintf(w->err, sizeof w->err, "switch %u, cycle %llu: step failed (%d): %s%s",
             s, (unsigned long long)cycle, rv, asw_switch_error(n->sw[s]),
             n->pfc.on ? " (flow_control=pfc: a frame dropped, PFC headroom too small)" : "");
    return -1;
  }
  if (n->obs.step && n->obs.step(n->obs.ctx, s, cycle, &in, &out, w->err, sizeof w->err))
    return -1;
  h->flit_mask = h->cr_mask = h->arn_mask = 0;
  h->woken = 0;
  if (n->cg.qcn && !n->cg.lane && net_qcn_cnm_out(n, w, s)) return -1; /* §17.5 */
  if (out.cnm_mask && net_lane_out(n, w, s, &out)) return -1;     /* §17.9 */
  const topo_peer *peer = &n->peer[(size_t)s * n->P];
  uint64_t m = out.flit_mask;
  if (m) w->moved = 1;
  while (m) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    m &= m - 1;
    w->flit_hops++;
    topo_peer pe = peer[o];
    if (pe.kind == PEER_SWITCH)
      stage_flit_at(n, n->port_lat ? port_slot(n, s, o, 0) : slot_fl, pe.id, pe.port,
                    &w->out_flit[o], mt);
    else if (pe.kind == PEER_NODE) {
      size_t si = (size_t)slot_fl * n->N + pe.id;
      n->sink_in[si] = w->out_flit[o];
      n->sink_valid[si] = 1;
    } else if (pe.kind == PEER_REMOTE) {
      const asw_flit *f = &w->out_flit[o];
      uint64_t x[3] = {x_word0(X_FLIT, pe, slot_fl, f->vc, f->head, f->tail), f->hdr, f->payload};
      if (net_xo_push(w, n->rk.sw_owner[pe.id], x, 3)) return -1;
    } else {
      snprintf(w->err, sizeof w->err, "switch %u sent a flit on unconnected port %u",
               s, o);
      return -1;
    }
  }
  m = out.credit_mask;
  while (m) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    m &= m - 1;
    topo_peer pe = peer[p];
    if (n->pfc.on) /* §17.3: every one is a PFC frame */
      pause_track(n, ((size_t)s * n->P + p) * n->V + w->out_cr_vc[p], &w->pause_frames,
                  &w->pause_max, &w->pause_storms);
    if (pe.kind == PEER_SWITCH)
      stage_credit_at(n, n->port_lat ? port_slot(n, s, p, 1) : slot_cr, pe.id, pe.port,
                      w->out_cr_vc[p], mt);
    else if (pe.kind == PEER_NODE)
      n->src_cr[(size_t)slot_cr * n->N + pe.id] = (uint8_t)(w->out_cr_vc[p] + 1);
    else if (pe.kind == PEER_REMOTE) {
      uint64_t x = x_word0(X_CREDIT, pe, slot_cr, w->out_cr_vc[p], 0, 0);
      if (net_xo_push(w, n->rk.sw_owner[pe.id], &x, 1)) return -1;
    }
  }
  m = out.arn_mask;
  while (m) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    m &= m - 1;
    topo_peer pe = peer[p];
    if (pe.kind == PEER_SWITCH)
      stage_arn_at(n, n->port_lat ? port_slot(n, s, p, 1) : slot_cr, pe.id, pe.port,
                   w->out_arn[p], mt);
    else if (pe.kind == PEER_NODE) w->arn_at_nodes++; /* counted, discarded */
    else if (pe.kind == PEER_REMOTE) {
      uint64_t x[2] = {x_word0(X_ARN, pe, slot_cr, 0, 0, 0), w->out_arn[p]};
      if (net_xo_push(w, n->rk.sw_owner[pe.id], x, 2)) return -1;
    }
  }
  /* A switch with live state is stepped next cycle; one that only ages ARN
   * entries is left pending (see net.lazy), skipping stays exact. */
  int idle;
  uint64_t idle_in = asw_switch_idle_both(n->sw[s], &idle);
  if (!idle) {
    uint64_t k = n->lazy ? idle_in : UINT64_MAX;
    if (k == UINT64_MAX) {
      w->carry[w->carry_n++] = s;
    } else {
      n->pending[s] = 1;
      n->pend_from[s] = cycle + 1;
      n->pend_left[s] = k;
      if (!n->pend_listed[s]) {
        n->pend_listed[s] = 1;
        w->pend[w->pend_n++] = s;
      }
    }
  }
  return 0;
}

/* Makes up the steps pending switch s missed before cycle `upto`. */
void net_catch_up(net *n, unsigned s, uint64_t upto) {
  uint64_t k = upto - n->pend_from[s];
  if (k > n->pend_left[s]) k = n->pend_left[s];
  if (k) asw_switch_skip_idle(n->sw[s], k); /* cannot fail: idle_in was finite */
  n->pend_left[s] -= k;
  n->pend_from[s] = upto;
  if (!n->pend_left[s]) n->pending[s] = 0; /* idle now */
}

/* All pending switches up to cycle `upto` (before registers are read). */
void net_catch_up_all(net *n, uint64_t upto) {
  uint32_t keep = 0;
  for (uint32_t j = 0; j < n->pend_n; j++) {
    unsigned s = n->pend_list[j];
    if (n->pending[s]) net_catch_up(n, s, upto);
    if (n->pending[s]) n->pend_list[keep++] = s;
    else n->pend_listed[s] = 0;
  }
  n->pend_n = keep;
}

/* Steps todo[from..to) in order, warming the cache ahead (no effect on
 * results): the switch record three switches ahead, its per-port state and
 * the staged inputs and peers two ahead, the slots and queues one ahead. */
static inline void prefetch_net(net *n, uint32_t j, int level) {
  unsigned s = n->todo[j];
  size_t i = (size_t)n->slot_now * n->S + s;
  if (level == 1) {
    const char *pe = (const char *)&n->peer[(size_t)s * n->P];
    for (size_t k = 0; k < n->P * sizeof *n->peer; k += 64) __builtin_prefetch(pe + k);
    __builtin_prefetch(st_at(n, i));
  }
  const st_head *h = level ? st_at(n, i) : NULL;
  asw_switch_prefetch(n->sw[s], level, h ? h->flit_mask : 0, level == 1 ? h->cr_mask : 0);
}

static inline __attribute__((always_inline)) int
step_switches(net *n, net_worker *w, uint32_t from, uint32_t to, int mt) {
  const uint32_t *todo = n->todo;
  if (!n->prefetch) {
    for (uint32_t j = from; j < to; j++)
      if (step_switch(n, w, todo[j], mt)) {
        w->err_switch = todo[j];
        return -1;
      }
    return 0;
  }
  for (uint32_t j = from; j < to && j < from + 3; j++) prefetch_net(n, j, 0);
  for (uint32_t j = from; j < to && j < from + 2; j++) prefetch_net(n, j, 1);
  if (from < to) prefetch_net(n, from, 2);
  for (uint32_t j = from; j < to; j++) {
    if (j + 3 < to) prefetch_net(n, j + 3, 0);
    if (j + 2 < to) prefetch_net(n, j + 2, 1);
    if (j + 1 < to) prefetch_net(n, j + 1, 2);
    if (step_switch(n, w, todo[j], mt)) {
      w->err_switch = todo[j];
      return -1;
    }
  }
  return 0;
}

int net_step_switches(net *n, net_worker *w, uint32_t from, uint32_t to, int mt) {
  return mt ? step_switches(n, w, from, to, 1) : step_switches(n, w, from, to, 0);
}

/* The switch phase of the first cycle t of a pair (net.pairs): the switches of
 * todo, in groups of PAIR_GROUP, take their steps of t and then, those due at
 * t+1 (not idle after t, or woken for t+1), their steps of t+1, while their
 * state is still in cache (the group's slots read at t+1 were prefetched at
 * t, a group's steps earlier). What a step stages arrives at t+2 or later,
 * so no step of t+1 reads what a step of t writes, and the order of the steps
 * within a cycle does not change results (as with threads). Switches first
 * woken for t+1 step in the second cycle (net.pair == 2). The carry list is
 * then the one for t+2. */
#define PAIR_GROUP 16
static inline __attribute__((always_inline)) int
step_pairs(net *n, net_worker *w, uint32_t from, uint32_t to, int mt) {
  const uint64_t cyc = w->cyc;
  const unsigned now0 = w->now, fl0 = w->fl, cr0 = w->cr, W = n->W;
  const unsigned now1 = now0 + 1 == W ? 0 : now0 + 1, fl1 = fl0 + 1 == W ? 0 : fl0 + 1,
                 cr1 = cr0 + 1 == W ? 0 : cr0 + 1;
  const size_t next = (size_t)now1 * n->S;
  const uint32_t *todo = n->todo;
  const int pf = n->prefetch;
  unsigned due[PAIR_GROUP];
  if (pf) {
    for (uint32_t j = from; j < to && j < from + 3; j++) prefetch_net(n, j, 0);
    for (uint32_t j = from; j < to && j < from + 2; j++) prefetch_net(n, j, 1);
    if (from < to) prefetch_net(n, from, 2);
  }
  for (uint32_t g = from; g < to; g += PAIR_GROUP) {
    const uint32_t ge = to - g > PAIR_GROUP ? g + PAIR_GROUP : to;
    unsigned nd = 0;
    for (uint32_t j = g; j < ge; j++) {
      unsigned s = todo[j];
      if (pf) {
        if (j + 3 < to) prefetch_net(n, j + 3, 0);
        if (j + 2 < to) prefetch_net(n, j + 2, 1);
        if (j + 1 < to) prefetch_net(n, j + 1, 2);
      }
      uint32_t c0 = w->carry_n;
      if (step_switch(n, w, s, mt)) {
        w->err_switch = s;
        return -1;
      }
      if (w->carry_n != c0 || st_at(n, next + s)->woken) {
        w->carry_n = c0; /* stepped at t+1 rather than carried */
        n->stepped_at[s] = cyc + 2;
        due[nd++] = s;
      }
    }
    if (!nd) continue;
    int m0 = w->moved;
    w->moved = 0;
    w->cyc = cyc + 1;
    w->now = now1, w->fl = fl1, w->cr = cr1;
    int rv = 0;
    for (unsigned k = 0; k < nd && !rv; k++)
      if ((rv = step_switch(n, w, due[k], mt))) w->err_switch = due[k];
    w->cyc = cyc;
    w->now = now0, w->fl = fl0, w->cr = cr0;
    w->moved1 |= w->moved;
    w->moved = m0;
    if (rv) return -1;
  }
  return 0;
}

int net_step_switch_pairs(net *n, net_worker *w, uint32_t from, uint32_t to, int mt) {
  return mt ? step_pairs(n, w, from, to, 1) : step_pairs(n, w, from, to, 0);
}

/* The staging of switch inputs (per slot of the W cycles links take, and switch)
 * and the lists of switches to step: 0, or -1 out of memory. */
int net_switches_build(net *n) {
  size_t WS = (size_t)n->W * n->S;
  n->st_stride = (offsetof(st_head, cr_vc) + n->P + 63) / 64 * 64;
  if ((n->st = aligned_alloc(64, WS * n->st_stride))) memset(n->st, 0, WS * n->st_stride);
  n->st_flit = calloc(WS * n->P, sizeof(asw_flit));
  n->st_arn = calloc(WS * n->P, 4);
  n->wake = calloc(WS, 4);
  n->wake_n = calloc(n->W, 4);
  /* >= 2^24 buffer slots (400 MB): measured 23 % less CPU on the 11 664-node
   * RLFT (180 M slots); no gain measured on the 512-node bench (0.4 M) or
   * the 432-node RLFT (6.6 M), where it only adds instructions */
  n->prefetch = (uint64_t)n->S * n->P * n->V * n->cfg.buffer_flits >= (1u << 24);
  n->carry = calloc(n->S, 4);
  n->lazy = !n->obs.step; /* the observer sees every step */
  n->pending = calloc(n->S, 1);
  n->pend_listed = calloc(n->S, 1);
  n->pend_from = calloc(n->S, 8);
  n->pend_left = calloc(n->S, 8);
  n->pend_list = calloc(n->S, 4);
  n->stepped_at = calloc(n->S, 8);
  n->todo = calloc(n->S, 4);
  return !n->st || !n->st_flit || !n->st_arn || !n->wake || !n->wake_n ||
                 !n->carry || !n->pending || !n->pend_listed || !n->pend_from || !n->pend_left ||
                 !n->pend_list || !n->stepped_at || !n->todo
             ? -1
             : 0;
}

void net_switches_free(net *n) {
  free(n->st); free(n->st_flit); free(n->st_arn);
  free(n->wake); free(n->wake_n); free(n->carry);
  free(n->pending); free(n->pend_listed); free(n->pend_from); free(n->pend_left);
  free(n->pend_list);
  free(n->stepped_at); free(n->todo);
}
