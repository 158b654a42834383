/* faults.c — see faults.h. */
#include "faults.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"

enum { EV_TX = 0, EV_RX = 1 };

typedef struct {
  uint64_t cycle;
  uint32_t seq;    /* order of creation: ties keep it (deterministic) */
  uint32_t sw;
  uint8_t port, rx, down; /* rx: the receiver pin; down: 1 goes down, 0 up */
  uint8_t first;          /* TX pin of the fault's first end: one per change of the link */
} fault_ev;

struct net_faults {
  const topo *t;
  unsigned S, P, N;
  uint64_t fm_delay;
  fault_ev *ev;
  size_t nev, cap, next;
  uint64_t *fm_at; /* cycles the fabric manager runs, sorted */
  size_t nfm, fm_next;
  uint16_t *tx_down, *rx_down; /* [S*P] faults holding each pin down */
  uint64_t *up, *rx_up;        /* [S] the pins */
  uint32_t *reach;             /* [S] the fabric manager's scratch (updn_reach) */
  uint64_t downs, fm_runs, fm_entries, first_down;
  /* the fabric manager's FWD writes not yet on the switches' register buses: per switch
   * a FIFO of {cycle, address << 32 | data} pairs, wq_head[s]..wq_n[s] (in pairs); every
   * switch writes a destination's entry in the same cycle (its slot, fm_slot: the next
   * free one); fwd[s*N + d], the entry as the last write queued leaves it (fwd_ok:
   * queued at least once) */
  uint64_t fm_slot;
  uint64_t **wq;
  size_t *wq_n, *wq_head, *wq_cap;
  uint32_t *fwd;
  uint8_t *fwd_ok;
  uint64_t wq_left; /* writes queued and not yet taken */
};

static int push(net_faults *f, uint64_t cycle, unsigned s, unsigned p, int rx, int down,
                int first) {
  if (f->nev == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 64;
    fault_ev *e = realloc(f->ev, cap * sizeof *e);
    if (!e) return -1;
    f->ev = e;
    f->cap = cap;
  }
  f->ev[f->nev] = (fault_ev){cycle, (uint32_t)f->nev, s, (uint8_t)p, (uint8_t)rx, (uint8_t)down,
                             (uint8_t)first};
  f->nev++;
  return 0;
}

/* One fault of the link (s, p) <-> its peer: the pins of both ends. */
static int add_fault(net_faults *f, unsigned s, unsigned p, uint64_t down, uint64_t up,
                     unsigned lat) {
  topo_peer pe = topo_port_peer(f->t, s, p);
  unsigned end[2][2] = {{s, p}, {pe.id, pe.port}};
  for (int k = 0; k < 2; k++) {
    if (push(f, down, end[k][0], end[k][1], EV_TX, 1, k == 0) ||
        push(f, down + lat + 1, end[k][0], end[k][1], EV_RX, 1, 0))
      return -1;
    if (up && (push(f, up, end[k][0], end[k][1], EV_TX, 0, k == 0) ||
               push(f, up + lat + 1, end[k][0], end[k][1], EV_RX, 0, 0)))
      return -1;
  }
  return 0;
}

static int ev_cmp(const void *a, const void *b) {
  const fault_ev *x = a, *y = b;
  if (x->cycle != y->cycle) return x->cycle < y->cycle ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}
static int u64_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

net_faults *faults_new(const net_cfg *c, const topo *t, uint64_t total, char *err,
                       size_t errlen) {
  net_faults *f = calloc(1, sizeof *f);
  if (!f) goto oom;
  f->t = t;
  f->S = topo_switches(t);
  f->P = topo_ports(t);
  f->N = topo_nodes(t);
  f->fm_delay = c->fm_delay;
  f->first_down = UINT64_MAX;
  const unsigned lat = c->link_latency;
  for (unsigned i = 0; i < c->lf_count; i++) {
    unsigned s = c->lf[i].sw, p = c->lf[i].port;
    if (s >= f->S || p >= f->P || topo_port_peer(t, s, p).kind != PEER_SWITCH) {
      snprintf(err, errlen, "link_fault: %u:%u is not a switch port linked to another switch "
               "(%u switches of %u ports)", s, p, f->S, f->P);
      faults_free(f);
      return NULL;
    }
    if (add_fault(f, s, p, c->lf[i].down, c->lf[i].up, lat)) goto oom;
  }
  if (c->link_fault_rate > 0) { /* every switch-to-switch link once, from its lower (s, p) end */
    uint64_t rng = c->seed ^ 0x5DEECE66D1F2B3C4ull;
    const double lq = log1p(-c->link_fault_rate);
    for (unsigned s = 0; s < f->S; s++)
      for (unsigned p = 0; p < f->P; p++) {
        topo_peer pe = topo_port_peer(t, s, p);
        if (pe.kind != PEER_SWITCH || pe.id < s || (pe.id == s && pe.port < p)) continue;
        uint64_t at = 0;
        for (;;) {
          double u = ((double)(splitmix(&rng) >> 11) + 1.0) * 0x1.0p-53; /* (0, 1] */
          double gap = c->link_fault_rate >= 1 ? 0 : floor(log(u) / lq);
          if (gap >= (double)(total - at)) break;
          uint64_t down = at + (uint64_t)gap;
          if (add_fault(f, s, p, down, down + c->link_down_cycles, lat)) goto oom;
          at = down + c->link_down_cycles + 1;
          if (at >= total) break;
        }
      }
  }
  qsort(f->ev, f->nev, sizeof *f->ev, ev_cmp);
  if (f->fm_delay) {
    f->fm_at = malloc((f->nev ? f->nev : 1) * sizeof *f->fm_at);
    if (!f->fm_at) goto oom;
    for (size_t i = 0; i < f->nev; i++)
      if (f->ev[i].first) f->fm_at[f->nfm++] = f->ev[i].cycle + f->fm_delay; /* once a change */
    qsort(f->fm_at, f->nfm, sizeof *f->fm_at, u64_cmp);
  }
  f->tx_down = calloc((size_t)f->S * f->P, sizeof *f->tx_down);
  f->rx_down = calloc((size_t)f->S * f->P, sizeof *f->rx_down);
  f->up = malloc(f->S * sizeof *f->up);
  f->rx_up = malloc(f->S * sizeof *f->rx_up);
  f->reach = malloc(f->S * sizeof *f->reach);
  f->wq = calloc(f->S, sizeof *f->wq);
  f->wq_n = calloc(f->S, sizeof *f->wq_n);
  f->wq_head = calloc(f->S, sizeof *f->wq_head);
  f->wq_cap = calloc(f->S, sizeof *f->wq_cap);
  f->fwd = calloc((size_t)f->S * f->N, sizeof *f->fwd);
  f->fwd_ok = calloc((size_t)f->S * f->N, 1);
  if (!f->tx_down || !f->rx_down || !f->up || !f->rx_up || !f->reach || !f->wq ||
      !f->wq_n || !f->wq_head || !f->wq_cap || !f->fwd || !f->fwd_ok)
    goto oom;
  const uint64_t all = f->P == 64 ? ~0ull : (1ull << f->P) - 1;
  for (unsigned s = 0; s < f->S; s++) f->up[s] = f->rx_up[s] = all;
  return f;
oom:
  snprintf(err, errlen, "link_fault: out of memory for the fault schedule");
  faults_free(f);
  return NULL;
}

void faults_free(net_faults *f) {
  if (!f) return;
  free(f->ev);
  free(f->fm_at);
  if (f->wq)
    for (unsigned s = 0; s < f->S; s++) free(f->wq[s]);
  free(f->wq);
  free(f->wq_n);
  free(f->wq_head);
  free(f->wq_cap);
  free(f->fwd);
  free(f->fwd_ok);
  free(f->tx_down);
  free(f->rx_down);
  free(f->up);
  free(f->rx_up);
  free(f->reach);
  free(f);
}

int faults_cycle(net_faults *f, uint64_t cycle, asw_switch *const *sw, uint32_t *touched,
                 uint32_t *ntouched) {
  size_t first = f->next;
  while (f->next < f->nev && f->ev[f->next].cycle == cycle) {
    const fault_ev *e = &f->ev[f->next++];
    size_t k = (size_t)e->sw * f->P + e->port;
    uint16_t *cnt = e->rx ? &f->rx_down[k] : &f->tx_down[k];
    uint64_t *pins = e->rx ? &f->rx_up[e->sw] : &f->up[e->sw];
    if (e->down) {
      if (e->first) { /* the link's first end: one event per fault */
        f->downs++;
        if (f->first_down == UINT64_MAX) f->first_down = cycle;
      }
      ++*cnt;
    } else {
      --*cnt;
    }
    if (*cnt) *pins &= ~(1ull << e->port);
    else *pins |= 1ull << e->port;
  }
  for (size_t i = first; i < f->next; i++) { /* each switch once, in event order */
    unsigned s = f->ev[i].sw;
    int seen = 0;
    for (size_t j = first; j < i; j++) seen |= f->ev[j].sw == s;
    if (seen) continue;
    asw_switch_set_link_up(sw[s], f->up[s], f->rx_up[s]); /* masks < P: cannot fail */
    touched[(*ntouched)++] = s;
  }
  int fm = 0;
  while (f->fm_next < f->nfm && f->fm_at[f->fm_next] == cycle) {
    f->fm_next++;
    fm = 1;
  }
  return fm;
}

/* The link (s, p) carries flits now (both directions fail together). */
static int link_ok(const net_faults *f, unsigned s, unsigned p) {
  return topo_port_peer(f->t, s, p).kind == PEER_SWITCH && (f->up[s] >> p & 1u);
}

/* Up-then-down reachability of destination d over the links up now (contract §18.6):
 * reach[s] = 1 if switch s reaches d's leaf going down only, 2 if it reaches a switch
 * that does going up first, 0 if neither. Levels bottom-up for the down set, then
 * top-down for the rest (a parent is settled before its children). */
static void updn_reach(const net_faults *f, unsigned d, uint32_t *reach) {
  const topo *t = f->t;
  const unsigned h = topo_levels(t), leaf = topo_node_switch(t, d);
  memset(reach, 0, f->S * sizeof *reach);
  reach[leaf] = 1;
  for (unsigned l = 2; l <= h; l++)
    for (unsigned s = topo_level_first(t, l), e = s + topo_level_count(t, l); s < e; s++)
      for (unsigned p = 0, m = topo_down_ports(t, l); p < m && !reach[s]; p++)
        if (link_ok(f, s, p) && reach[topo_port_peer(t, s, p).id] == 1) reach[s] = 1;
  for (unsigned l = h; l >= 1; l--)
    for (unsigned s = topo_level_first(t, l), e = s + topo_level_count(t, l); s < e; s++) {
      const unsigned m = topo_down_ports(t, l), w = topo_up_ports(t, l);
      for (unsigned p = m; p < m + w && !reach[s]; p++)
        if (link_ok(f, s, p) && reach[topo_port_peer(t, s, p).id]) reach[s] = 2;
    }
}

uint64_t faults_fm(net_faults *f, asw_switch *const *sw, uint64_t cycle) {
  const topo *t = f->t;
  uint64_t written = 0;
  uint32_t *reach = f->reach;
  f->fm_runs++;
  if (f->fm_slot < cycle) f->fm_slot = cycle;
  for (unsigned d = 0; d < f->N; d++) {
    uint64_t before = written;
    unsigned leaf = topo_node_switch(t, d);
    updn_reach(f, d, reach);
    for (unsigned s = 0; s < f->S; s++) {
      if (s == leaf || !reach[s]) continue; /* unreachable: left as is */
      /* the ports that keep the route up-then-down: down into the down set, or up to a
       * switch that reaches d */
      const unsigned l = topo_level(t, s), m = topo_down_ports(t, l);
      const unsigned lo = reach[s] == 1 ? 0 : m, hi = reach[s] == 1 ? m : m + topo_up_ports(t, l);
      uint64_t okm = 0;
      for (unsigned p = lo; p < hi; p++) {
        if (!link_ok(f, s, p)) continue;
        uint32_t r = reach[topo_port_peer(t, s, p).id];
        if (reach[s] == 1 ? r == 1 : r != 0) okm |= 1ull << p;
      }
      uint32_t orig = tables_fwd_entry(t, s, d), cur;
      unsigned want = orig & 0x3Fu;
      if (!(okm >> want & 1)) { /* d mod k spreads the k ports that are */
        unsigned ok[64], k = 0;
        for (unsigned p = lo; p < hi; p++)
          if (okm >> p & 1) ok[k++] = p;
        want = ok[d % k]; /* k >= 1: reach[s] != 0 */
      }
      size_t k = (size_t)s * f->N + d;
      if (f->fwd_ok[k]) cur = f->fwd[k]; /* as the writes queued before leave it */
      else if (asw_reg_read(sw[s], ASW_REG_FWD(d), &cur) != ASW_OK) continue;
      /* multipath only while every port of its candidate set leads to a switch that
       * reaches d (a down link among them is left out by the switch itself, §18.3) */
      uint32_t mp = orig & 1u << 30;
      if (mp) {
        uint32_t lo32 = 0, hi32 = 0;
        unsigned c = cur >> 16 & 3u;
        if (asw_reg_read(sw[s], ASW_REG_CSET(c, 0), &lo32) != ASW_OK ||
            asw_reg_read(sw[s], ASW_REG_CSET(c, 1), &hi32) != ASW_OK)
          continue;
        for (uint64_t cs = (uint64_t)hi32 << 32 | lo32; cs && mp; cs &= cs - 1) {
          unsigned p = (unsigned)__builtin_ctzll(cs);
          topo_peer pe = topo_port_peer(t, s, p);
          if (pe.kind != PEER_SWITCH || !reach[pe.id]) mp = 0;
        }
      }
      uint32_t e = (cur & ~(0x3Fu | 1u << 30)) | want | mp;
      if (e == cur) continue;
      if (f->wq_n[s] + 2 > f->wq_cap[s]) {
        size_t cap = f->wq_cap[s] ? 2 * f->wq_cap[s] : 64;
        uint64_t *q = realloc(f->wq[s], cap * sizeof *q);
        if (!q) return UINT64_MAX;
        f->wq[s] = q;
        f->wq_cap[s] = cap;
      }
      f->wq[s][f->wq_n[s]++] = f->fm_slot;
      f->wq[s][f->wq_n[s]++] = (uint64_t)ASW_REG_FWD(d) << 32 | e;
      f->fwd[k] = e;
      f->fwd_ok[k] = 1;
      f->wq_left++;
      written++;
    }
    if (written != before) f->fm_slot++; /* destination d's writes: one cycle, all switches */
  }
  f->fm_entries += written;
  return written;
}

int faults_fm_take(net_faults *f, unsigned s, uint64_t cycle, uint32_t *addr,
                   uint32_t *data) {
  if (!f || f->wq_head[s] == f->wq_n[s] || f->wq[s][f->wq_head[s]] != cycle) return 0;
  uint64_t w = f->wq[s][f->wq_head[s] + 1];
  f->wq_head[s] += 2;
  if (f->wq_head[s] == f->wq_n[s]) f->wq_head[s] = f->wq_n[s] = 0;
  *addr = (uint32_t)(w >> 32);
  *data = (uint32_t)w;
  return 1;
}

void faults_fm_busy(net_faults *f, uint32_t *list, uint32_t *n) {
  if (!f->wq_left) return;
  uint64_t left = 0;
  for (unsigned s = 0; s < f->S; s++) {
    size_t k = (f->wq_n[s] - f->wq_head[s]) / 2;
    if (!k) continue;
    left += k;
    list[(*n)++] = s;
  }
  f->wq_left = left;
}

void faults_rx_down(const net_faults *f, uint32_t *list, uint32_t *n) {
  const uint64_t all = f->P == 64 ? ~0ull : (1ull << f->P) - 1;
  for (unsigned s = 0; s < f->S; s++)
    if (f->rx_up[s] != all) list[(*n)++] = s;
}

void faults_pins(const net_faults *f, unsigned s, uint64_t *up, uint64_t *rx_up) {
  *up = f->up[s];
  *rx_up = f->rx_up[s];
}

void faults_stats(const net_faults *f, uint64_t *downs, uint64_t *fm_runs,
                  uint64_t *fm_entries, uint64_t *first_down) {
  *downs = f ? f->downs : 0;
  *fm_runs = f ? f->fm_runs : 0;
  *fm_entries = f ? f->fm_entries : 0;
  *first_down = f ? f->first_down : UINT64_MAX;
}
