/* net_watchdog.c — what the watchdog reports: deadlocks (no flit moved with
 * flits in flight: the blocked resources and the cycle of waiting channels)
 * and starving sources. */
#include "net_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void net_report_add(net *n, const char *fmt, ...) {
  va_list ap;
  char line[512];
  va_start(ap, fmt);
  int k = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  size_t l = strlen(line);
  if (n->report_len + l + 1 > n->report_cap) {
    size_t cap = (n->report_cap + l + 1) * 2;
    char *p = realloc(n->report, cap);
    if (!p) return;
    n->report = p;
    n->report_cap = cap;
  }
  memcpy(n->report + n->report_len, line, l + 1);
  n->report_len += l;
}

static void waiting_edges(void *ctx, size_t c, cdg_add_fn add, void *g) {
  net *n = ctx;
  const unsigned P = n->P, V = n->V, NQ = n->cfg.voq ? n->P : 1;
  unsigned s = (unsigned)(c / ((size_t)P * V)), i = (unsigned)(c / V % P), v = (unsigned)(c % V);
  for (unsigned q = 0; n->sw[s] && q < NQ; q++) {
    unsigned o, w, len;
    uint32_t cr = 0;
    if (asw_switch_queue_head(n->sw[s], i, v, q, &o, &w, &len) != 1) continue;
    if (asw_reg_read(n->sw[s], ASW_REG_CRED(o, w), &cr) || cr >= len) continue;
    topo_peer pe = topo_port_peer(n->t, s, o);
    if (pe.kind != PEER_SWITCH || !n->sw[pe.id]) continue;
    add(g, ((size_t)pe.id * P + pe.port) * V + w, o, w);
  }
}

/* Deadlock diagnosis (issue 14): the channel-dependency graph of the queue heads
 * that wait for credits. A channel is an input VC (switch s, input port i, VC v);
 * the head packet of one of its queues, routed to output o with next-hop VC w and
 * len flits, waits for channel (s', i', w) -- the far end of output o -- when
 * CRED(o, w) < len. Packets are granted only with all their credits, so in a
 * deadlock every waiting head is such an edge; a cycle of them is the deadlock.
 * Depth-first search from the channels in index order; the first cycle found is
 * kept in n->dl_cycle, rotated to start at its lowest channel (deterministic).
 * Returns the cycle's length, 0 if there is none, -1 if out of memory. Only for
 * one-process runs (a rank does not see the other ranks' switches). */
static int find_dependency_cycle(net *n) {
  net_dl_hop *h = NULL;
  int found = cdg_cycle_of((size_t)n->S * n->P * n->V, n->P, n->V, waiting_edges, n, &h);
  if (found > 0) {
    free(n->dl_cycle);
    n->dl_cycle = h;
    n->dl_len = (unsigned)found;
  }
  return found;
}

static void describe_blocked(net *n) {
  unsigned shown = 0;
  for (unsigned s = 0; s < n->S && shown < 24; s++) {
    if (!n->sw[s] || asw_switch_idle(n->sw[s])) continue;
    shown++;
    net_report_add(n, "  switch %u (stage %u):", s, topo_level(n->t, s));
    unsigned nq = n->cfg.voq ? n->P : 1;
    for (unsigned i = 0; i < n->P; i++)
      for (unsigned v = 0; v < n->V; v++) {
        uint32_t occ = 0, x;
        for (unsigned q = 0; q < nq; q++)
          if (!asw_reg_read(n->sw[s], ASW_REG_OCC(i, v, q), &x)) occ += x;
        if (occ) net_report_add(n, " in%u.vc%u holds %u flits;", i, v, occ);
      }
    for (unsigned o = 0; o < n->P; o++)
      for (unsigned v = 0; v < n->V; v++) {
        uint32_t cr = 0;
        asw_reg_read(n->sw[s], ASW_REG_CRED(o, v), &cr);
        if (cr < n->len) {
          topo_peer pe = topo_port_peer(n->t, s, o);
          net_report_add(n, " out%u.vc%u has %u credits (< %u) towards %s %u;", o, v,
                     cr, n->len, pe.kind == PEER_NODE ? "node" : "switch", pe.id);
        }
      }
    net_report_add(n, "\n");
  }
  unsigned sinks = 0;
  for (unsigned d = n->node_lo; d < n->node_hi && sinks < 16; d++) {
    uint64_t held = 0;
    for (unsigned v = 0; v < n->V; v++) held += n->sink_buf[(size_t)d * n->V + v];
    if (held) {
      sinks++;
      net_report_add(n, "  node %u sink holds %llu flits it does not consume (rate %g)\n",
                 d, (unsigned long long)held, n->nodes[d].sink_rate);
    }
  }
}

int net_check_starvation(net *n) {
  uint64_t lim = n->cfg.starvation;
  unsigned found = 0;
  for (unsigned s = n->node_lo; s < n->node_hi; s++) {
    node *nd = &n->nodes[s];
    if (!nd->queued || nd->streaming) { if (!nd->queued) nd->last_inject = n->cycle; continue; }
    if (n->cycle - nd->last_inject < lim) continue;
    if (!found)
      net_report_add(n, "starvation at cycle %llu: sources with queued packets that "
                 "have not injected for %llu cycles:\n",
                 (unsigned long long)n->cycle, (unsigned long long)lim);
    if (found < 16) {
      net_report_add(n, "  node %u: %u packets queued; credits into switch %u port %u:",
                 s, nd->queued, topo_node_switch(n->t, s), topo_node_port(n->t, s));
      for (unsigned v = 0; v < n->V; v++)
        net_report_add(n, " vc%u=%u", v, n->credits[(size_t)s * n->V + v]);
      net_report_add(n, "\n");
    }
    found++;
  }
  if (found) {
    net_report_add(n, "  (%u starving sources)\n", found);
    describe_blocked(n);
  }
  return found != 0;
}

void net_watchdog_deadlock(net *n, uint64_t inflight) {
  const net_cfg *c = &n->cfg;
  net_report_add(n, "deadlock at cycle %llu: no flit moved for %llu cycles with "
             "%llu flits in flight; blocked resources%s:\n",
             (unsigned long long)n->cycle, (unsigned long long)c->watchdog,
             (unsigned long long)inflight,
             n->R > 1 ? " (this rank's)" : "");
  net_catch_up_all(n, n->cycle + 1);
  describe_blocked(n);
  if (n->vq) /* §16.6: no switches to describe */
    net_report_add(n, "  voqnet reference fabric: %llu flits held in its input buffers\n",
               (unsigned long long)vqn_buffered(n->vq));
  else if (n->R == 1) { /* the waiting channels' cycle (issue 14) */
    int k = find_dependency_cycle(n);
    if (k > 0) {
      net_report_add(n, "  channel-dependency cycle of %d channels (each input VC's head "
                 "packet waits for credits of the next):", k);
      for (unsigned j = 0; j <= n->dl_len; j++) {
        const net_dl_hop *h = &n->dl_cycle[j % n->dl_len];
        net_report_add(n, j ? " -> switch %u in%u.vc%u" : " switch %u in%u.vc%u", h->sw, h->in, h->vc);
        if (j < n->dl_len) net_report_add(n, " -> out%u.vc%u", h->out, h->out_vc);
      }
      net_report_add(n, "\n");
    } else {
      net_report_add(n, "  no channel-dependency cycle among the queue heads waiting for "
                 "credits%s\n", k < 0 ? " (out of memory: not searched)" : "");
    }
  }
}
