/* topofile.c — see topofile.h and docs/topology-file.md. */
#include "topofile.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../asw_switch.h"
#include "../textfile.h"
#include "cube.h"
#include "cube_tables.h"

enum { TF_MAX_TOK = 8, TF_MAX_SWITCHES = 65536 };

/* The text of one file, cut into lines and blank-separated tokens (`#`
 * starts a comment). */
typedef struct {
  const char *path;
  char *text, *cur;
  unsigned line;
} tf_reader;

static int tf_open(tf_reader *r, const char *path, char *err, size_t errlen) {
  size_t len;
  r->path = path;
  r->line = 0;
  r->text = r->cur = asw_textfile_read(path, &len, err, errlen);
  if (!r->text) return -1;
  if (strlen(r->text) != len) {
    snprintf(err, errlen, "%s: holds a NUL byte (not a text file)", path);
    free(r->text);
    return -1;
  }
  return 0;
}

/* The next line's tokens (0 at the end of the file; empty lines skipped). */
static int tf_next(tf_reader *r, char **tok, int *ntok) {
  while (*r->cur) {
    char *l = r->cur, *e = strchr(l, '\n');
    if (e) { *e = 0; r->cur = e + 1; } else r->cur = l + strlen(l);
    r->line++;
    char *h = strchr(l, '#');
    if (h) *h = 0;
    int n = 0;
    for (char *p = l; *p;) {
      while (*p && isspace((unsigned char)*p)) *p++ = 0;
      if (!*p) break;
      if (n < TF_MAX_TOK) tok[n] = p;
      n++;
      while (*p && !isspace((unsigned char)*p)) p++;
    }
    if (n) { *ntok = n; return 1; }
  }
  return 0;
}

/* A decimal number 0..max. */
static int tf_num(const char *s, unsigned long max, unsigned *out) {
  if (!isdigit((unsigned char)*s)) return -1;
  unsigned long v = 0;
  for (; *s; s++) {
    if (!isdigit((unsigned char)*s)) return -1;
    v = v * 10 + (unsigned long)(*s - '0');
    if (v > max) return -1;
  }
  *out = (unsigned)v;
  return 0;
}

typedef struct {
  unsigned ports, line; /* line 0: not declared */
} tf_switch;

topo *topofile_read(const char *path, char *err, size_t errlen) {
  tf_reader r;
  if (tf_open(&r, path, err, errlen)) return NULL;
  tf_switch *sw = NULL;
  topo_peer *peer = NULL;
  unsigned *used = NULL; /* [S*P] line that took the port, 0 free */
  uint32_t *node_sw = NULL, *node_line = NULL, *dist = NULL, *queue = NULL;
  uint8_t *node_port = NULL;
  uint16_t *lat = NULL; /* [S*P*2] flit, credit latency of each link end, 0 not given */
  unsigned S = 0, P = 0, N = 0, nsw = 0, nlat = 0;
  topo *t = NULL;
  char *tok[TF_MAX_TOK];
  int ntok;
  /* pass 1: the switches (so nodes and links may name switches in any order) */
  while (tf_next(&r, tok, &ntok)) {
    if (strcmp(tok[0], "switch")) {
      if (strcmp(tok[0], "node") && strcmp(tok[0], "link")) {
        snprintf(err, errlen, "%s:%u: unknown line `%s` (switch, node or link)", path, r.line, tok[0]);
        goto fail;
      }
      continue;
    }
    unsigned id, ports;
    if (ntok != 3) {
      snprintf(err, errlen, "%s:%u: a switch line is `switch ID PORTS` (%d fields)", path, r.line, ntok);
      goto fail;
    }
    if (tf_num(tok[1], TF_MAX_SWITCHES - 1, &id)) {
      snprintf(err, errlen, "%s:%u: switch id `%s` is not a number 0..%d", path, r.line, tok[1],
               TF_MAX_SWITCHES - 1);
      goto fail;
    }
    if (tf_num(tok[2], 64, &ports) || ports < 1) {
      snprintf(err, errlen, "%s:%u: switch %u: ports `%s` is not a number 1..64", path, r.line, id, tok[2]);
      goto fail;
    }
    if (id >= S) {
      tf_switch *x = realloc(sw, (id + 1) * sizeof *x);
      if (!x) goto oom;
      memset(x + S, 0, (id + 1 - S) * sizeof *x);
      sw = x;
      S = id + 1;
    }
    if (sw[id].line) {
      snprintf(err, errlen, "%s:%u: switch %u declared twice (first on line %u)", path, r.line, id,
               sw[id].line);
      goto fail;
    }
    sw[id] = (tf_switch){ports, r.line};
    nsw++;
    if (ports > P) P = ports;
  }
  if (!S) {
    snprintf(err, errlen, "%s: no switch (write `switch ID PORTS` lines)", path);
    goto fail;
  }
  for (unsigned s = 0; s < S; s++)
    if (!sw[s].line) {
      snprintf(err, errlen, "%s: switch ids must be 0..%u without gaps: switch %u is missing", path,
               S - 1, s);
      goto fail;
    }
  peer = calloc((size_t)S * P, sizeof *peer);
  used = calloc((size_t)S * P, sizeof *used);
  lat = calloc((size_t)S * P * 2, sizeof *lat);
  if (!peer || !used || !lat) goto oom;
  /* pass 2: nodes and links */
  free(r.text); /* pass 1 cut its lines */
  if (tf_open(&r, path, err, errlen)) { r.text = NULL; goto fail; }
  unsigned ncap = 0;
  while (tf_next(&r, tok, &ntok)) {
    int is_node = !strcmp(tok[0], "node"), is_link = !strcmp(tok[0], "link");
    if (!strcmp(tok[0], "switch")) continue;
    if (!is_node && !is_link) {
      snprintf(err, errlen, "%s:%u: unknown line `%s` (switch, node or link)", path, r.line, tok[0]);
      goto fail;
    }
    if ((is_node && ntok != 4) || (is_link && (ntok < 5 || ntok > 7))) {
      snprintf(err, errlen, is_node ? "%s:%u: a node line is `node ID SWITCH PORT` (%d fields)"
               : "%s:%u: a link line is `link SWITCH PORT SWITCH PORT [LATENCY [CREDIT_LATENCY]]` "
                 "(%d fields)",
               path, r.line, ntok);
      goto fail;
    }
    unsigned end[2][2], nend = is_node ? 1 : 2, id = 0;
    if (is_node && tf_num(tok[1], 65535, &id)) {
      snprintf(err, errlen, "%s:%u: node id `%s` is not a number 0..65535", path, r.line, tok[1]);
      goto fail;
    }
    for (unsigned k = 0; k < nend; k++) {
      const char *ts = tok[is_node ? 2 : 1 + 2 * k], *tp = tok[is_node ? 3 : 2 + 2 * k];
      if (tf_num(ts, 0xFFFFFFFFul, &end[k][0]) || end[k][0] >= S) {
        snprintf(err, errlen, "%s:%u: unknown switch `%s` (switches 0..%u)", path, r.line, ts, S - 1);
        goto fail;
      }
      unsigned s = end[k][0];
      if (tf_num(tp, 0xFFFFFFFFul, &end[k][1]) || end[k][1] >= sw[s].ports) {
        snprintf(err, errlen, "%s:%u: switch %u: port `%s` out of range (it has %u ports, 0..%u)",
                 path, r.line, s, tp, sw[s].ports, sw[s].ports - 1);
        goto fail;
      }
      unsigned p = end[k][1];
      if (used[(size_t)s * P + p] || (k == 1 && s == end[0][0] && p == end[0][1])) {
        snprintf(err, errlen, "%s:%u: switch %u port %u used twice (also on line %u)", path, r.line,
                 s, p, used[(size_t)s * P + p] ? used[(size_t)s * P + p] : r.line);
        goto fail;
      }
    }
    unsigned l[2] = {0, 0}; /* flits, credits */
    for (int k = 0; is_link && k + 5 < ntok; k++)
      if (tf_num(tok[5 + k], 1000, &l[k]) || l[k] < 1) {
        snprintf(err, errlen, "%s:%u: %s `%s` is not a number 1..1000 (cycles, as link_latency)",
                 path, r.line, k ? "credit latency" : "latency", tok[5 + k]);
        goto fail;
      }
    if (l[0] && !l[1]) l[1] = l[0];
    if (l[0]) {
      nlat++;
      for (unsigned k = 0; k < 2; k++) {
        size_t i = ((size_t)end[k][0] * P + end[k][1]) * 2;
        lat[i] = (uint16_t)l[0];
        lat[i + 1] = (uint16_t)l[1];
      }
    }
    for (unsigned k = 0; k < nend; k++) used[(size_t)end[k][0] * P + end[k][1]] = r.line;
    if (is_link) {
      for (unsigned k = 0; k < 2; k++)
        peer[(size_t)end[k][0] * P + end[k][1]] =
            (topo_peer){PEER_SWITCH, (uint8_t)end[1 - k][1], end[1 - k][0]};
      continue;
    }
    if (id >= N) {
      if (id >= ncap) {
        unsigned cap = id + 1 > 2 * ncap ? id + 1 : 2 * ncap;
        uint32_t *a = realloc(node_sw, cap * sizeof *a), *b;
        if (!a) goto oom;
        node_sw = a;
        b = realloc(node_line, cap * sizeof *b);
        if (!b) goto oom;
        node_line = b;
        uint8_t *c = realloc(node_port, cap);
        if (!c) goto oom;
        node_port = c;
        ncap = cap;
      }
      memset(node_line + N, 0, (id + 1 - N) * sizeof *node_line);
      N = id + 1;
    }
    if (node_line[id]) {
      snprintf(err, errlen, "%s:%u: node %u declared twice (first on line %u)", path, r.line, id,
               node_line[id]);
      goto fail;
    }
    node_line[id] = r.line;
    node_sw[id] = end[0][0];
    node_port[id] = (uint8_t)end[0][1];
    peer[(size_t)end[0][0] * P + end[0][1]] = (topo_peer){PEER_NODE, 0, id};
  }
  if (!N) {
    snprintf(err, errlen, "%s: no end node (write `node ID SWITCH PORT` lines)", path);
    goto fail;
  }
  for (unsigned d = 0; d < N; d++)
    if (!node_line[d]) {
      snprintf(err, errlen, "%s: node ids must be 0..%u without gaps: node %u is missing", path,
               N - 1, d);
      goto fail;
    }
  if (N < 2) { /* a packet's destination is another node */
    snprintf(err, errlen, "%s: one end node; a network needs at least 2 (node 1 is missing)", path);
    goto fail;
  }
  t = topo_new_graph(S, P, N, peer, node_sw, node_port, err, errlen);
  if (!t) goto fail;
  dist = malloc(S * sizeof *dist);
  queue = malloc(S * sizeof *queue);
  if (!dist || !queue) goto oom;
  if (topo_bfs(t, 0, NULL, dist, queue) != S)
    for (unsigned s = 0; s < S; s++)
      if (dist[s] == UINT32_MAX) {
        snprintf(err, errlen, "%s:%u: switch %u is not connected to switch 0 (the network must be "
                 "connected)", path, sw[s].line, s);
        goto fail;
      }
  if (nlat && topo_set_latencies(t, lat)) goto oom;
  goto done;
oom:
  snprintf(err, errlen, "%s: out of memory", path);
fail:
  topo_free(t);
  t = NULL;
done:
  free(r.text); free(sw); free(peer); free(used); free(node_sw); free(node_line); free(node_port);
  free(lat);
  free(dist); free(queue);
  return t;
}

void topofile_write(const topo *t, unsigned latency, unsigned credit_latency, FILE *f) {
  unsigned S = topo_switches(t), P = topo_ports(t), N = topo_nodes(t);
  fprintf(f, "# asw topology file (docs/topology-file.md): %u switches, %u end nodes\n", S, N);
  for (unsigned s = 0; s < S; s++) fprintf(f, "switch %u %u\n", s, P);
  for (unsigned d = 0; d < N; d++)
    fprintf(f, "node %u %u %u\n", d, topo_node_switch(t, d), topo_node_port(t, d));
  for (unsigned s = 0; s < S; s++)
    for (unsigned p = 0; p < P; p++) {
      topo_peer pe = topo_port_peer(t, s, p);
      if (pe.kind != PEER_SWITCH || pe.id < s || (pe.id == s && pe.port < p)) continue;
      fprintf(f, "link %u %u %u %u", s, p, pe.id, pe.port);
      unsigned l = latency, lc = credit_latency;
      if (topo_has_latencies(t)) {
        l = topo_port_latency(t, s, p, 0);
        lc = topo_port_latency(t, s, p, 1);
      }
      if (l) fprintf(f, " %u", l);
      if (l && lc && lc != l) fprintf(f, " %u", lc);
      fputc('\n', f);
    }
}

void fwd_tables_free(fwd_tables *ft) {
  free(ft->port);
  free(ft->vc);
  ft->port = ft->vc = NULL;
}

/* The least-used of the k candidate ports (ties: the lowest), counted in load. */
static unsigned pick(const unsigned *cand, unsigned k, uint32_t *load) {
  unsigned best = cand[0];
  for (unsigned i = 1; i < k; i++)
    if (load[cand[i]] < load[best]) best = cand[i];
  load[best]++;
  return best;
}

/* minhop (OpenSM's min-hop): for each destination in id order, BFS from its
 * switch; every other switch takes, of its ports on a shortest path, the one
 * with the fewest destinations routed through it so far (ties: lowest). */
static int route_minhop(const topo *t, fwd_tables *ft, uint32_t *dist, uint32_t *queue,
                        uint32_t *load) {
  unsigned S = ft->S, N = ft->N, P = topo_ports(t), cand[64];
  for (unsigned d = 0; d < N; d++) {
    unsigned leaf = topo_node_switch(t, d);
    topo_bfs(t, leaf, NULL, dist, queue);
    for (unsigned s = 0; s < S; s++) {
      if (s == leaf) { ft->port[(size_t)s * N + d] = (uint8_t)topo_node_port(t, d); continue; }
      unsigned k = 0;
      for (unsigned p = 0; p < P; p++) {
        topo_peer pe = topo_port_peer(t, s, p);
        if (pe.kind == PEER_SWITCH && dist[pe.id] + 1 == dist[s]) cand[k++] = p;
      }
      ft->port[(size_t)s * N + d] = (uint8_t)pick(cand, k, load + (size_t)s * P);
    }
  }
  return 0;
}

/* updn (up*\/down*): ranks are BFS distances from the root, the center of the
 * network (the switch of least eccentricity, the lowest id on a tie). A link
 * x -> y goes up if (rank y, y) < (rank x, x), else down. A legal route is up
 * links then down links. For destination d on switch L: a switch that reaches
 * L by down links only takes the shortest such route (so a packet that went
 * down keeps going down); any other switch goes up to the neighbour with the
 * shortest remaining legal route. Balanced as minhop. */
static int route_updn(const topo *t, fwd_tables *ft, uint32_t *dist, uint32_t *queue,
                      uint32_t *load) {
  unsigned S = ft->S, N = ft->N, P = topo_ports(t), cand[64];
  uint32_t *rank = malloc(S * sizeof *rank), *order = malloc(S * sizeof *order),
           *down = malloc(S * sizeof *down), *cost = malloc(S * sizeof *cost);
  int rc = -1;
  if (!rank || !order || !down || !cost) goto out;
  unsigned root = 0, best = UINT32_MAX;
  for (unsigned s = 0; s < S; s++) {
    topo_bfs(t, s, NULL, dist, queue);
    unsigned ecc = 0;
    for (unsigned x = 0; x < S; x++) if (dist[x] > ecc) ecc = dist[x];
    if (ecc < best) { best = ecc; root = s; }
  }
  ft->root = root;
  topo_bfs(t, root, NULL, rank, queue); /* queue: the switches by (rank, id)? by rank only */
  unsigned no = 0; /* order: increasing (rank, id) */
  for (unsigned r = 0; r <= best; r++)
    for (unsigned s = 0; s < S; s++) if (rank[s] == r) order[no++] = s;
#define UP(x, y) (rank[y] < rank[x] || (rank[y] == rank[x] && (y) < (x)))
  for (unsigned d = 0; d < N; d++) {
    unsigned leaf = topo_node_switch(t, d);
    /* down[x]: hops from x to leaf by down links only, by BFS backwards */
    for (unsigned s = 0; s < S; s++) down[s] = UINT32_MAX;
    unsigned qh = 0, qt = 0;
    down[leaf] = 0;
    queue[qt++] = leaf;
    while (qh < qt) {
      unsigned y = queue[qh++];
      for (unsigned p = 0; p < P; p++) {
        topo_peer pe = topo_port_peer(t, y, p);
        unsigned x = pe.id;
        if (pe.kind != PEER_SWITCH || !UP(y, x) || down[x] != UINT32_MAX) continue; /* x -> y down */
        down[x] = down[y] + 1;
        queue[qt++] = x;
      }
    }
    /* cost[x]: length of the route x takes (up neighbours come first in order) */
    for (unsigned i = 0; i < S; i++) {
      unsigned x = order[i];
      cost[x] = down[x];
      if (down[x] != UINT32_MAX) continue;
      for (unsigned p = 0; p < P; p++) {
        topo_peer pe = topo_port_peer(t, x, p);
        if (pe.kind == PEER_SWITCH && UP(x, pe.id) && cost[pe.id] != UINT32_MAX && cost[pe.id] + 1 < cost[x]) cost[x] = cost[pe.id] + 1;
      }
    }
    for (unsigned s = 0; s < S; s++) {
      if (s == leaf) { ft->port[(size_t)s * N + d] = (uint8_t)topo_node_port(t, d); continue; }
      unsigned k = 0, godown = down[s] != UINT32_MAX;
      for (unsigned p = 0; p < P; p++) {
        topo_peer pe = topo_port_peer(t, s, p);
        if (pe.kind != PEER_SWITCH) continue;
#ifdef ASW_PLANT_UPDN /* planted bug (make test-net-topofile): shortest, not up*\/down* */
        if (godown ? down[pe.id] + 1 == down[s] : cost[pe.id] + 1 == cost[s]) cand[k++] = p;
#else
        if (godown ? !UP(s, pe.id) && down[pe.id] + 1 == down[s]
                   : UP(s, pe.id) && cost[pe.id] + 1 == cost[s])
          cand[k++] = p;
#endif
      }
      ft->port[(size_t)s * N + d] = (uint8_t)pick(cand, k, load + (size_t)s * P);
    }
  }
#undef UP
  rc = 0;
out:
  free(rank); free(order); free(down); free(cost);
  return rc;
}

/* A user's table: `fwd SWITCH DEST PORT [VC]` for every switch and node. */
static int table_read(const char *path, const topo *t, unsigned vcs, fwd_tables *ft, char *err,
                      size_t errlen) {
  tf_reader r;
  if (tf_open(&r, path, err, errlen)) return -1;
  unsigned S = ft->S, N = ft->N, P = topo_ports(t);
  uint32_t *line = calloc((size_t)S * N, sizeof *line);
  int rc = -1, vcmode = -1;
  char *tok[TF_MAX_TOK];
  int ntok;
  if (!line) { snprintf(err, errlen, "%s: out of memory", path); goto out; }
  while (tf_next(&r, tok, &ntok)) {
    unsigned s, d, p, v = 0;
    if (strcmp(tok[0], "fwd")) {
      snprintf(err, errlen, "%s:%u: unknown line `%s` (fwd SWITCH DEST PORT [VC])", path, r.line, tok[0]);
      goto out;
    }
    if (ntok != 4 && ntok != 5) {
      snprintf(err, errlen, "%s:%u: a table line is `fwd SWITCH DEST PORT [VC]` (%d fields)", path,
               r.line, ntok);
      goto out;
    }
    if (vcmode >= 0 && vcmode != (ntok == 5)) {
      snprintf(err, errlen, "%s:%u: %s; every line must give a VC or none", path, r.line,
               ntok == 5 ? "gives a VC" : "gives no VC");
      goto out;
    }
    vcmode = ntok == 5;
    if (tf_num(tok[1], 0xFFFFFFFFul, &s) || s >= S) {
      snprintf(err, errlen, "%s:%u: unknown switch `%s` (switches 0..%u)", path, r.line, tok[1], S - 1);
      goto out;
    }
    if (tf_num(tok[2], 0xFFFFFFFFul, &d) || d >= N) {
      snprintf(err, errlen, "%s:%u: unknown node `%s` (nodes 0..%u)", path, r.line, tok[2], N - 1);
      goto out;
    }
    if (tf_num(tok[3], 0xFFFFFFFFul, &p) || p >= P || topo_port_peer(t, s, p).kind == PEER_NONE) {
      snprintf(err, errlen, "%s:%u: switch %u: port `%s` is not a connected port", path, r.line, s, tok[3]);
      goto out;
    }
    topo_peer pe = topo_port_peer(t, s, p);
    if (pe.kind == PEER_NODE && pe.id != d) {
      snprintf(err, errlen, "%s:%u: switch %u port %u leads to node %u, not to node %u", path, r.line,
               s, p, pe.id, d);
      goto out;
    }
    if (ntok == 5 && (tf_num(tok[4], 0xFFFFFFFFul, &v) || v >= vcs)) {
      snprintf(err, errlen, "%s:%u: VC `%s` out of range (vcs = %u: 0..%u)", path, r.line, tok[4], vcs,
               vcs - 1);
      goto out;
    }
    size_t i = (size_t)s * N + d;
    if (line[i]) {
      snprintf(err, errlen, "%s:%u: switch %u node %u given twice (also on line %u)", path, r.line, s, d,
               line[i]);
      goto out;
    }
    line[i] = r.line;
    if (ntok == 5 && !ft->vc) {
      ft->vc = calloc((size_t)S * N, 1);
      if (!ft->vc) { snprintf(err, errlen, "%s: out of memory", path); goto out; }
      ft->has_vc = 1;
    }
    ft->port[i] = (uint8_t)p;
    if (ft->vc) ft->vc[i] = (uint8_t)v;
  }
  for (size_t i = 0; i < (size_t)S * N; i++)
    if (!line[i]) {
      snprintf(err, errlen, "%s: no entry for switch %u node %u (every switch needs one for every node)",
               path, (unsigned)(i / N), (unsigned)(i % N));
      goto out;
    }
  rc = 0;
out:
  free(line);
  free(r.text);
  return rc;
}

/* Every route reaches its node: following the entries from any switch ends
 * at the node's port within S hops. */
static int check_routes(const topo *t, const fwd_tables *ft, const char *what, char *err, size_t errlen) {
  unsigned S = ft->S, N = ft->N;
  uint8_t *ok = malloc(S ? S : 1);
  uint32_t *path = malloc((S + 1) * sizeof *path); /* a loop is seen at S + 1 switches */
  int rc = -1;
  if (!ok || !path) { snprintf(err, errlen, "out of memory"); goto out; }
  for (unsigned d = 0; d < N; d++) {
    memset(ok, 0, S);
    for (unsigned s0 = 0; s0 < S; s0++) {
      unsigned s = s0, len = 0;
      while (!ok[s]) {
        unsigned p = ft->port[(size_t)s * N + d];
        topo_peer pe = topo_port_peer(t, s, p);
        path[len++] = s;
        if (pe.kind == PEER_NODE) break; /* table_read: the right node */
        if (pe.kind != PEER_SWITCH) {
          snprintf(err, errlen, "%s: switch %u sends node %u's packets to unconnected port %u", what, s, d, p);
          goto out;
        }
        if (len > S) {
          size_t k = 0;
          char buf[160];
          for (unsigned j = len - S; j < len && k + 16 < sizeof buf; j++)
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%u", j > len - S ? " -> " : "", path[j]);
          snprintf(err, errlen, "%s: the route to node %u loops (switches %s%s)", what, d, buf,
                   k + 16 >= sizeof buf ? " ..." : "");
          goto out;
        }
        s = pe.id;
      }
      for (unsigned j = 0; j < len; j++) ok[path[j]] = 1;
    }
  }
  rc = 0;
out:
  free(ok);
  free(path);
  return rc;
}

int fwd_tables_for(const net_cfg *c, const topo *t, fwd_tables *ft, char *err, size_t errlen) {
  unsigned S = topo_switches(t), N = topo_nodes(t), P = topo_ports(t);
  memset(ft, 0, sizeof *ft);
  ft->S = S;
  ft->N = N;
  ft->port = malloc((size_t)S * N);
  uint32_t *dist = malloc(S * sizeof *dist), *queue = malloc(S * sizeof *queue),
           *load = calloc((size_t)S * P, sizeof *load);
  int rc = -1;
  if (!ft->port || !dist || !queue || !load) { snprintf(err, errlen, "out of memory for the tables"); goto out; }
  const char *what = "routing";
  if (topo_get_kind(t) == TOPO_FILE) {
    if (c->file_routing == 3) {
      what = c->table_path;
      if (table_read(c->table_path, t, c->vcs, ft, err, errlen)) goto out;
    } else if ((c->file_routing == 2 ? route_updn : route_minhop)(t, ft, dist, queue, load)) {
      snprintf(err, errlen, "out of memory for the tables");
      goto out;
    }
  } else if (topo_cube(t)) { /* §16.4 */
    const cube *cb = topo_cube(t);
    cube_route_cfg crc = {.order = c->cube_order == 2 ? CUBE_ORDER_DIRECTION : CUBE_ORDER_DOR,
                          .sqs = c->sqs, .vcs = c->vcs};
    ft->vc = malloc((size_t)S * N);
    if (!ft->vc) { snprintf(err, errlen, "out of memory for the tables"); goto out; }
    ft->has_vc = 1;
    for (unsigned s = 0; s < S; s++)
      for (unsigned d = 0; d < N; d++) {
        ft->port[(size_t)s * N + d] = (uint8_t)cube_route_port(cb, crc.order, s, d);
        ft->vc[(size_t)s * N + d] = (uint8_t)cube_route_vc(cb, &crc, s, d);
      }
  } else {
    if (c->routing != ASW_ROUTE_DET || c->route_hash || c->arn || c->sqs == SQS_OBQA) {
      snprintf(err, errlen, "routing: only deterministic D-mod-K routing (routing=dmodk, arn=off, "
               "sqs not obqa) is a forwarding table");
      goto out;
    }
    for (unsigned s = 0; s < S; s++)
      for (unsigned d = 0; d < N; d++) ft->port[(size_t)s * N + d] = (uint8_t)topo_dmodk_port(t, s, d);
  }
  rc = check_routes(t, ft, what, err, errlen);
out:
  free(dist); free(queue); free(load);
  if (rc) fwd_tables_free(ft);
  return rc;
}

void fwd_tables_write(const topo *t, const fwd_tables *ft, FILE *f) {
  (void)t;
  fprintf(f, "# asw forwarding table (docs/topology-file.md): fwd SWITCH NODE PORT%s\n",
          ft->has_vc ? " VC" : "");
  for (unsigned s = 0; s < ft->S; s++)
    for (unsigned d = 0; d < ft->N; d++) {
      size_t i = (size_t)s * ft->N + d;
      fprintf(f, "fwd %u %u %u", s, d, ft->port[i]);
      if (ft->has_vc) fprintf(f, " %u", ft->vc[i]);
      fputc('\n', f);
    }
}

/* The VCs a packet to d may use without table VCs: the SLs of §13 over all
 * sources (dbbm, xordet: one; flow2sl: any of the q; 1q: VC 0). */
static uint32_t sl_mask(unsigned sqs, unsigned q, unsigned N, unsigned d) {
  if (sqs == SQS_FLOW2SL) return (1u << q) - 1u;
  unsigned bits = 1;
  while ((1u << bits) < N) bits++;
  return 1u << sqs_sl((sqs_kind)sqs, q, N, 1, bits, 0, d);
}

/* cdg_edges_fn over the edge bits of fwd_tables_cdg. */
typedef struct {
  const topo *t;
  const uint64_t *bm;
  unsigned P, V;
} cdg_bits;

static void bit_edges(void *ctx, size_t c, cdg_add_fn add, void *g) {
  const cdg_bits *cb = ctx;
  const unsigned P = cb->P, V = cb->V;
  const size_t si = c / V, vin = c % V, PV = (size_t)P * V * V;
  for (unsigned o = 0; o < P; o++)
    for (unsigned w = 0; w < V; w++) {
      size_t b = si * PV + ((size_t)o * V + vin) * V + w;
      if (!(cb->bm[b / 64] >> (b % 64) & 1u)) continue;
      topo_peer nx = topo_port_peer(cb->t, (unsigned)(si / P), o);
      add(g, ((size_t)nx.id * P + nx.port) * V + w, o, w);
    }
}

int fwd_tables_cdg(const topo *t, const fwd_tables *ft, unsigned vcs, unsigned q, unsigned sqs,
                   cdg_hop **cycle) {
  const unsigned S = ft->S, N = ft->N, P = topo_ports(t), V = vcs;
  const size_t C = (size_t)S * P * V, PV = (size_t)P * V * V; /* PV: (o, vin, vout) per (s, i) */
  /* edge bits: (s, i, o, vin, vout) -- each dependency once, however many nodes share it */
  uint64_t *bm = calloc(((size_t)S * P * PV + 63) / 64, 8);
  int rc = -1;
  if (!bm) goto out;
  /* edge (s, i, vin) -> (s', i', vout) when s forwards node d's packets from its input i
   * (the upstream switch sends d to s through i) on to s' */
  for (unsigned d = 0; d < N; d++) {
    uint32_t mask = ft->has_vc ? 0 : sl_mask(sqs, q, N, d);
    for (unsigned s = 0; s < S; s++) {
      unsigned o = ft->port[(size_t)s * N + d];
      if (topo_port_peer(t, s, o).kind != PEER_SWITCH) continue;
      for (unsigned i = 0; i < P; i++) {
        topo_peer up = topo_port_peer(t, s, i);
        if (up.kind != PEER_SWITCH || ft->port[(size_t)up.id * N + d] != up.port) continue;
        size_t base = ((size_t)s * P + i) * PV + (size_t)o * V * V;
        if (ft->has_vc) {
          size_t b = base + (size_t)ft->vc[(size_t)up.id * N + d] * V + ft->vc[(size_t)s * N + d];
          bm[b / 64] |= 1ull << (b % 64);
        } else {
          for (unsigned v = 0; v < V; v++)
            if (mask >> v & 1u) {
              size_t b = base + (size_t)v * V + v;
              bm[b / 64] |= 1ull << (b % 64);
            }
        }
      }
    }
  }
  cdg_bits cb = {t, bm, P, V};
  rc = cdg_cycle_of(C, P, V, bit_edges, &cb, cycle);
out:
  free(bm);
  return rc;
}

void cdg_describe(const cdg_hop *h, unsigned len, char *buf, size_t buflen) {
  size_t k = (size_t)snprintf(buf, buflen, "channel-dependency cycle of %u channels (each input "
                              "VC's traffic may wait for the next):", len);
  for (unsigned j = 0; j <= len && k < buflen; j++) {
    const cdg_hop *x = &h[j % len];
    k += (size_t)snprintf(buf + k, buflen - k, j ? " -> switch %u in%u.vc%u" : " switch %u in%u.vc%u",
                          x->sw, x->in, x->vc);
    if (j < len && k < buflen)
      k += (size_t)snprintf(buf + k, buflen - k, " -> out%u.vc%u", x->out, x->out_vc);
  }
}

int fwd_tables_program_switch(const fwd_tables *ft, unsigned s, unsigned lfsr_seed,
                              reg_write_fn write, void *ctx) {
  int rv;
  for (unsigned d = 0; d < ft->N; d++) {
    size_t i = (size_t)s * ft->N + d;
    if ((rv = write(ctx, ASW_REG_FWD(d), asw_fwd_entry(ft->port[i], ft->has_vc ? ft->vc[i] : 0, 0, 0))))
      return rv;
  }
  if ((rv = write(ctx, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_DET, 0, 0, 1)))) return rv;
  if ((rv = write(ctx, ASW_REG_VC_CTRL, ft->has_vc ? 1u : 0u))) return rv; /* OBQA: ovc = lookahead mod V */
  return write(ctx, ASW_REG_LFSR_SEED, lfsr_seed & 0xFFFFu);
}

topo *topofile_topo_for(const net_cfg *c, char *err, size_t errlen) {
  if (c->topology == TOPO_FILE) return topofile_read(c->topo_path, err, errlen);
  if (c->topology == TOPO_TORUS || c->topology == TOPO_MESH) {
    cube cb;
    if (cube_parse(&cb, c->dims, c->topology == TOPO_TORUS, err, errlen)) return NULL;
    return topo_new_cube(&cb, err, errlen);
  }
  return c->topology == TOPO_RLFT ? topo_new_rlft(c->ports, c->stages, err, errlen)
                                  : topo_new_kary(c->k, c->n, err, errlen);
}
