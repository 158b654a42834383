/* net_cycle.c — the cycle loop: net_run runs warm-up, measurement and drain,
 * one cycle at a time (which switches to step, the nodes' and switches' phase,
 * the mechanisms' end of the cycle), with the rank exchange, the windows, the
 * watchdog and the drain test between cycles. */
#include "net_internal.h"

/* Global figures: this rank's alone in one process, else the last sync's.
 * With link faults (§18.6) flits discarded on a down link are not in flight
 * and padding flits were never injected; packets discarded whole or
 * delivered damaged are not in flight. */
static uint64_t g_inflight_flits(const net *n) {
  if (n->lf.faults) {
    net_fault_sum(n);
    return n->injected_flits + n->lf.pad - n->consumed_flits - n->lf.fd;
  }
  return n->R > 1 ? n->rk.g_injected - n->rk.g_consumed : n->injected_flits - n->consumed_flits;
}
static int g_all_delivered(const net *n) {
  if (n->lf.faults)
    return n->r.packets_delivered + n->lf.pkts_damaged + n->lf.pkts_bad + (net_fault_sum(n), n->lf.pd) ==
               n->r.packets_generated &&
           g_inflight_flits(n) == 0;
  if (n->R > 1) return n->rk.g_delivered == n->rk.g_generated && n->rk.g_consumed == n->rk.g_injected;
  return n->r.packets_delivered == n->r.packets_generated &&
         n->consumed_flits == n->injected_flits;
}

/* One cycle: 0, or -1 with n->err. */
static int step_cycle(net *n, int generating, int measuring) {
  const unsigned slot = (unsigned)(n->cycle % n->W);
  n->slot_now = slot;
  n->slot_fl = (unsigned)((n->cycle + n->L) % n->W);
  n->slot_cr = (unsigned)((n->cycle + n->LC) % n->W);
  size_t wi = (size_t)(n->cycle / n->cfg.window);
  n->ws = wi < n->nwin ? &n->win[wi] : NULL;
  if (n->vq) return net_voqnet_cycle(n, generating, measuring); /* §16.6 */
  /* switches to step: those with pending work or inputs this cycle, in the
   * order carried over, then woken (each once) */
  uint32_t *lists[3] = {n->carry, &n->wake[(size_t)slot * n->S], n->lf.touch};
  /* second cycle of a pair: the carried switches have taken this cycle's step */
  uint32_t counts[3] = {n->pair == 2 ? 0 : n->carry_n, n->wake_n[slot], 0};
  if (n->lf.faults) { /* §18.6: pins that change now; the fabric manager */
    if (net_faults_cycle_begin(n)) return -1;
    counts[2] = n->lf.touch_n;
  }
  uint32_t nt = 0;
  for (int li = 0; li < 3; li++)
    for (uint32_t j = 0; j < counts[li]; j++) {
      unsigned s = lists[li][j];
      if (n->stepped_at[s] == n->cycle + 1) continue;
      n->stepped_at[s] = n->cycle + 1;
      if (n->pending[s]) { /* woken: first the steps it missed */
        net_catch_up(n, s, n->cycle);
        n->pending[s] = 0;
      }
      n->todo[nt++] = s;
    }
  if (n->th.nthreads < 2 && n->cg.qcn) qcn_net_deliver(n->cg.qcn, n->cycle); /* §17.5 */
  int moved = 0;
  if (net_par_phase(n, nt, generating, measuring, &moved)) return -1;
  if (net_mech_cycle_end(n, measuring)) return -1; /* QCN samples, PFC drops, fault losses */
  if (moved) n->last_progress = n->cycle;
  return 0;
}

/* 1 if cycles n->cycle and n->cycle + 1 may run as a pair (net.pairs): nothing
 * between them reads the switches or may end the run (a window's or the
 * warm-up's statistics, the starvation check, the watchdog, the end of the
 * run), and no switch is pending. */
static int pair_starts(const net *n, uint64_t total) {
  const net_cfg *c = &n->cfg;
  const uint64_t t = n->cycle;
  return t + 1 < total && (t + 1) % c->window != 0 && t + 1 != c->warmup &&
         (t & 1023) != 1023 && (!c->watchdog || t - n->last_progress < c->watchdog) &&
         !n->pend_n;
}

int net_run(net *n, net_progress_fn progress, void *ctx) {
  const net_cfg *c = &n->cfg;
  uint64_t total = n->total;
  int status = NET_RUN_OK;
  n->last_progress = 0;
  /* From here on the switches are only stepped: locked, they skip state no
   * register setting reads (asw_switch_lock_config). Not under a lockstep
   * observer, which may program its switches further, nor with link faults,
   * whose fabric manager rewrites FWD entries during the run (§18.6). */
  if (!n->obs.step && !n->lf.faults)
    for (unsigned s = 0; s < n->S; s++)
      if (n->sw[s]) asw_switch_lock_config(n->sw[s]);
  if (n->th.nthreads > 1) net_par_start(n);
  n->pairs = n->R == 1 && n->L >= 2 && n->LC >= 2 &&
             n->W >= (n->L > n->LC ? n->L : n->LC) + 2 && !n->port_lat && !n->vq &&
             !n->lf.faults && !n->cg.qcn && !n->cg.lane && !n->obs.step && !n->pfc.on &&
             !n->tr.rp && !c->arn;
  n->pair = 0;
  n->rk.next_sync = n->rk.every ? n->rk.every - 1 : 0;
  if (c->watchdog && c->watchdog < n->rk.next_sync) n->rk.next_sync = c->watchdog;
  for (n->cycle = 0;; n->cycle++) {
    int in_run = n->cycle < total;
    /* trace complete (with trace_hs the hot sources' packets may still be in flight) */
    if (n->tr.rp && trace_replay_done(n->tr.rp) && (c->trace_hs > 0 || g_all_delivered(n))) {
      n->r.drained = 1;
      break;
    }
    if (!in_run) {
      if (!c->drain) break;
      if (g_all_delivered(n)) {
        n->r.drained = 1;
        break;
      }
      if (n->cycle - total >= c->drain_limit) {
        snprintf(n->err, sizeof n->err, "drain_limit: %llu packets still in "
                 "flight after %llu drain cycles",
                 (unsigned long long)(n->r.packets_generated - n->r.packets_delivered),
                 (unsigned long long)c->drain_limit);
        status = NET_RUN_ERROR;
        break;
      }
    }
    if (n->cycle == c->warmup) {
      net_catch_up_all(n, n->cycle);
      net_accumulate_adaptive(n, cur_win(n));
      n->adaptive_at_warmup = n->r.adaptive_decisions;
    }
    int measuring = in_run && n->cycle >= c->warmup;
    if (n->hot_rx && !n->hs_closed) { /* hs_packets: delivered by the previous cycle */
      uint64_t got = 0;
      for (unsigned t = 0; t < n->nhot; t++) got += n->hot_rx[n->hot_nodes[t]];
      if (got >= c->hs_packets) n->hs_closed = n->cycle;
    }
    n->pair = n->pair == 1 ? 2 : n->pairs && pair_starts(n, total) ? 1 : 0;
    int failed = n->rk.failed || step_cycle(n, in_run, measuring) != 0;
    int synced = 1;
    if (n->R > 1) {
      /* Exchange every x_every cycles (what a link carries arrives that many
       * cycles later or more), every cycle from the last cycle of the run on
       * (the drain test), and at the cycle the watchdog would fire if
       * nothing moved anywhere since the last exchange. A rank that failed
       * stops stepping and says so at the next exchange. */
      synced = n->cycle >= n->rk.next_sync || n->cycle + 1 >= total;
      if (failed) n->rk.failed = 1;
      if (synced) {
        int g = net_par_exchange(n, n->rk.failed);
        if (g) { status = NET_RUN_ERROR; n->cycle++; break; }
        n->rk.next_sync = n->cycle + n->rk.every;
        uint64_t due = n->last_progress + c->watchdog;
        if (c->watchdog && due > n->cycle && due < n->rk.next_sync) n->rk.next_sync = due;
      }
    } else if (failed) { status = NET_RUN_ERROR; break; }
    if (in_run && (n->cycle + 1) % c->window == 0) {
      net_catch_up_all(n, n->cycle + 1);
      net_accumulate_adaptive(n, cur_win(n));
    }
    if (c->watchdog && synced && g_inflight_flits(n) &&
        n->cycle - n->last_progress >= c->watchdog) {
      net_watchdog_deadlock(n, g_inflight_flits(n));
      status = NET_RUN_WATCHDOG;
      n->cycle++;
      break;
    }
    if (c->starvation && (n->cycle & 1023) == 1023 && (net_catch_up_all(n, n->cycle + 1), 1) &&
        net_par_any(n, net_check_starvation(n))) {
      status = NET_RUN_WATCHDOG;
      n->cycle++;
      break;
    }
    if (progress && (n->cycle & 255) == 0) progress(ctx, n->cycle, total);
  }
  net_par_stop(n);
  if (n->tr.rp && status == NET_RUN_OK && !trace_replay_done(n->tr.rp)) { /* traffic=trace */
    trace_stats ts;
    trace_replay_stats(n->tr.rp, &ts);
    snprintf(n->err, sizeof n->err, "cycles: the trace did not complete: %llu of %llu messages "
             "delivered after %llu cycles (raise cycles%s)", (unsigned long long)ts.messages_delivered,
             (unsigned long long)ts.messages, (unsigned long long)n->cycle,
             c->drain ? " or drain_limit" : ", or set drain=1");
    status = NET_RUN_ERROR;
  }
  net_catch_up_all(n, n->cycle);
  if (n->total % c->window && n->cycle >= n->total) net_accumulate_adaptive(n, &n->win[n->nwin - 1]);
  else net_accumulate_adaptive(n, NULL);
  n->r.cycles_run = n->cycle;
  if (n->R > 1 && net_par_reduce(n)) status = NET_RUN_ERROR;
  return status;
}
