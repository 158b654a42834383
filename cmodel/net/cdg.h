/* cdg.h — cycle search in a channel-dependency graph, shared by the
 * watchdog's diagnosis of a deadlock (network.c, issue 14) and the check of a
 * routing before a run (topofile.c, contract §16.5).
 *
 * A channel is an input VC (switch sw, input port in, VC vc), numbered
 * (sw * P + in) * V + vc. The graph is in compressed rows: the edges of
 * channel c are first[c] .. first[c+1]-1; edge e leads to channel to[e]
 * through output eo[e] and next-hop VC ew[e] of c's switch.
 * Pure function, no state.
 */
#ifndef NET_CDG_H
#define NET_CDG_H

#include <stddef.h>
#include <stdint.h>

/* One channel of a cycle: input `in`, VC `vc` of switch `sw`, whose traffic
 * waits for output `out`, VC `out_vc` (the far end of that link is the next
 * hop's switch, input and VC). */
typedef struct {
  uint32_t sw;
  uint8_t in, vc, out, out_vc;
} cdg_hop;

/* Depth-first search from the channels in index order; the first cycle found
 * is returned in *cycle (malloc'ed, the caller frees it), rotated to start at
 * its lowest channel (deterministic). Returns the cycle's length, 0 if the
 * graph is acyclic (*cycle untouched), -1 if out of memory. */
int cdg_find_cycle(size_t C, unsigned P, unsigned V, const size_t *first, const uint32_t *to,
                   const uint8_t *eo, const uint8_t *ew, cdg_hop **cycle);

/* The same for a graph listed by a callback: edges(ctx, c, add, g) calls
 * add(g, to, out, out_vc) for each edge of channel c (it is called twice per
 * channel, in channel order, and must list the same edges both times). */
typedef void (*cdg_add_fn)(void *g, size_t to, unsigned out, unsigned out_vc);
typedef void (*cdg_edges_fn)(void *ctx, size_t c, cdg_add_fn add, void *g);
int cdg_cycle_of(size_t C, unsigned P, unsigned V, cdg_edges_fn edges, void *ctx, cdg_hop **cycle);

#endif
