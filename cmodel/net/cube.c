/* cube.c — see cube.h. */
#include "cube.h"

#include <stdio.h>
#include <stdlib.h>

int cube_parse(cube *c, const char *dims, int torus, char *err, size_t errlen) {
  const char *s = dims;
  c->n = 0;
  c->torus = torus != 0;
  c->nodes = 1;
  if (!s || !*s) {
    snprintf(err, errlen, "dims: empty (write e.g. dims=8x8 or dims=8x8x8)");
    return -1;
  }
  for (;;) {
    char *end = NULL;
    if (*s < '0' || *s > '9') {
      snprintf(err, errlen, "dims=%s: not a list of radices like 8x8", dims);
      return -1;
    }
    unsigned long k = strtoul(s, &end, 10);
    if (c->n == CUBE_MAX_DIMS) {
      snprintf(err, errlen, "dims=%s: more than %d dimensions", dims, CUBE_MAX_DIMS);
      return -1;
    }
    if (k < 2 || k > 256) {
      snprintf(err, errlen, "dims=%s: radix %lu out of range 2..256", dims, k);
      return -1;
    }
    c->k[c->n++] = (unsigned)k;
    c->nodes *= (unsigned)k;
    if (*end == 0) break;
    if (*end != 'x' || end[1] == 0) {
      snprintf(err, errlen, "dims=%s: not a list of radices like 8x8", dims);
      return -1;
    }
    s = end + 1;
  }
  return 0;
}

void cube_coords(const cube *c, unsigned id, unsigned *coord) {
  for (unsigned d = 0; d < c->n; d++) {
    coord[d] = id % c->k[d];
    id /= c->k[d];
  }
}

unsigned cube_id(const cube *c, const unsigned *coord) {
  unsigned id = 0;
  for (unsigned d = c->n; d-- > 0;) id = id * c->k[d] + coord[d];
  return id;
}

int cube_neighbor(const cube *c, unsigned id, unsigned p) {
  unsigned x[CUBE_MAX_DIMS], d = p / 2, k = c->k[d];
  cube_coords(c, id, x);
  if (p % 2 == 0) {
    if (x[d] + 1 == k && !c->torus) return -1;
    x[d] = (x[d] + 1) % k;
  } else {
    if (x[d] == 0 && !c->torus) return -1;
    x[d] = (x[d] + k - 1) % k;
  }
  return (int)cube_id(c, x);
}

/* Signed minimal offset from a to b in dimension d (+ on a torus tie). */
static int offset(const cube *c, unsigned d, unsigned a, unsigned b) {
  int k = (int)c->k[d], o = (int)b - (int)a;
  if (!c->torus) return o;
  if (o < 0) o += k;                 /* 0 .. k-1 going + */
  return 2 * o <= k ? o : o - k;     /* shorter way, + on a tie */
}

unsigned cube_distance(const cube *c, unsigned a, unsigned b) {
  unsigned xa[CUBE_MAX_DIMS], xb[CUBE_MAX_DIMS], h = 0;
  cube_coords(c, a, xa);
  cube_coords(c, b, xb);
  for (unsigned d = 0; d < c->n; d++) h += (unsigned)abs(offset(c, d, xa[d], xb[d]));
  return h;
}

unsigned cube_dor_port(const cube *c, unsigned cur, unsigned dst) {
  unsigned xa[CUBE_MAX_DIMS], xb[CUBE_MAX_DIMS];
  cube_coords(c, cur, xa);
  cube_coords(c, dst, xb);
  for (unsigned d = 0; d < c->n; d++) {
    int o = offset(c, d, xa[d], xb[d]);
    if (o) return 2 * d + (o < 0);
  }
  return 2 * c->n;
}

static unsigned log2u(unsigned q) {
  unsigned l = 0;
  while ((1u << l) < q) l++;
  return l;
}

unsigned cube_vc(const cube *c, unsigned scheme, unsigned dst, unsigned dim, unsigned q) {
  switch (scheme) {
  case CUBE_VC_DBBM: return dst % q;
  case CUBE_VC_BBQ: return (unsigned)((unsigned long long)dst * q / c->nodes);
  case CUBE_VC_IODET: {
    unsigned x[CUBE_MAX_DIMS];
    cube_coords(c, dst, x);
    return x[dim] % q;
  }
  default: { /* XORDET */
    unsigned l = log2u(q), bits = log2u(c->nodes), vc = 0;
    if (!l) return 0;
    for (unsigned b = 0; b < bits; b++) vc ^= (dst >> b & 1u) << (b % l);
    return vc;
  }
  }
}
