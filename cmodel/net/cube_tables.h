/* cube_tables.h — routing and VC tables of tori and meshes (contract §16.4,
 * issue 11): the software side of the switch's §7.1 forwarding table, §7.4
 * next-hop VC and §16.1 BUBBLE registers for a k-ary n-cube of cube.h.
 *
 * Routing (deterministic, minimal): DOR (the lowest differing dimension
 * first, XY / XYZ) or direction order (X+ Y+ Z+ X- Y- Z-: first the +
 * directions in dimension order, then the - directions).
 * VC selection: the VC of the link leaving switch s towards destination d is
 * written in FWD[d].lookahead with VC_CTRL.mode = OBQA, so that the switch
 * takes ovc = lookahead mod V (§7.4 rule 2) — no new switch behaviour. The
 * source puts the packet on the VC its first hop takes.
 * Pure functions, no state.
 */
#ifndef NET_CUBE_TABLES_H
#define NET_CUBE_TABLES_H

#include "cube.h"
#include "tables.h"

enum { CUBE_ORDER_DOR = 0, CUBE_ORDER_DIRECTION = 1 };
/* §16.3: none (the deterministic §16.4 tables; OODET is sqs), fully adaptive
 * minimal with escape VC 0 (DOR with bubble), XORADAP (adaptive within the
 * destination's XOR group of the V-1 adaptive VCs, same escape). */
enum { CUBE_ADAPT_NONE = 0, CUBE_ADAPT_FULLY = 1, CUBE_ADAPT_XOR = 2 };


typedef struct {
  unsigned order;     /* CUBE_ORDER_* */
  unsigned sqs;       /* sqs_kind: SQS_1Q DBBM BBQ IODET XORDET VOQSW OODET */
  unsigned adapt;     /* CUBE_ADAPT_*: §16.3 VC-adaptive routing (ROUTE_CTRL mode 3) */
  unsigned groups;    /* xoradap: VC groups of the V-1 adaptive VCs (power of two) */
  unsigned vcs;       /* V, 1..8 */
  unsigned bubble;    /* 1: §16.1 BUBBLE registers programmed (tori only) */
  unsigned lfsr_seed; /* LFSR_SEED register */
} cube_route_cfg;

/* 1 if switch s runs §16.3 mode 3 (adaptive routing, or sqs = oodet). */
int cube_vc_adaptive(const cube_route_cfg *rc);

/* §16.3 FWD[d] of switch cur for dst under mode 3: det_port = the order's port,
 * amask = the minimal directions (adaptive; both ways on a torus tie; 0 for
 * OODET and at dst), lookahead = the candidate VCs {vlo, vn - 1}. */
uint32_t cube_vca_entry(const cube *c, const cube_route_cfg *rc, unsigned cur, unsigned dst);

/* Output port at switch cur for destination dst (2n, the local port, when
 * cur == dst). Minimal: in a torus the shorter way round, + on a tie. */
unsigned cube_route_port(const cube *c, unsigned order, unsigned cur, unsigned dst);

/* VC of the link leaving switch cur towards dst (the ejection link when
 * cur == dst):
 *   1q     0
 *   dbbm, bbq, xordet   cube_vc(scheme, dst) (functions of dst only)
 *   iodet  coord_dim(dst) mod V, dim = the dimension of the output port
 *          (0 on the ejection link)
 *   voqsw  the output port the packet takes at the next switch, mod V
 *          (0 on the ejection link). */
unsigned cube_route_vc(const cube *c, const cube_route_cfg *rc, unsigned cur, unsigned dst);

/* Emits the register writes configuring switch s: FWD[d] for every node
 * d = {det_port = cube_route_port, lookahead = cube_route_vc}, ROUTE_CTRL
 * (deterministic), VC_CTRL.mode = OBQA, BUBBLE[o] (tori with bubble: for
 * each dimension d, BUBBLE[2d] = {ring_in 2d+1, all VCs} and BUBBLE[2d+1] =
 * {ring_in 2d, all VCs}; the local port and meshes keep 0), LFSR_SEED.
 * Returns 0, or the first non-zero value returned by write. */
int cube_tables_program_switch(const cube *c, const cube_route_cfg *rc, unsigned s,
                               reg_write_fn write, void *ctx);

#endif
