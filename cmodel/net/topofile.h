/* topofile.h — any topology from a file and its forwarding tables (contract
 * §16.5, docs/topology-file.md, issue 11): the topology-file reader and
 * writer, the routings an InfiniBand subnet manager computes (minhop:
 * shortest paths balanced over equal-cost ports; updn: up*\/down* from a
 * root switch), the forwarding-table file, the check that every route
 * reaches its node, and the channel-dependency check before a run.
 *
 * Software only: the switch is programmed through FWD, ROUTE_CTRL (det),
 * VC_CTRL and LFSR_SEED as for the built-in topologies. No global state.
 */
#ifndef NET_TOPOFILE_H
#define NET_TOPOFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cdg.h"
#include "netcfg.h"
#include "tables.h"
#include "topo.h"

/* Reads a topology file. Returns the topology (TOPO_FILE) with the latencies its links
 * give (topo_set_latencies: a link's LATENCY for its flits, CREDIT_LATENCY, or LATENCY
 * if absent, for its credits, in both directions), or NULL with "PATH:LINE: ..." (or
 * "PATH: ..." for whole-file problems) in err. */
topo *topofile_read(const char *path, char *err, size_t errlen);
/* Writes t as a topology file: each link with its own latencies if t has them, else
 * with `latency` and, if different, `credit_latency` (none when latency is 0). */
void topofile_write(const topo *t, unsigned latency, unsigned credit_latency, FILE *f);

/* Deterministic forwarding tables: port[s * N + d] is the output of switch s
 * towards node d; with has_vc, vc[s * N + d] is the VC of that link (the
 * switch runs VC_CTRL.mode = OBQA with FWD.lookahead = vc, §7.4 rule 2, and
 * the source injects on its first hop's VC). */
typedef struct {
  unsigned S, N;
  uint8_t *port, *vc; /* vc NULL unless has_vc */
  int has_vc;
  unsigned root; /* updn: the root switch */
} fwd_tables;
void fwd_tables_free(fwd_tables *ft);

/* The tables configuration c asks for on t (which c describes): minhop,
 * updn or table:FILE for topology=file; D-mod-K (routing=dmodk) for the
 * fat-trees; DOR / direction order with their VCs for tori and meshes. Then
 * checks that every route reaches its node. 0, or -1 with a message. */
int fwd_tables_for(const net_cfg *c, const topo *t, fwd_tables *ft, char *err, size_t errlen);
/* Writes ft as a forwarding-table file. */
void fwd_tables_write(const topo *t, const fwd_tables *ft, FILE *f);

/* The channel-dependency graph of ft with q source queues and scheme sqs
 * (the VCs a packet to d may take when ft has no VCs). Returns the length of
 * a cycle (*cycle malloc'ed, cdg.h), 0 if there is none, -1 out of memory. */
int fwd_tables_cdg(const topo *t, const fwd_tables *ft, unsigned vcs, unsigned q,
                   unsigned sqs, cdg_hop **cycle);
/* "channel-dependency cycle of K channels: switch s inI.vcV -> outO.vcW ->
 * switch ..." (the watchdog's style) into buf. */
void cdg_describe(const cdg_hop *h, unsigned len, char *buf, size_t buflen);

/* Register writes for switch s: FWD[d] = {port, lookahead = vc or 0},
 * ROUTE_CTRL deterministic, VC_CTRL.mode = OBQA iff ft has VCs, LFSR_SEED. */
int fwd_tables_program_switch(const fwd_tables *ft, unsigned s, unsigned lfsr_seed,
                              reg_write_fn write, void *ctx);

/* The topology c describes (any kind; for topology=file with its links' latencies).
 * NULL with a message. */
topo *topofile_topo_for(const net_cfg *c, char *err, size_t errlen);

#endif
