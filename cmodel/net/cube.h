/* cube.h — geometry of k-ary n-cubes (meshes and tori) and the destination-
 * based VC selection functions of seed 003 (DBBM, BBQ, IODET, XORDET), the
 * pieces the direct-network simulator builds on (contract §16; issue 11).
 *
 * Node numbering (seed 003): node id = c0 + k0*(c1 + k1*(c2 + ...)), c_d the
 * coordinate in dimension d (0 <= c_d < k_d). Ports of a node's switch: 2d is
 * the + direction of dimension d, 2d+1 the - direction, 2n the local port.
 * Pure functions, no state.
 */
#ifndef ASW_NET_CUBE_H
#define ASW_NET_CUBE_H

#include <stddef.h>

enum { CUBE_MAX_DIMS = 3 };

typedef struct cube {
  unsigned n;                 /* dimensions, 1..CUBE_MAX_DIMS */
  unsigned k[CUBE_MAX_DIMS];  /* radix per dimension, >= 2 */
  int torus;                  /* 1: wrap-around links (torus), 0: mesh */
  unsigned nodes;             /* product of the radices */
} cube;

/* Fills c from "8x8" / "8x8x8" style dimensions. 0, or -1 with a message
 * naming the problem (empty, more than 3 dimensions, a radix < 2 or > 256). */
int cube_parse(cube *c, const char *dims, int torus, char *err, size_t errlen);

void cube_coords(const cube *c, unsigned id, unsigned *coord);
unsigned cube_id(const cube *c, const unsigned *coord);
/* Node reached from `id` through port p (p < 2n), or -1 if the mesh has no
 * link there. */
int cube_neighbor(const cube *c, unsigned id, unsigned p);
/* Minimal hop count between two nodes. */
unsigned cube_distance(const cube *c, unsigned a, unsigned b);

/* Dimension-order routing (DOR: the lowest dimension whose coordinate
 * differs first, XY / XYZ), minimal: in a torus the shorter way round, the
 * + direction on a tie. The output port at node `cur` for destination `dst`
 * (2n, the local port, when cur == dst). */
unsigned cube_dor_port(const cube *c, unsigned cur, unsigned dst);

/* Seed 003's VC selection for a packet to dst leaving in dimension dim, with
 * q VCs (a power of two for DBBM, BBQ and XORDET; any q >= 1 for IODET):
 * DBBM  dst mod q (the log2 q low bits);
 * BBQ   the log2 q high bits of the id (dst * q / nodes: horizontal bands);
 * IODET coord_dim(dst) mod q (changes at each dimension change);
 * XORDET bit j = XOR of id bits j, j+l, j+2l, ... (l = log2 q) over the
 *        ceil(log2 nodes) bits of the id (contract §13). */
enum { CUBE_VC_DBBM, CUBE_VC_BBQ, CUBE_VC_IODET, CUBE_VC_XORDET, CUBE_VC_N };
unsigned cube_vc(const cube *c, unsigned scheme, unsigned dst, unsigned dim, unsigned q);

#endif
