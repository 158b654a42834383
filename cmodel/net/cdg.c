/* cdg.c — see cdg.h. */
#include "cdg.h"

#include <stdlib.h>

int cdg_find_cycle(size_t C, unsigned P, unsigned V, const size_t *first, const uint32_t *to,
                   const uint8_t *eo, const uint8_t *ew, cdg_hop **cycle) {
  uint8_t *color = calloc(C ? C : 1, 1);
  size_t *stk = malloc((C ? C : 1) * sizeof *stk), *it = malloc((C ? C : 1) * sizeof *it);
  int found = 0;
  if (!color || !stk || !it) { found = -1; goto out; }
  /* iterative DFS: color 0 new, 1 on the stack, 2 done */
  for (size_t root = 0; root < C && !found; root++) {
    if (color[root] || first[root] == first[root + 1]) continue;
    size_t sp = 0;
    stk[sp] = root; it[sp] = first[root]; color[root] = 1; sp++;
    while (sp && !found) {
      size_t c = stk[sp - 1];
      if (it[sp - 1] == first[c + 1]) { color[c] = 2; sp--; continue; }
      size_t e = it[sp - 1]++;
      size_t d = to[e];
      if (color[d] == 0) {
        stk[sp] = d; it[sp] = first[d]; color[d] = 1; sp++;
      } else if (color[d] == 1) { /* back edge: the stack from d up is a cycle */
        size_t k = sp - 1;
        while (stk[k] != d) k--;
        unsigned len = (unsigned)(sp - k);
        cdg_hop *h = malloc(len * sizeof *h);
        if (!h) { found = -1; break; }
        size_t lo = 0;
        for (unsigned j = 0; j < len; j++)
          if (stk[k + j] < stk[k + lo]) lo = j;
        for (unsigned j = 0; j < len; j++) {
          size_t pos = k + (lo + j) % len, ch = stk[pos];
          size_t edge = it[pos] - 1; /* the edge the search took from ch */
          h[j].sw = (uint32_t)(ch / ((size_t)P * V));
          h[j].in = (uint8_t)(ch / V % P);
          h[j].vc = (uint8_t)(ch % V);
          h[j].out = eo[edge];
          h[j].out_vc = ew[edge];
        }
        *cycle = h;
        found = (int)len;
      }
    }
  }
out:
  free(color); free(stk); free(it);
  return found;
}

typedef struct {
  size_t e;
  uint32_t *to;
  uint8_t *eo, *ew; /* NULL: counting */
} cdg_build;

static void cdg_add(void *g, size_t to, unsigned out, unsigned out_vc) {
  cdg_build *b = g;
  if (b->to) {
    b->to[b->e] = (uint32_t)to;
    b->eo[b->e] = (uint8_t)out;
    b->ew[b->e] = (uint8_t)out_vc;
  }
  b->e++;
}

int cdg_cycle_of(size_t C, unsigned P, unsigned V, cdg_edges_fn edges, void *ctx, cdg_hop **cycle) {
  size_t *first = calloc(C + 1, sizeof *first);
  cdg_build b = {0, NULL, NULL, NULL};
  int rc = -1;
  if (!first) goto out;
  for (int pass = 0; pass < 2; pass++) { /* count the edges, then fill them in */
    b.e = 0;
    for (size_t c = 0; c < C; c++) {
      if (pass == 0) first[c] = b.e;
      edges(ctx, c, cdg_add, &b);
    }
    if (pass == 0) {
      first[C] = b.e;
      b.to = malloc((b.e ? b.e : 1) * sizeof *b.to);
      b.eo = malloc(b.e ? b.e : 1);
      b.ew = malloc(b.e ? b.e : 1);
      if (!b.to || !b.eo || !b.ew) goto out;
    }
  }
  rc = cdg_find_cycle(C, P, V, first, b.to, b.eo, b.ew, cycle);
out:
  free(first); free(b.to); free(b.eo); free(b.ew);
  return rc;
}
