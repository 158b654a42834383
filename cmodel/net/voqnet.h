/* voqnet.h — VOQnet, the network simulator's reference fabric (contract §16.6;
 * issue 11): not the switch, a software model of what the switch would do
 * with one VC per destination node.
 *
 * Seed 003 compares its VC-selection schemes with VOQnet (virtual output
 * queues at network level): every port has one queue per destination node,
 * each with its own credits, so a packet waits only behind packets to the
 * same node and HoL blocking is gone from the network. That needs N VCs per
 * port (256 in the seed's 16x16 torus); the switch holds at most 8 (contract
 * §1), so VOQnet exists only here, in the network simulator, as the upper
 * bound the seed uses it for.
 *
 * The fabric is the switch of contract §4–§9 with V = N and VOQ = 0, the VC
 * of every hop being the packet's destination (it never changes): the same
 * six-stage pipeline (a head flit arriving in cycle t may be matched in
 * t + 4 and leaves in t + 6; SA checks the credits of the previous cycle's
 * start, §8), iSLIP with ITERS iterations and the same pointer rules, the VC
 * choice of §8 over the destinations (pointer vp[i][o] over 0..N-1), cut-through, whole-packet credits reserved at the match,
 * one credit per flit returned when it leaves, and bubble flow control
 * (§16.1) on every ring and VC of a torus. Flits carry the end nodes' header
 * and payloads unchanged, on VC 0 of the end nodes' links (the sinks see one
 * VC; the destination is the header's).
 *
 * Tori and meshes only (cube.h), routes from cube_route_port (DOR or
 * direction order), N <= VQN_MAX_NODES. No global state; the caller owns the
 * clock: every call names the cycle it is made in.
 */
#ifndef NET_VOQNET_H
#define NET_VOQNET_H

#include <stddef.h>
#include <stdint.h>

#include "../asw_switch.h"
#include "cube.h"

enum { VQN_MAX_NODES = 1024 }; /* N queues per port: N * N per-destination queue heads */

typedef struct {
  const cube *cb;       /* the torus or mesh; switch s = node s, ports as cube.h */
  unsigned order;       /* CUBE_ORDER_DOR or CUBE_ORDER_DIRECTION (cube_tables.h) */
  unsigned bubble;      /* 1: §16.1 on every ring of a torus (meshes: must be 0) */
  unsigned buf_flits;   /* BUF: credits of every per-destination queue */
  unsigned max_packet;  /* LMAX: longest packet, <= BUF */
  unsigned iters;       /* ITERS: iSLIP iterations, 1..4 */
  unsigned link_latency, credit_latency; /* L, LC >= 1 (also the end nodes' links) */
} vqn_cfg;

typedef struct vqn vqn;

/* NULL with a message naming the problem (a parameter out of range, too many
 * nodes, out of memory). */
vqn *vqn_new(const vqn_cfg *cfg, char *err, size_t errlen);
void vqn_free(vqn *q);

/* Credits node `node` holds for the queue of destination `dest` at its
 * switch's local input (BUF at reset). */
unsigned vqn_node_credits(const vqn *q, unsigned node, unsigned dest);
/* The node starts a packet of len flits to dest: its credits fall by len
 * (the caller has checked them). */
void vqn_node_reserve(vqn *q, unsigned node, unsigned dest, unsigned len);
/* 1 if a credit reached node `node` since the last call (then cleared). */
int vqn_node_credited(vqn *q, unsigned node);
/* Node `node` puts flit f on its link in cycle `cycle`: it reaches the local
 * input of its switch in cycle + L. Flits of a packet are sent back to back
 * after its head (as the network simulator's sources do). */
void vqn_node_send(vqn *q, unsigned node, const asw_flit *f, uint64_t cycle);
/* Node `node`'s sink frees one flit of its buffer in cycle `cycle`: the
 * credit reaches the switch's local output in cycle + LC. */
void vqn_node_credit(vqn *q, unsigned node, uint64_t cycle);

/* A flit for end node `node` that arrives there in cycle `at` (> now). */
typedef void (*vqn_deliver_fn)(void *ctx, unsigned node, const asw_flit *f, uint64_t at);

/* One clock cycle of every switch: ST, SA, IW, credit updates (the order of
 * contract §5). Flits that leave towards end nodes are handed to deliver.
 * *hops grows by the flits on switch outputs this cycle (those ST sent the
 * cycle before, as the switches' outputs are counted); returns 1 if a flit
 * moved (left an output or arrived at an input), 0 if none did, -1 if the
 * packet pool could not grow (out of memory). */
int vqn_step(vqn *q, uint64_t cycle, vqn_deliver_fn deliver, void *ctx, uint64_t *hops);

/* Flits held in the fabric's input buffers (the watchdog's report). */
uint64_t vqn_buffered(const vqn *q);
/* The §12 counters flits_out and credit_stall of output p of switch s (32-bit,
 * wrapping, as the switch's registers). */
void vqn_port_counters(const vqn *q, unsigned s, unsigned p, uint32_t *flits_out,
                       uint32_t *credit_stall);

#endif
