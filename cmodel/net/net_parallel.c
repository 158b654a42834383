/* net_parallel.c — threads and MPI ranks behind one interface (net_par_* in
 * net_internal.h): workers stepping the switch phase in chunks while the main
 * thread runs the end nodes, and ranks that each simulate a block of pods and
 * exchange what crosses between them at the end of a cycle. */
#include "net_internal.h"

#include <stdlib.h>
#include <string.h>

void net_comm_stats(const net *n, uint64_t *msgs, uint64_t *bytes, uint64_t *syncs) {
  *msgs = n->rk.msgs;
  *bytes = n->rk.bytes;
  *syncs = n->rk.syncs;
}

/* The rank of every switch and this rank's end nodes: blocks of whole pods
 * (or of leaves when there are fewer pods than ranks) in node order; a
 * switch below the top stage goes with the first node below it, the top
 * stage is spread evenly. Returns 0 or -1 with a message. */
static int partition(net *n, char *err, size_t errlen) {
  unsigned R = n->R, N = n->N, G = n->pod_nodes;
  if (N / G < R) G = n->leaf_arity;
  if (N / G < R) {
    snprintf(err, errlen, "ranks: %u ranks need at least as many leaf switches "
             "(this network has %u)", R, N / n->leaf_arity);
    return -1;
  }
  unsigned groups = N / G;
  n->node_lo = (unsigned)(((uint64_t)n->rank * groups + R - 1) / R) * G;
  n->node_hi = (unsigned)(((uint64_t)(n->rank + 1) * groups + R - 1) / R) * G;
  unsigned top = topo_levels(n->t), tf = topo_level_first(n->t, top),
           tc = topo_level_count(n->t, top);
  for (unsigned s = 0; s < n->S; s++) {
    unsigned r;
    if (topo_level(n->t, s) == top && top > 1) {
      r = (unsigned)((uint64_t)(s - tf) * R / tc);
    } else {
      unsigned x = s; /* down port 0 to the first node below */
      topo_peer pe = topo_port_peer(n->t, x, 0);
      while (pe.kind == PEER_SWITCH) pe = topo_port_peer(n->t, pe.id, 0);
      unsigned g = pe.id / G; /* first r with ceil(r * groups / R) > g, minus 1 */
      r = (unsigned)(((uint64_t)g * R + R) / groups);
      while (r > 0 && ((uint64_t)r * groups + R - 1) / R > g) r--;
      while (r + 1 < R && ((uint64_t)(r + 1) * groups + R - 1) / R <= g) r++;
    }
    n->rk.sw_owner[s] = (uint16_t)r;
  }
  return 0;
}

int net_par_build(net *n, char *err, size_t errlen) {
  const net_cfg *c = &n->cfg;
  n->th.nthreads = n->obs.step ? 1 : c->threads; /* observer: in order */
  if (n->th.nthreads < 1) n->th.nthreads = 1;
  n->th.wk = calloc(n->th.nthreads, sizeof *n->th.wk);
  n->th.nwk = n->th.wk ? n->th.nthreads : 0;
  if (!n->th.wk) {
    snprintf(err, errlen, "out of memory building the network");
    return -1;
  }
  for (unsigned t = 0; t < n->th.nwk; t++) {
    net_worker *w = &n->th.wk[t];
    w->n = n;
    w->out_flit = calloc(n->P, sizeof(asw_flit));
    w->out_cr_vc = calloc(n->P, 1);
    w->out_arn = calloc(n->P, 4);
    w->carry = calloc(n->S, 4);
    w->pend = calloc(n->S, 4);
    if (!w->out_flit || !w->out_cr_vc || !w->out_arn || !w->carry || !w->pend) {
      snprintf(err, errlen, "out of memory building the network");
      return -1;
    }
  }
  if (n->R == 1) return 0;
  n->rk.sw_owner = calloc(n->S, sizeof *n->rk.sw_owner);
  n->rk.off = calloc(n->R, sizeof *n->rk.off);
  n->rk.len = calloc(n->R, sizeof *n->rk.len);
  n->rk.hdr = calloc((size_t)2 * n->R * NET_NH, 8);
  int bad = !n->rk.sw_owner || !n->rk.off || !n->rk.len || !n->rk.hdr;
  for (unsigned t = 0; t < n->th.nwk && !bad; t++) {
    net_worker *w = &n->th.wk[t];
    w->xo = calloc(n->R, sizeof *w->xo);
    w->xo_n = calloc(n->R, sizeof *w->xo_n);
    w->xo_cap = calloc(n->R, sizeof *w->xo_cap);
    bad = !w->xo || !w->xo_n || !w->xo_cap;
  }
  if (bad) {
    snprintf(err, errlen, "out of memory building the network");
    return -1;
  }
  if (partition(n, err, errlen)) {
    return -1;
  }
  /* links to switches of other ranks go through the exchange */
  for (size_t i = 0; i < (size_t)n->S * n->P; i++)
    if (n->peer[i].kind == PEER_SWITCH && n->rk.sw_owner[n->peer[i].id] != n->rank)
      n->peer[i].kind = PEER_REMOTE;
  n->next_id = n->rank; /* packet ids rank + R * k: unique, rising per source */
  n->rk.every = n->L < n->LC ? n->L : n->LC;
  if (c->sync_every && c->sync_every < n->rk.every) n->rk.every = c->sync_every;
  if (n->W > 0xFFFF) {
    snprintf(err, errlen, "ranks: link and credit latencies above 65534 cycles");
    return -1;
  }
  return 0;
}

void net_par_free(net *n) {
  for (unsigned t = 0; t < n->th.nwk; t++) {
    free(n->th.wk[t].out_flit); free(n->th.wk[t].out_cr_vc); free(n->th.wk[t].out_arn);
    free(n->th.wk[t].carry); free(n->th.wk[t].pend);
    if (n->th.wk[t].xo)
      for (unsigned r = 0; r < n->R; r++) free(n->th.wk[t].xo[r]);
    free(n->th.wk[t].xo); free(n->th.wk[t].xo_n); free(n->th.wk[t].xo_cap);
  }
  free(n->th.wk);
  free(n->rk.sw_owner); free(n->rk.xbuf); free(n->rk.off); free(n->rk.len); free(n->rk.hdr);
  free(n->rk.red_fout);
}

/* Queues k words for rank r (a link to a switch of another rank). */
int net_xo_push(net_worker *w, unsigned r, const uint64_t *words, unsigned k) {
  if (w->xo_n[r] + k > w->xo_cap[r]) {
    size_t cap = w->xo_cap[r] ? w->xo_cap[r] * 2 : 1024;
    uint64_t *p = realloc(w->xo[r], cap * 8);
    if (!p) {
      snprintf(w->err, sizeof w->err, "out of memory queueing messages for rank %u", r);
      return -1;
    }
    w->xo[r] = p;
    w->xo_cap[r] = cap;
  }
  memcpy(w->xo[r] + w->xo_n[r], words, k * 8);
  w->xo_n[r] += k;
  return 0;
}

/* ---- threads: the switch phase split over workers ------------------------
 * Switches interact only through links of latency >= 1 and the end nodes
 * only read this cycle's slot, so within a cycle the steps of different
 * switches and the nodes' phase are independent; only the staging of
 * outputs into later slots is shared (each staged entry has one writer; the
 * masks and wake lists are updated with atomics). The carry lists are
 * merged in worker order; the order switches are stepped in does not change
 * any result, so any number of threads gives the same bytes. */
enum { CHUNK = 8 };

/* Claims up to CHUNK switches of todo from the front (worker threads) or
 * the back (the main thread, after the end nodes). */
static int claim(net *n, int back, uint32_t *from, uint32_t *to) {
  uint64_t v = __atomic_load_n(&n->th.range, __ATOMIC_RELAXED), nv;
  uint32_t lo, hi;
  do {
    lo = (uint32_t)v;
    hi = (uint32_t)(v >> 32);
    if (lo >= hi) return 0;
    if (back) {
      *to = hi;
      *from = hi - lo > CHUNK ? hi - CHUNK : lo;
      nv = (uint64_t)*from << 32 | lo;
    } else {
      *from = lo;
      *to = hi - lo > CHUNK ? lo + CHUNK : hi;
      nv = (uint64_t)hi << 32 | *to;
    }
  } while (!__atomic_compare_exchange_n(&n->th.range, &v, nv, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
  return 1;
}

static void work_chunks(net *n, net_worker *w, int back) {
  uint32_t from, to;
  while (!w->failed && claim(n, back, &from, &to))
    if (n->pair == 1 ? net_step_switch_pairs(n, w, from, to, 1) : net_step_switches(n, w, from, to, 1))
      w->failed = 1;
}

static void spin_until(const uint64_t *p, uint64_t want) {
  for (unsigned k = 0; __atomic_load_n(p, __ATOMIC_ACQUIRE) != want; k++) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if (k >= 256) thrd_yield(); /* the other core may be busy elsewhere */
  }
}

static int worker_main(void *arg) {
  net_worker *w = arg;
  net *n = w->n;
  for (uint64_t round = 1;; round++) {
    spin_until(&n->th.go, round);
    if (n->th.quit) break;
    work_chunks(n, w, 0);
    __atomic_fetch_add(&n->th.done, 1, __ATOMIC_RELEASE);
  }
  return 0;
}

void net_par_start(net *n) {
  n->th.go = n->th.done = n->th.done_target = n->th.quit = 0;
  for (unsigned t = 1; t < n->th.nthreads; t++)
    if (thrd_create(&n->th.wk[t].thread, worker_main, &n->th.wk[t]) != thrd_success) {
      n->th.nthreads = t; /* run with the ones started (same results) */
      break;
    }
}

void net_par_stop(net *n) {
  if (n->th.nthreads < 2) return;
  __atomic_store_n(&n->th.quit, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&n->th.go, 1, __ATOMIC_RELEASE);
  for (unsigned t = 1; t < n->th.nthreads; t++) thrd_join(n->th.wk[t].thread, NULL);
}

/* The nodes' and switches' phase of a cycle over the threads: the workers take
 * chunks of todo from the front, the main thread runs the end nodes, then takes
 * chunks from the back. */
int net_par_phase(net *n, uint32_t nt, int generating, int measuring, int *moved_out) {
  for (unsigned t = 0; t < n->th.nthreads; t++) {
    net_worker *w = &n->th.wk[t];
    if (n->pair != 2) w->carry_n = 0; /* 2: holds the carries for t+2 of the first cycle */
    w->pend_n = 0;
    w->moved = w->moved1 = 0;
    w->failed = 0;
    w->cyc = n->cycle;
    w->now = n->slot_now, w->fl = n->slot_fl, w->cr = n->slot_cr;
  }
  if (n->th.nthreads < 2) {
    net_end_nodes(n, generating, measuring, 0);
    net_worker *w = &n->th.wk[0];
    if (n->pair == 1 ? net_step_switch_pairs(n, w, 0, nt, 0) : net_step_switches(n, w, 0, nt, 0))
      w->failed = 1;
  } else {
    n->th.range = (uint64_t)nt << 32;
    __atomic_fetch_add(&n->th.go, 1, __ATOMIC_RELEASE);
    net_end_nodes(n, generating, measuring, 1);
    work_chunks(n, &n->th.wk[0], 1);
    n->th.done_target += n->th.nthreads - 1;
    spin_until(&n->th.done, n->th.done_target);
  }
  /* merge the workers' results in worker order */
  n->wake_n[n->slot_now] = 0;
  uint32_t cn = 0;
  int moved = n->pair == 2 ? n->pair_moved : 0, failed = 0;
  unsigned bad = UINT32_MAX;
  n->pair_moved = 0;
  for (unsigned t = 0; t < n->th.nthreads; t++) {
    net_worker *w = &n->th.wk[t];
    if (w->failed && w->err_switch < bad) {
      bad = w->err_switch;
      snprintf(n->err, sizeof n->err, "%s", w->err);
      failed = 1;
    }
    if (n->pair == 1) { /* the carries are for t+2: kept in the worker for the second cycle */
    } else if (n->th.nthreads < 2) { /* the carry list was read into todo: swap */
      uint32_t *x = n->carry;
      n->carry = w->carry;
      w->carry = x;
    } else {
      memcpy(n->carry + cn, w->carry, w->carry_n * sizeof *w->carry);
    }
    if (n->pair != 1) cn += w->carry_n;
    memcpy(n->pend_list + n->pend_n, w->pend, w->pend_n * sizeof *w->pend);
    n->pend_n += w->pend_n;
    n->r.flit_hops += w->flit_hops;
    n->arn_at_nodes += w->arn_at_nodes;
    w->flit_hops = w->arn_at_nodes = 0;
    n->pfc.frames += w->pause_frames;
    n->pfc.storms += w->pause_storms;
    n->pfc.dropped += w->frames_dropped;
    if (w->pause_max > n->pfc.max) n->pfc.max = w->pause_max;
    w->pause_frames = w->pause_storms = w->pause_max = w->frames_dropped = 0;
    moved |= w->moved;
    n->pair_moved |= w->moved1;
  }
  n->carry_n = cn;
  *moved_out = moved;
  return failed ? -1 : 0;
}

/* ---- ranks: the end-of-cycle exchange ------------------------------------
 * After the switch phase of a cycle every rank sends every other rank the
 * flits, credits and ARN messages its switches put on links to that rank's
 * switches this cycle (they arrive link_latency >= 1 cycles later, so they
 * are staged before they are due) and a header with its progress and flit
 * and packet counts, from which every rank derives the same global figures
 * for the watchdog and the drain. Returns 1 if any rank failed, 0, or -1 if
 * the transport failed. */
int net_par_exchange(net *n, int failed) {
  const unsigned R = n->R;
  size_t total = 0;
  for (unsigned r = 0; r < R; r++) {
    size_t len = 0;
    for (unsigned t = 0; t < n->th.nthreads; t++) len += n->th.wk[t].xo_n[r];
    n->rk.off[r] = total * 8;
    n->rk.len[r] = len * 8;
    total += len;
  }
  if (total > n->rk.xbuf_cap) {
    size_t cap = total * 2;
    uint64_t *p = realloc(n->rk.xbuf, cap * 8);
    if (!p) {
      snprintf(n->err, sizeof n->err, "out of memory for the rank exchange");
      failed = 1;
      total = 0;
      memset(n->rk.len, 0, R * sizeof *n->rk.len);
      memset(n->rk.off, 0, R * sizeof *n->rk.off);
    } else {
      n->rk.xbuf = p;
      n->rk.xbuf_cap = cap;
    }
  }
  for (unsigned r = 0; r < R; r++) {
    size_t at = n->rk.off[r] / 8;
    for (unsigned t = 0; t < n->th.nthreads; t++) {
      net_worker *w = &n->th.wk[t];
      if (n->rk.len[r]) memcpy(n->rk.xbuf + at, w->xo[r], w->xo_n[r] * 8);
      at += w->xo_n[r];
      w->xo_n[r] = 0;
    }
    if (r != n->rank) n->rk.bytes += n->rk.len[r];
  }
  uint64_t *ho = n->rk.hdr, *hi = n->rk.hdr + (size_t)R * NET_NH;
  for (unsigned r = 0; r < R; r++) {
    uint64_t *h = &ho[(size_t)r * NET_NH];
    h[0] = n->last_progress;
    h[1] = n->injected_flits;
    h[2] = n->consumed_flits;
    h[3] = n->r.packets_generated;
    h[4] = n->r.packets_delivered;
    h[5] = (uint64_t)failed;
  }
  const void *in = NULL;
  size_t in_len = 0;
  if (n->rk.comm.exchange(n->rk.comm.ctx, NET_NH, ho, hi, n->rk.xbuf, n->rk.off, n->rk.len, &in,
                       &in_len)) {
    snprintf(n->err, sizeof n->err, "rank %u: the exchange between ranks failed", n->rank);
    return -1;
  }
  n->rk.syncs++;
  uint64_t g[NET_NH] = {0};
  for (unsigned r = 0; r < R; r++) {
    const uint64_t *h = &hi[(size_t)r * NET_NH];
    if (h[0] > g[0]) g[0] = h[0]; /* the latest progress anywhere */
    for (unsigned k = 1; k < NET_NH; k++) g[k] += h[k];
  }
  n->last_progress = g[0];
  n->rk.g_injected = g[1];
  n->rk.g_consumed = g[2];
  n->rk.g_generated = g[3];
  n->rk.g_delivered = g[4];
  if (g[5]) {
    if (!failed) snprintf(n->err, sizeof n->err, "another rank failed (see its message)");
    return 1;
  }
  /* stage what arrived (staged into this cycle's arrival slots, as if the
   * sending switch were local; the order does not matter: one writer per
   * entry) */
  const uint64_t *x = in, *end = x + in_len / 8;
  while (x < end) {
    unsigned kind = (unsigned)(x[0] & 3), vc = (unsigned)(x[0] >> 4 & 0xF),
             port = (unsigned)(x[0] >> 8 & 0xFF), slot = (unsigned)(x[0] >> 16 & 0xFFFF),
             sw = (unsigned)(x[0] >> 32);
    unsigned k = kind == X_FLIT ? 3 : kind == X_ARN ? 2 : 1;
    if (kind < X_FLIT || x + k > end || sw >= n->S || port >= n->P || slot >= n->W ||
        n->rk.sw_owner[sw] != n->rank) {
      snprintf(n->err, sizeof n->err, "rank %u, cycle %llu: malformed message from "
               "another rank", n->rank, (unsigned long long)n->cycle);
      return 1;
    }
    if (kind == X_FLIT) {
      asw_flit f = {.valid = 1, .head = (uint8_t)(x[0] >> 2 & 1),
                    .tail = (uint8_t)(x[0] >> 3 & 1), .vc = (uint8_t)vc, .hdr = x[1],
                    .payload = x[2]};
      stage_flit_at(n, slot, sw, port, &f, 0);
    } else if (kind == X_CREDIT) {
      stage_credit_at(n, slot, sw, port, vc, 0);
    } else {
      stage_arn_at(n, slot, sw, port, (uint32_t)x[1], 0);
    }
    n->rk.msgs++;
    x += k;
  }
  return 0;
}

/* 1 if `v` on any rank (collective with ranks). */
int net_par_any(net *n, int v) {
  if (n->R == 1) return v;
  uint64_t u = v != 0;
  if (n->rk.comm.sum(n->rk.comm.ctx, &u, 1, NULL, 0)) return 1;
  return u != 0;
}

/* Sums what every rank measured into every rank's copy (collective). */
int net_par_reduce(net *n) {
  hist *hs[4] = {&n->h_net, &n->h_e2e, &n->h_hot, &n->h_cold};
  size_t nu = 16 + 4 * (1 + (size_t)HIST_BUCKETS) + n->nwin * 7 + 2 + ASW_ACNT_NUM +
              (size_t)n->S * n->P;
  size_t nf = 4 + 4 + n->nwin;
  uint64_t *u = calloc(nu, 8);
  double *f = calloc(nf, sizeof *f);
  if (!u || !f) {
    free(u); free(f);
    snprintf(n->err, sizeof n->err, "out of memory reducing the results");
    return -1;
  }
  net_results tmp;
  n->rk.reduced = 0;
  net_get_results(n, &tmp); /* this rank's register totals */
  uint64_t *rp[16] = {&n->r.packets_generated, &n->r.packets_refused, &n->r.packets_delivered,
                      &n->r.packets_measured, &n->r.duplicates, &n->r.order_violations,
                      &n->r.reordered, &n->r.adaptive_decisions, &n->r.flit_hops,
                      &n->arn_at_nodes, &n->adaptive_at_warmup, &n->injected_flits,
                      &n->consumed_flits, &n->r.adaptive_measured, &n->r.credit_stalls,
                      &n->r.route_errors};
  size_t k = 0, kf = 0;
  for (unsigned i = 0; i < 16; i++) u[k++] = *rp[i];
  for (unsigned h = 0; h < 4; h++) {
    u[k++] = hs[h]->count;
    for (unsigned b = 0; b < HIST_BUCKETS; b++) u[k++] = hs[h]->b[b];
    f[kf++] = hs[h]->sum;
  }
  for (size_t w = 0; w < n->nwin; w++) {
    window_stat *ws = &n->win[w];
    u[k++] = ws->offered; u[k++] = ws->accepted; u[k++] = ws->acc_hot;
    u[k++] = ws->acc_cold; u[k++] = ws->lat_count; u[k++] = ws->adaptive;
    u[k++] = ws->adapted;
    f[kf++] = ws->lat_sum;
  }
  u[k++] = tmp.route_errors;
  u[k++] = tmp.credit_stalls;
  size_t kac = k;
  u[kac + ASW_ACNT_ROOTS] = tmp.arn_roots;
  u[kac + ASW_ACNT_SENT] = tmp.arn_sent;
  u[kac + ASW_ACNT_RECEIVED] = tmp.arn_received;
  u[kac + ASW_ACNT_CONSUMED] = tmp.arn_consumed;
  u[kac + ASW_ACNT_EXPIRED] = tmp.arn_expired;
  u[kac + ASW_ACNT_ADAPTED] = tmp.arn_adapted;
  u[kac + ASW_ACNT_IN_DROPPED] = tmp.arn_in_dropped;
  u[kac + ASW_ACNT_OUT_DROPPED] = tmp.arn_out_dropped;
  u[kac + ASW_ACNT_EVICTED] = tmp.arn_evicted;
  k += ASW_ACNT_NUM;
  size_t kfo = k;
  for (unsigned s = 0; s < n->S; s++)
    for (unsigned p = 0; n->sw[s] && p < n->P; p++) {
      uint32_t v = 0;
      asw_reg_read(n->sw[s], ASW_REG_COUNTER(p, ASW_CNT_FLITS_OUT), &v);
      u[kfo + (size_t)s * n->P + p] = v;
    }
  f[kf++] = n->r.offered_load; f[kf++] = n->r.admitted_load;
  f[kf++] = n->r.accepted_hot; f[kf++] = n->r.accepted_cold;
  int rv = 0;
  if (n->rk.comm.sum(n->rk.comm.ctx, u, nu, f, nf)) {
    snprintf(n->err, sizeof n->err, "rank %u: the reduction of the results failed", n->rank);
    rv = -1;
  } else {
    k = 0; kf = 0;
    for (unsigned i = 0; i < 16; i++) *rp[i] = u[k++];
    for (unsigned h = 0; h < 4; h++) {
      hs[h]->count = u[k++];
      for (unsigned b = 0; b < HIST_BUCKETS; b++) hs[h]->b[b] = (uint32_t)u[k++];
      hs[h]->sum = f[kf++];
    }
    for (size_t w = 0; w < n->nwin; w++) {
      window_stat *ws = &n->win[w];
      ws->offered = u[k++]; ws->accepted = u[k++]; ws->acc_hot = u[k++];
      ws->acc_cold = u[k++]; ws->lat_count = u[k++]; ws->adaptive = u[k++];
      ws->adapted = u[k++];
      ws->lat_sum = f[kf++];
    }
    n->rk.red_re = u[k++];
    n->rk.red_cs = u[k++];
    for (unsigned i = 0; i < ASW_ACNT_NUM; i++) n->rk.red_acnt[i] = u[kac + i];
    n->rk.red_fout = malloc((size_t)n->S * n->P * sizeof *n->rk.red_fout);
    if (!n->rk.red_fout) {
      snprintf(n->err, sizeof n->err, "out of memory reducing the results");
      rv = -1;
    } else {
      for (size_t i = 0; i < (size_t)n->S * n->P; i++) n->rk.red_fout[i] = (uint32_t)u[kfo + i];
      n->r.offered_load = f[kf++]; n->r.admitted_load = f[kf++];
      n->r.accepted_hot = f[kf++]; n->r.accepted_cold = f[kf++];
      n->rk.reduced = 1;
    }
  }
  free(u);
  free(f);
  return rv;
}
