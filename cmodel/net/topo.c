/* topo.c — XGFT construction (see topo.h for the numbering). */
#include "topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube.h"

struct topo {
  topo_kind kind;
  unsigned h, ports, nodes, switches;
  unsigned m[TOPO_MAX_LEVELS + 2]; /* m[1..h] */
  unsigned w[TOPO_MAX_LEVELS + 2]; /* w[1..h], w[h+1] = 0 */
  unsigned wprod[TOPO_MAX_LEVELS + 2]; /* wprod[l] = w_1..w_l */
  unsigned mprod[TOPO_MAX_LEVELS + 2]; /* mprod[l] = m_1..m_l, mprod[0] = 1 */
  unsigned first[TOPO_MAX_LEVELS + 2];
  unsigned count[TOPO_MAX_LEVELS + 2];
  uint8_t *level;   /* [switches] */
  topo_peer *peer;  /* [switches * ports] */
  unsigned node_port0; /* §16 tori / meshes: the local port 2n (0 for fat-trees) */
  cube *cube;          /* §16 tori / meshes: the geometry, NULL for fat-trees */
  uint32_t *node_sw;   /* §16.5 any graph: switch and port of each node, else NULL */
  uint8_t *node_port;
  uint16_t *lat;       /* §16.5: per-port flit, credit latency [switches * ports * 2], or NULL */
};

static topo *build(topo_kind kind, unsigned h, const unsigned *m,
                   const unsigned *w, unsigned ports, char *err,
                   size_t errlen) {
  topo *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  t->kind = kind;
  t->h = h;
  t->ports = ports;
  t->mprod[0] = 1;
  t->wprod[0] = 1;
  uint64_t nodes = 1;
  for (unsigned l = 1; l <= h; l++) {
    t->m[l] = m[l - 1];
    t->w[l] = w[l - 1];
    nodes *= t->m[l];
    t->mprod[l] = t->mprod[l - 1] * t->m[l];
    t->wprod[l] = t->wprod[l - 1] * t->w[l];
  }
  t->w[h + 1] = 0;
  if (nodes > 65536) {
    snprintf(err, errlen, "topology has %llu end nodes; at most 65536 "
             "(16-bit destination ids)", (unsigned long long)nodes);
    free(t);
    return NULL;
  }
  t->nodes = (unsigned)nodes;
  uint64_t sw = 0;
  for (unsigned l = 1; l <= h; l++) {
    t->first[l] = (unsigned)sw;
    t->count[l] = t->wprod[l] * (t->nodes / t->mprod[l]);
    sw += t->count[l];
  }
  t->switches = (unsigned)sw;
  t->level = malloc(t->switches);
  t->peer = calloc((size_t)t->switches * ports, sizeof *t->peer);
  if (!t->level || !t->peer) {
    snprintf(err, errlen, "out of memory for %u switches", t->switches);
    topo_free(t);
    return NULL;
  }
  for (unsigned l = 1; l <= h; l++) {
    for (unsigned i = 0; i < t->count[l]; i++) {
      unsigned s = t->first[l] + i;
      t->level[s] = (uint8_t)l;
      unsigned cpart = i % t->wprod[l], dpart = i / t->wprod[l];
      if (l == 1) {
        for (unsigned p = 0; p < t->m[1]; p++) {
          topo_peer *pp = &t->peer[(size_t)s * ports + p];
          pp->kind = PEER_NODE;
          pp->id = dpart * t->m[1] + p;
        }
      }
      if (l < h) {
        for (unsigned c = 0; c < t->w[l + 1]; c++) {
          unsigned up = t->m[l] + c;
          unsigned ncpart = cpart + t->wprod[l] * c;
          unsigned ndpart = dpart / t->m[l + 1];
          unsigned down = dpart % t->m[l + 1];
          unsigned ns = t->first[l + 1] + ncpart + t->wprod[l + 1] * ndpart;
          topo_peer *a = &t->peer[(size_t)s * ports + up];
          topo_peer *b = &t->peer[(size_t)ns * ports + down];
          a->kind = PEER_SWITCH;
          a->id = ns;
          a->port = (uint8_t)down;
          b->kind = PEER_SWITCH;
          b->id = s;
          b->port = (uint8_t)up;
        }
      }
    }
  }
  return t;
}

topo *topo_new_rlft(unsigned ports, unsigned stages, char *err,
                    size_t errlen) {
  if (ports < 4 || ports > 64 || ports % 2) {
    snprintf(err, errlen, "ports: %u is not an even number in 4..64", ports);
    return NULL;
  }
  if (stages < 1 || stages > TOPO_MAX_LEVELS) {
    snprintf(err, errlen, "stages: %u is not in 1..%d", stages,
             TOPO_MAX_LEVELS);
    return NULL;
  }
  unsigned k = ports / 2, m[TOPO_MAX_LEVELS], w[TOPO_MAX_LEVELS];
  for (unsigned l = 0; l < stages; l++) {
    m[l] = (l == stages - 1) ? 2 * k : k;
    w[l] = l == 0 ? 1 : k;
  }
  return build(TOPO_RLFT, stages, m, w, ports, err, errlen);
}

topo *topo_new_kary(unsigned k, unsigned n, char *err, size_t errlen) {
  if (k < 2 || k > 32) {
    snprintf(err, errlen, "k: %u is not in 2..32", k);
    return NULL;
  }
  if (n < 1 || n > TOPO_MAX_LEVELS) {
    snprintf(err, errlen, "n: %u is not in 1..%d", n, TOPO_MAX_LEVELS);
    return NULL;
  }
  unsigned m[TOPO_MAX_LEVELS], w[TOPO_MAX_LEVELS];
  for (unsigned l = 0; l < n; l++) {
    m[l] = k;
    w[l] = l == 0 ? 1 : k;
  }
  return build(TOPO_KARY, n, m, w, 2 * k, err, errlen);
}

/* §16 tori and meshes: one level, one node per switch (m_1 = 1, w = 1, 0), the
 * local port 2n, links from cube_neighbor (issue 11). */
topo *topo_new_cube(const cube *c, char *err, size_t errlen) {
  if (c->nodes > 65536) {
    snprintf(err, errlen, "dims: %u nodes; at most 65536 (16-bit destination ids)", c->nodes);
    return NULL;
  }
  unsigned m = 1, w = 1, ports = 2 * c->n + 1;
  topo *t = build(c->torus ? TOPO_TORUS : TOPO_MESH, 1, &m, &w, ports, err, errlen);
  if (!t) return NULL;
  /* build() made one leaf of one node: N switches of one level instead */
  t->nodes = t->switches = c->nodes;
  t->count[1] = c->nodes;
  t->node_port0 = 2 * c->n;
  free(t->level);
  free(t->peer);
  t->level = malloc(c->nodes);
  t->peer = calloc((size_t)c->nodes * ports, sizeof *t->peer);
  t->cube = malloc(sizeof *t->cube);
  if (!t->level || !t->peer || !t->cube) {
    snprintf(err, errlen, "out of memory for %u switches", c->nodes);
    topo_free(t);
    return NULL;
  }
  *t->cube = *c;
  for (unsigned s = 0; s < c->nodes; s++) {
    t->level[s] = 1;
    for (unsigned p = 0; p < 2 * c->n; p++) {
      int nb = cube_neighbor(c, s, p);
      if (nb < 0) continue; /* mesh border: PEER_NONE */
      topo_peer *pp = &t->peer[(size_t)s * ports + p];
      pp->kind = PEER_SWITCH;
      pp->id = (uint32_t)nb;
      pp->port = (uint8_t)(p ^ 1u); /* +d leaves into the neighbour's -d port */
    }
    topo_peer *lp = &t->peer[(size_t)s * ports + 2 * c->n];
    lp->kind = PEER_NODE;
    lp->id = s;
  }
  return t;
}

const cube *topo_cube(const topo *t) { return t->cube; }

topo *topo_new_graph(unsigned S, unsigned P, unsigned N, const topo_peer *peer,
                     const uint32_t *node_sw, const uint8_t *node_port, char *err,
                     size_t errlen) {
  if (N > 65536) {
    snprintf(err, errlen, "%u end nodes; at most 65536 (16-bit destination ids)", N);
    return NULL;
  }
  topo *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  t->kind = TOPO_FILE;
  t->h = 1;
  t->ports = P;
  t->nodes = N;
  t->switches = S;
  t->m[1] = 1; /* no leaf arity: one node per leaf as far as topo_node_port goes */
  t->mprod[0] = t->wprod[0] = t->mprod[1] = t->wprod[1] = 1;
  t->count[1] = S;
  t->level = malloc(S ? S : 1);
  t->peer = malloc((size_t)S * P * sizeof *t->peer);
  t->node_sw = malloc(N * sizeof *t->node_sw);
  t->node_port = malloc(N ? N : 1);
  if (!t->level || !t->peer || !t->node_sw || !t->node_port) {
    snprintf(err, errlen, "out of memory for %u switches", S);
    topo_free(t);
    return NULL;
  }
  memset(t->level, 1, S);
  memcpy(t->peer, peer, (size_t)S * P * sizeof *t->peer);
  memcpy(t->node_sw, node_sw, N * sizeof *t->node_sw);
  memcpy(t->node_port, node_port, N);
  return t;
}

void topo_free(topo *t) {
  if (!t) return;
  free(t->cube);
  free(t->node_sw);
  free(t->node_port);
  free(t->lat);
  free(t->level);
  free(t->peer);
  free(t);
}

int topo_set_latencies(topo *t, const uint16_t *lat) {
  size_t n = (size_t)t->switches * t->ports * 2;
  uint16_t *l = malloc(n * sizeof *l);
  if (!l) return -1;
  memcpy(l, lat, n * sizeof *l);
  free(t->lat);
  t->lat = l;
  return 0;
}
unsigned topo_port_latency(const topo *t, unsigned s, unsigned p, int credit) {
  return t->lat ? t->lat[((size_t)s * t->ports + p) * 2 + (credit != 0)] : 0;
}
int topo_has_latencies(const topo *t) { return t->lat != NULL; }

topo_kind topo_get_kind(const topo *t) { return t->kind; }
unsigned topo_nodes(const topo *t) { return t->nodes; }
unsigned topo_switches(const topo *t) { return t->switches; }
unsigned topo_ports(const topo *t) { return t->ports; }
unsigned topo_levels(const topo *t) { return t->h; }
unsigned topo_level(const topo *t, unsigned s) { return t->level[s]; }
unsigned topo_down_ports(const topo *t, unsigned l) { return t->m[l]; }
unsigned topo_up_ports(const topo *t, unsigned l) { return t->w[l + 1]; }
unsigned topo_level_first(const topo *t, unsigned l) { return t->first[l]; }
unsigned topo_level_count(const topo *t, unsigned l) { return t->count[l]; }

topo_peer topo_port_peer(const topo *t, unsigned s, unsigned port) {
  return t->peer[(size_t)s * t->ports + port];
}

unsigned topo_node_switch(const topo *t, unsigned d) {
  if (t->node_sw) return t->node_sw[d]; /* §16.5 */
  return t->first[1] + d / t->m[1];
}
unsigned topo_node_port(const topo *t, unsigned d) {
  if (t->node_sw) return t->node_port[d]; /* §16.5 */
  return d % t->m[1] + t->node_port0;
}

static unsigned dpart_of(const topo *t, unsigned s) {
  unsigned l = t->level[s];
  return (s - t->first[l]) / t->wprod[l];
}

int topo_below(const topo *t, unsigned s, unsigned d) {
  if (t->node_sw) return t->node_sw[d] == s; /* §16.5 */
  unsigned l = t->level[s];
  return d / t->mprod[l] == dpart_of(t, s);
}

unsigned topo_dmodk_port(const topo *t, unsigned s, unsigned d) {
  if (t->node_sw) return t->node_sw[d] == s ? t->node_port[d] : 0; /* §16.5: not defined */
  if (t->cube) return cube_dor_port(t->cube, s, d); /* §16: DOR */
  unsigned l = t->level[s];
  if (topo_below(t, s, d)) return (d / t->mprod[l - 1]) % t->m[l];
  return t->m[l] + (d / t->wprod[l]) % t->w[l + 1];
}

uint64_t topo_up_mask(const topo *t, unsigned s) {
  unsigned l = t->level[s];
  uint64_t mask = 0;
  for (unsigned c = 0; c < t->w[l + 1]; c++) mask |= 1ull << (t->m[l] + c);
  return mask;
}

unsigned topo_path_switches(const topo *t, unsigned src, unsigned dst) {
  if (t->node_sw) return 0; /* §16.5: depends on the routing (topofile.h) */
  if (t->cube) return cube_distance(t->cube, src, dst) + 1; /* §16: minimal */
  unsigned l = 1;
  while (src / t->mprod[l] != dst / t->mprod[l]) l++;
  return 2 * l - 1;
}

unsigned topo_bfs(const topo *t, unsigned root, const uint64_t *up, uint32_t *dist,
                  uint32_t *queue) {
  for (unsigned s = 0; s < t->switches; s++) dist[s] = UINT32_MAX;
  unsigned qh = 0, qt = 0;
  dist[root] = 0;
  queue[qt++] = root;
  while (qh < qt) {
    unsigned s = queue[qh++];
    const topo_peer *pp = &t->peer[(size_t)s * t->ports];
    for (unsigned p = 0; p < t->ports; p++) {
      if (pp[p].kind != PEER_SWITCH || (up && !(up[s] >> p & 1u))) continue;
      unsigned x = pp[p].id;
      if (dist[x] == UINT32_MAX) {
        dist[x] = dist[s] + 1;
        queue[qt++] = x;
      }
    }
  }
  return qt;
}
