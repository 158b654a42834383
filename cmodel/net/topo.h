/* topo.h — fat-tree topologies for the network simulator.
 *
 * Both RLFTs (seed 000: P-port switches, K = P/2, T stages, N = 2K^T) and
 * k-ary n-trees (seed 002) are extended generalized fat-trees
 * XGFT(h; m_1..m_h; w_1..w_h). End node d has digits d_1..d_h with
 * d = d_1 + m_1 (d_2 + m_2 (...)), so node d sits on leaf switch d / m_1,
 * port d mod m_1 (the seeds' numbering: K consecutive nodes per leaf).
 * A level-l switch has down ports 0..m_l-1 and up ports m_l..m_l+w_{l+1}-1.
 */
#ifndef NET_TOPO_H
#define NET_TOPO_H

#include <stddef.h>
#include <stdint.h>

enum { TOPO_MAX_LEVELS = 8 };

/* TOPO_TORUS / TOPO_MESH: k-ary n-cubes (contract §16, cmodel/net/cube.h), one
 * level of switches, switch s = node s, ports 2d (+d), 2d+1 (-d), 2n (local). */
/* TOPO_FILE: any graph (contract §16.5, cmodel/net/topofile.h), one level of
 * switches, end nodes on any switch ports. */
typedef enum { TOPO_RLFT = 0, TOPO_KARY = 1, TOPO_TORUS = 2, TOPO_MESH = 3, TOPO_FILE = 4 } topo_kind;

/* What is on the far side of one switch port. */
typedef enum { PEER_NONE = 0, PEER_SWITCH = 1, PEER_NODE = 2 } peer_kind;
typedef struct {
  uint8_t kind;  /* peer_kind */
  uint8_t port;  /* far port (switch peers) */
  uint32_t id;   /* far switch or node */
} topo_peer;

typedef struct topo topo;

/* RLFT with `ports` (even, 4..64) per switch and `stages` (1..8) stages. */
topo *topo_new_rlft(unsigned ports, unsigned stages, char *err, size_t errlen);
/* k-ary n-tree: k (2..32) and n (1..8); switches have 2k ports. */
topo *topo_new_kary(unsigned k, unsigned n, char *err, size_t errlen);
/* Torus or mesh of geometry c (c->torus says which): N = S = c->nodes
 * switches with 2n + 1 ports; a mesh's border ports have no peer. */
struct cube;
topo *topo_new_cube(const struct cube *c, char *err, size_t errlen);
/* The geometry of a torus / mesh topology, NULL for a fat-tree. */
const struct cube *topo_cube(const topo *t);
/* Any graph (§16.5): S switches of P ports, peer[s * P + p] the far side of
 * each port (both ends of a link given, a node's port PEER_NODE with its id),
 * end node d on port node_port[d] of switch node_sw[d], N nodes. The arrays
 * are copied. One level; topo_below(s, d) is node_sw[d] == s;
 * topo_dmodk_port is not defined (the tables come from topofile.h). */
topo *topo_new_graph(unsigned S, unsigned P, unsigned N, const topo_peer *peer,
                     const uint32_t *node_sw, const uint8_t *node_port, char *err,
                     size_t errlen);
void topo_free(topo *t);
/* §16.5: per-link latencies of a graph: lat[2 * (s * P + p)] the latency in cycles of the
 * flits, lat[2 * (s * P + p) + 1] of the credits (and ARNs) that port p of switch s sends
 * (0: not given, the run's link_latency or credit_latency). Copied. 0 or -1 (out of
 * memory). */
int topo_set_latencies(topo *t, const uint16_t *lat);
/* The latency of what port p of switch s sends, flits (credit 0) or credits (credit 1),
 * as topo_set_latencies gave it; 0 if not given. */
unsigned topo_port_latency(const topo *t, unsigned s, unsigned p, int credit);
/* 1 if some link has a latency of its own. */
int topo_has_latencies(const topo *t);

topo_kind topo_get_kind(const topo *t);
unsigned topo_nodes(const topo *t);
unsigned topo_switches(const topo *t);
unsigned topo_ports(const topo *t);  /* ports per switch */
unsigned topo_levels(const topo *t); /* stages h */
/* Level (stage, 1..h) of switch s. */
unsigned topo_level(const topo *t, unsigned s);
/* Number of down ports (m_l) and up ports (w_{l+1}, 0 at the top). */
unsigned topo_down_ports(const topo *t, unsigned level);
unsigned topo_up_ports(const topo *t, unsigned level);
/* First switch id of a level; switches of level l are contiguous. */
unsigned topo_level_first(const topo *t, unsigned level);
unsigned topo_level_count(const topo *t, unsigned level);
topo_peer topo_port_peer(const topo *t, unsigned s, unsigned port);
/* Leaf switch and port of end node d. */
unsigned topo_node_switch(const topo *t, unsigned d);
unsigned topo_node_port(const topo *t, unsigned d);
/* 1 if end node d is below switch s. */
int topo_below(const topo *t, unsigned s, unsigned d);
/* D-mod-K output port of switch s towards destination d (down port if d is
 * below s, else up port m_l + floor(d / (w_1..w_l)) mod w_{l+1}); the DOR
 * port for a torus / mesh. */
unsigned topo_dmodk_port(const topo *t, unsigned s, unsigned d);
/* Bit mask of the up ports of switch s (0 at the top level). */
uint64_t topo_up_mask(const topo *t, unsigned s);
/* Switch-to-switch hops (switches crossed) of the D-mod-K path src -> dst
 * (1 for nodes on one leaf; 2*(lowest common level)-1 in general); for a
 * torus / mesh the minimal hop count + 1; 0 for a file topology (§16.5). */
unsigned topo_path_switches(const topo *t, unsigned src, unsigned dst);
/* Breadth-first search over the switch-to-switch links from switch root:
 * dist[s] = links crossed (UINT32_MAX: not reached), queue[S] scratch. With
 * up != NULL only the ports whose bit is set in up[s] are used. Returns the
 * number of switches reached. */
unsigned topo_bfs(const topo *t, unsigned root, const uint64_t *up, uint32_t *dist,
                  uint32_t *queue);

#endif
