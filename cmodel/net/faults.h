/* faults.h — link faults in the network simulator (contract §18.6): the
 * schedule of link_fault / link_fault_rate, the link-state pins it drives on
 * both ends of each link (link_up on a transmitter as the link is,
 * link_rx_up on the receiver link_latency + 1 cycles later, so no flit is
 * ever in flight on a link that is down), and the fabric manager that
 * rewrites the deterministic routes fm_delay cycles after a link changes.
 *
 * One process only (netcfg_check refuses ranks > 1 and flow_control=pfc).
 */
#ifndef NET_FAULTS_H
#define NET_FAULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../asw_switch.h"
#include "netcfg.h"
#include "topo.h"

typedef struct net_faults net_faults;

/* The schedule for c on t: the listed faults (each must name a port linked
 * to another switch) and, with link_fault_rate > 0, random faults drawn from
 * c->seed on every switch-to-switch link during the first `total` cycles.
 * Returns NULL with a message naming the key in err. */
net_faults *faults_new(const net_cfg *c, const topo *t, uint64_t total, char *err,
                       size_t errlen);
void faults_free(net_faults *f);

/* Cycle `cycle` starts: sets the pins that change in it
 * (asw_switch_set_link_up) and appends those switches to touched (they must
 * be stepped this cycle). Returns 1 if the fabric manager runs in this cycle
 * (before the switches step). */
int faults_cycle(net_faults *f, uint64_t cycle, asw_switch *const *sw, uint32_t *touched,
                 uint32_t *ntouched);

/* The fabric manager (§18.6): up*-down* routes over the links up now (no
 * route goes up after going down): for every switch and destination d, the
 * D-mod-K port if it keeps the route up*-down* to d's leaf, else the
 * (d mod k)-th of the k ports that do; multipath cleared where a port of the
 * candidate set leads to a switch that cannot reach d; the FWD entries that change (against the switch's table with the writes still
 * queued applied) are queued for the switches' register buses: destination
 * by destination (in order, from this cycle on, after the writes still
 * queued), every switch writes a destination's entry in the same cycle, so a
 * destination's routes change at once network-wide (no transient loop; one
 * write per cycle and switch). Returns how many, UINT64_MAX if out of memory. */
uint64_t faults_fm(net_faults *f, asw_switch *const *sw, uint64_t cycle);

/* The register write switch s makes in cycle `cycle` (1: *addr, *data set;
 * 0: none). Only the stepping of switch s calls it (thread-safe across
 * switches). */
int faults_fm_take(net_faults *f, unsigned s, uint64_t cycle, uint32_t *addr,
                   uint32_t *data);

/* Appends the switches with fabric-manager writes queued to list (they must be
 * stepped this cycle); called once a cycle before the switches step. */
void faults_fm_busy(net_faults *f, uint32_t *list, uint32_t *n);

/* Appends the switches with an input link down to list: they are stepped every cycle
 * (a cut packet there is padded one flit per cycle, §18.3, even when the switch has
 * nothing else to do; stepping an idle switch changes nothing). */
void faults_rx_down(const net_faults *f, uint32_t *list, uint32_t *n);

/* The pins of switch s now. */
void faults_pins(const net_faults *f, unsigned s, uint64_t *up, uint64_t *rx_up);

/* Counts for the JSON: link-down events so far, fabric-manager runs and
 * entries rewritten, and the cycle of the first down event (UINT64_MAX: none). */
void faults_stats(const net_faults *f, uint64_t *downs, uint64_t *fm_runs,
                  uint64_t *fm_entries, uint64_t *first_down);

#endif
