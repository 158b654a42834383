/* net_mech.c — the registry of optional mechanisms (net_mech, net_internal.h).
 * A new mechanism is a mech_*.c file with its hooks and one row here. The
 * order of the rows is the order of their hooks (switch programming, set-up,
 * the end of a cycle); their outputs are ordered by their json_rank and
 * text_rank. */
#include "net_internal.h"

extern const net_mech net_mech_voqnet, net_mech_pfc, net_mech_route, net_mech_qcn,
    net_mech_trace, net_mech_faults;

static const net_mech *const mechs[] = {
    &net_mech_voqnet, /* §16.6 the reference fabric (mech_voqnet.c) */
    &net_mech_pfc,    /* §17.3 PFC (mech_pfc.c) */
    &net_mech_route,  /* §17.6 route hash, §17.7 port gaps (mech_route.c) */
    &net_mech_qcn,    /* §17.4, §17.5 QCN, §17.9 the CNM lane (mech_qcn.c) */
    &net_mech_trace,  /* traffic=trace (mech_trace.c) */
    &net_mech_faults, /* §18.6 link faults (mech_faults.c) */
};
enum { NMECH = sizeof mechs / sizeof *mechs };

#define EACH_ON(m, n) \
  for (const net_mech *const *m##_p = mechs, *m; m##_p < mechs + NMECH && (m = *m##_p, 1); m##_p++) \
    if (m->on(&(n)->cfg))

void net_mech_configure(net *n, asw_config *sc) {
  EACH_ON(m, n) if (m->configure) m->configure(n, sc);
}
int net_mech_build(net *n, char *err, size_t errlen) {
  EACH_ON(m, n) if (m->build && m->build(n, err, errlen)) return -1;
  return 0;
}
int net_mech_program(net *n, unsigned s) {
  EACH_ON(m, n) if (m->program) {
    int rv = m->program(n, s);
    if (rv) return rv;
  }
  return 0;
}
int net_mech_build_late(net *n, char *err, size_t errlen) {
  EACH_ON(m, n) if (m->build_late && m->build_late(n, err, errlen)) return -1;
  return 0;
}
/* Every hook runs; -1 if any failed (the first message stays in n->err). */
int net_mech_cycle_end(net *n, int measuring) {
  int rv = 0;
  EACH_ON(m, n) if (m->cycle_end && m->cycle_end(n, measuring) && !rv) rv = -1;
  return rv;
}
void net_mech_results(const net *n, net_results *out) {
  EACH_ON(m, n) if (m->results) m->results(n, out);
}
void net_mech_write(const net *n, FILE *f, int json, int lo, int hi) {
  for (int rank = lo; rank < hi; rank++)
    EACH_ON(m, n) {
      if (json && m->json && m->json_rank == rank) m->json(n, f);
      if (!json && m->text && m->text_rank == rank) m->text(n, f);
    }
}
/* All of them: a build may stop half-way. */
void net_mech_free(net *n) {
  for (unsigned i = 0; i < NMECH; i++)
    if (mechs[i]->free) mechs[i]->free(n);
}
